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

TrainingDocument::TrainingDocument(QObject* parent) : QObject(parent) {}

void TrainingDocument::setModel(std::shared_ptr<const TrainingResult> result,
                                std::shared_ptr<const ModelView> view) {
  result_ = std::move(result);
  view_ = std::move(view);
  emit modelChanged();
}

void TrainingDocument::setView(std::shared_ptr<const ModelView> view) {
  view_ = std::move(view);
  emit viewChanged();
}

void TrainingDocument::clear() {
  if (!result_ && !view_) return;
  result_.reset();
  view_.reset();
  emit modelChanged();
}

}  // namespace dpstudio::ui
