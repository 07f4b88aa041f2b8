#include "ui/training/training_document.h"

#include "ui/training/mechanism_catalog.h"

namespace dpstudio::ui {

QString modelDisplayName(ModelKind kind) { return QString::fromStdString(modelLongName(kind)); }

QString featureMapDisplayName(const RandomFeaturesSpec& spec) {
  return QObject::tr("RBF kernel: D = %1 random Fourier features, \u03b3 = %2, seed %3")
      .arg(spec.dim)
      .arg(QString::number(spec.gamma, 'g', 4))
      .arg(spec.seed);
}

QString mechanismDisplayName(mech::MechanismKind kind) {
  if (kind == mech::MechanismKind::None) return QObject::tr("None");
  return mechanismTitle(mech::mechanismName(kind));
}

QString privacyDisplayName(const PrivacySettings& privacy) {
  if (privacy.prediction) return mechanismTitle(predict::predictionKindName(privacy.prediction->kind));
  if (privacy.multiparty) return mechanismTitle("multiparty");
  if (privacy.selection) return mechanismTitle("auto");
  return mechanismDisplayName(privacy.options.kind);
}

mech::MechanismOptions TrainingSettings::mechanismOptions() const {
  mech::MechanismOptions options = privacy.options;
  options.learner = learner;
  return options;
}

predict::PredictionOptions TrainingSettings::predictionOptions() const {
  predict::PredictionOptions options = privacy.prediction.value_or(predict::PredictionOptions{});
  options.learner = learner;
  return options;
}

multiparty::MultipartyOptions TrainingSettings::multipartyOptions() const {
  multiparty::MultipartyOptions options = privacy.multiparty.value_or(multiparty::MultipartyOptions{});
  options.model = learner.kind;
  options.lambda = learner.lambda;
  options.huber = learner.huber;
  return options;
}

experiment::PlanChoice TrainingSettings::choice() const {
  experiment::PlanChoice choice;
  choice.learner = learner;
  choice.solver = {tolerance, maxIterations};
  if (privacy.prediction) {
    choice.mechanism = predict::predictionKindName(privacy.prediction->kind);
    choice.prediction = *privacy.prediction;
    choice.epsilon = privacy.prediction->epsilon;
    choice.delta = privacy.prediction->delta;
  } else if (privacy.multiparty) {
    choice.mechanism = "multiparty";
    choice.multiparty = *privacy.multiparty;
    choice.epsilon = privacy.multiparty->epsilon;
  } else {
    choice.mechanism = privacy.selection ? std::string("auto") : mech::mechanismName(privacy.options.kind);
    choice.training = privacy.options;
    choice.epsilon = privacy.options.epsilon;
    choice.delta = privacy.options.delta;
    choice.tuneLambdas = privacy.tuneLambdas;
    if (privacy.selection) {
      choice.selection = *privacy.selection;
      choice.tuneLambdas = privacy.selection->lambdas;
    }
  }
  return choice;
}

experiment::PrivacyPlan TrainingSettings::plan() const {
  // The keys come from core's own kinds, so assembling cannot fail.
  auto plan = experiment::assemblePlan(choice());
  return plan ? std::move(plan).value() : experiment::PrivacyPlan::nonPrivate(learner);
}

bool sameBaseline(const TrainingSettings& a, const TrainingSettings& b) {
  return a.learner.kind == b.learner.kind && a.learner.lambda == b.learner.lambda &&
         a.learner.huber == b.learner.huber && a.tolerance == b.tolerance && a.maxIterations == b.maxIterations &&
         a.data.testFraction == b.data.testFraction && a.data.splitSeed == b.data.splitSeed &&
         a.data.preprocess == b.data.preprocess;
}

bool sameSettingsButNoise(const TrainingSettings& a, const TrainingSettings& b) {
  TrainingSettings b2 = b;
  // A non-private result depends on no privacy field (the ε typed for a mechanism to come,
  // the noise source, the seed).
  if (!a.privacy.isPrivate() && !b.privacy.isPrivate()) b2.privacy = a.privacy;
  b2.privacy.seed = a.privacy.seed;
  return a == b2;
}

QStringList settingsChanges(const TrainingSettings& shown, const TrainingSettings& now, SettingsScope scope) {
  QStringList changes;
  if (scope == SettingsScope::WhatTheResultDependsOn && sameSettingsButNoise(shown, now)) return changes;
  auto change = [&changes](const QString& what, const QString& before, const QString& after) {
    if (before != after) changes << QObject::tr("%1 %2 \u2192 %3").arg(what, before, after);
  };
  const auto g = [](double v) { return QString::number(v, 'g', 6); };
  change(QObject::tr("mechanism"), privacyDisplayName(shown.privacy), privacyDisplayName(now.privacy));
  change(QObject::tr("model"), modelDisplayName(shown.learner.kind), modelDisplayName(now.learner.kind));
  change(QObject::tr("\u03bb"), g(shown.learner.lambda), g(now.learner.lambda));
  const auto epsilonOf = [](const TrainingSettings& s) -> std::optional<double> {
    if (s.privacy.prediction) return s.privacy.prediction->epsilon;
    if (s.privacy.multiparty) return s.privacy.multiparty->epsilon;
    if (s.privacy.options.kind != mech::MechanismKind::None || s.privacy.selection) return s.privacy.options.epsilon;
    return std::nullopt;
  };
  const auto deltaOf = [](const TrainingSettings& s) -> std::optional<double> {
    if (s.privacy.prediction) return s.privacy.prediction->delta;
    if (s.privacy.options.kind != mech::MechanismKind::None || s.privacy.selection) return s.privacy.options.delta;
    return std::nullopt;
  };
  if (scope == SettingsScope::Everything) {
    // The form's ε and δ whatever the mechanism: restored values wait in fields that are
    // hidden while the mechanism is None.
    change(QObject::tr("\u03b5"), g(shown.privacy.options.epsilon), g(now.privacy.options.epsilon));
    change(QObject::tr("\u03b4"), g(shown.privacy.options.delta), g(now.privacy.options.delta));
  }
  const auto eps0 = epsilonOf(shown), eps1 = epsilonOf(now);
  if (eps0 && eps1 && scope != SettingsScope::Everything) change(QObject::tr("\u03b5"), g(*eps0), g(*eps1));
  const auto d0 = deltaOf(shown), d1 = deltaOf(now);
  if (d0 && d1 && scope != SettingsScope::Everything) change(QObject::tr("\u03b4"), g(*d0), g(*d1));
  const auto onOff = [](bool on) { return on ? QObject::tr("on") : QObject::tr("off"); };
  const PreprocessSpec& p0 = shown.data.preprocess;
  const PreprocessSpec& p1 = now.data.preprocess;
  const auto source = [](privacy::NoiseKind kind) {
    return kind == privacy::NoiseKind::Release ? QObject::tr("release") : QObject::tr("experiment");
  };
  change(QObject::tr("noise source"), source(shown.privacy.noise), source(now.privacy.noise));
  change(QObject::tr("test fraction"), g(shown.data.testFraction), g(now.data.testFraction));
  change(QObject::tr("split seed"), QString::number(shown.data.splitSeed), QString::number(now.data.splitSeed));
  change(QObject::tr("norm bound R"), p0.normBound ? g(*p0.normBound) : onOff(false),
         p1.normBound ? g(*p1.normBound) : onOff(false));
  change(QObject::tr("unit rows"), onOff(p0.unitRows), onOff(p1.unitRows));
  change(QObject::tr("intercept"), onOff(p0.intercept), onOff(p1.intercept));
  const auto kernel = [&](const PreprocessSpec& p) {
    return p.randomFeatures ? QObject::tr("D = %1, \u03b3 = %2").arg(p.randomFeatures->dim).arg(g(p.randomFeatures->gamma))
                            : onOff(false);
  };
  change(QObject::tr("RBF kernel"), kernel(p0), kernel(p1));
  // Everything else (calibration, noise family, budget, parties, DP-SGD, optimizer, …).
  if (changes.isEmpty() && !(shown == now)) changes << QObject::tr("other settings");
  return changes;
}

TrainingDocument::TrainingDocument(QObject* parent) : QObject(parent) {}

void TrainingDocument::setModel(std::shared_ptr<const TrainingResult> result,
                                std::shared_ptr<const ModelView> view, std::shared_ptr<PredictionAnswers> answers) {
  result_ = std::move(result);
  view_ = std::move(view);
  answers_ = std::move(answers);
  spread_.reset();
  emit modelChanged();
}

void TrainingDocument::setSpread(std::shared_ptr<const std::vector<TrainedModel>> spread) {
  spread_ = std::move(spread);
  emit spreadChanged();
}

void TrainingDocument::noteAnswered() { emit answersChanged(); }

void TrainingDocument::setView(std::shared_ptr<const ModelView> view) {
  view_ = std::move(view);
  emit viewChanged();
}

void TrainingDocument::clear() {
  if (!result_ && !view_) return;
  result_.reset();
  view_.reset();
  answers_.reset();
  spread_.reset();
  emit modelChanged();
}

}  // namespace dpstudio::ui
