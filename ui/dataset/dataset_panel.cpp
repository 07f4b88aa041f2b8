#include "ui/dataset/dataset_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <limits>

#include "core/sources/builtin.h"
#include "core/sources/source.h"
#include "ui/dataset/class_balance_widget.h"
#include "ui/dataset/dataset_document.h"

namespace dpstudio::ui {
namespace {

QLabel* valueLabel() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

QString joined(const std::vector<std::string>& items) {
  QStringList out;
  for (const std::string& s : items) out << QString::fromStdString(s);
  return out.join(QStringLiteral("; "));
}

}  // namespace

DatasetPanel::DatasetPanel(DatasetDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeSourceGroup());
  layout->addWidget(makeSummaryGroup());
  layout->addWidget(makeViewGroup());
  layout->addStretch(1);

  connect(document_, &DatasetDocument::datasetChanged, this, &DatasetPanel::refreshDataset);
  connect(document_, &DatasetDocument::viewChanged, this, &DatasetPanel::refreshView);
  refreshDataset();
}

QWidget* DatasetPanel::makeSourceGroup() {
  auto* group = new QGroupBox(tr("Source"));
  auto* form = new QFormLayout(group);

  builtinBox_ = new QComboBox;
  builtinBox_->setPlaceholderText(tr("Choose a built-in dataset…"));
  for (const BuiltinInfo& info : builtinCatalog()) {
    const QString name = QString::fromStdString(info.name);
    const QString label = info.generator ? tr("%1 (generated)").arg(name) : name;
    builtinBox_->addItem(label, QStringLiteral("builtin:") + name);
    QString tip = QString::fromStdString(info.description);
    if (!info.parameters.empty())
      tip += tr("\nParameters: %1").arg(QString::fromStdString(info.parameters));
    if (!info.citation.empty()) tip += QLatin1Char('\n') + QString::fromStdString(info.citation);
    builtinBox_->setItemData(builtinBox_->count() - 1, tip, Qt::ToolTipRole);
  }
  builtinBox_->setToolTip(tr("Datasets shipped with dpstudio and synthetic generators for "
                             "teaching. Picking one opens it."));
  connect(builtinBox_, &QComboBox::activated, this, [this](int index) {
    emit builtinRequested(builtinBox_->itemData(index).toString());
  });
  form->addRow(tr("Built-in:"), builtinBox_);

  openButton_ = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open File…"));
  openButton_->setToolTip(tr("Open a CSV, LIBSVM or IDX file, optionally gzip-compressed "
                             "(you can also drop a file onto the window)."));
  connect(openButton_, &QPushButton::clicked, this, &DatasetPanel::openFileRequested);
  form->addRow(QString(), openButton_);

  // A separate test file instead of the split (a9a.t for a9a): the Training dock's test fraction
  // then has nothing to do.
  testLabel_ = new QLabel;
  testLabel_->setWordWrap(true);
  testLabel_->setAccessibleName(tr("Test file"));
  openTestButton_ = new QPushButton(tr("Test File…"));
  openTestButton_->setToolTip(tr("Evaluate on a separate test file (read like the dataset; its labels must occur "
                                 "in the dataset) instead of a held-out part of the dataset."));
  removeTestButton_ = new QPushButton(tr("Remove"));
  removeTestButton_->setToolTip(tr("Back to a held-out part of the dataset."));
  connect(openTestButton_, &QPushButton::clicked, this, &DatasetPanel::openTestFileRequested);
  connect(removeTestButton_, &QPushButton::clicked, this, &DatasetPanel::removeTestFileRequested);
  auto* testButtons = new QHBoxLayout;
  testButtons->addWidget(openTestButton_);
  testButtons->addWidget(removeTestButton_);
  testButtons->addStretch(1);
  form->addRow(tr("Test:"), testLabel_);
  form->addRow(QString(), testButtons);
  connect(document_, &DatasetDocument::testDatasetChanged, this, &DatasetPanel::refreshTest);
  return group;
}

void DatasetPanel::refreshTest() {
  const auto& test = document_->testDataset();
  openTestButton_->setEnabled(document_->hasDataset());
  removeTestButton_->setVisible(static_cast<bool>(test));
  if (test) {
    testLabel_->setText(tr("%1 (%2 rows)")
                            .arg(QFileInfo(document_->testSource().spec).fileName(),
                                 QLocale().toString(static_cast<qlonglong>(test->rows()))));
    testLabel_->setToolTip(QDir::toNativeSeparators(document_->testSource().spec));
  } else {
    testLabel_->setText(tr("a held-out part of the dataset (Training dock)"));
    testLabel_->setToolTip(QString());
  }
}

QWidget* DatasetPanel::makeSummaryGroup() {
  auto* group = new QGroupBox(tr("Summary"));
  auto* form = new QFormLayout(group);
  descriptionLabel_ = new QLabel;
  descriptionLabel_->setWordWrap(true);
  descriptionLabel_->setForegroundRole(QPalette::PlaceholderText);
  form->addRow(descriptionLabel_);
  sourceLabel_ = valueLabel();
  sourceLabel_->setWordWrap(true);
  formatLabel_ = valueLabel();
  rowsLabel_ = valueLabel();
  featuresLabel_ = valueLabel();
  classesLabel_ = valueLabel();
  normLabel_ = valueLabel();
  normLabel_->setWordWrap(true);
  normLabel_->setToolTip(tr("max\u1d62 \u2016x\u1d62\u2016\u2082 over the rows. A DP mechanism "
                            "must not use it as its norm bound: choose a public bound R."));
  notesLabel_ = valueLabel();
  notesLabel_->setWordWrap(true);
  form->addRow(tr("Source:"), sourceLabel_);
  form->addRow(tr("Format:"), formatLabel_);
  form->addRow(tr("Rows (n):"), rowsLabel_);
  form->addRow(tr("Features (d):"), featuresLabel_);
  form->addRow(tr("Classes (C):"), classesLabel_);
  form->addRow(tr("Max row norm:"), normLabel_);
  form->addRow(notesLabel_);
  balance_ = new ClassBalanceWidget;
  form->addRow(balance_);
  return group;
}

QWidget* DatasetPanel::makeViewGroup() {
  auto* group = new QGroupBox(tr("2-D view"));
  auto* form = new QFormLayout(group);

  kindBox_ = new QComboBox;
  kindBox_->addItem(tr("Two features"), static_cast<int>(ViewKind::Features));
  kindBox_->addItem(tr("Random projection"), static_cast<int>(ViewKind::RandomProjection));
  kindBox_->addItem(tr("PCA (not private)"), static_cast<int>(ViewKind::Pca));
  kindBox_->setItemData(0, tr("Plot two of the features against each other."), Qt::ToolTipRole);
  kindBox_->setItemData(1, tr("A seeded random plane: independent of the data, so it costs "
                              "no privacy."), Qt::ToolTipRole);
  kindBox_->setItemData(2, tr("The top two principal axes. They are fitted on the data, so "
                              "this view is NOT private."), Qt::ToolTipRole);
  kindBox_->setToolTip(tr("How the d-dimensional rows are shown in two dimensions."));
  form->addRow(tr("Kind:"), kindBox_);

  featureABox_ = new QComboBox;
  featureBBox_ = new QComboBox;
  for (QComboBox* box : {featureABox_, featureBBox_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  featureABox_->setToolTip(tr("Feature on the horizontal axis."));
  featureBBox_->setToolTip(tr("Feature on the vertical axis."));
  form->addRow(tr("Feature A (x):"), featureABox_);
  form->addRow(tr("Feature B (y):"), featureBBox_);

  seedBox_ = new QSpinBox;
  seedBox_->setRange(0, std::numeric_limits<int>::max());
  seedBox_->setToolTip(tr("Seed of the random projection: the same seed gives the same plane."));
  form->addRow(tr("Seed:"), seedBox_);

  notPrivateLabel_ = new QLabel(tr("\u26a0 Not private: the PCA axes are fitted on the data "
                                   "and reveal information about it."));
  notPrivateLabel_->setWordWrap(true);
  notPrivateLabel_->setStyleSheet(QStringLiteral(
      "QLabel { color: #8a1c00; background: #fff1e6; border: 1px solid #e8a87c;"
      " border-radius: 3px; padding: 4px; }"));
  form->addRow(notPrivateLabel_);
  viewErrorLabel_ = new QLabel;
  viewErrorLabel_->setWordWrap(true);
  viewErrorLabel_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
  form->addRow(viewErrorLabel_);

  connect(kindBox_, &QComboBox::currentIndexChanged, this, [this] {
    updateViewControls();
    requestView();
  });
  connect(featureABox_, &QComboBox::currentIndexChanged, this, &DatasetPanel::requestView);
  connect(featureBBox_, &QComboBox::currentIndexChanged, this, &DatasetPanel::requestView);
  connect(seedBox_, &QSpinBox::valueChanged, this, &DatasetPanel::requestView);
  return group;
}

ViewSpec DatasetPanel::requestedViewSpec() const {
  ViewSpec spec;
  spec.kind = static_cast<ViewKind>(kindBox_->currentData().toInt());
  spec.featureA = std::max(0, featureABox_->currentIndex());
  spec.featureB = std::max(0, featureBBox_->currentIndex());
  spec.seed = static_cast<std::uint64_t>(seedBox_->value());
  return spec;
}

void DatasetPanel::setViewKind(ViewKind kind) {
  kindBox_->setCurrentIndex(kindBox_->findData(static_cast<int>(kind)));
}

void DatasetPanel::showViewError(const QString& message) {
  viewErrorLabel_->setText(message);
  viewErrorLabel_->setVisible(!message.isEmpty());
}

void DatasetPanel::requestView() {
  if (!document_->hasDataset()) return;
  emit viewSpecRequested(requestedViewSpec());
}

void DatasetPanel::refreshDataset() {
  const bool has = document_->hasDataset();
  refreshTest();
  {
    const QSignalBlocker blockA(featureABox_);
    const QSignalBlocker blockB(featureBBox_);
    featureABox_->clear();
    featureBBox_->clear();
    if (has) {
      for (const std::string& name : document_->dataset()->featureNames) {
        featureABox_->addItem(QString::fromStdString(name));
        featureBBox_->addItem(QString::fromStdString(name));
      }
    }
  }
  {
    const QSignalBlocker block(builtinBox_);
    builtinBox_->setCurrentIndex(builtinBox_->findData(document_->source().spec));
  }
  if (!has) {
    for (QLabel* l : {sourceLabel_, formatLabel_, rowsLabel_, featuresLabel_, classesLabel_, normLabel_})
      l->setText(QStringLiteral("\u2014"));
    notesLabel_->hide();
    descriptionLabel_->hide();
    balance_->clear();
    refreshView();
    return;
  }

  const Dataset& dataset = *document_->dataset();
  const Provenance& prov = dataset.provenance;
  const QLocale locale;
  const QString spec = document_->source().spec;
  sourceLabel_->setText(isBuiltinSpec(spec.toStdString()) ? spec : QFileInfo(spec).fileName());
  QString description;
  if (isBuiltinSpec(spec.toStdString())) {
    const std::string name = spec.section(QLatin1Char(':'), 1, 1).toStdString();
    for (const BuiltinInfo& info : builtinCatalog())
      if (info.name == name) description = QString::fromStdString(info.description);
  }
  descriptionLabel_->setText(description);
  descriptionLabel_->setVisible(!description.isEmpty());
  sourceLabel_->setToolTip(spec);
  QString format = QString::fromStdString(prov.format);
  if (prov.gzip) format += tr(" (gzip)");
  formatLabel_->setText(format);
  rowsLabel_->setText(locale.toString(static_cast<qlonglong>(dataset.rows())));
  featuresLabel_->setText(locale.toString(static_cast<qlonglong>(dataset.features())));
  classesLabel_->setText(locale.toString(static_cast<qlonglong>(dataset.classes())));
  normLabel_->setText(tr("%1 (data-derived: not a public bound R)").arg(locale.toString(dataset.maxRowNorm(), 'g', 5)));

  QStringList notes;
  if (!prov.steps.empty()) notes << tr("Steps: %1").arg(joined(prov.steps));
  if (!prov.notPrivate.empty())
    notes << tr("<span style=\"color:#b00020\">\u26a0 Not private: %1</span>")
                 .arg(joined(prov.notPrivate).toHtmlEscaped());
  notesLabel_->setText(notes.join(QStringLiteral("<br>")));
  notesLabel_->setVisible(!notes.isEmpty());

  QStringList names;
  for (const std::string& n : dataset.classNames) names << QString::fromStdString(n);
  std::vector<long long> counts;
  for (Index c : dataset.classCounts()) counts.push_back(static_cast<long long>(c));
  balance_->setCounts(names, counts);
  refreshView();
}

void DatasetPanel::refreshView() {
  const ViewSpec& spec = document_->viewSpec();
  {
    const QSignalBlocker blockKind(kindBox_);
    const QSignalBlocker blockA(featureABox_);
    const QSignalBlocker blockB(featureBBox_);
    const QSignalBlocker blockSeed(seedBox_);
    kindBox_->setCurrentIndex(kindBox_->findData(static_cast<int>(spec.kind)));
    if (spec.featureA < featureABox_->count()) featureABox_->setCurrentIndex(static_cast<int>(spec.featureA));
    if (spec.featureB < featureBBox_->count()) featureBBox_->setCurrentIndex(static_cast<int>(spec.featureB));
    seedBox_->setValue(static_cast<int>(std::min<std::uint64_t>(spec.seed, std::numeric_limits<int>::max())));
  }
  showViewError({});
  updateViewControls();
}

void DatasetPanel::updateViewControls() {
  const auto kind = static_cast<ViewKind>(kindBox_->currentData().toInt());
  const bool has = document_->hasDataset();
  kindBox_->setEnabled(has);
  featureABox_->setEnabled(has && kind == ViewKind::Features);
  featureBBox_->setEnabled(has && kind == ViewKind::Features && featureBBox_->count() > 1);
  seedBox_->setEnabled(has && kind == ViewKind::RandomProjection);
  notPrivateLabel_->setVisible(kind == ViewKind::Pca);
}

}  // namespace dpstudio::ui
