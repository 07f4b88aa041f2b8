#include "ui/training/mechanism_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/tuning.h"
#include "core/mechanisms/noise_scale.h"
#include "core/mechanisms/sgd_step.h"
#include "core/privacy/validation.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_catalog.h"
#include "ui/training/prediction_fields.h"
#include "ui/widgets/number_field.h"
#include "ui/widgets/number_list_field.h"
#include "ui/widgets/form_rows.h"

namespace dpstudio::ui {
namespace {

using mech::Calibration;
using mech::MechanismKind;
using mech::NoiseFamily;

const QString kPrefix = QStringLiteral("model/mechanism/");
// DP-SGD's σ search takes a few milliseconds per call: not on every keystroke.
constexpr int kDebounceMs = 150;
// δ when a field that needs one is invalid or unused by a check: any valid value will do.
constexpr double kCheckDelta = 1e-5;

const QString kWarningStyle = QStringLiteral(
    "QLabel { color: #8a1c00; background: #fff1e6; border: 1px solid #e8a87c;"
    " border-radius: 3px; padding: 4px; }");

QString message(const Status& status) { return QString::fromStdString(status.error().message); }

}  // namespace

MechanismForm::MechanismForm(QWidget* parent) : QWidget(parent) {
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDebounceMs);
  connect(&debounce_, &QTimer::timeout, this, &MechanismForm::computeCalibration);
  buildRows();
  updateChoices();
  updateRows();
  recheckFields();
  computeCalibration();
}

MechanismForm::~MechanismForm() = default;

void MechanismForm::buildRows() {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  form_ = new QFormLayout;
  rows_ = std::make_unique<FormRows>(form_);
  outer->addLayout(form_);
  // The rows in the order the form shows them; updateRows() hides those the mechanism has not.
  addPrivacyRows();
  addDpSgdRows();
  // §3 F, G and I: the budget, the teachers and the parties (prediction_fields.h).
  predictionFields_ = new PredictionFields(
      form_, rows_.get(), [this] { return currentPredictionOptions(); }, [this] { return currentMultipartyOptions(); }, this);
  addTuningRows();
  addNoiseSourceRows();
  addCalibrationReport(outer);
  installChecks();
  connectFields();
}

void MechanismForm::addPrivacyRows() {
  mechanismBox_ = new QComboBox;
  fillMechanismList(mechanismBox_);
  mechanismBox_->setCurrentIndex(1);
  connect(mechanismBox_, &QComboBox::activated, this, [this] { userChoseMechanism_ = true; });
  mechanismBox_->setToolTip(tr("How privacy is achieved. The private-training, private-prediction and multiparty "
                               "mechanisms of Help \u2192 Algorithms \u00a73; \u201cNone\u201d trains the non-private "
                               "baseline."));
  form_->addRow(tr("&Mechanism:"), mechanismBox_);
  mechanismNote_ = new QLabel;
  mechanismNote_->setWordWrap(true);
  mechanismNote_->setForegroundRole(QPalette::PlaceholderText);
  form_->addRow(mechanismNote_);

  epsilon_ = new NumberField;
  epsilon_->setValue(1.0);
  epsilon_->setHelp(tr("Privacy budget \u03b5 > 0 of the whole release (one-vs-rest models split it over the "
                       "classes). Smaller: more private, more noise."));
  form_->addRow(tr("&\u03b5 (epsilon):"), epsilon_);

  delta_ = new NumberField;
  delta_->setValue(kCheckDelta);
  delta_->setHelp(tr("\u03b4 in (0, 1) of an (\u03b5, \u03b4) guarantee: Gaussian noise and DP-SGD need one. "
                     "Choose it well below 1/n. Subsample-and-aggregate takes 0 (an \u03b5-DP budget) or "
                     "\u03b4 > 0 (advanced composition over the B answers)."));
  form_->addRow(tr("&\u03b4 (delta):"), delta_);

  distribution_ = new QComboBox;
  distribution_->addItem(tr("\u2113\u2082-Laplace (\u03b5-DP)"), QString::fromStdString(mech::noiseFamilyName(NoiseFamily::L2Laplace)));
  distribution_->addItem(tr("Gaussian ((\u03b5, \u03b4)-DP)"), QString::fromStdString(mech::noiseFamilyName(NoiseFamily::Gaussian)));
  distribution_->setToolTip(tr("The noise family: density \u221d exp(\u2212\u03b2\u2016b\u2016) over the whole "
                               "parameter vector (\u03b5-DP), or Gaussian with the analytic \u03c3 (needs \u03b4)."));
  form_->addRow(tr("&Noise:"), distribution_);

  calibrationMode_ = new QComboBox;
  calibrationMode_->addItem(tr("Corrected"), QString::fromStdString(mech::calibrationName(Calibration::Corrected)));
  calibrationMode_->addItem(tr("As published"), QString::fromStdString(mech::calibrationName(Calibration::Published)));
  calibrationMode_->setToolTip(tr("Corrected: a calibration whose proof holds (Help \u2192 Algorithms). As published: "
                                  "the paper's own formula, to reproduce its figures \u2014 it does not carry "
                                  "the stated guarantee."));
  form_->addRow(tr("&Calibration:"), calibrationMode_);

  lambda2_ = new NumberField;
  lambda2_->setValue(mech::MechanismOptions{}.lmgcStrongConvexity);
  lambda2_->setHelp(tr("\u03bb\u2082 > 0: the strongly convex term output perturbation adds to LMGC's "
                       "objective so that its minimizer has a bounded sensitivity \u0394 = 2K/(n\u03bb\u2082)."));
  form_->addRow(tr("\u03bb\u2082 (LMGC):"), lambda2_);
}

void MechanismForm::addDpSgdRows() {
  const mech::DpSgdSettings sgd;
  // Batch and epochs empty (and no step): the linear models take the schedule from the problem, LMGC
  // the fixed defaults (core's takesScheduleFromProblem, as the CLI).
  batch_ = new NumberField;
  batch_->setOptional(true);
  batch_->setPlaceholderText(tr("from the problem (LMGC: %1)").arg(sgd.batchSize));
  batch_->setHelp(tr("Expected batch size B: every step samples each row with probability q = B/n. Empty, with "
                     "the epochs and the learning rate empty: the linear models (logistic, Huber, softmax) take "
                     "their batch, steps and step from n, d, C and ε (Help → Algorithms §3 E)."));
  form_->addRow(tr("&Batch size:"), batch_);
  clip_ = new NumberField;
  clip_->setValue(sgd.clipNorm);
  clip_->setHelp(tr("Clip norm \u03bd: each example's gradient is scaled down to norm \u2264 \u03bd."));
  form_->addRow(tr("C&lip norm \u03bd:"), clip_);
  epochs_ = new NumberField;
  epochs_->setOptional(true);
  epochs_->setPlaceholderText(tr("from the problem (LMGC: %1)").arg(sgd.epochs));
  epochs_->setHelp(tr("Passes over the data: T = \u2308epochs/q\u2309 noisy steps."));
  form_->addRow(tr("E&pochs:"), epochs_);
  learningRate_ = new NumberField;
  learningRate_->setOptional(true);
  learningRate_->setPlaceholderText(tr("fitted to the rows"));
  learningRate_->setHelp(tr("Step size on the mean noisy gradient. Empty: the linear models spend 5 % of ε "
                            "on the rows' mean squared norm m and step 1/(L·m + λ) with the clip norm at most "
                            "K·√m (softmax L = 1/2, K = √2; logistic L = 1/4, K = 1); LMGC steps 1/(L + λ), L its curvature bound on the unit "
                            "ball (Help → Algorithms §3 E)."));
  form_->addRow(tr("Learning &rate:"), learningRate_);
}

void MechanismForm::addTuningRows() {
  tune_ = new QCheckBox(tr("&Tune \u03bb privately (Alg. 3)"));
  tune_->setToolTip(tr("Chaudhuri et al. Alg. 3 (Help \u2192 Algorithms \u00a73 H): the training part is cut into m + 1 "
                       "parts, one private model per candidate \u03bb, and one released, chosen by the "
                       "exponential mechanism on the last part \u2014 within the same (\u03b5, \u03b4). The "
                       "model form's \u03bb is then only the non-private reference's."));
  tuneLambdas_ = new NumberListField;
  tuneLambdas_->setValues({1e-4, 1e-3, 1e-2});
  tuneLambdas_->setHelp(tr("Candidate \u03bb values, separated by commas."));
  tuneLambdas_->setEnabled(false);
  form_->addRow(tune_);
  form_->addRow(tr("\u03bb candidates:"), tuneLambdas_);
  selectAll_ = new QCheckBox(tr("Choose &privately among all mechanisms"));
  selectAll_->setToolTip(tr("Help \u2192 Algorithms \u00a73 K. Unticked: the public rule's mechanism and \u03bb "
                            "train once at the whole \u03b5. Ticked: every mechanism that fits the model, each "
                            "with a few \u03bb (and DP-SGD's step), runs a random number of times on all the rows "
                            "and the best by noisy training accuracy is released; the choice costs part of "
                            "\u03b5."));
  form_->addRow(selectAll_);
}

void MechanismForm::addNoiseSourceRows() {
  noiseSource_ = new QComboBox;
  // Release first and by default: a trained model is a release (it is in the ledger), so it
  // draws from the CSPRNG unless the user asks for a replayable experiment (issue 30).
  noiseSource_->addItem(tr("Release (OS CSPRNG)"), QStringLiteral("release"));
  noiseSource_->setItemData(0, tr("The operating system's CSPRNG (getrandom): unseedable. Released parameters "
                                  "are rounded to a grid (Mironov 2012). The drawn noise norms are withheld."),
                            Qt::ToolTipRole);
  noiseSource_->addItem(tr("Experiment (seeded, NOT private)"), QStringLiteral("experiment"));
  noiseSource_->setItemData(1, tr("A portable seeded generator: the same seed gives the same noise on any "
                                  "machine. Anyone who knows the seed can subtract the noise: for experiments, "
                                  "not for models you publish; results say NOT private."),
                            Qt::ToolTipRole);
  noiseSource_->setToolTip(tr("Where the noise comes from."));
  form_->addRow(tr("R&andomness:"), noiseSource_);
  seed_ = new QSpinBox;
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setValue(1);
  seed_->setToolTip(tr("Seed of the experiment-mode noise. Redraw noise uses the next seed. With one seed, "
                       "a new \u03b5 rescales the same draw (its direction stays), so the picture may change "
                       "little: Redraw noise, or Draw N on the Privacy\u2013utility page, shows the spread."));
  form_->addRow(tr("S&eed:"), seed_);
}

void MechanismForm::addCalibrationReport(QVBoxLayout* outer) {
  calibrationTitle_ = new QLabel;
  QFont bold = calibrationTitle_->font();
  bold.setBold(true);
  calibrationTitle_->setFont(bold);
  calibrationTitle_->setWordWrap(true);
  outer->addWidget(calibrationTitle_);
  calibrationView_ = new CalibrationView;
  outer->addWidget(calibrationView_);
  warning_ = new QLabel;
  warning_->setWordWrap(true);
  warning_->setStyleSheet(kWarningStyle);
  warning_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  outer->addWidget(warning_);
}

// The checks read the other fields: installed once every field exists.
void MechanismForm::installChecks() {
  epsilon_->setCheck([this](double v) {
    if (predictionKind()) return predictionProblemOf("epsilon", [v](auto& o) { o.epsilon = v; });
    if (isMultiparty()) return multipartyProblemOf("epsilon", [v](auto& o) { o.epsilon = v; });
    return problemOf("epsilon", [v](auto& o) { o.epsilon = v; });
  });
  delta_->setCheck([this](double v) {
    if (predictionKind()) return predictionProblemOf("delta", [v](auto& o) { o.delta = v; });
    return problemOf("delta", [v](auto& o) { o.delta = v; });
  });
  lambda2_->setCheck([this](double v) { return problemOf("lambda2", [v](auto& o) { o.lmgcStrongConvexity = v; }); });
  batch_->setCheck([this](double v) {
    if (!(v >= 1 && v <= 1e12) || v != std::floor(v)) return tr("the batch size must be a whole number >= 1");
    return problemOf("batch-size", [v](auto& o) { o.sgd.batchSize = static_cast<Index>(v); });
  });
  clip_->setCheck([this](double v) { return problemOf("clip-norm", [v](auto& o) { o.sgd.clipNorm = v; }); });
  epochs_->setCheck([this](double v) { return problemOf("epochs", [v](auto& o) { o.sgd.epochs = v; }); });
  learningRate_->setCheck(
      [this](double v) { return problemOf("learning-rate", [v](auto& o) { o.sgd.learningRate = v; }); });
  tuneLambdas_->setCheck([this](const std::vector<double>& lambdas) {
    mech::TuningOptions tuning{currentOptions(), lambdas};
    const Status status = tuning.validate();
    return status ? QString() : message(status);
  });
}

void MechanismForm::connectFields() {
  // The lists' longest entries would otherwise set the dock's width; the popups still show
  // them in full.
  for (QComboBox* box : {mechanismBox_, distribution_, calibrationMode_, noiseSource_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  for (QComboBox* box : {mechanismBox_, distribution_, calibrationMode_, noiseSource_})
    connect(box, &QComboBox::currentIndexChanged, this, [this, box] {
      if (updating_) return;
      updating_ = true;
      updateChoices();
      updateRows();
      recheckFields();
      updating_ = false;
      if (box == mechanismBox_) emit mechanismChanged(mechanism());
      fieldsChanged();
    });
  for (NumberField* field : {epsilon_, delta_, lambda2_, batch_, clip_, epochs_, learningRate_})
    connect(field, &NumberField::valueEdited, this, [this, field] {
      // One field's value can change what the others may hold (none today, but cheap).
      for (NumberField* other : {epsilon_, delta_, lambda2_, batch_, clip_, epochs_, learningRate_})
        if (other != field) other->recheck();
      tuneLambdas_->recheck();
      fieldsChanged();
    });
  connect(tuneLambdas_, &NumberListField::valueEdited, this, &MechanismForm::fieldsChanged);
  connect(selectAll_, &QCheckBox::toggled, this, &MechanismForm::fieldsChanged);
  connect(tune_, &QCheckBox::toggled, this, [this](bool on) {
    tuneLambdas_->setEnabled(on);
    fieldsChanged();
  });
  connect(seed_, &QSpinBox::valueChanged, this, &MechanismForm::fieldsChanged);
  connect(predictionFields_, &PredictionFields::edited, this, &MechanismForm::fieldsChanged);
}

MechanismKind MechanismForm::mechanism() const {
  return experiment::trainingMechanism(mechanismBox_->currentData().toString().toStdString()).value_or(MechanismKind::None);
}

void MechanismForm::setMechanism(MechanismKind kind) {
  mechanismBox_->setCurrentIndex(mechanismBox_->findData(QString::fromStdString(mech::mechanismName(kind))));
}

bool MechanismForm::isRowShown(QWidget* field) const { return rows_->isShown(field); }

experiment::MechanismUses MechanismForm::uses() const {
  const experiment::MechanismEntry* entry = experiment::findMechanism(choice().toStdString());
  return entry ? entry->uses : experiment::MechanismUses{.delta = false, .familyChoice = false};
}

void MechanismForm::setLearner(const LearnerSpec& learner) {
  learner_ = learner;
  updating_ = true;
  updateChoices();
  updateRows();
  recheckFields();
  updating_ = false;
  scheduleCalibration();
}

void MechanismForm::setProblemShape(const std::optional<mech::ProblemShape>& shape, const QString& reason) {
  shape_ = shape;
  noShapeReason_ = reason;
  predictionFields_->setTrainingRows(shape ? std::optional<Index>(shape->rows) : std::nullopt);
  scheduleCalibration();
}

mech::MechanismOptions MechanismForm::currentOptions() const {
  mech::MechanismOptions o;
  o.kind = mechanism();
  o.learner.kind = learner_.kind;
  // An invalid λ or h is the model form's to report; checks here use a valid one.
  if (learner_.validate()) o.learner = learner_;
  o.family = mech::parseNoiseFamily(distribution_->currentData().toString().toStdString()).value_or(NoiseFamily::L2Laplace);
  o.calibration =
      mech::parseCalibration(calibrationMode_->currentData().toString().toStdString()).value_or(Calibration::Corrected);
  // A mechanism without a family choice (DP-SGD: Gaussian by construction) ignores the
  // list, whose row is hidden for it; δ is read where the guarantee has one.
  const experiment::MechanismUses used = uses();
  if (!used.familyChoice) o.family = NoiseFamily::L2Laplace;
  const bool usesDelta = used.delta && (!used.familyChoice || o.family == NoiseFamily::Gaussian);
  o.epsilon = epsilon_->value().value_or(1.0);
  // δ only where the guarantee has one: an ε-DP release is recorded with δ = 0.
  o.delta = usesDelta ? delta_->value().value_or(kCheckDelta) : 0.0;
  o.lmgcStrongConvexity = lambda2_->value().value_or(mech::MechanismOptions{}.lmgcStrongConvexity);
  const mech::DpSgdSettings defaults;
  o.sgd.batchSize = batch_->value() ? static_cast<Index>(*batch_->value()) : defaults.batchSize;
  o.sgd.clipNorm = clip_->value().value_or(defaults.clipNorm);
  o.sgd.epochs = epochs_->value().value_or(defaults.epochs);
  o.sgd.learningRate = learningRate_->value();
  o.sgd.scheduleFromProblem = mech::takesScheduleFromProblem(
      o.learner.kind, batch_->value() || epochs_->value() || learningRate_->value());
  return o;
}

mech::SelectionOptions MechanismForm::currentSelection() const {
  mech::SelectionOptions o;
  o.shared = currentOptions();
  o.settings.tune = selectAll_->isChecked();
  return o;
}

QString MechanismForm::problemOf(const char* field, const std::function<void(mech::MechanismOptions&)>& change) const {
  mech::MechanismOptions o = currentOptions();
  change(o);
  const Status status = o.validate();
  return !status && status.error().field == field ? message(status) : QString();
}

Status MechanismForm::choiceStatus(const mech::MechanismOptions& options) {
  // The choices alone: every number at a valid value, so that only a refused combination of
  // mechanism, model, noise family and calibration remains.
  mech::MechanismOptions o = options;
  o.learner.lambda = LearnerSpec{}.lambda;
  o.learner.huber = LearnerSpec{}.huber;
  o.epsilon = 1.0;
  o.delta = kCheckDelta;
  o.lmgcStrongConvexity = mech::MechanismOptions{}.lmgcStrongConvexity;
  o.sgd = mech::DpSgdSettings{};
  return o.validate();
}

QString MechanismForm::choiceProblem(const mech::MechanismOptions& options) const {
  const Status status = choiceStatus(options);
  return status ? QString() : message(status);
}

QString MechanismForm::modelProblem(ModelKind model) const {
  // The model alone decides here: every number at a value core accepts.
  if (predictionKind()) {
    predict::PredictionOptions o;
    o.kind = *predictionKind();
    o.learner.kind = model;
    const Status status = o.validate();
    return status ? QString() : message(status);
  }
  if (isMultiparty()) {
    multiparty::MultipartyOptions o;
    o.model = model;
    const Status status = o.validate();
    return status ? QString() : message(status);
  }
  mech::MechanismOptions o = currentOptions();
  o.learner.kind = model;
  o.family = NoiseFamily::L2Laplace;  // the model decides; the noise list follows it
  o.calibration = Calibration::Corrected;
  return choiceProblem(o);
}

void MechanismForm::updateChoices() {
  if (predictionKind() || isMultiparty()) {
    // Core offers both noise families (F; the others have none) and both calibrations
    // (the numbers differ where the paper's formula does: F with Gaussian noise, G, I).
    for (int i = 0; i < distribution_->count(); ++i) setComboItemAllowed(distribution_, i, QString(), QString());
    for (int i = 0; i < calibrationMode_->count(); ++i) {
      const bool published = calibrationMode_->itemData(i).toString() == QLatin1String("published");
      setComboItemAllowed(calibrationMode_, i, QString(),
                     published ? tr("The paper's formula, for reproducing its figures: NOT private as stated.")
                               : tr("A calibration whose privacy proof holds."));
    }
    return;
  }
  const mech::MechanismOptions current = currentOptions();
  // core's complaint about `field` when the current choices are changed by `change`.
  const auto problemWith = [this, &current](auto change, const char* field) {
    mech::MechanismOptions o = current;
    change(o);
    const Status status = choiceStatus(o);
    return !status && status.error().field == field ? message(status) : QString();
  };
  const bool familyChoice = uses().familyChoice;
  for (int i = 0; i < distribution_->count(); ++i) {
    const auto family = *mech::parseNoiseFamily(distribution_->itemData(i).toString().toStdString());
    const QString problem =
        !familyChoice ? QString() : problemWith([family](mech::MechanismOptions& o) { o.family = family; }, "distribution");
    setComboItemAllowed(distribution_, i, problem, QString());
  }
  for (int i = 0; i < calibrationMode_->count(); ++i) {
    const auto calibration = *mech::parseCalibration(calibrationMode_->itemData(i).toString().toStdString());
    const QString problem =
        problemWith([calibration](mech::MechanismOptions& o) { o.calibration = calibration; }, "calibration");
    setComboItemAllowed(calibrationMode_, i, problem,
                   calibration == Calibration::Published
                       ? tr("The paper's formula, for reproducing its figures: NOT private as stated.")
                       : tr("A calibration whose privacy proof holds."));
  }
  keepComboOnEnabledItem(calibrationMode_);
  keepComboOnEnabledItem(distribution_);
}

void MechanismForm::updateRows() {
  // The rows a mechanism reads are its catalogue entry's `uses` (mechanism_catalog.h).
  const MechanismKind kind = mechanism();
  const experiment::MechanismUses used = uses();
  const auto prediction = predictionKind();
  const bool multiparty = isMultiparty();
  const bool training = kind != MechanismKind::None;  // a private-training mechanism, §3 A–E
  const bool priv = isPrivate();
  const bool sensitivity = prediction == predict::PredictionKind::Sensitivity;
  const bool subsample = prediction == predict::PredictionKind::Subsample;
  const bool gaussian = distribution_->currentData().toString() ==
                        QString::fromStdString(mech::noiseFamilyName(NoiseFamily::Gaussian));
  rows_->setShown(epsilon_, priv);
  const bool selection = isSelection();
  rows_->setShown(delta_, used.delta && (!used.familyChoice || gaussian));
  rows_->setShown(distribution_, used.familyChoice);
  rows_->setShown(calibrationMode_, training || subsample || multiparty || (sensitivity && gaussian));
  rows_->setShown(lambda2_, used.strongConvexity && learner_.kind == ModelKind::Lmgc);
  for (NumberField* field : {batch_, clip_, epochs_, learningRate_}) rows_->setShown(field, used.sgd);
  predictionFields_->setKind(sensitivity  ? PredictionFields::Kind::Sensitivity
                             : subsample  ? PredictionFields::Kind::Subsample
                             : multiparty ? PredictionFields::Kind::Multiparty
                                          : PredictionFields::Kind::None);
  // λ tuning is Alg. 3 over a training mechanism.
  rows_->setShown(tune_, training);
  rows_->setShown(tuneLambdas_, training && tune_->isChecked());
  rows_->setShown(selectAll_, selection);
  rows_->setShown(noiseSource_, priv);
  const bool experiment = noiseSource_->currentData().toString() == QLatin1String("experiment");
  rows_->setShown(seed_, priv && experiment);
  mechanismNote_->setText(prediction || multiparty ? predictionNote(choice())
                          : selection             ? mechanismNote(selectionChoice().toStdString())
                                                  : mechanismNote(kind));
  calibrationTitle_->setVisible(priv);
  calibrationView_->setVisible(priv);
  if (!priv) warning_->setVisible(false);
}

void MechanismForm::recheckFields() {
  for (NumberField* field : {epsilon_, delta_, lambda2_, batch_, clip_, epochs_, learningRate_}) field->recheck();
  tuneLambdas_->recheck();
  predictionFields_->recheck();
}

QStringList MechanismForm::problems() const {
  QStringList out;
  if (!isPrivate()) return out;
  const bool training = mechanism() != MechanismKind::None;
  const QString choice = training ? choiceProblem(currentOptions()) : QString();
  if (!choice.isEmpty()) out << tr("Mechanism: %1").arg(choice);
  // What core refuses only once it sees the data, said before any work.
  if (isMultiparty() && shape_ && shape_->classes != 2)
    out << tr("Mechanism: multiparty aggregation trains a binary classifier (paper 004); the data have %1 classes")
               .arg(shape_->classes);
  if ((predictionKind() || isMultiparty()) && learner_.components > 1)
    out << tr("Model: an LMGC mixture (components > 1) is for the training mechanisms; this one trains one "
              "Gaussian per class");
  const auto add = [this, &out](const QString& name, const NumberField* field) {
    if (isRowShown(const_cast<NumberField*>(field)) && !field->isValid()) out << tr("%1: %2").arg(name, field->problem());
  };
  add(tr("\u03b5"), epsilon_);
  add(tr("\u03b4"), delta_);
  add(tr("\u03bb\u2082"), lambda2_);
  add(tr("Batch size"), batch_);
  add(tr("Clip norm"), clip_);
  add(tr("Epochs"), epochs_);
  add(tr("Learning rate"), learningRate_);
  if (isSelection())
    if (const Status status = currentSelection().validate(); !status) out << tr("Mechanism: %1").arg(message(status));
  if (training && tune_->isChecked() && !tuneLambdas_->isValid())
    out << tr("\u03bb candidates: %1").arg(tuneLambdas_->problem());
  out << predictionFields_->problems();
  return out;
}

PrivacySettings MechanismForm::settings() const {
  PrivacySettings s;
  s.options = currentOptions();
  if (predictionKind()) s.prediction = currentPredictionOptions();
  if (isMultiparty()) s.multiparty = currentMultipartyOptions();
  if (isSelection()) s.selection = currentSelection().settings;
  if (s.options.kind != MechanismKind::None && tune_->isChecked())
    s.tuneLambdas = tuneLambdas_->values().value_or(std::vector<double>{});
  s.noise = noiseSource_->currentData().toString() == QLatin1String("release") ? privacy::NoiseKind::Release
                                                                                : privacy::NoiseKind::Experiment;
  s.seed = static_cast<std::uint64_t>(seed_->value());
  return s;
}

void MechanismForm::fieldsChanged() {
  if (updating_) return;
  updateRows();
  scheduleCalibration();
  emit changed();
}

void MechanismForm::saveSettings() const {
  QSettings settings;
  saveTo(settings);
}

void MechanismForm::restoreSettings() {
  QSettings settings;
  restoreFrom(settings);
}

void MechanismForm::saveTo(QSettings& settings) const {
  predictionFields_->save(settings, kPrefix);
  settings.setValue(kPrefix + QStringLiteral("kind"), mechanismBox_->currentData());
  settings.setValue(kPrefix + QStringLiteral("distribution"), distribution_->currentData());
  settings.setValue(kPrefix + QStringLiteral("calibration"), calibrationMode_->currentData());
  settings.setValue(kPrefix + QStringLiteral("noise"), noiseSource_->currentData());
  settings.setValue(kPrefix + QStringLiteral("seed"), seed_->value());
  settings.setValue(kPrefix + QStringLiteral("tune"), tune_->isChecked());
  settings.setValue(kPrefix + QStringLiteral("selectAll"), selectAll_->isChecked());
  settings.setValue(kPrefix + QStringLiteral("tuneLambdas"), tuneLambdas_->text());
  const std::pair<const char*, NumberField*> fields[] = {{"epsilon", epsilon_}, {"delta", delta_},
                                                         {"lambda2", lambda2_}, {"batch", batch_},
                                                         {"clip", clip_},       {"epochs", epochs_},
                                                         {"learningRate", learningRate_}};
  for (const auto& [key, field] : fields) settings.setValue(kPrefix + QLatin1String(key), field->text());
}

void MechanismForm::restoreFrom(QSettings& settings) {
  const auto restoreChoice = [&settings](QComboBox* box, const QString& key) {
    if (!settings.contains(kPrefix + key)) return;
    const int index = box->findData(settings.value(kPrefix + key));
    // Never a section header, nor a choice core refuses now.
    if (isComboItemEnabled(box, index)) box->setCurrentIndex(index);
  };
  restoreChoice(distribution_, QStringLiteral("distribution"));
  restoreChoice(calibrationMode_, QStringLiteral("calibration"));
  restoreChoice(noiseSource_, QStringLiteral("noise"));
  // Text as typed, so that a saved invalid value comes back marked rather than replaced.
  const std::pair<const char*, NumberField*> fields[] = {{"epsilon", epsilon_}, {"delta", delta_},
                                                         {"lambda2", lambda2_}, {"batch", batch_},
                                                         {"clip", clip_},       {"epochs", epochs_},
                                                         {"learningRate", learningRate_}};
  for (const auto& [key, field] : fields)
    if (const QVariant v = settings.value(kPrefix + QLatin1String(key)); v.isValid()) field->setText(v.toString());
  if (const QVariant v = settings.value(kPrefix + QStringLiteral("tuneLambdas")); v.isValid())
    tuneLambdas_->setText(v.toString());
  tune_->setChecked(settings.value(kPrefix + QStringLiteral("tune"), false).toBool());
  selectAll_->setChecked(settings.value(kPrefix + QStringLiteral("selectAll"), false).toBool());
  predictionFields_->restore(settings, kPrefix);
  seed_->setValue(settings.value(kPrefix + QStringLiteral("seed"), seed_->value()).toInt());
  // The mechanism last: choosing it adjusts the model and the lists to what core accepts.
  restoreChoice(mechanismBox_, QStringLiteral("kind"));
}

}  // namespace dpstudio::ui
