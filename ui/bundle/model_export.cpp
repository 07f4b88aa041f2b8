#include "ui/bundle/model_export.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/bundle/bundle_answering.h"
#include "core/bundle/bundle_export.h"
#include "ui/bundle/opened_model.h"
#include "ui/dataset/dataset_document.h"

namespace dpstudio::ui {

Result<bundle::BundleContents> bundleOfResult(const TrainingResult& result) {
  experiment::PlanRun run;
  run.baseline = {result.model, result.trainAccuracy, result.testAccuracy, result.seconds};
  run.release = result.release;
  run.prediction = result.prediction;  // copies share the budget: answers given are spent
  run.multiparty = result.multiparty;
  // The source the run drew from, as the release records it (a predictor draws at each answer).
  privacy::NoiseProvenance noise;
  if (result.release) {
    noise = result.release->noise;
  } else {
    auto source = privacy::makeNoiseSource(result.settings.privacy.noise, result.settings.privacy.seed);
    if (!source) return source.error();
    noise = source.value()->provenance();
  }
  return bundle::bundleFromPlanRun(result.settings.plan(), run, *result.data, noise);
}

Status exportModel(const TrainingResult& result, const QString& path) {
  auto contents = bundleOfResult(result);
  if (!contents) return contents.error();
  return bundle::writeBundle(contents.value(), path);
}

ModelImportDialog::ModelImportDialog(bundle::LoadedBundle loaded, QString path, DatasetDocument* datasets,
                                     privacy::PrivacyLedger* ledger, QWidget* parent)
    : QDialog(parent),
      loaded_(std::move(loaded)),
      path_(std::move(path)),
      datasets_(datasets),
      ledger_(ledger),
      card_(new QTextBrowser),
      evaluate_(new QPushButton),
      showInView_(new QPushButton(tr("Show in Decision View"))),
      result_(new QLabel) {
  setObjectName(QStringLiteral("modelImportDialog"));
  setWindowTitle(tr("Model %1").arg(QFileInfo(path_).fileName()));
  card_->setObjectName(QStringLiteral("modelCard"));
  card_->setMarkdown(loaded_.contents.modelCard);
  card_->setMinimumSize(560, 380);
  evaluate_->setObjectName(QStringLiteral("evaluateBundleButton"));
  result_->setObjectName(QStringLiteral("bundleResult"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  const bool hasData = datasets_ && datasets_->hasDataset();
  evaluate_->setText(hasData ? tr("Answer the rows of %1").arg(datasets_->displayName()) : tr("Open a dataset first"));
  evaluate_->setEnabled(hasData);
  evaluate_->setToolTip(loaded_.stateful()
                            ? tr("Each row spends one answer of this private predictor's budget; the bundle and the "
                                 "privacy ledger record them before the answers are shown")
                            : tr("Apply the bundle's preprocessing and model to every row and compare with the labels"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(evaluate_, &QPushButton::clicked, this, &ModelImportDialog::evaluate);
  showInView_->setObjectName(QStringLiteral("showBundleInViewButton"));
  connect(showInView_, &QPushButton::clicked, this, &ModelImportDialog::showInView);
  refreshShowInView();
  // A dataset that finishes opening while the dialog is up changes what can be drawn.
  if (datasets_) connect(datasets_, &DatasetDocument::datasetChanged, this, &ModelImportDialog::refreshShowInView);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(card_, 1);
  if (const auto remaining = loaded_.budgetRemaining())
    layout->addWidget(new QLabel(tr("Budget: %1 of %2 answers left.").arg(*remaining).arg(*loaded_.budget())));
  auto* actions = new QHBoxLayout;
  actions->addWidget(evaluate_, 1);
  actions->addWidget(showInView_);
  layout->addLayout(actions);
  layout->addWidget(result_);
  layout->addWidget(buttons);
}

void ModelImportDialog::evaluate() {
  if (!datasets_ || !datasets_->hasDataset()) return;
  const Dataset& queries = *datasets_->dataset();
  if (loaded_.stateful() && confirmSpending_) {
    const auto answer = QMessageBox::question(
        this, tr("Spend the budget?"),
        tr("Answering %1 rows spends %1 of the %2 answers left in %3. Continue?")
            .arg(queries.rows())
            .arg(loaded_.budgetRemaining().value_or(0))
            .arg(QFileInfo(path_).fileName()));
    if (answer != QMessageBox::Yes) return;
  }
  // A private predictor's answers are releases: fresh OS randomness, as dpstudio-cli predict's default.
  auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Release, 0);
  if (!noise) {
    result_->setText(QString::fromStdString(noise.error().toString()));
    return;
  }
  // Whether this session's ledger holds the budget already (it then adds these answers).
  bool knownBudget = false;
  if (ledger_ && loaded_.budgetId)
    for (const privacy::LedgerEntry& e : ledger_->entries())
      knownBudget = knownBudget || (e.inferenceBudget && e.inferenceBudget->id == *loaded_.budgetId);
  // The bundle does not name its training data (the dataset shown is only the queries').
  auto answered = bundle::answerDataset(loaded_, path_, queries, *noise.value(), ledger_);
  if (!answered) {
    result_->setText(tr("\u26a0 %1").arg(QString::fromStdString(answered.error().toString())));
    return;
  }
  QString text = tr("%1 rows: accuracy %2 against the dataset's labels.")
                     .arg(answered.value().predictions.labels.size())
                     .arg(answered.value().accuracy.value_or(0.0), 0, 'f', 4);
  if (const auto remaining = loaded_.budgetRemaining())
    text += tr(" %1 answers spent; %2 of %3 left (recorded in the bundle).")
                .arg(answered.value().predictions.answersSpent)
                .arg(*remaining)
                .arg(*loaded_.budget());
  if (const auto& entry = answered.value().recorded) {
    if (!knownBudget && entry->inferenceBudget->opens)
      text += tr(" The ledger opened this budget with them (\u03b5 = %1, recorded once for all %2 answers).")
                  .arg(entry->epsilon, 0, 'g', 6)
                  .arg(entry->inferenceBudget->budget);
    else
      text += tr(" The ledger counts them with the other answers of this budget, whatever copy of the predictor "
                 "gave them (its \u03b5 was recorded once, when the budget was opened); this session's count is "
                 "%1.")
                  .arg(entry->inferenceBudget->counted());
  }
  result_->setText(text);
}

const Dataset* ModelImportDialog::shownDataset() const {
  return datasets_ && datasets_->hasDataset() ? datasets_->dataset().get() : nullptr;
}

void ModelImportDialog::refreshShowInView() {
  const QString why = whyNotDrawable(loaded_, shownDataset());
  showInView_->setEnabled(why.isEmpty());
  showInView_->setToolTip(why.isEmpty() ? tr("Draw this model's regions on %1's view: its own preprocessing and model "
                                             "applied at every pixel (free: it is a released model, not a predictor "
                                             "with a budget)")
                                              .arg(datasets_->displayName())
                                        : why);
}

void ModelImportDialog::showInView() {
  if (!whyNotDrawable(loaded_, shownDataset()).isEmpty()) return;
  emit showInViewRequested(openedModel(loaded_, path_));
  accept();
}

}  // namespace dpstudio::ui
