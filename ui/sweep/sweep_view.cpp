#include "ui/sweep/sweep_view.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChartView>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "core/experiment/trial_table.h"
#include "core/sources/source.h"
#include "ui/dataset/dataset_document.h"
#include "ui/plot/series_legend.h"
#include "ui/plot/utility_chart.h"
#include "ui/sweep/bounds_panel.h"
#include "ui/sweep/preset_chooser.h"
#include "ui/sweep/sweep_form.h"

namespace dpstudio::ui {
namespace {

const QString kExportDirKey = QStringLiteral("dialogs/sweepExportDirectory");

}  // namespace

SweepView::SweepView(DatasetDocument* datasets, QWidget* parent)
    : QWidget(parent),
      datasets_(datasets),
      session_(new SweepSession(this)),
      form_(new SweepForm),
      chart_(new UtilityChart),
      chartView_(new QChartView(chart_)),
      startButton_(new QPushButton(tr("Start Sweep"))),
      cancelButton_(new QPushButton(tr("Cancel"))),
      clearButton_(new QPushButton(tr("Clear"))),
      exportButton_(new QPushButton(tr("Export\u2026"))),
      addBox_(new QCheckBox(tr("Add to the chart"))),
      boundsBox_(new QCheckBox(tr("Theoretical bounds (as published)"))),
      boundsPanel_(new BoundsPanel(session_, chart_)),
      status_(new QLabel),
      problem_(new QLabel),
      legend_(new SeriesLegend) {
  setObjectName(QStringLiteral("sweepView"));
  setUpControls();
  connectControls(layOut());
  showCurve();
  refreshBase();
}

void SweepView::setUpControls() {
  startButton_->setObjectName(QStringLiteral("sweepStartButton"));
  startButton_->setDefault(true);
  startButton_->setToolTip(tr("Train every mechanism ticked at every value, repeatedly, and draw test accuracy "
                              "against the swept parameter as the trials finish"));
  cancelButton_->setObjectName(QStringLiteral("sweepCancelButton"));
  cancelButton_->setToolTip(tr("Stop the sweep; the finished trials stay on the chart"));
  clearButton_->setObjectName(QStringLiteral("sweepClearButton"));
  exportButton_->setObjectName(QStringLiteral("sweepExportButton"));
  exportButton_->setToolTip(tr("Save the chart as PNG or SVG, or the trials as a CSV table (as dpstudio-cli sweep "
                               "--out writes it)"));
  addBox_->setObjectName(QStringLiteral("sweepAddToChart"));
  addBox_->setToolTip(tr("Draw the next sweep beside the ones shown (same swept parameter) instead of replacing "
                         "them"));
  boundsBox_->setObjectName(QStringLiteral("sweepShowBounds"));
  boundsBox_->setToolTip(tr("Under the chart, the bounds the papers prove for DP-LMGC (paper 000 Theorems 2, 3) and "
                            "multiparty aggregation (paper 004 Theorems 4.2\u20134.4), as published, beside what "
                            "they bound as measured in the sweep"));
  boundsPanel_->setVisible(false);
  status_->setObjectName(QStringLiteral("sweepStatus"));
  status_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // "Loading Paper 003 Fig. 3 (quick version on built-in digits, …)…" on one line made the
  // page 755 px wide and pushed the window past a 1366 px screen.
  status_->setWordWrap(true);
  problem_->setObjectName(QStringLiteral("sweepProblem"));
  problem_->setWordWrap(true);
  problem_->setStyleSheet(QStringLiteral("color: #b00020;"));
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setObjectName(QStringLiteral("sweepChartView"));
  chartView_->setMinimumSize(360, 196);  // with the form above, the window fits 768 px (test_gui_smoke)
  // The legend is the widget under the chart (SeriesLegend); exported figures keep Qt's.
  chart_->legend()->setVisible(false);
}

QSplitter* SweepView::layOut() {
  // The settings scroll vertically above the chart, in a splitter: at 1366×768 and
  // 1280×720 the form (a paper figure's description, or the mechanisms and the axis) took
  // most of the page and left the plot ~90–160 px tall. The buttons and messages stay in
  // sight below the settings whatever they scroll to. "Not a private release" is said by the
  // chart's caption, which exported figures keep too.
  auto* settings = new QScrollArea;
  settings->setObjectName(QStringLiteral("sweepSettingsArea"));
  settings->setWidget(form_);
  settings->setWidgetResizable(true);
  settings->setFrameShape(QFrame::NoFrame);
  settings->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(startButton_);
  buttons->addWidget(cancelButton_);
  buttons->addWidget(addBox_);
  buttons->addWidget(clearButton_);
  buttons->addWidget(exportButton_);
  buttons->addStretch(1);
  // Beside the messages, not the buttons: there it widened the window past a laptop screen.
  auto* messages = new QHBoxLayout;
  messages->addWidget(boundsBox_);
  messages->addWidget(problem_, 1);
  messages->addWidget(status_, 1);

  // The bounds under the accuracy chart, each resizable.
  auto* charts = new QSplitter(Qt::Vertical);
  charts->setObjectName(QStringLiteral("sweepChartSplitter"));
  charts->setChildrenCollapsible(false);
  auto* chartWithLegend = new QWidget;
  auto* chartLayout = new QVBoxLayout(chartWithLegend);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->setSpacing(2);
  chartLayout->addWidget(chartView_, 1);
  chartLayout->addWidget(legend_);
  charts->addWidget(chartWithLegend);
  charts->addWidget(boundsPanel_);
  charts->setStretchFactor(0, 3);
  charts->setStretchFactor(1, 2);

  auto* results = new QWidget;
  auto* resultsLayout = new QVBoxLayout(results);
  resultsLayout->setContentsMargins(0, 0, 0, 0);
  resultsLayout->addLayout(buttons);
  resultsLayout->addLayout(messages);
  resultsLayout->addWidget(charts, 1);

  page_ = new QSplitter(Qt::Vertical);
  page_->setObjectName(QStringLiteral("sweepPageSplitter"));
  page_->setChildrenCollapsible(false);
  page_->addWidget(settings);
  page_->addWidget(results);
  page_->setStretchFactor(0, 0);
  page_->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(page_);
  return charts;
}

void SweepView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (pageSplit_ || height() < 200) return;
  // Once, when the page first has its height: the settings as tall as they need up to a
  // third of it, the chart the rest. The user's own split is kept after that.
  const int total = page_->height();
  const int settings = std::min(form_->sizeHint().height() + 4, total / 3);
  page_->setSizes({settings, total - settings});
  pageSplit_ = true;
}

void SweepView::connectControls(QSplitter* charts) {
  connect(startButton_, &QPushButton::clicked, this, &SweepView::startSweep);
  connect(cancelButton_, &QPushButton::clicked, session_, &SweepSession::cancel);
  connect(clearButton_, &QPushButton::clicked, this, [this] {
    hidden_.clear();
    session_->clear();
  });
  connect(exportButton_, &QPushButton::clicked, this, &SweepView::showExportDialog);
  connect(legend_, &SeriesLegend::shownChanged, this, [this](const QString& name, bool shown) {
    if (shown) hidden_.erase(name);
    else hidden_.insert(name);
    showCurve();
  });
  connect(boundsBox_, &QCheckBox::toggled, this, [this, charts](bool on) {
    boundsPanel_->setVisible(on);
    if (!on) return;
    // The accuracy chart keeps most of the height: below ~230 px its title, legend and caption
    // leave no plot.
    const int total = charts->height();
    charts->setSizes({std::max(total * 3 / 5, total - boundsPanel_->sizeHint().height()), total * 2 / 5});
    boundsPanel_->refresh();
  });
  connect(session_, &SweepSession::dataLoaded, this, &SweepView::showCurve);
  connect(form_, &SweepForm::changed, this, &SweepView::refreshButtons);
  connect(session_, &SweepSession::curveChanged, this, &SweepView::showCurve);
  connect(session_, &SweepSession::runningChanged, this, &SweepView::refreshButtons);
  connect(session_, &SweepSession::started, this, &SweepView::jobStarted);
  connect(session_, &SweepSession::finished, this, [this](const QString& message, bool error) {
    emit statusMessage(message, 8000);
    if (error) problem_->setText(message);
  });
  connect(datasets_, &DatasetDocument::datasetChanged, this, &SweepView::refreshBase);
  connect(datasets_, &DatasetDocument::testDatasetChanged, this, &SweepView::refreshBase);
}

void SweepView::setSettingsSource(SettingsSource source) {
  source_ = std::move(source);
  refreshBase();
}

void SweepView::refreshBase() {
  if (!source_ || !datasets_->hasDataset()) {
    form_->setBaseProblem({});
    refreshButtons();
    return;
  }
  auto base = source_();
  if (!base) form_->setBaseProblem(QString::fromStdString(base.error().message));
  else form_->setBase(base.value().settings, base.value().shape);
  refreshButtons();
}

void SweepView::refreshButtons() {
  const bool running = session_->isRunning();
  const QStringList problems = form_->problems();
  startButton_->setEnabled(!running && problems.isEmpty());
  startButton_->setToolTip(problems.isEmpty() ? tr("Start the sweep") : problems.join('\n'));
  cancelButton_->setEnabled(running);
  clearButton_->setEnabled(!running && session_->sweepCount() > 0);
  exportButton_->setEnabled(session_->finishedTrials() > 0);
  if (!running) problem_->setText(problems.isEmpty() || form_->showsBaseProblem() ? QString() : problems.join('\n'));
}

void SweepView::startSweep() {
  refreshBase();
  if (!form_->isValid() || session_->isRunning()) return;
  if (form_->presetMode()) {
    // A paper figure: its own data, loaded on the worker (MNIST takes seconds), its own plans.
    SweepInput input;
    input.request = form_->presetChooser()->dataRequest();
    input.title = form_->presetChooser()->chartTitle();
    input.spec = form_->sweepSpec({});
    const QString title = QString::fromStdString(input.title);
    problem_->clear();
    session_->start(std::move(input), addBox_->isChecked());
    status_->setText(tr("Loading %1\u2026").arg(title));
    return;
  }
  if (!source_) return;
  auto base = source_();
  if (!base) return;
  SweepInput input;
  input.dataset = datasets_->dataset();
  input.test = datasets_->testDataset();
  input.preparation = base.value().settings.data;
  input.preparation.keepRowsBeforeMap = false;  // a sweep draws no 2-D view
  input.spec = form_->sweepSpec(datasetIdentity(datasets_->source().spec.toStdString()));
  problem_->clear();
  session_->start(std::move(input), addBox_->isChecked());
}

void SweepView::showCurve() {
  chart_->setCurve(session_->curve());
  chart_->legend()->setVisible(false);
  connectHover();
  // Lines hidden from their legend entry stay hidden when the chart is rebuilt.
  std::vector<LegendEntry> entries;
  const auto& means = chart_->meanSeries();
  for (int i = 0; i < means.size(); ++i) {
    const bool shown = !hidden_.count(means[i]->name());
    means[i]->setVisible(shown);
    if (i < chart_->bandSeries().size()) chart_->bandSeries()[i]->setVisible(shown);
    entries.push_back({means[i]->name(), means[i]->pen(), true, shown});
  }
  for (QLineSeries* reference : chart_->referenceSeries()) {
    const bool shown = !hidden_.count(reference->name());
    reference->setVisible(shown);
    entries.push_back({reference->name(), reference->pen(), false, shown});
  }
  legend_->setEntries(entries);
  const long long done = session_->finishedTrials(), total = session_->totalTrials();
  if (session_->isLoading()) status_->setText(tr("Loading the data\u2026"));
  else status_->setText(total > 0 ? tr("%1 of %2 trials").arg(done).arg(total) : QString());
  exportButton_->setEnabled(done > 0);
  if (boundsPanel_->isVisible()) boundsPanel_->refresh();
}

void SweepView::connectHover() {
  const auto& means = chart_->meanSeries();
  for (int i = 0; i < means.size(); ++i) {
    QLineSeries* series = means[i];
    disconnect(series, nullptr, this, nullptr);
    connect(series, &QLineSeries::hovered, this,
            [this, i](const QPointF& point, bool entered) { showPointAt(i, point, entered); });
  }
}

void SweepView::showPointAt(int seriesIndex, const QPointF& point, bool entered) {
  if (!entered) {
    QToolTip::hideText();
    return;
  }
  const experiment::Curve& curve = session_->curve();
  if (seriesIndex >= static_cast<int>(curve.series.size())) return;
  const std::string& key = curve.series[static_cast<std::size_t>(seriesIndex)].key;
  // The point of this series nearest the pointer along x (in the axis's own scale).
  const auto position = [&curve](double v) { return curve.logAxis ? std::log10(std::max(v, 1e-300)) : v; };
  const experiment::CurvePoint* nearest = nullptr;
  for (const experiment::CurvePoint& p : curve.points)
    if (p.series == key &&
        (!nearest || std::abs(position(p.value) - position(point.x())) <
                         std::abs(position(nearest->value) - position(point.x()))))
      nearest = &p;
  if (!nearest) return;
  QToolTip::showText(QCursor::pos(),
                     tr("%1\n%2 = %3\nmean accuracy %4 \u00b1 %5 (std)\n%6 trials")
                         .arg(QString::fromStdString(curve.series[static_cast<std::size_t>(seriesIndex)].title),
                              QString::fromStdString(curve.axis))
                         .arg(nearest->value, 0, 'g', 4)
                         .arg(nearest->mean, 0, 'f', 3)
                         .arg(nearest->std, 0, 'f', 3)
                         .arg(nearest->count),
                     chartView_);
}

bool SweepView::exportTo(const QString& path, QString* error) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("csv")) {
    const experiment::TrialTable table = session_->lastTable();
    if (table.trials.empty()) {
      if (error) *error = tr("%1: no finished trials to write").arg(path);
      return false;
    }
    if (auto status = experiment::writeTrialTable(path.toStdString(), table); !status) {
      if (error) *error = QString::fromStdString(status.error().toString());
      return false;
    }
    return true;
  }
  if (auto status = saveUtilityPlot(session_->curve(), path); !status) {
    if (error) *error = QString::fromStdString(status.error().toString());
    return false;
  }
  return true;
}

void SweepView::showExportDialog() {
  QSettings settings;
  const QString base = datasets_->hasDataset() ? datasets_->displayName() : QStringLiteral("sweep");
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Sweep"),
      QDir(settings.value(kExportDirKey, QDir::homePath()).toString()).filePath(base + QStringLiteral("-sweep.png")),
      tr("PNG image (*.png);;SVG image (*.svg);;Trial table (*.csv)"), &selected);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) {
    if (selected.contains(QLatin1String("*.svg"))) path += QStringLiteral(".svg");
    else if (selected.contains(QLatin1String("*.csv"))) path += QStringLiteral(".csv");
    else path += QStringLiteral(".png");
  }
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  QString error;
  if (exportTo(path, &error)) emit statusMessage(tr("Exported the sweep to %1").arg(QDir::toNativeSeparators(path)), 5000);
  else QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace dpstudio::ui
