#pragma once
// `--ledger FILE|default` and `--dataset-name NAME` (docs/cli.md "The privacy ledger"): the
// commands that make a release — `train` (a private model, a private predictor's answers,
// multiparty) and `predict` with a private predictor's bundle — append it to a ledger file,
// the one the GUI keeps per user with `default` (core/privacy/ledger_file.h).
//
// Without --ledger nothing is written anywhere: scripts stay free of side effects. Sweeps
// and audits are experiments, not releases: they have no --ledger.
//
// Every release is written to the file (locked, merged, atomically) as it is recorded, and
// before anything of it is printed or exported: if the ledger cannot be written, the command
// fails and nothing of the run is shown.

#include <QCommandLineParser>
#include <QJsonValue>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_common.h"
#include "core/privacy/ledger.h"
#include "core/privacy/ledger_file.h"

namespace dpstudio::cli {

void addLedgerOptions(QCommandLineParser& parser);

class CliLedger {
 public:
  // Reads --ledger and --dataset-name and checks the file before any work starts: a file of
  // a newer format, or one that cannot be read or locked, is an error (nothing has been
  // released yet); a corrupt one is set aside and reported in warnings(). Inactive without
  // --ledger (--dataset-name alone is a usage error). `program` names the session:
  // "dpstudio-cli train".
  static Result<CliLedger> open(const Command& command, const std::string& program);

  bool active() const { return static_cast<bool>(file_); }
  // Where this run records (null when inactive): predictors record their answers here as
  // they give them, model releases through record(). Each change is written to the file
  // before it counts as recorded; every entry of the run carries the user's name for the
  // dataset.
  privacy::PrivacyLedger* session() const { return session_.get(); }
  const std::string& datasetName() const { return datasetName_; }
  Status record(std::vector<privacy::LedgerEntry> entries) const;

  const std::vector<std::string>& warnings() const { return warnings_; }

  // What was recorded, for the output: {"file", "recorded": [entries as the file has them],
  // "datasets": [the totals, across sessions, of the datasets they belong to], "budgets":
  // [the file's count of each inference budget they carry: id, budget, used, remaining,
  // entries]}; null when inactive. The text lines ("ledger ...") say the same.
  QJsonValue json() const;
  void print() const;

 private:
  struct Written;  // the run's entries and their datasets' totals as the file now holds them
  Written written() const;

  std::shared_ptr<privacy::LedgerFile> file_;
  std::shared_ptr<privacy::PrivacyLedger> session_;
  std::string datasetName_;
  std::vector<std::string> warnings_;
};

}  // namespace dpstudio::cli
