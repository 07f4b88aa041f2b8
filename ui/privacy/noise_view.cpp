#include "ui/privacy/noise_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QVBoxLayout>

#include "core/mechanisms/report_noise_law.h"
#include "ui/plot/view_export.h"
#include "ui/privacy/noise_chart.h"
#include "ui/training/calibration_view.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {
namespace {

const QString kExportDirKey = QStringLiteral("dialogs/noiseExportDirectory");

QString number(double value) { return QString::number(value, 'g', 3); }

// What one draw is, for people: "Output perturbation, ε = 1: one draw per class (one-vs-rest)".
QString drawContext(const TrainingResult& result, const mech::MechanismReport& report) {
  QString privacy = privacyDisplayName(result.settings.privacy) + QStringLiteral(", \u03b5 = ") + number(report.epsilon);
  if (report.delta > 0) privacy += QStringLiteral(", \u03b4 = ") + number(report.delta);
  if (report.calibration == mech::Calibration::Published) privacy += QObject::tr(" (as published)");
  if (result.prediction) return QObject::tr("%1: one draw per answer").arg(privacy);
  if (report.find(mech::Calibrated::Releases)) return QObject::tr("%1: one draw per class").arg(privacy);  // one-vs-rest
  return QObject::tr("%1: one draw per release").arg(privacy);
}

}  // namespace

NoiseView::NoiseView(TrainingDocument* training, QWidget* parent)
    : QWidget(parent),
      training_(training),
      chart_(new NoiseChart),
      lawLabel_(new QLabel),
      message_(new QLabel),
      simulationNote_(new QLabel),
      simulateButton_(new QPushButton(tr("Simulate 2\u00a0000 draws"))),
      exportButton_(new QPushButton(tr("Export\u2026"))),
      side_(new QWidget) {
  lawLabel_->setWordWrap(true);
  lawLabel_->setTextFormat(Qt::RichText);
  lawLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setWordWrap(true);
  message_->setAlignment(Qt::AlignCenter);
  message_->setMargin(12);
  simulationNote_->setWordWrap(true);
  simulationNote_->setText(tr("<i>Simulated from the calibration: no data, no privacy cost.</i>"));
  simulateButton_->setToolTip(tr("Draw %1 noise norms from the same law with a fresh experiment-mode seed. They use "
                                 "only the calibration, never the data, and are never released.")
                                  .arg(formatDerivedValue(kSimulatedDraws)));
  exportButton_->setToolTip(tr("Save the plot as PNG or SVG"));

  side_->setFixedWidth(270);
  auto* sideLayout = new QVBoxLayout(side_);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(lawLabel_);
  sideLayout->addStretch(1);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(simulateButton_);
  buttons->addWidget(exportButton_);
  buttons->addStretch(1);
  sideLayout->addLayout(buttons);
  sideLayout->addWidget(simulationNote_);

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 6, 4);
  layout->addWidget(message_, 1);
  layout->addWidget(chart_, 1);
  layout->addWidget(side_);

  connect(simulateButton_, &QPushButton::clicked, this, &NoiseView::simulate);
  connect(exportButton_, &QPushButton::clicked, this, &NoiseView::showExportDialog);
  connect(training_, &TrainingDocument::modelChanged, this, &NoiseView::modelChanged);
  connect(training_, &TrainingDocument::answersChanged, this, &NoiseView::collectAnswers);
  modelChanged();
}

void NoiseView::modelChanged() {
  const std::shared_ptr<const TrainingResult>& result = training_->result();
  if (result && result == seen_) return;  // the same model again: its norms are in already
  seen_ = result;
  answers_.reset();
  answersTaken_ = 0;
  if (!result)
    return reset(tr("No private model yet. Train one with a privacy mechanism to see the norms \u2016b\u2016 of its "
                    "noise against their law."));
  if (!result->isPrivate()) return reset(tr("The model shown is not private: no noise was added to it."));
  const mech::MechanismReport& report = result->prediction ? result->prediction->report() : result->release->report;
  auto law = mech::noiseNormLaw(report);
  if (!law)
    return reset(tr("%1 has no single noise draw to plot: %2.")
                     .arg(privacyDisplayName(result->settings.privacy), QString::fromStdString(law.error().message)));
  if (!law_ || !(*law_ == law.value())) {  // a new calibration: its own histogram
    released_.clear();
    simulated_.clear();
    seeds_.clear();
    law_ = law.value();
  }
  context_ = drawContext(*result, report);
  withheld_ = !result->prediction && report.noiseNorms.empty() &&
              result->settings.privacy.noise == privacy::NoiseKind::Release;
  if (result->prediction) {  // its noise is drawn per answer, after training
    answers_ = training_->answers();
    if (answers_) return collectAnswers();
  }
  released_.insert(released_.end(), report.noiseNorms.begin(), report.noiseNorms.end());
  refresh();
}

void NoiseView::collectAnswers() {
  if (!answers_ || !law_) return;
  const std::vector<double>& norms = answers_->noiseNorms();
  released_.insert(released_.end(), norms.begin() + static_cast<std::ptrdiff_t>(answersTaken_), norms.end());
  answersTaken_ = norms.size();
  refresh();
}

void NoiseView::simulate() {
  if (!law_) return;
  // A fresh seed each time, named in the note's tooltip and the export's description, so
  // that a simulation can be replayed; 32 bits keep it readable.
  const std::uint64_t seed = QRandomGenerator::system()->generate();
  privacy::ExperimentNoise noise(seed);
  simulated_.reserve(simulated_.size() + kSimulatedDraws);
  for (int i = 0; i < kSimulatedDraws; ++i) simulated_.push_back(law_->sample(noise));
  seeds_.push_back(seed);
  refresh();
}

void NoiseView::reset(const QString& message) {
  law_.reset();
  released_.clear();
  simulated_.clear();
  seeds_.clear();
  context_.clear();
  simulationNote_->setToolTip(QString());
  chart_->clear(QString());
  message_->setText(message);
  message_->show();
  chart_->hide();
  side_->hide();
  simulateButton_->setEnabled(false);
  exportButton_->setEnabled(false);
}

QString NoiseView::title() const {
  return QString::fromUtf8("\u2016b\u2016 ~ ") + QString::fromStdString(law_->describe());
}

void NoiseView::refresh() {
  // On screen the side panel carries the title and the key (the chart keeps the width); the export
  // draws both into the image.
  chart_->showLaw(*law_, released_, simulated_, QString());
  const auto key = [](const char* colour, const QString& glyph, const QString& text) {
    return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3").arg(QLatin1String(colour), glyph, text.toHtmlEscaped());
  };
  QStringList lines;
  lines << QStringLiteral("<b>%1</b>").arg(title().toHtmlEscaped()) << context_.toHtmlEscaped()
        << key("#6495ed", QStringLiteral("\u25a0"), drawnText(released_.size() + simulated_.size(), simulated_.size()))
        << key("#e67800", QStringLiteral("\u25b2"),
               released_.empty() && withheld_
                   ? tr("released draws: \u2016b\u2016 withheld (release noise: beside the model it would "
                        "locate the exact minimizer; Randomness \u2192 Experiment shows draws)")
                   : releasedText(released_))
        << key("#212121", QStringLiteral("\u2501"), tr("density of \u2016b\u2016")) + QStringLiteral("&nbsp;&nbsp;") +
               key("#c62828", QStringLiteral("\u2504"), tr("E\u2016b\u2016 = %1").arg(formatDerivedValue(law_->mean())));
  lawLabel_->setText(lines.join(QStringLiteral("<br>")));
  // The seed goes in the tooltip: the note must stay whole.
  simulationNote_->setToolTip(seeds_.empty() ? QString()
                                             : tr("The last simulation used experiment seed %1.").arg(seeds_.back()));
  message_->hide();
  chart_->show();
  side_->show();
  simulateButton_->setEnabled(true);
  exportButton_->setEnabled(true);
}

bool NoiseView::exportPlot(const QString& path, QString* error) {
  if (!law_) {
    if (error) *error = tr("There is no noise plot to export.");
    return false;
  }
  // A page of its own, with title and legend, whatever the size of the page.
  NoiseChart page;
  page.setLegendShown(true);
  page.resize(900, 520);
  page.showLaw(*law_, released_, simulated_, title() + QStringLiteral(" \u2014 ") + context_);
  QString description = tr("Noise norms against their law: %1; %2").arg(context_, drawnText(released_.size() + simulated_.size(), simulated_.size()));
  if (!simulated_.empty()) {
    QStringList seeds;
    for (std::uint64_t seed : seeds_) seeds << QString::number(seed);
    description += tr("; the simulated draws come from the calibration alone (no data, no privacy cost), experiment "
                      "seed %1").arg(seeds.join(QStringLiteral(", ")));
  }
  return page.exportImage(path, description, error);
}

void NoiseView::showExportDialog() {
  const QString path = askImageExportPath(this, tr("Export Noise Plot"), QStringLiteral("noise-norms"), kExportDirKey);
  if (path.isEmpty()) return;
  QString error;
  if (!exportPlot(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace dpstudio::ui
