#pragma once
// The Training dock's "Private answers" group, shown while the model is a private predictor
// (docs/algorithms.md §3 F, G): what its budget of B answers has bought so far and the means to
// spend more of it. "Budget: B answers, R remaining" with a bar that fills as answers are
// given; "Answer N more test points" (the next N test points, in order, as dpstudio-cli
// answers them); the private test accuracy of the answered points beside the non-private
// model's on the same points; and a refusal, in core's words, when the budget is spent —
// the button stays enabled then, so that a user can see the predictor refuse.
//
// It only shows a PredictionAnswers and asks for answers through answerRequested().

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class PredictionAnswers;

class PredictionAnswersBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit PredictionAnswersBox(QWidget* parent = nullptr);

  // The answers to show (nullptr: none); call again after they change.
  void setAnswers(const PredictionAnswers* answers);
  void setBusy(bool busy);  // a training runs: no answering meanwhile
  // The outcome of the last request: a refusal (error) or what it did.
  void showMessage(const QString& message, bool error);

  QLabel* budgetLabel() const { return budgetLabel_; }
  QProgressBar* budgetBar() const { return budgetBar_; }
  QSpinBox* countBox() const { return countBox_; }
  QPushButton* answerButton() const { return answerButton_; }
  QLabel* messageLabel() const { return messageLabel_; }
  QLabel* accuracyLabel() const { return accuracyLabel_; }

 signals:
  void answerRequested(long long count);

 private:
  void refreshButton();

  QLabel* budgetLabel_;
  QProgressBar* budgetBar_;
  QSpinBox* countBox_;
  QPushButton* answerButton_;
  QLabel* messageLabel_;
  QLabel* accuracyLabel_;
  QLabel* noteLabel_;
  const PredictionAnswers* answers_ = nullptr;
  bool busy_ = false;
};

}  // namespace dpstudio::ui
