#include "app/cli/ledger_option.h"

#include <QDir>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

#include "core/privacy/ledger_json.h"
#include "core/privacy/ledger_totals.h"

namespace dpstudio::cli {

void addLedgerOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"ledger",
       "Append every private release of this run to the privacy ledger FILE, or to the per-user ledger the GUI "
       "keeps with 'default'. Without it nothing is recorded anywhere.",
       "FILE|default"},
      {"dataset-name",
       "Your name for the training data in the ledger (with --ledger): releases under one name add up in the "
       "ledger's totals, whatever the data's path.",
       "NAME"},
  });
}

Result<CliLedger> CliLedger::open(const Command& command, const std::string& program) {
  CliLedger out;
  const QCommandLineParser& parser = command.parser();
  if (!parser.isSet("ledger")) {
    if (parser.isSet("dataset-name"))
      return Error{ErrorKind::Usage, "--dataset-name names the data in a ledger: it needs --ledger FILE|default (see --help)",
                   {}, 0, "dataset-name"};
    return out;
  }
  const QString value = parser.value("ledger");
  if (value.isEmpty()) return Error{ErrorKind::Usage, "--ledger needs a file or 'default' (see --help)", {}, 0, "ledger"};
  const QString path = value == QLatin1String("default") ? privacy::defaultLedgerPath() : QDir::current().absoluteFilePath(value);
  out.datasetName_ = parser.value("dataset-name").trimmed().toStdString();
  out.file_ = std::make_shared<privacy::LedgerFile>(path);
  // Checked now, before anything is released: a ledger that cannot take the release stops
  // the run while it has spent nothing.
  auto loaded = out.file_->load();
  if (!loaded) return loaded.error();
  if (loaded.value().setAside) out.warnings_.push_back(*loaded.value().setAside);

  out.session_ = std::make_shared<privacy::PrivacyLedger>();
  out.session_->setSession(privacy::sessionLabel(program));
  // Every release of the run is on the user's dataset name (a predictor's entries are made in
  // core, which does not know it); the file takes each change before it counts as recorded.
  out.session_->setKeeper([file = out.file_, name = out.datasetName_](std::vector<privacy::LedgerEntry> session)
                              -> Result<std::vector<privacy::LedgerEntry>> {
    for (privacy::LedgerEntry& entry : session)
      if (entry.datasetName.empty()) entry.datasetName = name;
    auto merged = file->merge(session);
    if (!merged) return merged.error();
    return std::move(merged).value().entries;
  });
  return out;
}

Status CliLedger::record(std::vector<privacy::LedgerEntry> entries) const {
  if (!session_) return Ok{};
  for (privacy::LedgerEntry& entry : entries) {
    // DP-SGD with noise multiplier 0: a model with no guarantee, which no total can hold.
    if (std::isinf(entry.epsilon))
      return Error{ErrorKind::InvalidPrivacy,
                   "this run guarantees nothing (epsilon = infinity), which a privacy ledger cannot total: run it "
                   "without --ledger, as the non-private baseline it is",
                   {}, 0, "ledger"};
    entry.datasetName = datasetName_;
    auto recorded = session_->record(std::move(entry));
    if (!recorded) {
      Error error = recorded.error();
      error.message = "the release cannot be recorded in the privacy ledger, so nothing of it is shown: " + error.message;
      return error;
    }
  }
  return Ok{};
}

struct CliLedger::Written {
  std::vector<privacy::LedgerEntry> entries;
  std::vector<privacy::DatasetTotal> totals;
  std::vector<privacy::LedgerEntry> all;  // the whole file, for the budgets' counts
};

CliLedger::Written CliLedger::written() const {
  Written out;
  if (!session_ || session_->size() == 0) return out;
  auto contents = file_->load();
  if (!contents) return out;  // written a moment ago; a reader's failure now only shortens the report
  const std::vector<privacy::LedgerEntry> mine = session_->entries();
  out.all = contents.value().entries;
  const std::vector<privacy::DatasetTotal> all = privacy::datasetTotals(out.all);
  for (const privacy::LedgerEntry& entry : out.all) {
    const bool ours =
        std::any_of(mine.begin(), mine.end(), [&entry](const privacy::LedgerEntry& m) { return m.id == entry.id; });
    if (!ours) continue;
    out.entries.push_back(entry);
    if (const privacy::DatasetTotal* total = privacy::totalOf(all, entry)) {
      const bool listed = std::any_of(out.totals.begin(), out.totals.end(), [total](const privacy::DatasetTotal& t) {
        return t.paths == total->paths && t.names == total->names;
      });
      if (!listed) out.totals.push_back(*total);
    }
  }
  return out;
}

QJsonValue CliLedger::json() const {
  if (!file_) return QJsonValue::Null;
  const Written w = written();
  QJsonArray recorded, totals, budgets;
  for (const privacy::LedgerEntry& entry : w.entries) {
    recorded.append(privacy::ledgerEntryToJson(entry));
    if (entry.inferenceBudget) budgets.append(privacy::budgetTotalToJson(w.all, entry.inferenceBudget->id));
  }
  for (const privacy::DatasetTotal& total : w.totals) totals.append(privacy::datasetTotalToJson(total));
  return QJsonObject{{"file", QDir::toNativeSeparators(file_->path())},
                     {"recorded", recorded},
                     {"datasets", totals},
                     {"budgets", budgets}};
}

void CliLedger::print() const {
  if (!file_) return;
  const QString path = QDir::toNativeSeparators(file_->path());
  const Written w = written();
  if (w.entries.empty()) {
    printText("ledger          nothing recorded in " + path + " (this run released nothing private)");
    return;
  }
  for (const privacy::LedgerEntry& entry : w.entries) {
    QString line = QString("ledger          %1: epsilon %2, delta %3")
                       .arg(QString::fromStdString(entry.mechanism))
                       .arg(entry.epsilon, 0, 'g', 6)
                       .arg(entry.delta, 0, 'g', 6);
    if (const auto& b = entry.inferenceBudget) {
      line += b->opens ? QString(" for a budget of %1 answers, opened with %2").arg(b->budget).arg(b->counted())
                       : QString(" (the budget of %1 answers was opened earlier), %2 answers").arg(b->budget).arg(b->answers);
      line += QString("; the ledger counts %1 of %2 given, every session and copy")
                  .arg(privacy::budgetAnswers(w.all, b->id))
                  .arg(b->budget);
    }
    printText(line + " (recorded in " + path + ")");
  }
  for (const privacy::DatasetTotal& total : w.totals) {
    QStringList names;
    for (const std::string& name : total.names) names << QString::fromStdString(name);
    for (const std::string& p : total.paths) names << QString::fromStdString(p);
    printText(QString("ledger total    %1: epsilon %2, delta %3 over %4 release(s) in the ledger, all sessions")
                  .arg(names.isEmpty() ? QString("unknown dataset") : names.join(", "))
                  .arg(total.cost.epsilon, 0, 'g', 6)
                  .arg(total.cost.delta, 0, 'g', 6)
                  .arg(total.releases));
  }
}

}  // namespace dpstudio::cli
