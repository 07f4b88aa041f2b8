#include "ui/training/model_settings_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <cmath>
#include <limits>
#include <utility>

#include <QStandardItemModel>

#include "core/data/data_schema.h"
#include "core/data/split.h"
#include "core/sources/public_bounds.h"
#include "ui/training/kernel_fields.h"
#include "ui/training/mechanism_form.h"
#include "ui/widgets/number_field.h"
#include "ui/widgets/number_list_field.h"

namespace dpstudio::ui {
namespace {

const QString kPrefix = QStringLiteral("model/");

QString coreProblem(const Status& status) {
  return status ? QString() : QString::fromStdString(status.error().message);
}

QString lambdaHelp(ModelKind kind) {
  if (kind == ModelKind::Lmgc)
    return QObject::tr("Weight \u03bb > 0 of the regularizer in LMGC's sum-scale objective "
                       "\u03a3\u1d62\u2113\u1d62 + \u03bb(\u03a3_c tr(\u03a8_c) + \u00bd\u2016\u03a6\u2016\u00b2). "
                       "Default 1e-2.");
  return QObject::tr("Regularization strength \u03bb > 0 of the mean-scale objective "
                     "(1/n)\u03a3\u1d62\u2113\u1d62 + (\u03bb/2)\u2016\u03b8\u2016\u00b2. Default 1e-4.");
}

bool usesHuber(ModelKind kind) { return kind == ModelKind::HuberSvm || kind == ModelKind::Lmgc; }

// Core would train LMGC on random features; the form does not offer it, and says why.
QString kernelRefusal(ModelKind kind) {
  if (kind != ModelKind::Lmgc) return {};
  return QObject::tr("Not with LMGC: on D random features it fits one (D + 1) \u00d7 (D + 1) matrix per class "
                     "(40 401 numbers each at D = 200, an eigendecomposition of each in every iteration), and "
                     "its class ellipses would live in feature space, with nothing to draw on the view. LMGC's "
                     "boundaries are curved (quadratic) already. For a kernel model choose logistic regression, "
                     "Huber SVM or softmax.");
}

// The shape a training would see: n of the training part after the split, d after the
// preprocessing, C. From the labels and core's own split and preprocessing fit, without
// copying the rows (the form offers no PCA, and a fit without PCA reads no row).
std::optional<mech::ProblemShape> problemShape(const Dataset& data, const SplitAndPreprocess& split, QString* why) {
  mech::ProblemShape shape;
  shape.classes = data.classes();
  shape.rows = data.rows();
  if (split.testFraction > 0) {
    auto indices = stratifiedSplit(data.y, data.classes(), split.testFraction, split.splitSeed);
    if (!indices) {
      *why = QString::fromStdString(indices.error().message);
      return std::nullopt;
    }
    shape.rows = static_cast<Index>(indices.value().train.size());
  }
  // Random Fourier features set d to D whatever the rows were: validated, not drawn (a
  // d × D matrix of normals at every keystroke would be wasted).
  PreprocessSpec preprocess = split.preprocess;
  const std::optional<RandomFeaturesSpec> map = std::exchange(preprocess.randomFeatures, std::nullopt);
  if (map) {
    if (const Status status = map->validate(); !status) {
      *why = QString::fromStdString(status.error().message);
      return std::nullopt;
    }
    preprocess.intercept = false;
  }
  auto pre = fitPreprocessor(preprocess, data);
  if (!pre) {
    *why = QString::fromStdString(pre.error().message);
    return std::nullopt;
  }
  shape.features = map ? map->dim + (split.preprocess.intercept ? 1 : 0) : pre.value().outputDim;
  return shape;
}

}  // namespace

ModelSettingsForm::ModelSettingsForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* privacyGroup = new QGroupBox(tr("Privacy"));
  auto* privacyLayout = new QVBoxLayout(privacyGroup);
  mechanism_ = new MechanismForm;
  privacyLayout->addWidget(mechanism_);
  layout->addWidget(privacyGroup);
  layout->addWidget(makeModelGroup());
  layout->addWidget(makeDataGroup());
  connect(mechanism_, &MechanismForm::mechanismChanged, this, &ModelSettingsForm::updateModelChoices);
  connect(mechanism_, &MechanismForm::changed, this, &ModelSettingsForm::followDefaultLambda);
  connect(mechanism_, &MechanismForm::changed, this, &ModelSettingsForm::fieldsChanged);
  updateModelRows();
  updateModelChoices();
  wasValid_ = isValid();
  captureDefaults();
}

ModelSettingsForm::~ModelSettingsForm() = default;

QWidget* ModelSettingsForm::makeModelGroup() {
  auto* group = new QGroupBox(tr("Model"));
  modelForm_ = new QFormLayout(group);

  modelBox_ = new QComboBox;
  const struct {
    ModelKind kind;
    const char* tip;
  } models[] = {
      {ModelKind::LogisticRegression, "Logistic loss; one-vs-rest for more than two classes. Linear boundaries."},
      {ModelKind::HuberSvm, "Huber-smoothed hinge loss (a differentiable SVM); one-vs-rest for more than two "
                            "classes. Linear boundaries."},
      {ModelKind::Softmax, "Multinomial logistic regression. Linear boundaries."},
      {ModelKind::Lmgc, "Large-margin Gaussian classifier (Sha & Saul): one ellipsoid per class, quadratic "
                        "boundaries."},
  };
  for (const auto& m : models) {
    modelBox_->addItem(modelDisplayName(m.kind), static_cast<int>(m.kind));
    modelBox_->setItemData(modelBox_->count() - 1, tr(m.tip), Qt::ToolTipRole);
    modelBox_->setItemData(modelBox_->count() - 1, tr(m.tip), Qt::UserRole + 1);
  }
  modelBox_->setToolTip(tr("The non-private baseline to train."));
  modelForm_->addRow(tr("Model:"), modelBox_);

  lambda_ = new NumberField;
  lambda_->setCheck([this](double v) {
    LearnerSpec spec;
    spec.kind = modelKind();
    spec.lambda = v;
    return coreProblem(spec.validate());
  });
  lambdaDefault_ = defaultLambda(modelKind());
  lambda_->setValue(lambdaDefault_);
  modelForm_->addRow(tr("\u03bb (regularization):"), lambda_);

  huber_ = new NumberField;
  huber_->setCheck([](double v) {
    LearnerSpec spec;
    spec.huber = v;
    return coreProblem(spec.validate());
  });
  huber_->setValue(LearnerSpec{}.huber);
  huber_->setHelp(tr("Width h > 0 of the Huber hinge's smoothed corner (Huber SVM and LMGC). Default 0.5."));
  modelForm_->addRow(tr("Huber h:"), huber_);

  components_ = new QSpinBox;
  components_->setRange(1, LearnerSpec::kMaxComponents);
  components_->setValue(1);
  components_->setToolTip(tr("LMGC: Gaussians (ellipsoids) per class, a mixture (default 1). Without privacy the "
                             "components' centres come from k-means on each class; a private mechanism uses "
                             "centres that do not depend on the data (docs/algorithms.md §2.3)."));
  modelForm_->addRow(tr("Components:"), components_);

  tolerance_ = new NumberField;
  tolerance_->setCheck([](double v) {
    return std::isfinite(v) && v > 0 ? QString() : tr("the tolerance must be finite and > 0");
  });
  tolerance_->setValue(TrainingSettings{}.tolerance);
  tolerance_->setHelp(tr("Relative gradient tolerance at which the optimizer stops (default 1e-8, as "
                         "dpstudio-cli). Smaller: closer to the exact optimum, longer training."));
  modelForm_->addRow(tr("Tolerance:"), tolerance_);

  maxIterations_ = new QSpinBox;
  maxIterations_->setRange(1, 10'000'000);
  maxIterations_->setValue(TrainingSettings{}.maxIterations);
  maxIterations_->setGroupSeparatorShown(true);
  maxIterations_->setToolTip(tr("The optimizer stops here even if it has not converged (default 3000)."));
  modelForm_->addRow(tr("Max iterations:"), maxIterations_);

  connect(modelBox_, &QComboBox::currentIndexChanged, this, [this] {
    followDefaultLambda();
    updateModelRows();
    lambda_->recheck();
    mechanism_->setLearner(learner());
    fieldsChanged();
  });
  for (NumberField* field : {lambda_, huber_})
    connect(field, &NumberField::valueEdited, this, [this] { mechanism_->setLearner(learner()); });
  for (NumberField* field : {lambda_, huber_, tolerance_})
    connect(field, &NumberField::valueEdited, this, &ModelSettingsForm::fieldsChanged);
  connect(maxIterations_, &QSpinBox::valueChanged, this, &ModelSettingsForm::fieldsChanged);
  connect(components_, &QSpinBox::valueChanged, this, [this] {
    mechanism_->setLearner(learner());
    fieldsChanged();
  });
  return group;
}

QWidget* ModelSettingsForm::makeDataGroup() {
  auto* group = new QGroupBox(tr("Training data"));
  auto* form = new QFormLayout(group);

  testFraction_ = new NumberField;
  testFraction_->setCheck([](double v) {
    return v >= 0.0 && v < 1.0 ? QString() : tr("the test fraction must be in [0, 1)");
  });
  testFraction_->setValue(SplitAndPreprocess{}.testFraction);
  testFraction_->setHelp(tr("Share of every class held out as test data (stratified, seeded). 0 trains on "
                            "every row and reports no test accuracy."));
  form->addRow(tr("Test fraction:"), testFraction_);

  splitSeed_ = new QSpinBox;
  splitSeed_->setRange(0, std::numeric_limits<int>::max());
  splitSeed_->setValue(static_cast<int>(SplitAndPreprocess{}.splitSeed));
  splitSeed_->setToolTip(tr("Seed of the train/test split: the same seed gives the same split."));
  form->addRow(tr("Split seed:"), splitSeed_);

  useNormBound_ = new QCheckBox;
  useNormBound_->setToolTip(tr("Clip every row to norm R and divide it by R, so that \u2016x\u2016 \u2264 1."));
  normBound_ = new NumberField;
  normBound_->setCheck([](double v) {
    PreprocessSpec spec;
    spec.normBound = v;
    return coreProblem(spec.validate());
  });
  normBound_->setHelp(tr("Public norm bound R: rows are clipped to norm R and divided by R, so that "
                         "\u2016x\u2016 \u2264 1 as every privacy guarantee assumes. R must be public: "
                         "choose it from how the data are defined, never from the rows themselves."));
  normBound_->setPlaceholderText(tr("public bound"));
  auto* boundRow = new QHBoxLayout;
  boundRow->setContentsMargins(0, 0, 0, 0);
  boundRow->addWidget(useNormBound_);
  boundRow->addWidget(normBound_, 1);
  form->addRow(tr("Norm bound R:"), boundRow);
  normBoundNote_ = new QLabel;
  normBoundNote_->setWordWrap(true);
  normBoundNote_->setForegroundRole(QPalette::PlaceholderText);
  form->addRow(normBoundNote_);

  useRange_ = new QCheckBox;
  useRange_->setToolTip(tr("Declare every feature's public range instead of R."));
  range_ = new NumberListField;
  range_->setCheck([](const std::vector<double>& v) -> QString {
    if (v.size() != 2) return tr("give the range as two numbers, lo, hi");
    PreprocessSpec spec;
    spec.publicRanges = {{v[0], v[1]}};
    return coreProblem(spec.validate());
  });
  range_->setHelp(tr("Every feature's public range lo, hi, from how the data are defined (pixels 0, 255; "
                     "fractions 0, 1), never from the rows: each feature is centred on the range's "
                     "midpoint and mapped to [\u2212\u00bd, \u00bd], values outside are clipped, and the norm "
                     "bound follows from the ranges (Help \u2192 Algorithms \u00a70.2)."));
  range_->setPlaceholderText(tr("lo, hi"));
  range_->setEnabled(false);
  auto* rangeRow = new QHBoxLayout;
  rangeRow->setContentsMargins(0, 0, 0, 0);
  rangeRow->addWidget(useRange_);
  rangeRow->addWidget(range_, 1);
  form->addRow(tr("Feature range:"), rangeRow);

  unitRows_ = new QCheckBox(tr("Scale rows to unit norm"));
  unitRows_->setToolTip(tr("Scale every row to norm 1 before the norm bound: a per-example transform, "
                           "so it costs no privacy."));
  form->addRow(QString(), unitRows_);
  // After the norm bound and before the intercept, as the pipeline runs them.
  kernel_ = new KernelFields(form, this);
  intercept_ = new QCheckBox(tr("Append an intercept feature"));
  intercept_->setToolTip(tr("Rows are scaled by 1/\u221a2 and the constant 1/\u221a2 is appended "
                            "(Help \u2192 Algorithms \u00a72.1), so that linear boundaries need not pass through the "
                            "origin while \u2016x\u2016 \u2264 1 still holds. LMGC has its own offset."));
  form->addRow(QString(), intercept_);

  connect(useNormBound_, &QCheckBox::toggled, normBound_, &QWidget::setEnabled);
  connect(useRange_, &QCheckBox::toggled, range_, &QWidget::setEnabled);
  for (auto handler : {&ModelSettingsForm::fieldsChanged, &ModelSettingsForm::updateShape}) {
    connect(useRange_, &QCheckBox::toggled, this, handler);
    connect(range_, &NumberListField::valueEdited, this, handler);
  }
  connect(useNormBound_, &QCheckBox::toggled, this, &ModelSettingsForm::fieldsChanged);
  for (NumberField* field : {testFraction_, normBound_})
    connect(field, &NumberField::valueEdited, this, &ModelSettingsForm::fieldsChanged);
  for (QCheckBox* box : {unitRows_, intercept_})
    connect(box, &QCheckBox::toggled, this, &ModelSettingsForm::fieldsChanged);
  connect(splitSeed_, &QSpinBox::valueChanged, this, &ModelSettingsForm::fieldsChanged);
  // The calibration's n and d follow the split and the preprocessing.
  connect(useNormBound_, &QCheckBox::toggled, this, &ModelSettingsForm::updateShape);
  for (NumberField* field : {testFraction_, normBound_})
    connect(field, &NumberField::valueEdited, this, &ModelSettingsForm::updateShape);
  for (QCheckBox* box : {unitRows_, intercept_}) connect(box, &QCheckBox::toggled, this, &ModelSettingsForm::updateShape);
  connect(splitSeed_, &QSpinBox::valueChanged, this, &ModelSettingsForm::updateShape);
  connect(kernel_, &KernelFields::edited, this, &ModelSettingsForm::fieldsChanged);
  connect(kernel_, &KernelFields::edited, this, &ModelSettingsForm::updateShape);
  // The note under the kernel says which units γ is in.
  const auto rowsScaled = [this] { kernel_->setRowsScaled(useNormBound_->isChecked() || unitRows_->isChecked()); };
  connect(useNormBound_, &QCheckBox::toggled, this, rowsScaled);
  connect(unitRows_, &QCheckBox::toggled, this, rowsScaled);
  normBound_->setEnabled(false);
  setDatasetSpec(QString());
  return group;
}

ModelKind ModelSettingsForm::modelKind() const {
  return static_cast<ModelKind>(modelBox_->currentData().toInt());
}

void ModelSettingsForm::setModelKind(ModelKind kind) {
  modelBox_->setCurrentIndex(modelBox_->findData(static_cast<int>(kind)));
}

LearnerSpec ModelSettingsForm::learner() const {
  LearnerSpec spec;
  spec.kind = modelKind();
  spec.lambda = lambda_->value().value_or(std::numeric_limits<double>::quiet_NaN());
  spec.huber = huber_->value().value_or(std::numeric_limits<double>::quiet_NaN());
  if (spec.kind == ModelKind::Lmgc) spec.components = components_->value();
  return spec;
}

void ModelSettingsForm::updateModelChoices() {
  // Models the mechanism cannot train are disabled with core's reason; if the current one
  // is among them, the first model it can train is chosen.
  auto* items = qobject_cast<QStandardItemModel*>(modelBox_->model());
  int firstAllowed = -1;
  for (int i = 0; i < modelBox_->count(); ++i) {
    const QString problem = mechanism_->modelProblem(static_cast<ModelKind>(modelBox_->itemData(i).toInt()));
    QStandardItem* item = items->item(i);
    item->setEnabled(problem.isEmpty());
    if (problem.isEmpty() && firstAllowed < 0) firstAllowed = i;
    // The model's own description stays; a refusal is added to it.
    const QString help = item->data(Qt::UserRole + 1).toString();
    item->setToolTip(problem.isEmpty() ? help : tr("Not with this mechanism: %1").arg(problem));
  }
  if (!items->item(modelBox_->currentIndex())->isEnabled() && firstAllowed >= 0)
    modelBox_->setCurrentIndex(firstAllowed);
  mechanism_->setLearner(learner());
}

bool ModelSettingsForm::schemaDeclaresRanges() const {
  if (!dataset_ || !dataset_->provenance.schema) return false;
  const auto declared = declaredPreprocessing(*dataset_->provenance.schema);
  return declared && !declared.value().ranges.empty();
}

void ModelSettingsForm::setDataset(std::shared_ptr<const Dataset> dataset) {
  dataset_ = std::move(dataset);
  // Rows read by a schema that declares ranges: those ranges are the preprocessing's unless
  // the user declares a range or R here (core's prepareLoaded), so no R is asked for.
  if (dataset_ && dataset_->provenance.schema) {
    if (schemaDeclaresRanges()) {
      useNormBound_->setChecked(false);
      normBound_->clear();
      normBoundNote_->setText(tr("The data schema declares the features' ranges: each feature is centred on its "
                                 "range and R follows from them (Help \u2192 Algorithms \u00a70.2). A range or R "
                                 "given here replaces the schema's."));
      normBoundNote_->setToolTip(QString());
    }
  }
  updateShape();
}

void ModelSettingsForm::setSeparateTest(bool separate) {
  if (separate == separateTest_) return;
  separateTest_ = separate;
  testFraction_->setEnabled(!separate);
  testFraction_->setToolTip(separate ? tr("A separate test file is open (Dataset dock): no rows are held out.")
                                     : QString());
  updateShape();
}

void ModelSettingsForm::updateShape() {
  if (!dataset_) {
    mechanism_->setProblemShape(std::nullopt, tr("Open a dataset to see the calibration."));
    return;
  }
  if (!testFraction_->isValid() || (useNormBound_->isChecked() && !normBound_->isValid()) ||
      (useRange_->isChecked() && !range_->isValid()) || !kernel_->problem().isEmpty()) {
    mechanism_->setProblemShape(std::nullopt, tr("Fix the training-data fields to see the calibration."));
    return;
  }
  QString why;
  const auto shape = trainingShape(&why);
  mechanism_->setProblemShape(shape, why);
}

std::optional<mech::ProblemShape> ModelSettingsForm::trainingShape(QString* why) const {
  QString ignored;
  if (!dataset_) return std::nullopt;
  SplitAndPreprocess split = settings().data;
  if (separateTest_) split.testFraction = 0.0;
  return problemShape(*dataset_, split, why ? why : &ignored);
}

void ModelSettingsForm::updateModelRows() {
  const ModelKind kind = modelKind();
  modelForm_->setRowVisible(huber_, usesHuber(kind));
  modelForm_->setRowVisible(components_, kind == ModelKind::Lmgc);
  lambda_->setHelp(lambdaHelp(kind));
  if (kernel_) kernel_->setAvailable(kind != ModelKind::Lmgc, kernelRefusal(kind));
}

void ModelSettingsForm::setDatasetSpec(const QString& spec) {
  useRange_->setChecked(false);  // a range belongs to the data it was declared for
  const std::optional<PublicNormBound> bound = publicNormBound(spec.toStdString());
  useNormBound_->setChecked(bound.has_value());
  if (bound) {
    normBound_->setValue(bound->bound);
    const QString reason = QString::fromStdString(bound->reason);
    normBoundNote_->setText(bound->assumed
                                ? tr("Assumed public bound (domain knowledge, not read off the data): %1.").arg(reason)
                                : tr("Public bound from the data's definition: %1.").arg(reason));
    normBoundNote_->setToolTip(QString());
  } else {
    normBound_->clear();
    normBoundNote_->setText(tr("No documented public bound: declare the features' range below (or R) from "
                               "how the data are defined, without looking at the rows, or scale rows to unit "
                               "norm."));
    normBoundNote_->setToolTip(tr("A non-private baseline also trains without a bound."));
  }
}

TrainingSettings ModelSettingsForm::settings() const {
  TrainingSettings s;
  s.learner.kind = modelKind();
  s.learner.lambda = lambda_->value().value_or(s.learner.lambda);
  s.learner.huber = huber_->value().value_or(s.learner.huber);
  if (s.learner.kind == ModelKind::Lmgc) s.learner.components = components_->value();
  s.tolerance = tolerance_->value().value_or(s.tolerance);
  s.maxIterations = maxIterations_->value();
  s.data.testFraction = testFraction_->value().value_or(s.data.testFraction);
  s.data.splitSeed = static_cast<std::uint64_t>(splitSeed_->value());
  if (useNormBound_->isChecked()) s.data.preprocess.normBound = normBound_->value();
  s.data.preprocess.unitRows = unitRows_->isChecked();
  if (useRange_->isChecked())
    if (const auto range = range_->values(); range && range->size() == 2)
      s.data.preprocess.publicRanges = {{(*range)[0], (*range)[1]}};
  s.data.preprocess.intercept = intercept_->isChecked();
  s.data.preprocess.randomFeatures = kernel_->spec();
  s.privacy = mechanism_->settings();
  return s;
}

QStringList ModelSettingsForm::problems() const {
  QStringList out;
  const auto add = [&out](const QString& field, const NumberField* f) {
    if (!f->isValid()) out << tr("%1: %2").arg(field, f->problem());
  };
  add(tr("\u03bb"), lambda_);
  if (usesHuber(modelKind())) add(tr("Huber h"), huber_);
  add(tr("Tolerance"), tolerance_);
  add(tr("Test fraction"), testFraction_);
  if (useNormBound_->isChecked()) add(tr("Norm bound R"), normBound_);
  if (useRange_->isChecked() && !range_->isValid()) out << tr("Feature range: %1").arg(range_->problem());
  if (const QString problem = kernel_->problem(); !problem.isEmpty()) out << tr("Kernel \u03b3: %1").arg(problem);
  if (mechanism_->isPrivate()) {
    if (const QString problem = mechanism_->modelProblem(modelKind()); !problem.isEmpty())
      out << tr("Model: %1").arg(problem);
    // Every privacy proof assumes ‖x‖ ≤ 1 (docs/algorithms.md §0.2); core refuses other rows —
    // except subsample-and-aggregate's, whose teachers are black boxes to its proof. Random
    // Fourier features have norm ≤ 1 whatever the rows were.
    if (mechanism_->needsUnitRows() && !useNormBound_->isChecked() && !unitRows_->isChecked() &&
        !useRange_->isChecked() && !kernel_->isUsed() && !schemaDeclaresRanges())
      out << tr("Norm bound R: a private mechanism needs rows with \u2016x\u2016 \u2264 1 \u2014 "
                "declare the features' public range, a public norm bound R, or scale rows to unit norm");
    out << mechanism_->problems();
  }
  return out;
}

void ModelSettingsForm::fieldsChanged() {
  emit changed();
  const bool valid = isValid();
  if (valid != wasValid_) {
    wasValid_ = valid;
    emit validityChanged(valid);
  }
}

void ModelSettingsForm::saveSettings() const {
  QSettings settings;
  saveTo(settings);
}

void ModelSettingsForm::restoreSettings() {
  QSettings settings;
  restoreFrom(settings);
  restoredChanges_ = settingsChanges(defaults_, this->settings(), SettingsScope::Everything);
}

void ModelSettingsForm::captureDefaults() {
  defaults_ = settings();
  defaultsDir_ = std::make_unique<QTemporaryDir>();
  if (!defaultsDir_->isValid()) {
    defaultsDir_.reset();
    return;
  }
  QSettings snapshot(defaultsDir_->filePath(QStringLiteral("defaults.ini")), QSettings::IniFormat);
  saveTo(snapshot);
  snapshot.sync();
}

void ModelSettingsForm::resetToDefaults() {
  if (!defaultsDir_) return;
  QSettings snapshot(defaultsDir_->filePath(QStringLiteral("defaults.ini")), QSettings::IniFormat);
  restoreFrom(snapshot);
  restoredChanges_.clear();
  fieldsChanged();
}

void ModelSettingsForm::saveTo(QSettings& settings) const {
  settings.setValue(kPrefix + QStringLiteral("kind"), QString::fromStdString(modelKindName(modelKind())));
  settings.setValue(kPrefix + QStringLiteral("lambda"), lambda_->text());
  settings.setValue(kPrefix + QStringLiteral("huber"), huber_->text());
  settings.setValue(kPrefix + QStringLiteral("tolerance"), tolerance_->text());
  settings.setValue(kPrefix + QStringLiteral("maxIterations"), maxIterations_->value());
  settings.setValue(kPrefix + QStringLiteral("components"), components_->value());
  settings.setValue(kPrefix + QStringLiteral("testFraction"), testFraction_->text());
  settings.setValue(kPrefix + QStringLiteral("splitSeed"), splitSeed_->value());
  settings.setValue(kPrefix + QStringLiteral("unitRows"), unitRows_->isChecked());
  settings.setValue(kPrefix + QStringLiteral("intercept"), intercept_->isChecked());
  kernel_->save(settings, kPrefix);
  mechanism_->saveTo(settings);
}

void ModelSettingsForm::restoreFrom(QSettings& settings) {
  if (auto kind = parseModelKind(settings.value(kPrefix + QStringLiteral("kind")).toString().toStdString()))
    setModelKind(*kind);
  // Text as typed, so that a saved invalid value comes back marked rather than replaced.
  const auto restoreText = [&settings](NumberField* field, const QString& key) {
    const QVariant v = settings.value(kPrefix + key);
    if (v.isValid()) field->setText(v.toString());
  };
  restoreText(lambda_, QStringLiteral("lambda"));
  restoreText(huber_, QStringLiteral("huber"));
  restoreText(tolerance_, QStringLiteral("tolerance"));
  restoreText(testFraction_, QStringLiteral("testFraction"));
  maxIterations_->setValue(settings.value(kPrefix + QStringLiteral("maxIterations"), maxIterations_->value()).toInt());
  components_->setValue(settings.value(kPrefix + QStringLiteral("components"), components_->value()).toInt());
  splitSeed_->setValue(settings.value(kPrefix + QStringLiteral("splitSeed"), splitSeed_->value()).toInt());
  unitRows_->setChecked(settings.value(kPrefix + QStringLiteral("unitRows"), unitRows_->isChecked()).toBool());
  intercept_->setChecked(settings.value(kPrefix + QStringLiteral("intercept"), intercept_->isChecked()).toBool());
  kernel_->restore(settings, kPrefix);
  // After the model: the mechanism adjusts the model to what it can train. The λ restored
  // stays as saved whatever mechanism comes back; it follows defaults again from here on.
  restoring_ = true;
  mechanism_->restoreFrom(settings);
  restoring_ = false;
  lambdaDefault_ = currentDefaultLambda();
}

double ModelSettingsForm::currentDefaultLambda() const {
  return mechanism_->isPrivate() ? defaultPrivateLambda(modelKind()) : defaultLambda(modelKind());
}

void ModelSettingsForm::followDefaultLambda() {
  if (restoring_) return;
  const double now = currentDefaultLambda();
  if (now == lambdaDefault_) return;
  // A λ nobody edited follows the default of the model and mechanism (learner.h says why
  // private training starts higher, and why LMGC's differs).
  if (lambda_->value() == lambdaDefault_) {
    lambda_->setValue(now);
    lambda_->recheck();
    mechanism_->setLearner(learner());
  }
  lambdaDefault_ = now;
}

}  // namespace dpstudio::ui
