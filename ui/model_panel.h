#pragma once
// The Model dock's contents: the parameter form (model_settings_form.h: mechanism, for now
// only "none", the non-private baseline; model; data), the Train button, and what the last training
// gave: train and test accuracy, the optimizer's iterations, objective and time, and the
// privacy status. Train is disabled, with the reasons shown, while any field is invalid or
// a training runs (Cancel is in the status bar).
//
// Like the Dataset panel it only shows documents and asks for work through a signal; the
// main window routes trainRequested() to the TrainingController.

#include <QWidget>

#include "ui/training_document.h"

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace dpstudio::ui {

class DatasetDocument;
class ModelSettingsForm;

class ModelPanel : public QWidget {
  Q_OBJECT

 public:
  ModelPanel(DatasetDocument* datasets, TrainingDocument* training, QWidget* parent = nullptr);

  ModelSettingsForm* form() const { return form_; }
  QPushButton* trainButton() const { return trainButton_; }
  QLabel* problemLabel() const { return problemLabel_; }
  QLabel* privacyLabel() const { return privacyLabel_; }

 public slots:
  // What the Train button does: emits trainRequested() if the form is valid and nothing runs.
  void requestTrain();
  void setTraining(bool training);
  // A training ended without a new model: say why, next to the button.
  void showTrainingMessage(const QString& message, bool error);

 signals:
  void trainRequested(const dpstudio::ui::TrainingSettings& settings);

 private:
  QWidget* makeResultGroup();
  void refreshButton();
  void refreshResult();

  DatasetDocument* datasets_;
  TrainingDocument* training_;
  ModelSettingsForm* form_ = nullptr;
  QPushButton* trainButton_ = nullptr;
  QLabel* problemLabel_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QFormLayout* resultForm_ = nullptr;
  QLabel* privacyLabel_ = nullptr;
  QLabel* modelLabel_ = nullptr;
  QLabel* trainAccuracyLabel_ = nullptr;
  QLabel* testAccuracyLabel_ = nullptr;
  QLabel* optimizerLabel_ = nullptr;
  QLabel* objectiveLabel_ = nullptr;
  QLabel* timeLabel_ = nullptr;
  QLabel* noModelLabel_ = nullptr;
  bool trainingRunning_ = false;
};

}  // namespace dpstudio::ui
