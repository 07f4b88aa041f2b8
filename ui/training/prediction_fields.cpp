#include "ui/training/prediction_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>

#include "ui/training/party_split_editor.h"
#include "ui/widgets/number_field.h"
#include "ui/widgets/form_rows.h"

namespace dpstudio::ui {
namespace {

// A smaller T than core's default (paper 003's 256, for MNIST): the built-in datasets have a
// few hundred training rows, and every teacher needs some.
constexpr double kDefaultTeachers = 10;

QString message(const Status& status) { return QString::fromStdString(status.error().message); }

bool isWholeAtLeastOne(double v) { return v >= 1 && v <= 1e15 && v == std::floor(v); }

}  // namespace

PredictionFields::PredictionFields(QFormLayout* form, FormRows* rows, PredictionProvider prediction,
                                   MultipartyProvider multiparty, QObject* parent)
    : QObject(parent),
      form_(form),
      formRows_(rows),
      prediction_(std::move(prediction)),
      multiparty_(std::move(multiparty)) {
  budget_ = new NumberField;
  budget_->setValue(static_cast<double>(predict::PredictionOptions{}.budget));
  budget_->setHelp(tr("B: how many answers the predictor may give. The guarantee (\u03b5, \u03b4) covers all B "
                      "answers together (each gets a share of it), and answer B + 1 is refused."));
  budget_->setCheck([this](double v) {
    if (!isWholeAtLeastOne(v)) return tr("the budget B must be a whole number >= 1");
    return predictionProblem("budget", [v](auto& o) { o.budget = static_cast<long long>(v); });
  });
  form_->addRow(tr("Budget B:"), budget_);

  teachers_ = new NumberField;
  teachers_->setValue(kDefaultTeachers);
  teachers_->setHelp(tr("T: non-private teachers, each trained on its own \u230an/T\u230b training rows (a seeded "
                        "partition). More teachers: a clearer vote, fewer rows each. Paper 003 uses 256 on MNIST."));
  teachers_->setCheck([this](double v) {
    if (!isWholeAtLeastOne(v)) return tr("the number of teachers T must be a whole number >= 1");
    const QString problem = predictionProblem("teachers", [v](auto& o) { o.teachers = static_cast<Index>(v); });
    if (!problem.isEmpty() || !rows_) return problem;
    // Every teacher needs a row: core's calibration says so for this n.
    predict::PredictionOptions o = prediction_();
    o.kind = predict::PredictionKind::Subsample;
    o.teachers = static_cast<Index>(v);
    const auto report = predict::calibratePrediction(o, {*rows_, 1, 2});
    return !report && report.error().field == "teachers" ? QString::fromStdString(report.error().message) : QString();
  });
  form_->addRow(tr("Teachers T:"), teachers_);

  parties_ = new PartySplitEditor;
  parties_->setFractionCheck([this](int party, double v) { return fractionProblem(party, v); });
  form_->addRow(tr("Parties:"), parties_);

  baseline_ = new QCheckBox(tr("All-data DP model too (spends 2ε)"));
  baseline_->setChecked(false);
  baseline_->setToolTip(tr("Paper 004's “all data, DP” baseline: the same mechanism with one party "
                           "holding every training row. It is a separate release from the same rows, recorded in "
                           "the ledger as its own entry: with it the run spends 2ε. Off by default, and not "
                           "remembered between sessions."));
  form_->addRow(tr("Baseline:"), baseline_);
  connect(baseline_, &QCheckBox::toggled, this, &PredictionFields::edited);

  protocol_ = new QComboBox;
  protocol_->addItem(tr("Trusted curator"),
                     static_cast<int>(multiparty::AggregationProtocolKind::TrustedCurator));
  protocol_->addItem(tr("Paillier protocol (slower)"),
                     static_cast<int>(multiparty::AggregationProtocolKind::Paillier));
  protocol_->setAccessibleName(tr("Aggregation protocol"));
  protocol_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  protocol_->setToolTip(tr("Who computes the noisy average. A trusted curator sees every party's model in the "
                           "clear. Paper 004's protocol (§3.2) computes the same release with 2048-bit Paillier "
                           "encryption, DGK comparisons and oblivious noise selection, so that nobody learns a "
                           "party's model, its size or whose noise was used — about 10 s per comparison on "
                           "one core, K − 1 comparisons. Its transcript (every message and what it reveals) "
                           "opens from the result. Both release the same distribution."));
  form_->addRow(tr("Aggregation:"), protocol_);
  connect(protocol_, &QComboBox::currentIndexChanged, this, &PredictionFields::edited);

  for (NumberField* field : {budget_, teachers_})
    connect(field, &NumberField::valueEdited, this, &PredictionFields::edited);
  connect(parties_, &PartySplitEditor::edited, this, [this] {
    updateSummary();
    emit edited();
  });
  setKind(Kind::None);
}

void PredictionFields::setKind(Kind kind) {
  kind_ = kind;
  formRows_->setShown(budget_, kind == Kind::Sensitivity || kind == Kind::Subsample);
  formRows_->setShown(teachers_, kind == Kind::Subsample);
  formRows_->setShown(parties_, kind == Kind::Multiparty);
  formRows_->setShown(baseline_, kind == Kind::Multiparty);
  formRows_->setShown(protocol_, kind == Kind::Multiparty);
  recheck();
}

void PredictionFields::setTrainingRows(std::optional<Index> rows) {
  rows_ = rows;
  recheck();
}

QString PredictionFields::predictionProblem(const char* field,
                                            const std::function<void(predict::PredictionOptions&)>& change) const {
  predict::PredictionOptions o = prediction_();
  change(o);
  const Status status = o.validate();
  return !status && status.error().field == field ? message(status) : QString();
}

QString PredictionFields::fractionProblem(int party, double value) const {
  multiparty::MultipartyOptions o = multiparty_();
  // The other fields at a value core accepts, so that its complaint is about this one; the
  // sum is the whole split's problem (updateSummary()).
  o.fractions = parties_->fractions(1.0);
  o.fractions[static_cast<std::size_t>(party)] = value;
  const Status status = o.validate();
  if (status || status.error().field != "party-split") return {};
  const QString text = message(status);
  return text.endsWith(QStringLiteral("(party %1)").arg(party + 1)) ? text : QString();
}

void PredictionFields::applyTo(predict::PredictionOptions& options) const {
  options.budget = budget_->value() ? static_cast<long long>(*budget_->value()) : predict::PredictionOptions{}.budget;
  options.teachers = teachers_->value() ? static_cast<Index>(*teachers_->value()) : static_cast<Index>(kDefaultTeachers);
}

void PredictionFields::applyTo(multiparty::MultipartyOptions& options) const {
  if (parties_->isEven()) {
    options.fractions.clear();
    options.parties = parties_->parties();
  } else {
    const int k = parties_->parties();
    options.fractions = parties_->fractions(1.0 / k);
    options.parties = k;
  }
  options.allDataBaseline = baseline_->isChecked();
  options.protocol = static_cast<multiparty::AggregationProtocolKind>(protocol_->currentData().toInt());
}

void PredictionFields::updateSummary() {
  splitProblem_.clear();
  if (kind_ != Kind::Multiparty || !parties_->fractionsValid()) {
    parties_->setSummary(QString(), false);
    return;
  }
  const multiparty::MultipartyOptions o = multiparty_();
  QString sum;
  if (!o.fractions.empty()) {
    double total = 0;
    for (double f : o.fractions) total += f;
    sum = tr("\u03a3 = %1").arg(total, 0, 'g', 6);
  }
  if (const Status status = o.validate(); !status && status.error().field == "party-split") {
    splitProblem_ = message(status);
    parties_->setSummary(splitProblem_, true);
    return;
  }
  if (!rows_) {
    parties_->setSummary(sum, false);
    return;
  }
  const auto sizes = multiparty::partySizes(*rows_, o);
  if (!sizes) {
    if (sizes.error().field == "party-split" || sizes.error().field == "parties") {
      splitProblem_ = QString::fromStdString(sizes.error().message);
      parties_->setSummary(splitProblem_, true);
    } else {
      parties_->setSummary(sum, false);
    }
    return;
  }
  QStringList list;
  Index smallest = *rows_;
  for (Index size : sizes.value()) {
    list << QString::number(size);
    smallest = std::min(smallest, size);
  }
  QString text = tr("n\u2c7c = %1 of the %2 training rows; n\u208d\u2081\u208e = %3")
                     .arg(list.join(QStringLiteral(", ")))
                     .arg(*rows_)
                     .arg(smallest);
  if (!sum.isEmpty()) text = sum + QStringLiteral(" \u00b7 ") + text;
  parties_->setSummary(text, false);
}

QStringList PredictionFields::problems() const {
  QStringList out;
  if ((kind_ == Kind::Sensitivity || kind_ == Kind::Subsample) && !budget_->isValid())
    out << tr("Budget B: %1").arg(budget_->problem());
  if (kind_ == Kind::Subsample && !teachers_->isValid()) out << tr("Teachers T: %1").arg(teachers_->problem());
  if (kind_ == Kind::Multiparty) {
    for (const QString& problem : parties_->fieldProblems()) out << tr("Parties: %1").arg(problem);
    if (!splitProblem_.isEmpty()) out << tr("Parties: %1").arg(splitProblem_);
  }
  return out;
}

void PredictionFields::recheck() {
  budget_->recheck();
  teachers_->recheck();
  parties_->recheck();
  updateSummary();
}

void PredictionFields::save(QSettings& settings, const QString& prefix) const {
  settings.setValue(prefix + QStringLiteral("budget"), budget_->text());
  settings.setValue(prefix + QStringLiteral("teachers"), teachers_->text());
  settings.setValue(prefix + QStringLiteral("partiesEven"), parties_->isEven());
  settings.setValue(prefix + QStringLiteral("parties"), parties_->parties());
  // Text as typed, so that an invalid fraction comes back marked rather than replaced.
  QStringList fractions;
  for (int j = 0; j < static_cast<int>(parties_->fractions(0).size()); ++j)
    fractions << parties_->fractionField(j)->text();
  settings.setValue(prefix + QStringLiteral("partyFractions"), fractions);
}

void PredictionFields::restore(QSettings& settings, const QString& prefix) {
  if (const QVariant v = settings.value(prefix + QStringLiteral("budget")); v.isValid()) budget_->setText(v.toString());
  if (const QVariant v = settings.value(prefix + QStringLiteral("teachers")); v.isValid())
    teachers_->setText(v.toString());
  if (settings.value(prefix + QStringLiteral("partiesEven"), true).toBool()) {
    parties_->setEven(std::max(1, settings.value(prefix + QStringLiteral("parties"), 5).toInt()));
  } else if (const QStringList texts = settings.value(prefix + QStringLiteral("partyFractions")).toStringList();
             !texts.isEmpty()) {
    parties_->setFractions(std::vector<double>(static_cast<std::size_t>(texts.size()), std::nan("")));
    for (int j = 0; j < texts.size(); ++j) parties_->fractionField(j)->setText(texts[j]);
  }
  recheck();
}

}  // namespace dpstudio::ui
