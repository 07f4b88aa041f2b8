#pragma once
// The privacy ledger (core/privacy/ledger.h) as a Qt table model: one row per release —
// index, time, session, mechanism, ε, δ, dataset, inference budget, note — for the Ledger
// view and anyone else who wants to follow the ledger with Qt signals. The rows of earlier
// sessions (setHistory(): the ledger file's, ui/privacy/ledger_store.h) come first, marked with
// their date and session and drawn in grey; the session's rows follow.
//
// The ledger stays the source of truth. Its observer runs on whatever thread recorded (a
// training or prediction worker), so the model never touches its rows there: the observer
// only queues a resync on the GUI thread, which reads a snapshot of the ledger and appends
// the new rows (rowsInserted), updates the answers a budget has given (dataChanged), or,
// after a clear, resets (modelReset). Several records in a burst coalesce into one resync.
// Past-tense signals: sessionChanged() after a resync that changed the session's rows,
// changed() after that and after setHistory().
//
// The ledger has a single observer slot: this model takes it for as long as it lives (and
// gives it back empty). Others subscribe to this model's signals instead.

#include <QAbstractTableModel>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "core/privacy/ledger.h"

namespace dpstudio::ui {

// A private predictor's inference budget as an entry counts it, with `given`, the ledger's
// count of the budget over all its entries (privacy::budgetAnswers): "3 of 5 answers, 2 left"
// when the entry is the budget's only one, else "2 answers here; 5 of 10 given in all, 5
// left"; empty for an entry without one.
QString ledgerBudgetText(const privacy::LedgerEntry& entry, long long given);
// A ledger dataset identity (core/sources/source.h: "builtin:iris" or an absolute path) as a
// person reads it in a table: the built-in spec, or the file's name. The full identity is
// the tooltip.
QString ledgerDatasetName(const std::string& identity);
// An entry's dataset as the table shows it: the user's name for it when there is one, else
// ledgerDatasetName(); "(unknown)" for a bundle's answers whose data nobody named.
QString ledgerDatasetText(const privacy::LedgerEntry& entry);

class LedgerModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { IndexColumn, TimeColumn, SessionColumn, MechanismColumn, EpsilonColumn, DeltaColumn,
                DatasetColumn, BudgetColumn, NoteColumn, ColumnCount };

  explicit LedgerModel(std::shared_ptr<privacy::PrivacyLedger> ledger, QObject* parent = nullptr);
  ~LedgerModel() override;

  privacy::PrivacyLedger& ledger() const { return *ledger_; }
  // The session's rows (a GUI-thread copy of the ledger as of the last resync).
  const std::vector<privacy::LedgerEntry>& entries() const { return entries_; }
  // The rows of earlier sessions, shown first.
  const std::vector<privacy::LedgerEntry>& history() const { return history_; }
  void setHistory(std::vector<privacy::LedgerEntry> history);
  // Every row, history first: the entry of `row`.
  const privacy::LedgerEntry& entryAt(int row) const;
  bool isHistoryRow(int row) const { return row >= 0 && row < static_cast<int>(history_.size()); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 public slots:
  // Brings the rows up to date with the ledger now (GUI thread).
  void resync();

 signals:
  void sessionChanged();
  void changed();

 private:
  struct Relay;

  std::shared_ptr<privacy::PrivacyLedger> ledger_;
  std::shared_ptr<Relay> relay_;
  std::vector<privacy::LedgerEntry> history_;
  std::vector<privacy::LedgerEntry> entries_;
};

}  // namespace dpstudio::ui
