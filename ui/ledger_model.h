#pragma once
// The session's privacy ledger (core/privacy/ledger.h) as a Qt table model: one row per
// release — index, time, mechanism, ε, δ, dataset, inference budget, note — for the Ledger
// view and anyone else who wants to follow the ledger with Qt signals.
//
// The ledger stays the source of truth. Its observer runs on whatever thread recorded (a
// training or prediction worker), so the model never touches its rows there: the observer
// only queues a resync on the GUI thread, which reads a snapshot of the ledger and appends
// the new rows (rowsInserted), updates the answers a budget has given (dataChanged), or,
// after a clear, resets (modelReset). Several records in a burst coalesce into one resync. Past-tense signal changed() follows every resync.
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

// A private predictor's inference budget as the ledger tracks it: "3 of 5 answers, 2 left";
// empty for an entry without one.
QString ledgerBudgetText(const privacy::LedgerEntry& entry);
// A ledger dataset identity (core/sources/source.h: "builtin:iris" or an absolute path) as a
// person reads it in a table: the built-in spec, or the file's name. The full identity is
// the tooltip.
QString ledgerDatasetName(const std::string& identity);

class LedgerModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { IndexColumn, TimeColumn, MechanismColumn, EpsilonColumn, DeltaColumn, DatasetColumn,
                BudgetColumn, NoteColumn, ColumnCount };

  explicit LedgerModel(std::shared_ptr<privacy::PrivacyLedger> ledger, QObject* parent = nullptr);
  ~LedgerModel() override;

  privacy::PrivacyLedger& ledger() const { return *ledger_; }
  // The rows shown (a GUI-thread copy of the ledger as of the last resync).
  const std::vector<privacy::LedgerEntry>& entries() const { return entries_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 public slots:
  // Brings the rows up to date with the ledger now (GUI thread).
  void resync();

 signals:
  void changed();

 private:
  struct Relay;

  std::shared_ptr<privacy::PrivacyLedger> ledger_;
  std::shared_ptr<Relay> relay_;
  std::vector<privacy::LedgerEntry> entries_;
};

}  // namespace dpstudio::ui
