#include "ui/sweep/preset_chooser.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace dpstudio::ui {
namespace {

const QString kFolderKey = QStringLiteral("sweep/paperDataFolder");

QString text(const std::string& s) { return QString::fromStdString(s); }

QString joined(const std::vector<double>& values) {
  QStringList out;
  for (double v : values) out << QString::number(v, 'g', 6);
  return out.join(QStringLiteral(", "));
}

// "breast cancer" for builtin:breast_cancer.
QString builtinName(const experiment::PresetDataSettings& s) {
  return QString::fromStdString(s.quickBuiltin).replace(QLatin1Char('_'), QLatin1Char(' '));
}

// The folder a first start offers: the setting, else $DPSTUDIO_DATA_DIR.
QString initialFolder() {
  const QSettings settings;
  if (settings.contains(kFolderKey)) return settings.value(kFolderKey).toString();
  return qEnvironmentVariable("DPSTUDIO_DATA_DIR");
}

}  // namespace

PresetChooser::PresetChooser(QWidget* parent)
    : QWidget(parent),
      preset_(new QComboBox),
      dataRow_(new QWidget),
      folder_(new QLineEdit),
      browse_(new QPushButton(tr("Choose\u2026"))),
      quick_(new QCheckBox),
      description_(new QLabel) {
  preset_->setObjectName(QStringLiteral("sweepPreset"));
  preset_->setAccessibleName(tr("Paper figure"));
  preset_->setToolTip(tr("Reproduce a figure of the papers (as dpstudio-cli sweep --preset does), or sweep the "
                         "current dataset with the Training dock's settings. Paper 003's Figure 7 (CIFAR-10 with a "
                         "ResNet-20) is not in the list: it needs a convolutional network, which dpstudio does not "
                         "train"));
  // The items are long sentences: let the popup show them whole, but do not let them widen the
  // window past a laptop screen (test_gui_smoke::fitsALaptopScreen).
  preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  preset_->setMinimumContentsLength(18);
  preset_->addItem(tr("None: the current dataset and the Training dock's settings"), QString());
  for (const experiment::PaperPreset& p : experiment::paperPresets())
    preset_->addItem(tr("%1: %2 (%3)").arg(text(p.figure), text(p.what),
                                             text(experiment::presetDataSettings(p.data).title)),
                     text(p.name));
  folder_->setObjectName(QStringLiteral("sweepDataFolder"));
  folder_->setAccessibleName(tr("Data folder"));
  folder_->setPlaceholderText(tr("folder with the papers' data (MNIST IDX files, a9a)"));
  folder_->setToolTip(tr("Where the presets find the papers' data: MNIST's four IDX files (gzipped as distributed) "
                         "and a9a, a9a.t. Default: $DPSTUDIO_DATA_DIR"));
  folder_->setText(initialFolder());
  browse_->setObjectName(QStringLiteral("sweepDataFolderBrowse"));
  quick_->setObjectName(QStringLiteral("sweepQuickVersion"));
  description_->setObjectName(QStringLiteral("sweepPresetDescription"));
  description_->setWordWrap(true);
  description_->setTextFormat(Qt::PlainText);

  auto* top = new QHBoxLayout;
  top->setContentsMargins(0, 0, 0, 0);
  top->addWidget(new QLabel(tr("Paper figure")));
  top->addWidget(preset_, 1);
  auto* dataLine = new QHBoxLayout(dataRow_);
  dataLine->setContentsMargins(0, 0, 0, 0);
  dataLine->addWidget(new QLabel(tr("Data folder")));
  dataLine->addWidget(folder_, 1);
  dataLine->addWidget(browse_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(dataRow_);
  layout->addWidget(quick_);
  layout->addWidget(description_);

  connect(preset_, &QComboBox::currentIndexChanged, this, [this] {
    refresh();
    emit changed();
  });
  connect(folder_, &QLineEdit::editingFinished, this, [this] {
    QSettings().setValue(kFolderKey, folder_->text());
    refresh();
    emit changed();
  });
  connect(browse_, &QPushButton::clicked, this, &PresetChooser::chooseFolder);
  connect(quick_, &QCheckBox::toggled, this, [this](bool on) {
    if (quick_->isEnabled()) quickWanted_ = on;
    refresh();
    emit changed();
  });
  refresh();
}

const experiment::PaperPreset* PresetChooser::preset() const {
  return experiment::findPaperPreset(preset_->currentData().toString().toStdString());
}

bool PresetChooser::setPreset(const std::string& name) {
  const int index = preset_->findData(text(name));
  if (index < 0) return false;
  preset_->setCurrentIndex(index);
  return true;
}

bool PresetChooser::quickVersion() const { return preset() && quick_->isChecked(); }

void PresetChooser::setQuickVersion(bool quick) {
  if (quick_->isEnabled()) quick_->setChecked(quick);
}

QString PresetChooser::dataFolder() const { return folder_->text().trimmed(); }

void PresetChooser::setDataFolder(const QString& folder) {
  folder_->setText(folder);
  QSettings().setValue(kFolderKey, folder);
  refresh();
  emit changed();
}

QString PresetChooser::folderProblem() const {
  const experiment::PaperPreset* p = preset();
  if (!p) return {};
  const QString folder = dataFolder();
  if (folder.isEmpty()) return tr("no data folder is set");
  if (!QDir(folder).exists()) return tr("no folder %1").arg(QDir::toNativeSeparators(folder));
  const auto missing = experiment::missingPresetFiles(*p, folder.toStdString());
  if (missing.empty()) return {};
  QStringList names;
  for (const std::string& m : missing) names << text(m);
  return tr("%1 lacks %2").arg(QDir::toNativeSeparators(folder), names.join(QStringLiteral(", ")));
}

DataRequest PresetChooser::dataRequest() const {
  const experiment::PaperPreset* p = preset();
  if (!p) return {};
  return quickVersion() ? experiment::quickDataRequest(*p)
                        : experiment::presetDataRequest(*p, QDir(dataFolder()).absolutePath().toStdString());
}

std::string PresetChooser::chartTitle() const {
  const experiment::PaperPreset* p = preset();
  return p ? experiment::presetTitle(*p, quickVersion()) : std::string();
}

int PresetChooser::defaultRepeats() const {
  const experiment::PaperPreset* p = preset();
  if (!p) return 10;
  const auto& s = experiment::presetDataSettings(p->data);
  return quickVersion() ? s.quickRepeats : s.reducedRepeats;
}

void PresetChooser::chooseFolder() {
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder of the Papers' Data"), dataFolder());
  if (!folder.isEmpty()) setDataFolder(folder);
}

void PresetChooser::refresh() {
  const experiment::PaperPreset* p = preset();
  dataRow_->setVisible(p != nullptr);
  quick_->setVisible(p != nullptr);
  description_->setVisible(p != nullptr);
  if (!p) return;
  const auto& s = experiment::presetDataSettings(p->data);
  const QString problem = folderProblem();
  {
    // Without the paper's files the quick version is the only one: forced on, saying why.
    const QSignalBlocker block(quick_);
    quick_->setText(tr("Quick version on built-in %1 (not the paper's data)").arg(builtinName(s)));
    quick_->setEnabled(problem.isEmpty());
    quick_->setChecked(!problem.isEmpty() || quickWanted_);
    quick_->setToolTip(problem.isEmpty()
                           ? tr("Run on the built-in %1 set instead of %2: seconds instead of minutes, but not the "
                                "paper's data")
                                 .arg(builtinName(s), text(s.title))
                           : tr("The paper's data cannot be read: %1. Choose the folder that holds them, or run "
                                "this quick version.")
                                 .arg(problem));
  }
  const bool quick = quick_->isChecked();
  auto spec = experiment::presetSweepSpec(*p, quick, defaultRepeats());
  QStringList mechanisms;
  if (spec)
    for (const auto& series : spec.value().series) mechanisms << text(series.title);
  QString source = quick ? tr("%1 (rows scaled to unit norm)").arg(text(s.quickTitle))
                         : tr("%1 from %2").arg(text(s.title), QDir::toNativeSeparators(dataFolder()));
  if (!problem.isEmpty()) source += tr(" \u2014 the paper's data cannot be read: %1").arg(problem);
  // The settings held fixed: the figure's own δ where it sets one, none of the swept one.
  using experiment::SweepAxis;
  QString settings = tr("%1, \u03bb = %2").arg(text(modelLongName(s.model))).arg(s.lambda);
  if (const auto delta = p->delta ? p->delta : s.delta; delta && p->axis != SweepAxis::Delta)
    settings += tr(", \u03b4 = %1").arg(*delta);
  if (s.budget && p->axis != SweepAxis::Budget) settings += tr(", B = %1").arg(*s.budget);
  const auto teachers = quick && s.quickTeachers ? s.quickTeachers : s.teachers;
  if (teachers && p->axis != SweepAxis::Teachers) settings += tr(", T = %1").arg(*teachers);
  if (const auto epsilon = quick ? p->quickEpsilon : p->epsilon) settings += tr(", \u03b5 = %1").arg(*epsilon);
  // Two lines; the series in the tooltip (and, once it runs, in the chart's legend).
  description_->setText(tr("%1 \u2014 %2, %3 series; data: %4.\n%5 at %6; %7. The paper averages %8 repetitions; "
                           "this view starts with %9.")
                            .arg(text(p->figure), text(p->what), QString::number(mechanisms.size()), source,
                                 text(experiment::axisTitle(p->axis)), joined(quick ? p->quickValues : p->values),
                                 settings)
                            .arg(s.repeats)
                            .arg(defaultRepeats()));
  description_->setToolTip(tr("The series: %1").arg(mechanisms.join(QStringLiteral("; "))));
}

}  // namespace dpstudio::ui
