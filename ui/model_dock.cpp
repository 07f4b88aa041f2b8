#include "ui/model_dock.h"

#include <QScrollArea>

#include <algorithm>

#include "ui/model_panel.h"
#include "ui/training_controller.h"
#include "ui/training_document.h"

namespace dpstudio::ui {

ModelDock::ModelDock(DatasetDocument* datasets, TrainingDocument* training, TrainingController* trainer,
                     QWidget* parent)
    : QDockWidget(tr("Model"), parent), training_(training), panel_(new ModelPanel(datasets, training)) {
  setObjectName(QStringLiteral("modelDock"));
  auto* scroll = new QScrollArea;
  scroll->setWidget(panel_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(std::max(300, panel_->sizeHint().width() + 16));
  setWidget(scroll);

  connect(panel_, &ModelPanel::trainRequested, trainer, &TrainingController::train);
  connect(trainer, &TrainingController::busyChanged, panel_, &ModelPanel::setTraining);
  connect(trainer, &TrainingController::trainingStarted, this, [this] { emit statusMessage(QString(), 0); });
  connect(trainer, &TrainingController::trained, this, [this] {
    const TrainingResult& r = *training_->result();
    emit statusMessage(tr("Trained %1 on %2 in %3 s.")
                           .arg(modelDisplayName(r.settings.learner.kind), r.datasetName)
                           .arg(r.seconds, 0, 'f', 2),
                       6000);
  });
  connect(trainer, &TrainingController::trainingCancelled, this, [this] {
    const QString text = training_->hasModel() ? tr("Training was cancelled; the previous model is still shown.")
                                               : tr("Training was cancelled.");
    panel_->showTrainingMessage(text, false);
    emit statusMessage(text, 6000);
  });
  connect(trainer, &TrainingController::trainingFailed, this, [this](const QString& message) {
    panel_->showTrainingMessage(tr("Training failed: %1").arg(message), true);
    emit statusMessage(tr("Training failed."), 6000);
  });
}

}  // namespace dpstudio::ui
