#pragma once
// File → Export Model… and File → Import Model…: the GUI's side of .dpmodel bundles
// (core/bundle). Export writes the shown result — a private release, a private predictor
// with the answers it has given, or a non-private model (marked so in the bundle) — through
// the same core function as `dpstudio-cli train --out`. Import reads and checks a bundle,
// shows its model card, and answers the current dataset's rows through it (predict.h's
// rules: a stateful predictor spends its budget and the bundle is rewritten atomically
// with the new count, after asking; its answers are recorded in the privacy ledger before
// they are shown, against the budget's entry when the ledger holds it). A released model can
// also be shown in the decision view on the current dataset (opened_model.h says which can).

#include <QDialog>
#include <QString>

#include <memory>

#include "core/bundle/bundle_reader.h"
#include "core/util/result.h"
#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace dpstudio::ui {

class DatasetDocument;
struct OpenedModel;

// The bundle of `result` (core's bundleFromPlanRun over the run it holds).
Result<bundle::BundleContents> bundleOfResult(const TrainingResult& result);
// Writes it to `path` atomically; errors name the path and member.
Status exportModel(const TrainingResult& result, const QString& path);

class ModelImportDialog : public QDialog {
  Q_OBJECT

 public:
  // ledger: where a private predictor's answers are recorded (the window's); it must outlive
  // the dialog.
  ModelImportDialog(bundle::LoadedBundle loaded, QString path, DatasetDocument* datasets,
                    privacy::PrivacyLedger* ledger, QWidget* parent = nullptr);

  QPushButton* evaluateButton() const { return evaluate_; }
  // Show in decision view: disabled, with the reason as its tooltip, for a stateful
  // predictor or a dataset with another number of features.
  QPushButton* showInViewButton() const { return showInView_; }
  QLabel* resultLabel() const { return result_; }
  QTextBrowser* cardView() const { return card_; }
  // Without dialogs (tests), spending a predictor's budget is not asked about.
  void setConfirmSpending(bool confirm) { confirmSpending_ = confirm; }

 public slots:
  void evaluate();
  // Emits showInViewRequested() with the bundle's model and closes the dialog.
  void showInView();

 signals:
  void showInViewRequested(std::shared_ptr<const dpstudio::ui::OpenedModel> model);

 private:
  void refreshShowInView();
  const Dataset* shownDataset() const;  // the window's dataset, or nullptr

  bundle::LoadedBundle loaded_;
  QString path_;
  DatasetDocument* datasets_;
  privacy::PrivacyLedger* ledger_;
  QTextBrowser* card_;
  QPushButton* evaluate_;
  QPushButton* showInView_;
  QLabel* result_;
  bool confirmSpending_ = true;
};

}  // namespace dpstudio::ui
