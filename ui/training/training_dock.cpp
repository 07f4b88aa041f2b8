#include "ui/training/training_dock.h"

#include <QFrame>
#include <QVBoxLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>

#include <algorithm>

#include "ui/training/model_panel.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/training/training_controller.h"
#include "ui/training/training_document.h"
#include "ui/widgets/focus_follow.h"

namespace dpstudio::ui {

TrainingDock::TrainingDock(DatasetDocument* datasets, TrainingDocument* training, TrainingController* trainer,
                           QWidget* parent)
    : QDockWidget(tr("Training"), parent), training_(training), panel_(new ModelPanel(datasets, training)) {
  // The saved window layout finds the dock by this name. A layout saved when it was
  // "modelDock" does not name it, and Qt leaves it where MainWindow adds it, on the right.
  setObjectName(QStringLiteral("trainingDock"));
  setWidget(makeBody());
  fitWidth();
  connectTraining(trainer);
  connectSpread(trainer);
  connectAnswers(trainer);
}

QWidget* TrainingDock::makeBody() {
  scroll_ = new QScrollArea;
  scroll_->setWidget(panel_);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  followFocus(scroll_);
  // One width for every mechanism, wide enough for the widest form, fixed before the first
  // show: rows appearing and disappearing must not make the dock (and the plot) jump.
  // Labels wrap; a form wider still scrolls sideways rather than being clipped.
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(scroll_, 1);
  auto* footer = new QFrame;
  footer->setFrameShape(QFrame::NoFrame);
  auto* footerLayout = new QVBoxLayout(footer);
  footerLayout->setContentsMargins(8, 4, 8, 6);
  footerLayout->addWidget(panel_->actionBar());
  layout->addWidget(footer);
  return body;
}

void TrainingDock::connectTraining(TrainingController* trainer) {
  connect(panel_, &ModelPanel::trainRequested, trainer, &TrainingController::train);
  connect(panel_, &ModelPanel::redrawRequested, trainer, &TrainingController::redrawNoise);
  connect(trainer, &TrainingController::busyChanged, panel_, &ModelPanel::setTraining);
  connect(trainer, &TrainingController::trainingStarted, this, [this] { emit statusMessage(QString(), 0); });
  connect(trainer, &TrainingController::trained, this, [this] {
    const TrainingResult& r = *training_->result();
    if (r.isPrediction()) {
      emit statusMessage(tr("A private predictor (%1) is ready on %2: nothing is released until it answers.")
                             .arg(privacyDisplayName(r.settings.privacy), r.datasetName),
                         8000);
      showAnswersBox();
      return;
    }
    if (r.isPrivate()) return;  // released() says more
    emit statusMessage(tr("Trained %1 on %2 in %3 s.")
                           .arg(modelDisplayName(r.settings.learner.kind), r.datasetName)
                           .arg(r.seconds, 0, 'f', 2),
                       6000);
  });
  connect(trainer, &TrainingController::released, this, [this](const QString& ledgerText) {
    const TrainingResult& r = *training_->result();
    emit statusMessage(tr("Trained a private %1 on %2 in %3 s. %4")
                           .arg(modelDisplayName(r.settings.learner.kind), r.datasetName)
                           .arg(r.release->seconds, 0, 'f', 2)
                           .arg(ledgerText),
                       10000);
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

void TrainingDock::connectSpread(TrainingController* trainer) {
  connect(panel_, &ModelPanel::spreadRequested, trainer, &TrainingController::drawSpread);
  connect(trainer, &TrainingController::spreadDrawn, this, [this](int count) {
    emit statusMessage(tr("Drew %1 private models of these settings (an experiment: not released, not in the "
                          "ledger).").arg(count), 8000);
  });
  connect(trainer, &TrainingController::spreadFailed, this,
          [this](const QString& message) { emit statusMessage(tr("Draw failed: %1").arg(message), 8000); });
}

void TrainingDock::connectAnswers(TrainingController* trainer) {
  connect(panel_, &ModelPanel::answerRequested, trainer, &TrainingController::answerTestPoints);
  connect(trainer, &TrainingController::answered, this, [this](long long count, const QString& ledgerText) {
    QString text = count == 1 ? tr("Answered 1 more test point privately.")
                              : tr("Answered %1 more test points privately.").arg(count);
    if (!ledgerText.isEmpty()) text += QLatin1Char(' ') + tr("The first answer opened the budget: %1").arg(ledgerText);
    panel_->answersBox()->showMessage(text, false);
    emit statusMessage(text, 8000);
    showAnswersBox();
  });
  connect(trainer, &TrainingController::answerRefused, this, [this](const QString& message) {
    panel_->answersBox()->showMessage(tr("Refused: %1").arg(message), true);
    emit statusMessage(tr("The private predictor refused to answer."), 6000);
    showAnswersBox();
  });
}

void TrainingDock::showAnswersBox() {
  // The budget and the answer button are what a predictor is used through: scrolled into
  // view below the form, once the panel has laid the group out.
  QTimer::singleShot(0, this, [this] { scroll_->ensureWidgetVisible(panel_->answersBox(), 0, 8); });
}

void TrainingDock::fitWidth() {
  const int scrollBar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  scroll_->setMinimumWidth(std::clamp(panel_->minimumSizeHint().width() + scrollBar + 4, 360, 440));
}

}  // namespace dpstudio::ui
