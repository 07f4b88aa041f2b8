#pragma once
// The Model dock: the ModelPanel in a scroll area above a fixed footer with Train and Redraw
// noise (which therefore never move, whatever rows the form shows), wired to the TrainingController (Train
// requests go to it; its busy state and outcomes come back to the panel), with one-line
// outcomes for the status bar through statusMessage().
//
// Its own dock rather than a section of the Dataset dock: both stay visible on either side
// of the plot, and private mechanisms will grow this form into the Mechanism dock.

#include <QDockWidget>

QT_BEGIN_NAMESPACE
class QScrollArea;
QT_END_NAMESPACE

namespace dpstudio::ui {

class DatasetDocument;
class ModelPanel;
class TrainingController;
class TrainingDocument;

class ModelDock : public QDockWidget {
  Q_OBJECT

 public:
  ModelDock(DatasetDocument* datasets, TrainingDocument* training, TrainingController* trainer,
            QWidget* parent = nullptr);

  ModelPanel* panel() const { return panel_; }

 signals:
  void statusMessage(const QString& text, int timeoutMs);

 private:
  QWidget* makeBody();  // the panel's scroll area above the footer with its buttons
  // The panel's requests go to the trainer; its outcomes come back to the panel and, in a
  // line, to the status bar.
  void connectTraining(TrainingController* trainer);  // Train, Redraw noise
  void connectSpread(TrainingController* trainer);    // Draw N
  void connectAnswers(TrainingController* trainer);   // a private predictor's answers
  void fitWidth();
  void showAnswersBox();

  QScrollArea* scroll_ = nullptr;
  TrainingDocument* training_;
  ModelPanel* panel_;
};

}  // namespace dpstudio::ui
