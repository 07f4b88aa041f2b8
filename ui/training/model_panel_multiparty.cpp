// ModelPanel's Result rows for multiparty aggregation (docs/algorithms.md §3 I): the parties, the
// distance to the all-data model against Theorem 4.2, the all-data DP baseline, and who
// aggregated — with the Paillier protocol's transcript (transcript_dialog.h).
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

#include "core/prediction/paillier/transcript_reading.h"
#include "ui/training/calibration_view.h"
#include "ui/training/model_panel.h"
#include "ui/training/training_document.h"
#include "ui/training/transcript_dialog.h"

namespace dpstudio::ui {

void ModelPanel::showMultiparty(const TrainingResult& r) {
  const MultipartyDiagnostics& m = *r.multiparty;
  QStringList sizes;
  Index smallest = m.partySizes.empty() ? 0 : m.partySizes.front();
  for (Index size : m.partySizes) {
    sizes << QString::number(size);
    smallest = std::min(smallest, size);
  }
  partiesLabel_->setText(tr("K = %1: n\u2c7c = %2 rows; n\u208d\u2081\u208e = %3")
                             .arg(m.partySizes.size())
                             .arg(sizes.join(QStringLiteral(", ")))
                             .arg(smallest));
  partiesLabel_->setToolTip(tr("A seeded, data-independent assignment of the training rows to the parties. The "
                               "noise is calibrated to the smallest party, n\u208d\u2081\u208e."));
  distanceLabel_->setText(tr("%1 measured \u00b7 Theorem 4.2 bound %2\n(an experiment diagnostic from the pooled "
                             "data: NOT private)")
                              .arg(formatDerivedValue(m.distance), formatDerivedValue(m.bound)));
  distanceLabel_->setToolTip(tr("\u2016\u0175 \u2212 w*\u2016 between the parties' noise-free average and the "
                                "all-data minimizer, against paper 004's bound (K \u2212 1)/(n\u208d\u2081\u208e"
                                "\u03bb), as published."));
  if (m.allDataPrivate) {
    const QString test = m.allDataPrivate->testAccuracy ? formatPercent(*m.allDataPrivate->testAccuracy) : tr("\u2014");
    baselineLabel_->setText(tr("test %1 \u00b7 train %2 (paper 004's baseline: one party with all the data; a "
                               "second release, its own entry in the ledger)")
                                .arg(test, formatPercent(m.allDataPrivate->trainAccuracy)));
    baselineLabel_->setToolTip(QString::fromStdString(m.allDataPrivate->report.statement));
  }
  for (QLabel* label : {partiesLabel_, distanceLabel_}) resultForm_->setRowVisible(label, true);
  resultForm_->setRowVisible(baselineLabel_, m.allDataPrivate.has_value());
  const bool paillier = !m.transcriptJson.empty();
  if (paillier) {
    const auto record = multiparty::paillier::parseTranscriptJson(m.transcriptJson, "the protocol transcript");
    protocolLabel_->setText(record ? tr("Paillier protocol, %1-bit keys: %n message(s), %2 kB, %3 s", nullptr,
                                        static_cast<int>(record.value().messages.size()))
                                         .arg(record.value().keyBits)
                                         .arg(static_cast<double>(record.value().totalBytes) / 1e3, 0, 'f', 1)
                                         .arg(record.value().totalSeconds, 0, 'f', 1)
                                   : QString::fromStdString(record.error().toString()));
    protocolLabel_->setToolTip(tr("Paper 004's protocol: nobody saw a party's model or size, or whose noise was "
                                  "used."));
  } else {
    protocolLabel_->setText(tr("trusted curator (saw the local models in the clear)"));
    protocolLabel_->setToolTip(QString());
  }
  transcriptButton_->setVisible(paillier);
  resultForm_->setRowVisible(protocolRow_, true);
  noiseLabel_->setText(noiseLabel_->text().replace(QStringLiteral("\u2016b\u2016"), QStringLiteral("\u2016\u03b7\u2016")));
  mechanismLabel_->setText(mechanismLabel_->text() +
                           tr("\n\u03bb = %1 of paper 004's objective (1/n\u2c7c)\u03a3\u2113 + \u03bb\u2016w\u2016\u00b2")
                               .arg(r.settings.learner.lambda, 0, 'g', 4));
}

TranscriptDialog* ModelPanel::showTranscript() {
  const auto result = training_->result();
  if (!result || !result->multiparty || result->multiparty->transcriptJson.empty()) return nullptr;
  const std::string& json = result->multiparty->transcriptJson;
  auto record = multiparty::paillier::parseTranscriptJson(json, "the protocol transcript");
  if (!record) return nullptr;  // the label above says why
  auto* dialog = new TranscriptDialog(std::move(record).value(), QString::fromStdString(json), window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(tr("Protocol Transcript \u2014 %1").arg(result->datasetName));
  dialog->show();
  return dialog;
}

}  // namespace dpstudio::ui
