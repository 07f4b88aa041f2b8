#pragma once
// The Ledger view (docs/user-guide.md): every private release (ledger_model.h) in a table, the
// running total by basic composition (Σε, Σδ) — the only rule valid for arbitrary,
// adaptively chosen releases (docs/algorithms.md §1.3) — overall and per dataset, and a clear mark
// when a δ total reaches 1: the composed guarantee is then void. "Export CSV…" saves the
// rows.
//
// With a ledger file (setStore(): the per-user file, ledger_store.h) the table starts with
// the releases of earlier sessions, marked with their date and session, and the totals are
// across sessions, per dataset as core groups them (privacy::datasetTotals); "Archive
// History…" (after a confirmation) renames the file aside and starts a new ledger; a banner
// says when the file was corrupt (kept aside) or cannot be used. Without one (a bare session,
// as in tests of the view), the totals are the session's and "Clear Session…" starts a new
// session.
//
// The totals come from core (PrivacyLedger::total(), totalFor(), privacy::datasetTotals over
// the history merged with the session), not from sums over the table, so the view cannot
// disagree with what core accounts.

#include <QString>
#include <QWidget>

#include <memory>

#include "core/privacy/ledger.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTableView;
QT_END_NAMESPACE

namespace dpstudio::ui {

class LedgerModel;
class LedgerStore;

class LedgerView : public QWidget {
  Q_OBJECT

 public:
  explicit LedgerView(std::shared_ptr<privacy::PrivacyLedger> ledger, QWidget* parent = nullptr);

  LedgerModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QLabel* totalsLabel() const { return totals_; }
  QLabel* voidLabel() const { return void_; }  // visible while some δ total is ≥ 1
  QLabel* fileLabel() const { return file_; }   // the ledger file's problem or notice, when there is one
  // "Clear Session…", or "Archive History…" with a store.
  QPushButton* clearButton() const { return clearButton_; }
  QPushButton* exportButton() const { return exportButton_; }

  // Keeps the ledger in `store`'s file: shows its history and totals across sessions, and
  // archives instead of clearing. The store must outlive the view.
  void setStore(LedgerStore* store);
  LedgerStore* store() const { return store_; }

  // The rows as CSV (RFC 4180; ε and δ at full precision, time in ISO 8601 UTC), written
  // atomically; false with *error set (naming the path) on failure.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 public slots:
  // Asks for confirmation, then clears the ledger (a new session) or, with a store,
  // archives the ledger file.
  void requestClear();
  // Asks for a file and exports; true once the rows are written.
  bool showExportDialog();

 private:
  void refreshTotals();
  void refreshFromStore();
  void requestArchive();

  LedgerModel* model_;
  LedgerStore* store_ = nullptr;
  QTableView* table_;
  QLabel* totals_;
  QLabel* void_;
  QLabel* file_;
  QString archivedTo_;  // where the last "Archive History…" put the file, shown until the session ends
  QPushButton* clearButton_;
  QPushButton* exportButton_;
};

}  // namespace dpstudio::ui
