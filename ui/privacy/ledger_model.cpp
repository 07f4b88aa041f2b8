#include "ui/privacy/ledger_model.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFileInfo>
#include <QMetaObject>

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/privacy/ledger_totals.h"

namespace dpstudio::ui {

// Shared by the model and the observer it installs. The observer may run on a worker after
// the model is gone (the ledger calls a copy of it outside its lock), so it reaches the
// model only through this, under the mutex the model's destructor also takes.
struct LedgerModel::Relay {
  std::mutex mutex;
  LedgerModel* model = nullptr;
  bool pending = false;  // a resync is queued and has not started yet

  void changed() {
    std::lock_guard lock(mutex);
    if (!model || pending) return;
    pending = true;
    // Queued to the model's (GUI) thread; Qt drops it if the model is deleted first.
    QMetaObject::invokeMethod(model, &LedgerModel::resync, Qt::QueuedConnection);
  }
};

namespace {

// The same release (its answers-given count may have moved on).
bool sameEntry(const privacy::LedgerEntry& a, const privacy::LedgerEntry& b) {
  return a.id == b.id && a.index == b.index && a.time == b.time && a.mechanism == b.mechanism &&
         a.epsilon == b.epsilon && a.delta == b.delta && a.dataset == b.dataset && a.note == b.note &&
         a.inferenceBudget.has_value() == b.inferenceBudget.has_value();
}

long long answersGiven(const privacy::LedgerEntry& entry) {
  return entry.inferenceBudget ? entry.inferenceBudget->counted() : 0;
}

QDateTime entryTime(const privacy::LedgerEntry& entry) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(entry.time.time_since_epoch()).count();
  return QDateTime::fromMSecsSinceEpoch(ms);
}

QString number(double value) { return QString::number(value, 'g', 6); }

// "dpstudio-cli train" of "dpstudio-cli train, 2025-06-03T10:04:12Z, pid 4242": the date is
// in the Time column, the whole label in the tooltip.
QString sessionProgram(const privacy::LedgerEntry& entry) {
  const QString label = QString::fromStdString(entry.session);
  return label.isEmpty() ? QObject::tr("earlier") : label.section(QLatin1String(", "), 0, 0);
}

}  // namespace

QString ledgerBudgetText(const privacy::LedgerEntry& entry, long long given) {
  if (!entry.inferenceBudget) return {};
  const privacy::InferenceBudgetUse& b = *entry.inferenceBudget;
  const long long left = std::max(0LL, b.budget - given);
  if (given == b.counted()) return QObject::tr("%1 of %2 answers, %3 left").arg(given).arg(b.budget).arg(left);
  return QObject::tr("%1 answers here; %2 of %3 given in all, %4 left").arg(b.counted()).arg(given).arg(b.budget).arg(left);
}

QString ledgerDatasetName(const std::string& identity) {
  const QString name = QString::fromStdString(identity);
  if (name.startsWith(QLatin1String("builtin:"))) return name;
  const QString file = QFileInfo(name).fileName();
  return file.isEmpty() ? name : file;
}

QString ledgerDatasetText(const privacy::LedgerEntry& entry) {
  if (!entry.datasetName.empty()) return QString::fromStdString(entry.datasetName);
  if (entry.dataset.empty()) return QObject::tr("(unknown)");
  return ledgerDatasetName(entry.dataset);
}

LedgerModel::LedgerModel(std::shared_ptr<privacy::PrivacyLedger> ledger, QObject* parent)
    : QAbstractTableModel(parent), ledger_(std::move(ledger)), relay_(std::make_shared<Relay>()) {
  relay_->model = this;
  ledger_->setObserver([relay = relay_](privacy::PrivacyLedger::Change, const privacy::LedgerEntry&) {
    relay->changed();
  });
  entries_ = ledger_->entries();
}

void LedgerModel::setHistory(std::vector<privacy::LedgerEntry> history) {
  beginResetModel();
  history_ = std::move(history);
  endResetModel();
  emit changed();
}

const privacy::LedgerEntry& LedgerModel::entryAt(int row) const {
  const auto r = static_cast<std::size_t>(row);
  return r < history_.size() ? history_[r] : entries_[r - history_.size()];
}

LedgerModel::~LedgerModel() {
  {
    std::lock_guard lock(relay_->mutex);
    relay_->model = nullptr;
  }
  ledger_->setObserver({});
}

void LedgerModel::resync() {
  {
    // Changes from here on queue another resync; this one reads them or the next one will.
    std::lock_guard lock(relay_->mutex);
    relay_->pending = false;
  }
  std::vector<privacy::LedgerEntry> snapshot = ledger_->entries();
  bool extends = snapshot.size() >= entries_.size();
  for (std::size_t i = 0; extends && i < entries_.size(); ++i) extends = sameEntry(entries_[i], snapshot[i]);
  const int offset = static_cast<int>(history_.size());  // the session's rows follow the history
  if (extends) {
    // Budgets that gave answers since the last resync: every row of a budget shows its
    // count over the whole ledger, so the whole column may change.
    bool updated = false;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (answersGiven(entries_[i]) == answersGiven(snapshot[i])) continue;
      entries_[i] = snapshot[i];
      updated = true;
    }
    if (updated && rowCount() > 0)
      emit dataChanged(index(0, BudgetColumn), index(rowCount() - 1, BudgetColumn), {Qt::DisplayRole});
    if (snapshot.size() == entries_.size()) {
      if (updated) {
        emit sessionChanged();
        emit changed();
      }
      return;
    }
    beginInsertRows({}, offset + static_cast<int>(entries_.size()), offset + static_cast<int>(snapshot.size()) - 1);
    entries_ = std::move(snapshot);
    endInsertRows();
  } else {
    // Cleared (possibly followed by new releases): start over.
    beginResetModel();
    entries_ = std::move(snapshot);
    endResetModel();
  }
  emit sessionChanged();
  emit changed();
}

int LedgerModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(history_.size() + entries_.size());
}

int LedgerModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant LedgerModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const privacy::LedgerEntry& e = entryAt(index.row());
  const bool earlier = isHistoryRow(index.row());
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case IndexColumn: return static_cast<qulonglong>(e.index + 1);
      // An earlier session's release carries its date: "today" is not when it happened.
      case TimeColumn:
        return entryTime(e).toString(earlier ? QStringLiteral("yyyy-MM-dd HH:mm") : QStringLiteral("HH:mm:ss"));
      case SessionColumn: return earlier ? sessionProgram(e) : tr("this session");
      case MechanismColumn: return QString::fromStdString(e.mechanism);
      case EpsilonColumn: return number(e.epsilon);
      case DeltaColumn: return number(e.delta);
      case DatasetColumn: return ledgerDatasetText(e);
      case BudgetColumn:
        return e.inferenceBudget ? ledgerBudgetText(e, privacy::budgetAnswers(history_, e.inferenceBudget->id) +
                                                           privacy::budgetAnswers(entries_, e.inferenceBudget->id))
                                 : QString();
      case NoteColumn: return QString::fromStdString(e.note);
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (index.column()) {
      case TimeColumn: return entryTime(e).toString(Qt::ISODate);
      case SessionColumn: return QString::fromStdString(e.session);
      case EpsilonColumn: return QString::number(e.epsilon, 'g', 17);
      case DeltaColumn: return QString::number(e.delta, 'g', 17);
      case DatasetColumn: {
        const QString path = e.dataset.empty() ? tr("path unknown") : QString::fromStdString(e.dataset);
        return e.datasetName.empty() ? path : tr("%1 (%2)").arg(QString::fromStdString(e.datasetName), path);
      }
      case NoteColumn:
      case MechanismColumn: return data(index, Qt::DisplayRole);
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole && earlier) return QBrush(QColor(110, 110, 110));
  if (role == Qt::TextAlignmentRole) {
    switch (index.column()) {
      case IndexColumn:
      case EpsilonColumn:
      case DeltaColumn: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      default: return {};
    }
  }
  return {};
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case IndexColumn: return tr("#");
      case TimeColumn: return tr("Time");
      case SessionColumn: return tr("Session");
      case MechanismColumn: return tr("Mechanism");
      case EpsilonColumn: return tr("\u03b5");
      case DeltaColumn: return tr("\u03b4");
      case DatasetColumn: return tr("Dataset");
      case BudgetColumn: return tr("Inference budget");
      case NoteColumn: return tr("Note");
      default: return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case EpsilonColumn: return tr("The \u03b5 this release spent (for a prediction budget: all B answers together).");
      case DeltaColumn: return tr("The \u03b4 this release spent.");
      case BudgetColumn:
        return tr("For private predictors: the answers this release counts, and of the budget B — whose whole "
                  "cost was recorded once, at the first answer — how many the ledger counts given, by every "
                  "session and every copy of the predictor's bundle.");
      case SessionColumn:
        return tr("Which session recorded the release: this one, or an earlier one (the GUI's or a "
                  "dpstudio-cli command's), kept in the ledger file.");
      default: return {};
    }
  }
  return {};
}

}  // namespace dpstudio::ui
