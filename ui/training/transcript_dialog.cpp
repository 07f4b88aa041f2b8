#include "ui/training/transcript_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/util/atomic_file.h"
#include "ui/training/transcript_diagram.h"
#include "ui/widgets/screen_fit.h"

namespace dpstudio::ui {
namespace {

constexpr auto kExportDirKey = "transcript/exportDir";
// A transcript of K parties has O(K) messages of a few kB each: 64 MiB is far beyond any.
constexpr qint64 kMaxTranscriptBytes = 64LL << 20;

QString text(const std::string& s) { return QString::fromStdString(s); }

QString sizeText(std::size_t bytes) {
  return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

}  // namespace

TranscriptDialog::TranscriptDialog(multiparty::paillier::TranscriptRecord record, QString json, QWidget* parent)
    : QDialog(parent), json_(std::move(json)) {
  setWindowTitle(tr("Protocol Transcript"));
  setObjectName(QStringLiteral("transcriptDialog"));

  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QString outcome = record.released() ? tr("released") : text(record.outcome);
  summary_->setText(tr("Paper 004's protocol (\u00a73.2): %1-bit Paillier keys, K = %2 parties and the curator "
                       "Charlie \u2014 %n message(s), %3, %4 s; %5. No message carries a party's size n\u2c7c "
                       "or its model \u0175\u2c7c in the clear: click a message to see what its receiver learns.",
                       nullptr, static_cast<int>(record.messages.size()))
                        .arg(record.keyBits)
                        .arg(record.parties)
                        .arg(sizeText(record.totalBytes))
                        .arg(record.totalSeconds, 0, 'f', 1)
                        .arg(outcome));
  if (!record.released()) summary_->setStyleSheet(QStringLiteral("color: #a00000;"));

  diagram_ = new TranscriptDiagram;
  scroll_ = new QScrollArea;
  scroll_->setWidget(diagram_);
  scroll_->setWidgetResizable(false);
  scroll_->setAlignment(Qt::AlignHCenter);

  details_ = new QLabel(tr("No message selected."));
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setAccessibleName(tr("Selected message"));
  details_->setMinimumHeight(details_->fontMetrics().lineSpacing() * 4);

  stages_ = new QTableWidget(0, 4);
  stages_->setHorizontalHeaderLabels({tr("Stage"), tr("Messages"), tr("Bytes"), tr("Seconds")});
  stages_->verticalHeader()->hide();
  stages_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  stages_->setTabKeyNavigation(false);  // Tab moves on, not from cell to cell
  stages_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (const auto& s : record.stages) {
    const int row = stages_->rowCount();
    stages_->insertRow(row);
    stages_->setItem(row, 0, new QTableWidgetItem(text(s.stage)));
    stages_->setItem(row, 1, new QTableWidgetItem(QString::number(s.messages)));
    stages_->setItem(row, 2, new QTableWidgetItem(sizeText(s.bytes)));
    stages_->setItem(row, 3, new QTableWidgetItem(QString::number(s.seconds, 'f', 2)));
  }
  stages_->setToolTip(tr("Seconds: the wall time of the steps of each stage, computation included (the DGK "
                         "comparisons dominate)."));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  exportButton_ = buttons->addButton(tr("Export JSON\u2026"), QDialogButtonBox::ActionRole);
  connect(exportButton_, &QPushButton::clicked, this, &TranscriptDialog::showExportDialog);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* lower = new QWidget;
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  lowerLayout->addWidget(details_);
  lowerLayout->addWidget(stages_);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(scroll_);
  split->addWidget(lower);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 0);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(split, 1);
  layout->addWidget(buttons);

  connect(diagram_, &TranscriptDiagram::messageSelected, this, &TranscriptDialog::showMessage);
  diagram_->setRecord(std::move(record));
  // The table as tall as its rows, the diagram the rest.
  stages_->resizeRowsToContents();
  int tableHeight = stages_->horizontalHeader()->height() + 2 * stages_->frameWidth();
  for (int row = 0; row < stages_->rowCount(); ++row) tableHeight += stages_->rowHeight(row);
  tableHeight += 12;  // the header and frame settle after polish
  stages_->setMaximumHeight(tableHeight);
  split->setSizes({600, details_->minimumHeight() + tableHeight});
  resize(sizeWithinScreen(this, QSize(std::min(diagram_->sizeHint().width() + 60, 1200), 860)));
}

void TranscriptDialog::showMessage(int index) {
  if (index < 0) {
    details_->setText(tr("No message selected."));
    return;
  }
  const QPoint centre = diagram_->arrowCentre(index);
  scroll_->ensureVisible(centre.x(), centre.y(), 40, 60);
  const auto& r = diagram_->record();
  const auto& m = r.messages[static_cast<std::size_t>(index)];
  details_->setText(tr("<b>Message %1 of %2</b> \u00b7 %3<br>%4 \u2192 %5: <b>%6</b>, %7 bytes<br>"
                       "<i>What it reveals:</i> %8")
                        .arg(index + 1)
                        .arg(r.messages.size())
                        .arg(text(m.stage).toHtmlEscaped(), text(m.sender).toHtmlEscaped(),
                             text(m.receiver).toHtmlEscaped(), text(m.kind).toHtmlEscaped())
                        .arg(m.bytes)
                        .arg(text(m.reveals).toHtmlEscaped()));
}

bool TranscriptDialog::exportTo(const QString& path, QString* error) const {
  const Status written = writeFileAtomically(json_.toUtf8(), path, "the protocol transcript");
  if (!written && error) *error = text(written.error().toString());
  return static_cast<bool>(written);
}

void TranscriptDialog::showExportDialog() {
  QSettings settings;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Protocol Transcript"),
      QDir(settings.value(kExportDirKey, QDir::homePath()).toString()).filePath(QStringLiteral("transcript.json")),
      tr("JSON (*.json)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  QString error;
  if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

TranscriptDialog* TranscriptDialog::openFile(const QString& path, QWidget* parent, QString* problemOut) {
  QFile file(path);
  QString problem;
  if (!file.open(QIODevice::ReadOnly)) {
    problem = tr("%1: cannot be read (%2)").arg(QDir::toNativeSeparators(path), file.errorString());
  } else if (file.size() > kMaxTranscriptBytes) {
    problem = tr("%1: %2 is too large for a protocol transcript").arg(QDir::toNativeSeparators(path),
                                                                      sizeText(static_cast<std::size_t>(file.size())));
  } else {
    const QByteArray bytes = file.readAll();
    auto record = multiparty::paillier::parseTranscriptJson(bytes.toStdString(), QDir::toNativeSeparators(path).toStdString());
    if (record) {
      auto* dialog = new TranscriptDialog(std::move(record).value(), QString::fromUtf8(bytes), parent);
      dialog->setAttribute(Qt::WA_DeleteOnClose);
      dialog->setWindowTitle(tr("Protocol Transcript \u2014 %1").arg(QFileInfo(path).fileName()));
      dialog->show();
      return dialog;
    }
    problem = text(record.error().toString());
  }
  if (problemOut) *problemOut = problem;
  return nullptr;
}

}  // namespace dpstudio::ui
