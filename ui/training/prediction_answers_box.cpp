#include "ui/training/prediction_answers_box.h"

#include "ui/training/calibration_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/training/prediction_answers.h"

namespace dpstudio::ui {
namespace {

QLabel* wrapping() {
  auto* label = new QLabel;
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

PredictionAnswersBox::PredictionAnswersBox(QWidget* parent) : QGroupBox(tr("Private answers"), parent) {
  auto* layout = new QVBoxLayout(this);
  budgetLabel_ = wrapping();
  QFont bold = budgetLabel_->font();
  bold.setBold(true);
  budgetLabel_->setFont(bold);
  layout->addWidget(budgetLabel_);
  budgetBar_ = new QProgressBar;
  budgetBar_->setTextVisible(true);
  budgetBar_->setToolTip(tr("Answers given out of the budget B. The guarantee (\u03b5, \u03b4) covers all B answers "
                            "together; the predictor refuses answer B + 1."));
  layout->addWidget(budgetBar_);

  auto* row = new QHBoxLayout;
  countBox_ = new QSpinBox;
  countBox_->setRange(1, 1'000'000);
  countBox_->setValue(10);
  countBox_->setToolTip(tr("How many test points the next request answers (all or none of them)."));
  answerButton_ = new QPushButton;
  row->addWidget(answerButton_, 1);
  row->addWidget(countBox_);
  layout->addLayout(row);
  messageLabel_ = wrapping();
  messageLabel_->setVisible(false);
  layout->addWidget(messageLabel_);
  accuracyLabel_ = wrapping();
  layout->addWidget(accuracyLabel_);
  noteLabel_ = wrapping();
  noteLabel_->setForegroundRole(QPalette::PlaceholderText);
  layout->addWidget(noteLabel_);

  connect(countBox_, &QSpinBox::valueChanged, this, &PredictionAnswersBox::refreshButton);
  connect(answerButton_, &QPushButton::clicked, this, [this] {
    if (answerButton_->isEnabled()) emit answerRequested(countBox_->value());
  });
  setAnswers(nullptr);
}

void PredictionAnswersBox::setAnswers(const PredictionAnswers* answers) {
  answers_ = answers;
  messageLabel_->setVisible(false);
  if (!answers) {
    refreshButton();
    return;
  }
  const QLocale locale;
  const long long budget = answers->budget();
  const long long remaining = answers->remaining();
  budgetLabel_->setText(tr("Budget: %1 answers, %2 remaining")
                            .arg(locale.toString(budget), locale.toString(remaining)));
  budgetBar_->setRange(0, static_cast<int>(std::min<long long>(budget, 1'000'000'000)));
  budgetBar_->setValue(static_cast<int>(std::min<long long>(budget - remaining, 1'000'000'000)));
  budgetBar_->setFormat(tr("%1 of %2 answers spent").arg(locale.toString(budget - remaining), locale.toString(budget)));

  const Index answered = answers->answered();
  const bool teachers = answers->result().prediction->isSubsample();
  const QString plain = teachers ? tr("the teachers' plurality vote") : tr("the non-private \u03b8*");
  if (answered == 0) {
    accuracyLabel_->setText(tr("Private test accuracy: \u2014 (no test point answered yet)"));
  } else {
    const double n = static_cast<double>(answered);
    accuracyLabel_->setText(tr("Private test accuracy: %1 on the %2 test points answered \u00b7 %3 for %4 on the "
                               "same points (not released)")
                                .arg(formatPercent(static_cast<double>(answers->correct()) / n))
                                .arg(answered)
                                .arg(formatPercent(static_cast<double>(answers->nonPrivateCorrect()) / n), plain));
  }
  accuracyLabel_->setToolTip(tr("As dpstudio-cli measures it: the test points are answered in order through the "
                                "private predictor, and the accuracy is that of the answers. Answering the "
                                "training points would spend budget too, so their accuracy is not measured."));
  noteLabel_->setText(budget == remaining
                          ? tr("Nothing is released yet: the first answer records the whole (\u03b5, \u03b4) of "
                               "the %1 answers in the ledger.").arg(locale.toString(budget))
                          : tr("The ledger holds this budget's (\u03b5, \u03b4) since its first answer. %1 of the "
                               "%2 test points answered.")
                                .arg(locale.toString(static_cast<qlonglong>(answered)),
                                     locale.toString(static_cast<qlonglong>(answers->testRows()))));
  refreshButton();
}

void PredictionAnswersBox::setBusy(bool busy) {
  busy_ = busy;
  refreshButton();
}

void PredictionAnswersBox::showMessage(const QString& message, bool error) {
  messageLabel_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b00020; }") : QString());
  messageLabel_->setText(message);
  messageLabel_->setVisible(!message.isEmpty());
}

void PredictionAnswersBox::refreshButton() {
  const int count = countBox_->value();
  answerButton_->setText(count == 1 ? tr("Answer 1 more test point") : tr("Answer %1 more test points").arg(count));
  const Index left = answers_ ? answers_->unanswered() : 0;
  answerButton_->setEnabled(answers_ && left > 0 && !busy_);
  if (!answers_) answerButton_->setToolTip(QString());
  else if (answers_->testRows() == 0)
    answerButton_->setToolTip(tr("There is no test part to answer: train with a test fraction > 0."));
  else if (left == 0)
    answerButton_->setToolTip(tr("Every test point has been answered."));
  else if (answers_->remaining() == 0)
    answerButton_->setToolTip(tr("The budget is spent: the predictor refuses every further answer. Redraw noise "
                                 "starts a new repetition with a new budget \u2014 a new release."));
  else
    answerButton_->setToolTip(tr("Answer the next test points, in order, through the private predictor: each "
                                 "answer spends one of the budget's B answers."));
}

}  // namespace dpstudio::ui
