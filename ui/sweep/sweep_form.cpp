#include "ui/sweep/sweep_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>

#include "core/experiment/paper_presets.h"
#include "ui/widgets/column_grid.h"
#include "ui/sweep/preset_chooser.h"
#include "ui/widgets/number_list_field.h"

namespace dpstudio::ui {
namespace {

using experiment::SweepAxis;

constexpr SweepAxis kAxes[] = {SweepAxis::Epsilon, SweepAxis::Delta,    SweepAxis::Lambda,
                               SweepAxis::Rows,    SweepAxis::Dims,     SweepAxis::Classes,
                               SweepAxis::Budget,  SweepAxis::Teachers, SweepAxis::Parties};

QString axisLabel(SweepAxis axis) {
  switch (axis) {
    case SweepAxis::Epsilon: return QObject::tr("\u03b5 (privacy)");
    case SweepAxis::Delta: return QObject::tr("\u03b4");
    case SweepAxis::Lambda: return QObject::tr("\u03bb (regularization)");
    case SweepAxis::Rows: return QObject::tr("n (training rows)");
    case SweepAxis::Dims: return QObject::tr("D (random projection)");
    case SweepAxis::Classes: return QObject::tr("C (first classes)");
    case SweepAxis::Budget: return QObject::tr("B (answers)");
    case SweepAxis::Teachers: return QObject::tr("T (teachers)");
    case SweepAxis::Parties: return QObject::tr("K (parties)");
  }
  return {};
}

// The mechanisms ticked when the form first shows: the three that every convex model has.
const std::vector<std::string> kDefaultMechanisms = {"output", "objective", "loss"};

}  // namespace

SweepForm::SweepForm(QWidget* parent) : QWidget(parent) {
  chooser_ = new PresetChooser;
  dockControls_ = new QWidget;
  auto* dock = new QVBoxLayout(dockControls_);
  dock->setContentsMargins(0, 0, 0, 0);
  dock->addWidget(makeMechanismBoxes());
  dock->addLayout(makeAxisRow());

  baseLabel_ = new QLabel;
  baseLabel_->setObjectName(QStringLiteral("sweepBaseLabel"));
  baseLabel_->setWordWrap(true);
  baseLabel_->setTextFormat(Qt::PlainText);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(chooser_);
  layout->addWidget(dockControls_);
  layout->addLayout(makeRunRow());
  layout->addWidget(baseLabel_);
  connect(chooser_, &PresetChooser::changed, this, &SweepForm::presetChosen);

  connect(axis_, &QComboBox::currentIndexChanged, this, &SweepForm::axisChosen);
  connect(values_, &NumberListField::valueEdited, this, [this] {
    valuesEdited_ = true;
    emit changed();
  });
  connect(repeats_, &QSpinBox::valueChanged, this, &SweepForm::changed);
  connect(seed_, &QSpinBox::valueChanged, this, &SweepForm::changed);
  values_->setValues(experiment::defaultAxisValues(SweepAxis::Epsilon, {}));
}

ColumnGrid* SweepForm::makeMechanismBoxes() {
  // Three columns where the page is wide enough, two at 1280×720 (three need 526 px).
  auto* mechanisms = new ColumnGrid(2, 3);
  const auto& keys = experiment::privateMechanismKeys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    experiment::PrivacyPlan plan = experiment::withMechanism({}, keys[i]).value();
    auto* box = new QCheckBox(QString::fromStdString(plan.title()));
    box->setObjectName(QStringLiteral("sweepMechanism_") + QString::fromStdString(keys[i]));
    box->setAccessibleName(tr("Sweep %1").arg(box->text()));
    const bool ticked = std::find(kDefaultMechanisms.begin(), kDefaultMechanisms.end(), keys[i]) !=
                        kDefaultMechanisms.end();
    box->setChecked(ticked);
    mechanisms->addWidget(box);
    boxes_[keys[i]] = box;
    connect(box, &QCheckBox::toggled, this, [this] {
      refreshAxes();
      emit changed();
    });
  }
  return mechanisms;
}

QHBoxLayout* SweepForm::makeAxisRow() {
  axis_ = new QComboBox;
  axis_->setObjectName(QStringLiteral("sweepAxis"));
  axis_->setAccessibleName(tr("Swept parameter"));
  for (SweepAxis axis : kAxes) axis_->addItem(axisLabel(axis), static_cast<int>(axis));
  values_ = new NumberListField;
  values_->setObjectName(QStringLiteral("sweepValues"));
  values_->setAccessibleName(tr("Values of the swept parameter"));
  values_->setHelp(tr("The values of the swept parameter, separated by commas or spaces"));
  values_->setCheck([this](const std::vector<double>& values) -> QString {
    if (!base_) return {};
    experiment::SweepSpec spec = sweepSpec({});
    spec.values = values;
    auto status = spec.validate(shape_);
    if (!status && status.error().field == "values") return QString::fromStdString(status.error().message);
    return {};
  });
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel(tr("Sweep")));
  row->addWidget(axis_);
  row->addWidget(new QLabel(tr("over")));
  row->addWidget(values_, 1);
  return row;
}

QHBoxLayout* SweepForm::makeRunRow() {
  repeats_ = new QSpinBox;
  repeats_->setObjectName(QStringLiteral("sweepRepeats"));
  repeats_->setAccessibleName(tr("Repetitions"));
  repeats_->setRange(1, 10000);
  repeats_->setValue(10);
  repeats_->setToolTip(tr("Trials per mechanism and value, each with fresh noise (and a fresh subset or "
                          "projection on the n and D axes)"));
  seed_ = new QSpinBox;
  seed_->setObjectName(QStringLiteral("sweepSeed"));
  seed_->setAccessibleName(tr("Master seed"));
  seed_->setRange(0, 1 << 30);
  seed_->setValue(1);
  seed_->setToolTip(tr("Every trial's noise derives from this seed and the trial alone: the same seed gives the "
                       "same curve, on any number of threads, and the CLI's sweep --seed the same table"));
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel(tr("Repetitions")));
  row->addWidget(repeats_);
  row->addWidget(new QLabel(tr("Seed")));
  row->addWidget(seed_);
  row->addStretch(1);
  return row;
}

bool SweepForm::presetMode() const { return chooser_->preset() != nullptr; }

void SweepForm::presetChosen() {
  const bool preset = presetMode();
  dockControls_->setVisible(!preset);
  baseLabel_->setVisible(!preset);
  repeats_->setValue(chooser_->defaultRepeats());
  emit changed();
}

void SweepForm::setBase(const TrainingSettings& settings, const mech::ProblemShape& shape) {
  const bool shapeChanged = shape.rows != shape_.rows || shape.features != shape_.features ||
                            shape.classes != shape_.classes;
  base_ = settings;
  baseProblem_.clear();
  shape_ = shape;
  // Values that came from defaults follow the data (n, D, C depend on its shape).
  if (shapeChanged && !valuesEdited_) values_->setValues(experiment::defaultAxisValues(axis(), shape_));
  refreshMechanisms();
  refreshAxes();
  values_->recheck();
  emit changed();
}

void SweepForm::setBaseProblem(const QString& problem) {
  base_.reset();
  baseProblem_ = problem;
  refreshMechanisms();
  emit changed();
}

experiment::PrivacyPlan SweepForm::basePlan() const {
  if (!base_) return {};
  experiment::PrivacyPlan plan = base_->plan();
  if (plan.isPrivate()) return plan;
  // With no mechanism chosen, ε and δ are still the dock's fields (kept for the next one).
  mech::MechanismOptions options = base_->mechanismOptions();
  options.kind = mech::MechanismKind::Output;
  experiment::PrivacyPlan output = experiment::PrivacyPlan::training(options);
  output.solver = plan.solver;
  return output;
}

std::optional<experiment::PrivacyPlan> SweepForm::planFor(const std::string& key, QString* problem) const {
  if (!base_) return std::nullopt;
  auto plan = experiment::withMechanism(basePlan(), key);
  if (!plan) {
    if (problem) *problem = QString::fromStdString(plan.error().message);
    return std::nullopt;
  }
  if (auto status = plan.value().validate(); !status) {
    if (problem) *problem = QString::fromStdString(status.error().message);
    return std::nullopt;
  }
  return plan.value();
}

void SweepForm::refreshMechanisms() {
  for (const auto& [key, box] : boxes_) {
    QString problem;
    const bool fits = planFor(key, &problem).has_value();
    box->setEnabled(fits || !base_);
    box->setToolTip(fits ? tr("Compare %1 in the sweep").arg(box->text())
                         : tr("Not with the Training dock's settings: %1").arg(problem));
  }
  if (!base_) {
    baseLabel_->setText(baseProblem_.isEmpty() ? tr("Open a dataset to sweep it.")
                                               : tr("Fix the Training dock first: %1").arg(baseProblem_));
    return;
  }
  const experiment::PrivacyPlan plan = basePlan();
  baseLabel_->setText(tr("Everything not swept is the Training dock's: %1, \u03bb = %2, \u03b5 = %3, \u03b4 = %4; "
                         "%5 training rows.")
                          .arg(modelDisplayName(base_->learner.kind))
                          .arg(base_->learner.lambda, 0, 'g', 4)
                          .arg(plan.epsilon(), 0, 'g', 4)
                          .arg(plan.delta(), 0, 'g', 4)
                          .arg(shape_.rows));
}

void SweepForm::refreshAxes() {
  // An axis is offered when it applies to every mechanism ticked (core's rule, as the CLI).
  experiment::SweepSpec probe;
  for (const std::string& key : mechanisms()) {
    auto plan = experiment::withMechanism(basePlan(), key);
    if (plan) probe.series.push_back({key, key, plan.value()});
  }
  auto* model = qobject_cast<QStandardItemModel*>(axis_->model());
  for (int i = 0; i < axis_->count(); ++i) {
    probe.axis = static_cast<SweepAxis>(axis_->itemData(i).toInt());
    probe.values = experiment::defaultAxisValues(probe.axis, shape_);
    const auto status = probe.validate({std::max<Index>(shape_.rows, 2), shape_.features, shape_.classes});
    const bool applies = status.ok() || status.error().field != "axis";
    if (model) model->item(i)->setEnabled(applies);
  }
}

void SweepForm::axisChosen() {
  const SweepAxis chosen = axis();
  if (chosen == shownValuesAxis_) return;
  shownValuesAxis_ = chosen;
  values_->setValues(experiment::defaultAxisValues(chosen, shape_));
  valuesEdited_ = false;
  emit changed();
}

std::vector<std::string> SweepForm::mechanisms() const {
  std::vector<std::string> keys;
  for (const std::string& key : experiment::privateMechanismKeys()) {
    const QCheckBox* box = boxes_.at(key);
    if (box->isChecked() && box->isEnabled()) keys.push_back(key);
  }
  return keys;
}

void SweepForm::setMechanisms(const std::vector<std::string>& keys) {
  for (const auto& [key, box] : boxes_) box->setChecked(std::find(keys.begin(), keys.end(), key) != keys.end());
}

SweepAxis SweepForm::axis() const { return static_cast<SweepAxis>(axis_->currentData().toInt()); }

bool SweepForm::setAxis(SweepAxis axis) {
  const int index = axis_->findData(static_cast<int>(axis));
  auto* model = qobject_cast<QStandardItemModel*>(axis_->model());
  if (index < 0 || (model && !model->item(index)->isEnabled())) return false;
  axis_->setCurrentIndex(index);
  return true;
}

void SweepForm::setValues(const std::vector<double>& values) {
  values_->setValues(values);
  valuesEdited_ = true;
}

void SweepForm::setRepeats(int repeats) { repeats_->setValue(repeats); }
void SweepForm::setSeed(int seed) { seed_->setValue(seed); }

QCheckBox* SweepForm::mechanismBox(const std::string& key) const {
  const auto it = boxes_.find(key);
  return it == boxes_.end() ? nullptr : it->second;
}

QStringList SweepForm::problems() const {
  if (presetMode()) {
    auto spec = experiment::presetSweepSpec(*chooser_->preset(), chooser_->quickVersion(), repeats_->value());
    if (!spec) return {QString::fromStdString(spec.error().message)};
    return {};
  }
  if (!base_) return {baseProblem_.isEmpty() ? tr("no dataset") : tr("Training dock: %1").arg(baseProblem_)};
  if (!values_->isValid()) return {tr("values: %1").arg(values_->problem())};
  auto status = sweepSpec({}).validate(shape_);
  if (!status) return {QString::fromStdString(status.error().message)};
  return {};
}

experiment::SweepSpec SweepForm::sweepSpec(const std::string& dataset) const {
  if (presetMode()) {
    auto preset = experiment::presetSweepSpec(*chooser_->preset(), chooser_->quickVersion(), repeats_->value(),
                                              static_cast<std::uint64_t>(seed_->value()));
    experiment::SweepSpec spec = preset ? std::move(preset).value() : experiment::SweepSpec{};
    spec.dataset = dataset;
    return spec;
  }
  experiment::SweepSpec spec;
  for (const std::string& key : mechanisms())
    if (auto plan = planFor(key, nullptr)) spec.series.push_back({key, plan->title(), *plan});
  spec.axis = axis();
  spec.values = values_->values().value_or(std::vector<double>{});
  spec.repeats = repeats_->value();
  spec.seed = static_cast<std::uint64_t>(seed_->value());
  spec.dataset = dataset;
  return spec;
}

}  // namespace dpstudio::ui
