#pragma once
// The trained model the window is showing, and its 2-D view: the document the Model dock
// and the decision view subscribe to (Tiled's document pattern, like DatasetDocument). It
// owns no threads and computes nothing; TrainingController fills it with values computed
// off the GUI thread, as immutable shared values that workers may keep reading.
//
// Signals are past tense: modelChanged() after a model was published or cleared (with its
// view), viewChanged() after only the view of the same model changed.

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

#include "core/data/prepare.h"
#include "core/learn/learner.h"
#include "core/learn/model_view.h"

namespace dpstudio::ui {

// The model's name for people: "Logistic regression", "Huber SVM", "Softmax regression", "LMGC".
QString modelDisplayName(ModelKind kind);

// Everything Train needs besides the dataset; what the Model dock's form produces.
struct TrainingSettings {
  LearnerSpec learner;
  double tolerance = 1e-8;  // the optimizer's relative gradient tolerance (as dpstudio-cli)
  int maxIterations = 3000;
  SplitAndPreprocess data;  // test fraction, split seed, preprocessing
};

// One trained model with what it was trained on and how well it did.
struct TrainingResult {
  std::shared_ptr<const Dataset> source;  // the document's dataset it was trained on
  QString datasetName;
  TrainingSettings settings;
  PreparedData data;  // the training and test parts as the model saw them (preprocessed)
  TrainedModel model;
  double trainAccuracy = 0;
  std::optional<double> testAccuracy;  // none without a test part
  double seconds = 0;                  // wall-clock time of the optimization
};

// The model's picture in the dataset dock's 2-D view.
struct ModelView {
  ViewSpec spec;
  ModelViewGeometry geometry;
};

class TrainingDocument : public QObject {
  Q_OBJECT

 public:
  explicit TrainingDocument(QObject* parent = nullptr);

  bool hasModel() const { return static_cast<bool>(result_); }
  const std::shared_ptr<const TrainingResult>& result() const { return result_; }
  // Empty while no view could be computed for the model (the reason went to viewFailed).
  const std::shared_ptr<const ModelView>& view() const { return view_; }
  // Whether the model shown was trained on exactly this dataset (not an older one).
  bool isModelOf(const std::shared_ptr<const Dataset>& dataset) const {
    return result_ && dataset && result_->source == dataset;
  }

  void setModel(std::shared_ptr<const TrainingResult> result, std::shared_ptr<const ModelView> view);
  void setView(std::shared_ptr<const ModelView> view);
  void clear();  // no model; emits modelChanged() if there was one

 signals:
  void modelChanged();
  void viewChanged();

 private:
  std::shared_ptr<const TrainingResult> result_;
  std::shared_ptr<const ModelView> view_;
};

}  // namespace dpstudio::ui
