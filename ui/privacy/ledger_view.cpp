#include "ui/privacy/ledger_view.h"

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

#include "core/privacy/ledger_totals.h"
#include "core/privacy/tradeoff.h"
#include "ui/privacy/ledger_model.h"
#include "ui/privacy/ledger_store.h"

namespace dpstudio::ui {
namespace {

const QString kExportDirKey = QStringLiteral("dialogs/ledgerExportDirectory");

QString costText(const privacy::PrivacyCost& cost) {
  return QObject::tr("\u03b5 = %1, \u03b4 = %2").arg(QString::number(cost.epsilon, 'g', 6),
                                                     QString::number(cost.delta, 'g', 6));
}

// What a dataset's total means for one person in it (core/privacy/tradeoff.h, issue 35): the
// most a 1 % belief about their record can grow to; nothing once δ reaches 1.
QString beliefText(const privacy::PrivacyCost& cost) {
  if (!(cost.delta < 1.0)) return {};
  auto meaning = privacy::meaningOf(cost.epsilon, cost.delta);
  if (!meaning) return {};
  return QObject::tr(" (a 1 % belief about one person's record: at most %1%2)")
      .arg(QString::number(100 * meaning.value().posteriors.front().atMost, 'f', 1) + QStringLiteral(" %"),
           cost.delta > 0 ? QObject::tr(" against a test wrong for 1 %") : QString());
}

// RFC 4180: quote every text field, doubling the quotes inside.
QString csvText(const std::string& text) {
  QString s = QString::fromStdString(text);
  s.replace(QLatin1Char('"'), QLatin1String("\"\""));
  return QLatin1Char('"') + s + QLatin1Char('"');
}

// A dataset of the totals as a person names it: the user's names, else the files' names.
QString datasetTotalName(const privacy::DatasetTotal& total) {
  QStringList names;
  for (const std::string& name : total.names) names << QString::fromStdString(name);
  if (names.isEmpty())
    for (const std::string& path : total.paths) names << ledgerDatasetName(path);
  return names.isEmpty() ? QObject::tr("(unknown)") : names.join(QStringLiteral(" = "));
}

const QString kProblemStyle = QStringLiteral("QLabel { color: white; background: #c62828; padding: 4px 8px; "
                                             "border-radius: 3px; }");
const QString kNoticeStyle = QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; padding: 4px 8px; "
                                            "border-radius: 3px; }");

}  // namespace

LedgerView::LedgerView(std::shared_ptr<privacy::PrivacyLedger> ledger, QWidget* parent)
    : QWidget(parent),
      model_(new LedgerModel(std::move(ledger), this)),
      table_(new QTableView),
      totals_(new QLabel),
      void_(new QLabel),
      file_(new QLabel),
      clearButton_(new QPushButton(tr("Clear Session\u2026"))),
      exportButton_(new QPushButton(tr("Export CSV\u2026"))) {
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  // Tab leaves the table (arrows move within it): a table that kept Tab was a keyboard trap.
  table_->setTabKeyNavigation(false);
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
  totals_->setToolTip(tr("Basic composition (Help \u2192 Algorithms \u00a71.3): releases that are (\u03b5\u1d62, \u03b4\u1d62)-DP "
                         "are together (\u03a3\u03b5\u1d62, \u03a3\u03b4\u1d62)-DP, for any choice of "
                         "releases, even adaptive ones. Audits spend nothing and are not listed."));
  void_->setWordWrap(true);
  void_->setText(tr("<b>Guarantee void:</b> a \u03b4 total has reached 1, so the composed (\u03b5, \u03b4) "
                    "statement promises nothing. Start a new session or release less."));
  void_->setStyleSheet(QStringLiteral("QLabel { color: white; background: #c62828; padding: 4px 8px; "
                                      "border-radius: 3px; }"));
  void_->hide();
  file_->setObjectName(QStringLiteral("ledgerFileLabel"));
  file_->setWordWrap(true);
  file_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  file_->hide();

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
  layout->addWidget(file_);
  layout->addWidget(table_, 1);
  layout->addWidget(void_);
  layout->addLayout(bottom);

  connect(model_, &LedgerModel::changed, this, &LedgerView::refreshTotals);
  connect(model_, &LedgerModel::rowsInserted, table_, &QTableView::scrollToBottom);
  refreshTotals();
}

void LedgerView::setStore(LedgerStore* store) {
  store_ = store;
  clearButton_->setText(tr("Archive History\u2026"));
  clearButton_->setToolTip(tr("Rename the ledger file aside (it is kept, never deleted) and start a new ledger: "
                              "the totals start again from zero. What was released stays released."));
  // The session's releases are in the file once recorded; reading it back also brings what
  // other processes (dpstudio-cli --ledger default) added meanwhile.
  connect(model_, &LedgerModel::sessionChanged, store_, &LedgerStore::reload);
  connect(store_, &LedgerStore::changed, this, &LedgerView::refreshFromStore);
  refreshFromStore();
}

void LedgerView::refreshFromStore() {
  model_->setHistory(store_->history());  // refreshes the totals
  const QString path = QDir::toNativeSeparators(store_->path());
  if (const QString problem = store_->problem(); !problem.isEmpty()) {
    file_->setText(tr("<b>The ledger file cannot be used:</b> %1<br>Private releases are refused until it can be "
                      "written, so that none is missing from it. <i>Archive History\u2026</i> sets the file aside "
                      "and starts a new ledger.")
                       .arg(problem.toHtmlEscaped()));
    file_->setStyleSheet(kProblemStyle);
    file_->show();
  } else if (const QString notice = store_->notice(); !notice.isEmpty()) {
    file_->setText(tr("<b>Ledger file:</b> %1").arg(notice.toHtmlEscaped()));
    file_->setStyleSheet(kNoticeStyle);
    file_->show();
  } else if (archivedTo_.isEmpty()) {
    file_->hide();
  }
  file_->setToolTip(path);
}

void LedgerView::refreshTotals() {
  for (int column : {LedgerModel::IndexColumn, LedgerModel::TimeColumn, LedgerModel::SessionColumn,
                     LedgerModel::EpsilonColumn, LedgerModel::DeltaColumn})
    table_->resizeColumnToContents(column);
  const auto& entries = model_->entries();
  const bool empty = entries.empty() && model_->history().empty();
  clearButton_->setEnabled(!empty);
  exportButton_->setEnabled(!empty);
  if (empty) {
    totals_->setText(store_ ? tr("No private releases in the ledger yet. A private training or a private "
                                 "predictor's first answer records its (\u03b5, \u03b4) here, and in the ledger "
                                 "file %1, which later sessions read back.")
                                  .arg(QDir::toNativeSeparators(store_->path()).toHtmlEscaped())
                            : tr("No private releases in this session yet. A private training or a private "
                                 "predictor's first answer records its (\u03b5, \u03b4) here."));
    void_->hide();
    return;
  }
  const privacy::PrivacyLedger& ledger = model_->ledger();
  if (store_) {
    // Across sessions: the file's history with this session merged in by core's rule (a
    // budget answered again in this session is one release), grouped by core.
    std::vector<privacy::LedgerEntry> all = model_->history();
    for (const privacy::LedgerEntry& e : entries) privacy::mergeLedgerEntry(all, e);
    const privacy::PrivacyCost total = privacy::ledgerTotal(all);
    bool isVoid = total.delta >= 1.0;
    QString text = tr("<b>Total by basic composition, all sessions:</b> %1 over %n release(s)", nullptr,
                      static_cast<int>(all.size()))
                       .arg(costText(total));
    text += tr(" (%n in this session: %1).", nullptr, static_cast<int>(entries.size())).arg(costText(ledger.total()));
    QStringList parts;
    for (const privacy::DatasetTotal& dataset : privacy::datasetTotals(all)) {
      isVoid = isVoid || dataset.cost.delta >= 1.0;
      parts << tr("%1: %2%3").arg(datasetTotalName(dataset).toHtmlEscaped(), costText(dataset.cost),
                                  beliefText(dataset.cost));
    }
    text += QStringLiteral("<br>") + tr("Per dataset, all sessions: %1.").arg(parts.join(QStringLiteral("; ")));
    totals_->setText(text);
    void_->setVisible(isVoid);
    return;
  }
  const privacy::PrivacyCost total = ledger.total();
  bool isVoid = total.delta >= 1.0;
  QString text = entries.size() == 1
                     ? tr("<b>Total by basic composition:</b> %1 over 1 release.").arg(costText(total))
                     : tr("<b>Total by basic composition:</b> %1 over %2 releases.")
                           .arg(costText(total))
                           .arg(entries.size());
  std::set<std::string> datasets;
  for (const auto& e : entries) datasets.insert(e.dataset);
  if (datasets.size() == 1) text += beliefText(total);
  if (datasets.size() > 1) {
    QStringList parts;
    for (const std::string& name : datasets) {
      const privacy::PrivacyCost cost = ledger.totalFor(name);
      isVoid = isVoid || cost.delta >= 1.0;
      parts << tr("%1: %2%3").arg(name.empty() ? tr("(unnamed)") : ledgerDatasetName(name).toHtmlEscaped(),
                                  costText(cost), beliefText(cost));
    }
    text += QStringLiteral("<br>") + tr("Per dataset: %1.").arg(parts.join(QStringLiteral("; ")));
  }
  totals_->setText(text);
  void_->setVisible(isVoid);
}

void LedgerView::requestClear() {
  if (store_) {
    requestArchive();
    return;
  }
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

void LedgerView::requestArchive() {
  const int releases = model_->rowCount();
  const QString path = QDir::toNativeSeparators(store_->path());
  QMessageBox box(QMessageBox::Question, tr("Archive the privacy ledger?"),
                  tr("Move the %n recorded release(s) to an archive and start a new ledger?", nullptr, releases),
                  QMessageBox::Yes | QMessageBox::Cancel, this);
  box.setInformativeText(tr("The ledger file %1 is renamed to %1.archived-<date and time>: kept, not deleted. "
                            "The totals start again from zero; what was released stays released.")
                             .arg(path));
  box.setDefaultButton(QMessageBox::Cancel);
  box.button(QMessageBox::Yes)->setText(tr("Archive"));
  if (box.exec() != QMessageBox::Yes) return;
  auto archived = store_->archive();
  if (!archived) {
    QMessageBox::warning(this, tr("Archive failed"), QString::fromStdString(archived.error().toString()));
    return;
  }
  archivedTo_ = archived.value();
  if (!archivedTo_.isEmpty()) {
    file_->setText(tr("The earlier ledger is kept in %1.").arg(QDir::toNativeSeparators(archivedTo_).toHtmlEscaped()));
    file_->setStyleSheet(kNoticeStyle);
    file_->show();
  }
}

bool LedgerView::exportCsv(const QString& path, QString* error) const {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return false;
  }
  // Every row shown, earlier sessions first; the columns after "note" came with the ledger
  // file, last, so that readers of the first seven keep working.
  QString out = QStringLiteral("index,time,mechanism,epsilon,delta,dataset,note,session,dataset_name\n");
  for (int row = 0; row < model_->rowCount(); ++row) {
    const privacy::LedgerEntry& e = model_->entryAt(row);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(e.time.time_since_epoch()).count();
    out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
               .arg(e.index + 1)
               .arg(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs),
                    csvText(e.mechanism), QString::number(e.epsilon, 'g', 17), QString::number(e.delta, 'g', 17),
                    csvText(e.dataset), csvText(e.note), csvText(e.session), csvText(e.datasetName));
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
