#include "ui/privacy/audit_form.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <limits>
#include <utility>

#include "ui/training/training_document.h"
#include "ui/widgets/number_field.h"

namespace dpstudio::ui {
namespace {

const QString kPrefix = QStringLiteral("audit/");

QSpinBox* spinBox(int minimum, int maximum, int value, const QString& tip) {
  auto* box = new QSpinBox;
  box->setRange(minimum, maximum);
  box->setValue(value);
  box->setGroupSeparatorShown(true);
  box->setToolTip(tip);
  return box;
}

bool usesHuber(ModelKind kind) { return kind == ModelKind::HuberSvm || kind == ModelKind::Lmgc; }

}  // namespace

AuditForm::AuditForm(QWidget* parent) : QWidget(parent) {
  // One column: the page's width goes to the verdict and the plot beside it (at 1366×768
  // the central area is ~530 px between the docks); the column scrolls vertically.
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(buildMechanismRows());
  layout->addWidget(buildRunRows());
  layout->addStretch(1);
  // The lists' long entries show whole in their popups; closed, the boxes take the column's
  // width rather than setting it (the form shares its page with the verdict and the plot).
  for (QComboBox* box : {mechanism_, model_, distribution_, calibration_, data_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  restoreSettings();
  updateRows();
  for (NumberField* field : numberFields()) field->recheck();
}

QWidget* AuditForm::buildMechanismRows() {
  auto* group = new QGroupBox(tr("Mechanism and claim"));
  form_ = new QFormLayout(group);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  addClaimRows();
  addNoiseRows();
  addMechanismSettingRows();
  connectMechanismRows();
  return group;
}

void AuditForm::addClaimRows() {
  mechanism_ = new QComboBox;
  for (const QString& key : auditMechanisms()) {
    mechanism_->addItem(auditMechanismTitle(key), key);
    mechanism_->setItemData(mechanism_->count() - 1, auditMechanismHelp(key), Qt::ToolTipRole);
  }
  mechanism_->setToolTip(tr("The mechanism to run on D and D\u2032, as dpstudio-cli audit --mechanism."));
  form_->addRow(tr("Mechanism:"), mechanism_);

  model_ = new QComboBox;
  for (ModelKind kind : {ModelKind::LogisticRegression, ModelKind::HuberSvm, ModelKind::Softmax, ModelKind::Lmgc})
    model_->addItem(modelDisplayName(kind), static_cast<int>(kind));
  model_->setToolTip(tr("Models the mechanism does not support are greyed out."));
  form_->addRow(tr("Model:"), model_);

  epsilon_ = new NumberField;
  epsilon_->setHelp(tr("The \u03b5 the mechanism claims, which the audit tries to refute. Default 1."));
  delta_ = new NumberField;
  delta_->setHelp(tr("The \u03b4 the mechanism claims; Gaussian noise and DP-SGD need \u03b4 > 0. Default 0."));
  lambda_ = new NumberField;
  huber_ = new NumberField;
  huber_->setHelp(tr("Width h > 0 of the Huber hinge (Huber SVM and LMGC). Default 0.5."));
  epsilon_->setValue(AuditSettings{}.epsilon);
  delta_->setValue(AuditSettings{}.delta);
  lambda_->setValue(AuditSettings{}.lambda);
  huber_->setValue(AuditSettings{}.huber);
  form_->addRow(tr("\u03b5 (claimed):"), epsilon_);
  form_->addRow(tr("\u03b4 (claimed):"), delta_);
  form_->addRow(tr("\u03bb (regularization):"), lambda_);
  form_->addRow(tr("Huber h:"), huber_);
}

void AuditForm::addNoiseRows() {
  distribution_ = new QComboBox;
  distribution_->addItem(tr("\u2113\u2082-Laplace (\u03b5-DP)"), static_cast<int>(mech::NoiseFamily::L2Laplace));
  distribution_->addItem(tr("Gaussian ((\u03b5, \u03b4)-DP)"), static_cast<int>(mech::NoiseFamily::Gaussian));
  distribution_->setToolTip(tr("The noise family, where the mechanism offers both."));
  form_->addRow(tr("Noise:"), distribution_);

  calibration_ = new QComboBox;
  calibration_->addItem(tr("Corrected"), static_cast<int>(mech::Calibration::Corrected));
  calibration_->addItem(tr("As published"), static_cast<int>(mech::Calibration::Published));
  calibration_->setToolTip(tr("Corrected carries a proof (Help \u2192 Algorithms); as published reproduces the paper's "
                              "formula where that proof does not hold."));
  form_->addRow(tr("Calibration:"), calibration_);
  publishedWarning_ = new QLabel(tr("As published: the paper's calibration, whose claimed \u03b5 does not hold "
                                    "(Help \u2192 Algorithms says why). Here to show that an audit can catch it."));
  publishedWarning_->setWordWrap(true);
  publishedWarning_->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
  form_->addRow(publishedWarning_);
}

void AuditForm::addMechanismSettingRows() {
  budget_ = spinBox(1, 1'000'000, static_cast<int>(AuditSettings{}.budget),
                    tr("B: answers the claim covers; the audit asks the canary B times per run."));
  teachers_ = spinBox(1, 100'000, static_cast<int>(AuditSettings{}.teachers),
                      tr("T: teachers trained on disjoint parts of the data (each part has \u230an/T\u230b rows)."));
  parties_ = spinBox(1, 1000, static_cast<int>(AuditSettings{}.parties),
                     tr("K: parties, an even split of the rows; the canary replaces a row of the smallest."));
  batchSize_ = spinBox(1, 1'000'000, static_cast<int>(AuditSettings{}.batchSize),
                       tr("DP-SGD: expected batch size (sampling rate q = batch / n)."));
  epochs_ = new NumberField;
  epochs_->setHelp(tr("DP-SGD: passes over the data; steps T = \u2308epochs / q\u2309."));
  epochs_->setValue(AuditSettings{}.epochs);
  form_->addRow(tr("Budget B:"), budget_);
  form_->addRow(tr("Teachers T:"), teachers_);
  form_->addRow(tr("Parties K:"), parties_);
  form_->addRow(tr("Batch size:"), batchSize_);
  form_->addRow(tr("Epochs:"), epochs_);
}

void AuditForm::connectMechanismRows() {
  const QHash<NumberField*, QString> keys{{epsilon_, QStringLiteral("epsilon")}, {delta_, QStringLiteral("delta")},
                                          {lambda_, QStringLiteral("lambda")}, {huber_, QStringLiteral("huber")},
                                          {epochs_, QStringLiteral("epochs")}};
  for (auto it = keys.cbegin(); it != keys.cend(); ++it) {
    it.key()->setCheck([this, key = it.value()](double v) { return checkField(key, v); });
    connect(it.key(), &NumberField::valueEdited, this, &AuditForm::fieldsChanged);
  }
  for (QComboBox* box : {mechanism_, model_, distribution_, calibration_})
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      updateRows();
      fieldsChanged();
    });
  for (QSpinBox* box : {budget_, teachers_, parties_, batchSize_})
    connect(box, &QSpinBox::valueChanged, this, &AuditForm::fieldsChanged);
}

QWidget* AuditForm::buildRunRows() {
  auto* group = new QGroupBox(tr("Runs"));
  auto* form = new QFormLayout(group);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  trials_ = spinBox(100, 100'000'000, static_cast<int>(AuditSettings{}.trials),
                    tr("N: runs of the mechanism on D and N on D\u2032. Half of them choose the test, the other "
                       "half certify it. More runs give a tighter lower bound."));
  trials_->setSingleStep(1000);
  form->addRow(tr("Trials N:"), trials_);
  auto* trialsNote = new QLabel(tr("2 000 is quick; the test suite audits with \u2265 20 000."));
  trialsNote->setWordWrap(true);
  trialsNote->setForegroundRole(QPalette::PlaceholderText);
  form->addRow(trialsNote);
  seed_ = spinBox(0, std::numeric_limits<int>::max(), static_cast<int>(AuditSettings{}.seed),
                  tr("Master seed of the runs' noise streams: the same seed gives the same result."));
  form->addRow(tr("Seed:"), seed_);
  data_ = new QComboBox;
  data_->addItem(tr("Worst case (built in)"), false);
  data_->addItem(tr("Current dataset (training part)"), true);
  data_->setItemData(0, tr("The mechanism's worst case (as dpstudio-cli audit without --train): one row in one "
                           "dimension whose flipped label moves the model by the full sensitivity, or for "
                           "subsample-and-aggregate a vote split one teacher turns; two small clusters where no "
                           "worst case is built."),
                     Qt::ToolTipRole);
  data_->setItemData(1, tr("D is the current dataset's training part, split and preprocessed as the Model "
                           "panel says (norm bound R); the canary is chosen against it."),
                     Qt::ToolTipRole);
  data_->setToolTip(tr("The adjacent datasets D and D\u2032 = D with one row replaced by a canary."));
  form->addRow(tr("Data:"), data_);
  connect(trials_, &QSpinBox::valueChanged, this, &AuditForm::fieldsChanged);
  connect(seed_, &QSpinBox::valueChanged, this, &AuditForm::fieldsChanged);
  connect(data_, &QComboBox::currentIndexChanged, this, &AuditForm::fieldsChanged);
  return group;
}

void AuditForm::setMechanism(const QString& key) {
  const int index = mechanism_->findData(key);
  if (index >= 0) mechanism_->setCurrentIndex(index);
}

void AuditForm::setModel(ModelKind kind) { model_->setCurrentIndex(model_->findData(static_cast<int>(kind))); }

void AuditForm::updateRows() {
  const QString mechanism = mechanism_->currentData().toString();
  // Models the mechanism does not take are greyed out; if the current one is among them,
  // the first one it takes is chosen.
  auto* items = qobject_cast<QStandardItemModel*>(model_->model());
  int firstAccepted = -1;
  for (int i = 0; i < model_->count(); ++i) {
    const bool accepted = auditAcceptsModel(mechanism, static_cast<ModelKind>(model_->itemData(i).toInt()));
    items->item(i)->setEnabled(accepted);
    if (accepted && firstAccepted < 0) firstAccepted = i;
  }
  if (!items->item(model_->currentIndex())->isEnabled() && firstAccepted >= 0) {
    const QSignalBlocker block(model_);
    model_->setCurrentIndex(firstAccepted);
  }
  const ModelKind model = static_cast<ModelKind>(model_->currentData().toInt());
  const bool gaussian = auditOffersGaussian(mechanism, model);
  const bool published = auditOffersPublished(mechanism, model);
  form_->setRowVisible(delta_, auditUsesDelta(mechanism));
  form_->setRowVisible(huber_, usesHuber(model));
  form_->setRowVisible(distribution_, gaussian);
  form_->setRowVisible(calibration_, published);
  form_->setRowVisible(publishedWarning_,
                       published && calibration_->currentData().toInt() == static_cast<int>(mech::Calibration::Published));
  form_->setRowVisible(budget_, auditUsesBudget(mechanism));
  form_->setRowVisible(teachers_, auditUsesTeachers(mechanism));
  form_->setRowVisible(parties_, auditUsesParties(mechanism));
  form_->setRowVisible(batchSize_, auditUsesSgd(mechanism));
  form_->setRowVisible(epochs_, auditUsesSgd(mechanism));
  lambda_->setHelp(mechanism == QLatin1String("multiparty")
                       ? tr("\u03bb > 0 of each party's objective (1/n\u2c7c)\u03a3\u2113 + \u03bb\u2016w\u2016\u00b2 "
                            "(paper 004's convention).")
                       : tr("Regularization strength \u03bb > 0 of the learner. The audit's default 0.1 keeps the "
                            "noise small enough for the canary to show."));
}

AuditSettings AuditForm::settingsOrDefaults() const {
  const AuditSettings defaults;
  AuditSettings s;
  s.mechanism = mechanism_->currentData().toString();
  s.model = static_cast<ModelKind>(model_->currentData().toInt());
  s.epsilon = epsilon_->value().value_or(defaults.epsilon);
  s.delta = auditUsesDelta(s.mechanism) ? delta_->value().value_or(defaults.delta) : 0.0;
  s.lambda = lambda_->value().value_or(defaults.lambda);
  s.huber = huber_->value().value_or(defaults.huber);
  // Settings the mechanism does not have keep the values core accepts for it.
  if (auditOffersGaussian(s.mechanism, s.model))
    s.family = static_cast<mech::NoiseFamily>(distribution_->currentData().toInt());
  if (auditOffersPublished(s.mechanism, s.model))
    s.calibration = static_cast<mech::Calibration>(calibration_->currentData().toInt());
  s.budget = budget_->value();
  s.teachers = teachers_->value();
  s.parties = parties_->value();
  s.batchSize = batchSize_->value();
  s.epochs = epochs_->value().value_or(defaults.epochs);
  s.trials = trials_->value();
  s.seed = static_cast<std::uint64_t>(seed_->value());
  s.onDataset = data_->currentData().toBool();
  return s;
}

AuditSettings AuditForm::settings() const { return settingsOrDefaults(); }

QString AuditForm::checkField(const QString& key, double value) const {
  if (!data_) return {};  // the form is still being built; the constructor checks again
  AuditSettings s = settingsOrDefaults();
  if (key == QLatin1String("epsilon")) s.epsilon = value;
  else if (key == QLatin1String("delta")) s.delta = value;
  else if (key == QLatin1String("lambda")) s.lambda = value;
  else if (key == QLatin1String("huber")) s.huber = value;
  else if (key == QLatin1String("epochs")) s.epochs = value;
  const Status status = s.validate();
  if (status || QString::fromStdString(status.error().field) != key) return {};
  return QString::fromStdString(status.error().message);
}

QList<NumberField*> AuditForm::numberFields() const { return {epsilon_, delta_, lambda_, huber_, epochs_}; }

bool AuditForm::inUse(const NumberField* field) const {
  const QString mechanism = mechanism_->currentData().toString();
  if (field == delta_) return auditUsesDelta(mechanism);
  if (field == huber_) return usesHuber(static_cast<ModelKind>(model_->currentData().toInt()));
  if (field == epochs_) return auditUsesSgd(mechanism);
  return true;
}

QString AuditForm::label(const NumberField* field) const {
  if (auto* text = qobject_cast<QLabel*>(form_->labelForField(const_cast<NumberField*>(field))))
    return text->text().chopped(text->text().endsWith(QLatin1Char(':')) ? 1 : 0);
  return {};
}

QStringList AuditForm::problems() const {
  QStringList lines;
  for (const NumberField* field : numberFields())
    if (inUse(field) && !field->isValid()) lines << tr("%1: %2").arg(label(field), field->problem());
  if (!lines.isEmpty()) return lines;
  // Rules that no single number breaks (combinations) come from core as they are.
  if (const Status status = settings().validate(); !status)
    lines << QString::fromStdString(status.error().message);
  return lines;
}

void AuditForm::fieldsChanged() {
  // A field's rule may depend on the others (δ on the noise family): check them all again.
  for (NumberField* field : numberFields()) field->recheck();
  if (!restoring_) saveSettings();
  emit changed();
}

void AuditForm::saveSettings() const {
  QSettings settings;
  settings.setValue(kPrefix + QStringLiteral("mechanism"), mechanism_->currentData());
  settings.setValue(kPrefix + QStringLiteral("model"), model_->currentData());
  settings.setValue(kPrefix + QStringLiteral("distribution"), distribution_->currentData());
  settings.setValue(kPrefix + QStringLiteral("calibration"), calibration_->currentData());
  const QHash<QString, const NumberField*> numbers{{QStringLiteral("epsilon"), epsilon_},
                                                   {QStringLiteral("delta"), delta_},
                                                   {QStringLiteral("lambda"), lambda_},
                                                   {QStringLiteral("huber"), huber_},
                                                   {QStringLiteral("epochs"), epochs_}};
  for (auto it = numbers.cbegin(); it != numbers.cend(); ++it)
    if (auto v = it.value()->value()) settings.setValue(kPrefix + it.key(), *v);
  const QHash<QString, const QSpinBox*> counts{{QStringLiteral("budget"), budget_},
                                               {QStringLiteral("teachers"), teachers_},
                                               {QStringLiteral("parties"), parties_},
                                               {QStringLiteral("batchSize"), batchSize_},
                                               {QStringLiteral("trials"), trials_},
                                               {QStringLiteral("seed"), seed_}};
  for (auto it = counts.cbegin(); it != counts.cend(); ++it) settings.setValue(kPrefix + it.key(), it.value()->value());
  settings.setValue(kPrefix + QStringLiteral("onDataset"), data_->currentData());
}

void AuditForm::restoreSettings() {
  restoring_ = true;
  QSettings settings;
  const auto select = [&settings](QComboBox* box, const QString& key) {
    const int index = box->findData(settings.value(kPrefix + key));
    if (settings.contains(kPrefix + key) && index >= 0) box->setCurrentIndex(index);
  };
  select(mechanism_, QStringLiteral("mechanism"));
  select(model_, QStringLiteral("model"));
  select(distribution_, QStringLiteral("distribution"));
  select(calibration_, QStringLiteral("calibration"));
  select(data_, QStringLiteral("onDataset"));
  using NumberKey = std::pair<const char*, NumberField*>;
  for (auto [key, field] : {NumberKey{"epsilon", epsilon_}, NumberKey{"delta", delta_},
                            NumberKey{"lambda", lambda_}, NumberKey{"huber", huber_}, NumberKey{"epochs", epochs_}}) {
    bool ok = false;
    const double v = settings.value(kPrefix + QLatin1String(key)).toDouble(&ok);
    if (ok) field->setValue(v);
  }
  using CountKey = std::pair<const char*, QSpinBox*>;
  for (auto [key, box] : {CountKey{"budget", budget_}, CountKey{"teachers", teachers_},
                          CountKey{"parties", parties_}, CountKey{"batchSize", batchSize_},
                          CountKey{"trials", trials_}, CountKey{"seed", seed_}}) {
    bool ok = false;
    const int v = settings.value(kPrefix + QLatin1String(key)).toInt(&ok);
    if (ok) box->setValue(v);
  }
  restoring_ = false;
}

}  // namespace dpstudio::ui
