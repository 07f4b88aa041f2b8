#pragma once
// The Training dock: everything a training takes and gives, in one ModelPanel — the
// Privacy, Model and Training data groups, Draw N, the last Result and, for a private
// predictor, its Private answers — in a scroll area above a fixed footer with Train, Redraw
// noise and Sweep (which therefore never move, whatever rows the form shows). Wired to the
// TrainingController: Train requests go to it; its busy state and outcomes come back to the
// panel, and one-line outcomes go to the status bar through statusMessage().
//
// Named after what it holds, a training's inputs and outputs, rather than after one of its
// groups.
// Its own dock rather than a section of the Dataset dock: both stay visible on either side
// of the plot.

#include <QDockWidget>

QT_BEGIN_NAMESPACE
class QScrollArea;
QT_END_NAMESPACE

namespace dpstudio::ui {

class DatasetDocument;
class ModelPanel;
class TrainingController;
class TrainingDocument;

class TrainingDock : public QDockWidget {
  Q_OBJECT

 public:
  TrainingDock(DatasetDocument* datasets, TrainingDocument* training, TrainingController* trainer,
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
