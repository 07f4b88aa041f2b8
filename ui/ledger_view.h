#pragma once
// The Ledger view (SPEC "GUI"): every private release of the session (ledger_model.h) in a
// table, the running total by basic composition (Σε, Σδ) — the only rule valid for
// arbitrary, adaptively chosen releases (ALGORITHMS §1) — overall and per dataset, and a
// clear mark when a δ total reaches 1: the composed guarantee is then void. "Clear
// session…" (after a confirmation) starts a new session; "Export CSV…" saves the rows.
//
// The totals come from the ledger itself (PrivacyLedger::total(), totalFor()), not from
// sums over the table, so the view cannot disagree with what core accounts.

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

class LedgerView : public QWidget {
  Q_OBJECT

 public:
  explicit LedgerView(std::shared_ptr<privacy::PrivacyLedger> ledger, QWidget* parent = nullptr);

  LedgerModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  QLabel* totalsLabel() const { return totals_; }
  QLabel* voidLabel() const { return void_; }  // visible while some δ total is ≥ 1
  QPushButton* clearButton() const { return clearButton_; }
  QPushButton* exportButton() const { return exportButton_; }

  // The rows as CSV (RFC 4180; ε and δ at full precision, time in ISO 8601 UTC), written
  // atomically; false with *error set (naming the path) on failure.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 public slots:
  // Asks for confirmation, then clears the ledger (a new session).
  void requestClear();
  // Asks for a file and exports; true once the rows are written.
  bool showExportDialog();

 private:
  void refreshTotals();

  LedgerModel* model_;
  QTableView* table_;
  QLabel* totals_;
  QLabel* void_;
  QPushButton* clearButton_;
  QPushButton* exportButton_;
};

}  // namespace dpstudio::ui
