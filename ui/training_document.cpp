#include "ui/training_document.h"

namespace dpstudio::ui {

QString modelDisplayName(ModelKind kind) {
  switch (kind) {
    case ModelKind::LogisticRegression: return QObject::tr("Logistic regression");
    case ModelKind::HuberSvm: return QObject::tr("Huber SVM");
    case ModelKind::Softmax: return QObject::tr("Softmax regression");
    case ModelKind::Lmgc: return QObject::tr("LMGC");
  }
  return {};
}

QString featureMapDisplayName(const RandomFeaturesSpec& spec) {
  return QObject::tr("RBF kernel: D = %1 random Fourier features, \u03b3 = %2, seed %3")
      .arg(spec.dim)
      .arg(QString::number(spec.gamma, 'g', 4))
      .arg(spec.seed);
}

QString mechanismDisplayName(mech::MechanismKind kind) {
  switch (kind) {
    case mech::MechanismKind::None: return QObject::tr("None");
    case mech::MechanismKind::Output: return QObject::tr("Output perturbation");
    case mech::MechanismKind::Objective: return QObject::tr("Objective perturbation");
    case mech::MechanismKind::Loss: return QObject::tr("Loss perturbation");
    case mech::MechanismKind::DpLmgc: return QObject::tr("DP-LMGC");
    case mech::MechanismKind::DpSgd: return QObject::tr("DP-SGD");
  }
  return {};
}

QString privacyDisplayName(const PrivacySettings& privacy) {
  if (privacy.prediction)
    return privacy.prediction->kind == predict::PredictionKind::Sensitivity ? QObject::tr("Prediction sensitivity")
                                                                            : QObject::tr("Subsample-and-aggregate");
  if (privacy.multiparty) return QObject::tr("Multiparty aggregation");
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

const mech::MechanismReport& PredictionRelease::report() const {
  return std::visit([](const auto& p) -> const mech::MechanismReport& { return p.report(); }, predictor);
}

long long PredictionRelease::budget() const {
  return std::visit([](const auto& p) { return p.budget(); }, predictor);
}

long long PredictionRelease::remaining() const {
  return std::visit([](const auto& p) { return p.remaining(); }, predictor);
}

Eigen::VectorXi PredictionRelease::nonPrivateLabels(const Eigen::MatrixXd& X) const {
  if (const auto* sensitivity = std::get_if<predict::PrivatePredictor>(&predictor))
    return sensitivity->model().predict(sensitivity->theta(), X);
  // The plurality of the teachers' votes, as dpstudio-cli compares with.
  const Eigen::MatrixXi votes = std::get<predict::SubsampleAggregate>(predictor).teachers().votes(X);
  Eigen::VectorXi labels(X.rows());
  for (Index i = 0; i < X.rows(); ++i) votes.row(i).maxCoeff(&labels[i]);
  return labels;
}

namespace {

// Every field of PreprocessSpec (a new one must be added here, or a redraw could reuse a
// baseline trained on differently preprocessed data).
bool samePreprocessing(const PreprocessSpec& a, const PreprocessSpec& b) {
  if (a.randomFeatures.has_value() != b.randomFeatures.has_value()) return false;
  if (a.randomFeatures && (a.randomFeatures->dim != b.randomFeatures->dim ||
                           a.randomFeatures->gamma != b.randomFeatures->gamma ||
                           a.randomFeatures->seed != b.randomFeatures->seed))
    return false;
  if (a.publicRanges.size() != b.publicRanges.size()) return false;
  for (std::size_t i = 0; i < a.publicRanges.size(); ++i)
    if (a.publicRanges[i].lo != b.publicRanges[i].lo || a.publicRanges[i].hi != b.publicRanges[i].hi) return false;
  return a.projectionDim == b.projectionDim && a.projectionSeed == b.projectionSeed && a.pcaDim == b.pcaDim &&
         a.unitRows == b.unitRows && a.normBound == b.normBound && a.intercept == b.intercept;
}

}  // namespace

bool sameBaseline(const TrainingSettings& a, const TrainingSettings& b) {
  return a.learner.kind == b.learner.kind && a.learner.lambda == b.learner.lambda &&
         a.learner.huber == b.learner.huber && a.tolerance == b.tolerance && a.maxIterations == b.maxIterations &&
         a.data.testFraction == b.data.testFraction && a.data.splitSeed == b.data.splitSeed &&
         samePreprocessing(a.data.preprocess, b.data.preprocess);
}

TrainingDocument::TrainingDocument(QObject* parent) : QObject(parent) {}

void TrainingDocument::setModel(std::shared_ptr<const TrainingResult> result,
                                std::shared_ptr<const ModelView> view, std::shared_ptr<PredictionAnswers> answers) {
  result_ = std::move(result);
  view_ = std::move(view);
  answers_ = std::move(answers);
  emit modelChanged();
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
  emit modelChanged();
}

}  // namespace dpstudio::ui
