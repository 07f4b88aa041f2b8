#pragma once
// The Training dock's contents: the parameter form (model_settings_form.h: privacy mechanism,
// model, data), the Train, Redraw noise and Sweep buttons, and what the last training gave: the
// privacy status; the feature map, when the model reads random Fourier features; for a private model the mechanism's report (noise family and source, the
// noise norm drawn, the derived calibration, the statement and any warning); train and test
// accuracy (of the private and the non-private model side by side), the optimizer's
// iterations, objective and time. Train is disabled, with the reasons shown, while any
// field is invalid or a training runs (Cancel is in the status bar). Redraw noise is
// enabled while a private model of the current dataset is shown.
//
// A private predictor (§3 F, G) has no release to report: the panel shows its calibration and
// the "Private answers" group (prediction_answers_box.h) instead of accuracies. Multiparty
// aggregation (§3 I) adds paper 004's numbers: the party sizes, ‖ŵ − w*‖ against Theorem
// 4.2's bound (experiment diagnostics, marked not private), and, when the run asked for it,
// the all-data DP baseline (a second release, its own ledger entry).
//
// Like the Dataset panel it only shows documents and asks for work through a signal; the
// main window routes trainRequested() to the TrainingController.

#include <QWidget>

#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QFormLayout;
class QKeyEvent;
class QFrame;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class DatasetDocument;
class CalibrationView;
class ModelSettingsForm;
class PredictionAnswersBox;
class TranscriptDialog;

class ModelPanel : public QWidget {
  Q_OBJECT

 public:
  ModelPanel(DatasetDocument* datasets, TrainingDocument* training, QWidget* parent = nullptr);

  ModelSettingsForm* form() const { return form_; }
  // Train, Redraw noise and the reasons Train is off: placed by the dock outside the
  // scrolling form, so that they never move.
  QWidget* actionBar() const { return actionBar_; }
  QPushButton* trainButton() const { return trainButton_; }
  QPushButton* redrawButton() const { return redrawButton_; }
  QPushButton* sweepButton() const { return sweepButton_; }
  // Draw N (the spread of private models) and how many.
  QPushButton* spreadButton() const { return spreadButton_; }
  QSpinBox* spreadCountBox() const { return spreadCount_; }
  CalibrationView* reportView() const { return reportView_; }
  QLabel* featuresLabel() const { return featuresLabel_; }
  QLabel* mechanismLabel() const { return mechanismLabel_; }
  QLabel* noiseLabel() const { return noiseLabel_; }
  QLabel* releaseWarningLabel() const { return releaseWarning_; }
  QLabel* trainAccuracyLabel() const { return trainAccuracyLabel_; }
  QLabel* problemLabel() const { return problemLabel_; }
  QLabel* privacyLabel() const { return privacyLabel_; }
  QLabel* testAccuracyLabel() const { return testAccuracyLabel_; }
  PredictionAnswersBox* answersBox() const { return answersBox_; }
  QLabel* partiesLabel() const { return partiesLabel_; }
  QLabel* distanceLabel() const { return distanceLabel_; }
  QLabel* baselineLabel() const { return baselineLabel_; }
  QLabel* protocolLabel() const { return protocolLabel_; }
  QPushButton* transcriptButton() const { return transcriptButton_; }
  // Opens the shown Paillier run's transcript (the Transcript… button); null when there is none.
  TranscriptDialog* showTranscript();
  QLabel* staleLabel() const { return staleLabel_; }
  // What staleChanged() said last: the title's note while the result is stale, else empty.
  const QString& staleNote() const { return staleNote_; }
  QFrame* restoredBanner() const { return restoredBanner_; }
  QLabel* restoredLabel() const { return restoredLabel_; }

 public slots:
  // What the Train button does: emits trainRequested() if the form is valid and nothing runs.
  void requestTrain();
  void setTraining(bool training);
  // A training ended without a new model: say why, next to the button.
  void showTrainingMessage(const QString& message, bool error);
  // After the last session's settings were restored: a banner listing what differs from
  // the defaults, with Use Defaults and Keep. Nothing when nothing differs.
  void showRestored(const QStringList& changes);

 signals:
  void trainRequested(const dpstudio::ui::TrainingSettings& settings);
  void redrawRequested();
  // Sweep: these settings over a parameter, in the privacy–utility view (main window).
  void sweepRequested();
  // Draw N: `count` private models of the shown result's settings, drawn faintly.
  void spreadRequested(int count);
  void answerRequested(long long count);  // the private predictor shown, next test points
  // The result shown no longer matches the form (a note saying what changed), or matches
  // again (an empty note).
  void staleChanged(const QString& note);

 protected:
  // Enter in a field of the form (which line edits, spin boxes and closed combo boxes pass on)
  // trains, as Train's default look promises: a main window has no dialog to press it.
  void keyPressEvent(QKeyEvent* event) override;

 private:
  QWidget* makeResultGroup();
  QWidget* makeRestoredBanner();
  void refreshButton();
  void refreshResult();
  // refreshResult()'s parts for a trained model (a predictor has showPrediction()): the
  // privacy statement, the model and its data, a private release's mechanism, noise and
  // accuracies, and the optimizer's outcome.
  void showPrivacyStatement(const TrainingResult& r);
  void showModelDescription(const TrainingResult& r);
  void showRelease(const TrainingResult& r);
  void showOptimizer(const TrainingResult& r);
  void refreshStale(const QStringList& changes);
  void refreshAnswersBox();
  void showPrediction(const TrainingResult& r);
  void showMultiparty(const TrainingResult& r);

  DatasetDocument* datasets_;
  TrainingDocument* training_;
  ModelSettingsForm* form_ = nullptr;
  QWidget* actionBar_ = nullptr;
  QFrame* restoredBanner_ = nullptr;
  QLabel* restoredLabel_ = nullptr;
  QPushButton* trainButton_ = nullptr;
  QPushButton* redrawButton_ = nullptr;
  QPushButton* sweepButton_ = nullptr;
  QWidget* spreadRow_ = nullptr;
  QSpinBox* spreadCount_ = nullptr;
  QPushButton* spreadButton_ = nullptr;
  QWidget* makeSpreadRow();
  QLabel* problemLabel_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QFormLayout* resultForm_ = nullptr;
  QLabel* privacyLabel_ = nullptr;
  QLabel* modelLabel_ = nullptr;
  QLabel* featuresLabel_ = nullptr;
  QLabel* mechanismLabel_ = nullptr;
  QLabel* noiseLabel_ = nullptr;
  CalibrationView* reportView_ = nullptr;
  QLabel* releaseWarning_ = nullptr;
  QLabel* trainAccuracyLabel_ = nullptr;
  QLabel* testAccuracyLabel_ = nullptr;
  QLabel* optimizerLabel_ = nullptr;
  QLabel* objectiveLabel_ = nullptr;
  QLabel* timeLabel_ = nullptr;
  QLabel* noModelLabel_ = nullptr;
  QLabel* staleLabel_ = nullptr;  // the result no longer matches the form
  QString staleNote_;
  QLabel* partiesLabel_ = nullptr;
  QLabel* distanceLabel_ = nullptr;
  QLabel* baselineLabel_ = nullptr;
  QWidget* protocolRow_ = nullptr;  // protocolLabel_ and transcriptButton_
  QLabel* protocolLabel_ = nullptr;
  QPushButton* transcriptButton_ = nullptr;
  PredictionAnswersBox* answersBox_ = nullptr;
  bool trainingRunning_ = false;
};

}  // namespace dpstudio::ui
