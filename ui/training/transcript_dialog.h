#pragma once
// The multiparty protocol's transcript, for a student to read (issue 16): a summary line,
// the sequence diagram (transcript_diagram.h), the selected message's details — who sent what
// to whom, its size, and what its receiver learns — the stages' messages, bytes and time, and
// an export of the JSON as the CLI's --transcript writes it. Opened from a Paillier run's
// result in the Training dock, or from a transcript file (File ▸ Open Protocol Transcript…,
// e.g. what `dpstudio-cli party` or `curator` wrote on another laptop).

#include <QDialog>
#include <QString>

#include "core/prediction/paillier/transcript_reading.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QScrollArea;
class QTableWidget;
QT_END_NAMESPACE

namespace dpstudio::ui {

class TranscriptDiagram;

class TranscriptDialog : public QDialog {
  Q_OBJECT

 public:
  // json: the transcript as written (kept byte for byte for the export); record: it, read.
  TranscriptDialog(multiparty::paillier::TranscriptRecord record, QString json, QWidget* parent = nullptr);

  // Reads a transcript file and shows it (modeless, deleted on close). A file that cannot be
  // read or is not a transcript: null, and *problem says why, naming the file and the field.
  static TranscriptDialog* openFile(const QString& path, QWidget* parent, QString* problem);

  TranscriptDiagram* diagram() const { return diagram_; }
  QLabel* detailsLabel() const { return details_; }
  QLabel* summaryLabel() const { return summary_; }
  QTableWidget* stageTable() const { return stages_; }
  // Writes the JSON atomically; false with a message in *error.
  bool exportTo(const QString& path, QString* error) const;

 private:
  void showMessage(int index);
  void showExportDialog();

  QString json_;
  TranscriptDiagram* diagram_;
  QScrollArea* scroll_;
  QLabel* summary_;
  QLabel* details_;
  QTableWidget* stages_;
  QPushButton* exportButton_;
};

}  // namespace dpstudio::ui
