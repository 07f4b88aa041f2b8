#include "ui/ledger_view.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <chrono>
#include <set>

#include "ui/ledger_model.h"

namespace dpstudio::ui {
namespace {

const QString kExportDirKey = QStringLiteral("dialogs/ledgerExportDirectory");

QString costText(const privacy::PrivacyCost& cost) {
  return QObject::tr("\u03b5 = %1, \u03b4 = %2").arg(QString::number(cost.epsilon, 'g', 6),
                                                     QString::number(cost.delta, 'g', 6));
}

// RFC 4180: quote every text field, doubling the quotes inside.
QString csvText(const std::string& text) {
  QString s = QString::fromStdString(text);
  s.replace(QLatin1Char('"'), QLatin1String("\"\""));
  return QLatin1Char('"') + s + QLatin1Char('"');
}

}  // namespace

LedgerView::LedgerView(std::shared_ptr<privacy::PrivacyLedger> ledger, QWidget* parent)
    : QWidget(parent),
      model_(new LedgerModel(std::move(ledger), this)),
      table_(new QTableView),
      totals_(new QLabel),
      void_(new QLabel),
      clearButton_(new QPushButton(tr("Clear Session\u2026"))),
      exportButton_(new QPushButton(tr("Export CSV\u2026"))) {
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
  // The short columns are fitted to their contents whenever rows change (refreshTotals());
  // ResizeToContents alone measured them before the first row arrived and showed "…".
  table_->setColumnWidth(LedgerModel::MechanismColumn, 300);
  table_->setColumnWidth(LedgerModel::DatasetColumn, 140);
  table_->setColumnWidth(LedgerModel::BudgetColumn, 120);

  totals_->setWordWrap(true);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setToolTip(tr("Basic composition (ALGORITHMS \u00a71): releases that are (\u03b5\u1d62, \u03b4\u1d62)-DP "
                         "are together (\u03a3\u03b5\u1d62, \u03a3\u03b4\u1d62)-DP, for any choice of "
                         "releases, even adaptive ones. Audits spend nothing and are not listed."));
  void_->setWordWrap(true);
  void_->setText(tr("<b>Guarantee void:</b> a \u03b4 total has reached 1, so the composed (\u03b5, \u03b4) "
                    "statement promises nothing. Start a new session or release less."));
  void_->setStyleSheet(QStringLiteral("QLabel { color: white; background: #c62828; padding: 4px 8px; "
                                      "border-radius: 3px; }"));
  void_->hide();

  clearButton_->setIcon(style()->standardIcon(QStyle::SP_DialogResetButton));
  clearButton_->setToolTip(tr("Forget every release recorded so far and start a new session. The models "
                              "already released stay released: this only resets the accounting."));
  exportButton_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  exportButton_->setToolTip(tr("Save the ledger as CSV (full-precision \u03b5 and \u03b4)."));
  connect(clearButton_, &QPushButton::clicked, this, &LedgerView::requestClear);
  connect(exportButton_, &QPushButton::clicked, this, &LedgerView::showExportDialog);

  auto* bottom = new QHBoxLayout;
  bottom->addWidget(totals_, 1);
  bottom->addWidget(exportButton_);
  bottom->addWidget(clearButton_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_, 1);
  layout->addWidget(void_);
  layout->addLayout(bottom);

  connect(model_, &LedgerModel::changed, this, &LedgerView::refreshTotals);
  connect(model_, &LedgerModel::rowsInserted, table_, &QTableView::scrollToBottom);
  refreshTotals();
}

void LedgerView::refreshTotals() {
  for (int column : {LedgerModel::IndexColumn, LedgerModel::TimeColumn, LedgerModel::EpsilonColumn,
                     LedgerModel::DeltaColumn})
    table_->resizeColumnToContents(column);
  const auto& entries = model_->entries();
  const bool empty = entries.empty();
  clearButton_->setEnabled(!empty);
  exportButton_->setEnabled(!empty);
  if (empty) {
    totals_->setText(tr("No private releases in this session yet. A private training or a private "
                        "predictor's first answer records its (\u03b5, \u03b4) here."));
    void_->hide();
    return;
  }
  const privacy::PrivacyLedger& ledger = model_->ledger();
  const privacy::PrivacyCost total = ledger.total();
  bool isVoid = total.delta >= 1.0;
  QString text = entries.size() == 1
                     ? tr("<b>Total by basic composition:</b> %1 over 1 release.").arg(costText(total))
                     : tr("<b>Total by basic composition:</b> %1 over %2 releases.")
                           .arg(costText(total))
                           .arg(entries.size());
  std::set<std::string> datasets;
  for (const auto& e : entries) datasets.insert(e.dataset);
  if (datasets.size() > 1) {
    QStringList parts;
    for (const std::string& name : datasets) {
      const privacy::PrivacyCost cost = ledger.totalFor(name);
      isVoid = isVoid || cost.delta >= 1.0;
      parts << tr("%1: %2").arg(name.empty() ? tr("(unnamed)") : ledgerDatasetName(name).toHtmlEscaped(),
                                costText(cost));
    }
    text += QStringLiteral("<br>") + tr("Per dataset: %1.").arg(parts.join(QStringLiteral("; ")));
  }
  totals_->setText(text);
  void_->setVisible(isVoid);
}

void LedgerView::requestClear() {
  if (model_->entries().empty()) return;
  QMessageBox box(QMessageBox::Question, tr("Clear the session?"),
                  model_->entries().size() == 1
                      ? tr("Forget the recorded release and start a new session?")
                      : tr("Forget the %1 recorded releases and start a new session?").arg(model_->entries().size()),
                  QMessageBox::Yes | QMessageBox::Cancel, this);
  box.setInformativeText(tr("What was released stays released; only the accounting starts again from zero."));
  box.setDefaultButton(QMessageBox::Cancel);
  box.button(QMessageBox::Yes)->setText(tr("Clear"));
  if (box.exec() != QMessageBox::Yes) return;
  model_->ledger().clear();
}

bool LedgerView::exportCsv(const QString& path, QString* error) const {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
  }
  QString out = QStringLiteral("index,time,mechanism,epsilon,delta,dataset,note\n");
  for (const privacy::LedgerEntry& e : model_->entries()) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(e.time.time_since_epoch()).count();
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
               .arg(e.index + 1)
               .arg(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs),
                    csvText(e.mechanism), QString::number(e.epsilon, 'g', 17), QString::number(e.delta, 'g', 17),
                    csvText(e.dataset), csvText(e.note));
  }
  file.write(out.toUtf8());
  if (!file.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
  }
  return true;
}

bool LedgerView::showExportDialog() {
  QSettings settings;
  const QString suggested =
      QDir(settings.value(kExportDirKey, QDir::homePath()).toString()).filePath(QStringLiteral("privacy-ledger.csv"));
  QString path = QFileDialog::getSaveFileName(this, tr("Export Ledger"), suggested, tr("CSV file (*.csv)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  QString error;
  if (exportCsv(path, &error)) return true;
  QMessageBox::warning(this, tr("Export failed"), error);
  return false;
}

}  // namespace dpstudio::ui
