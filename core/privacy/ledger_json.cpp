#include "core/privacy/ledger_json.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "core/privacy/ledger_totals.h"

namespace dpstudio::privacy {
namespace {

using Parse = std::variant<std::vector<LedgerEntry>, LedgerParseError>;

QString timeText(std::chrono::system_clock::time_point time) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
  return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonValue textOrNull(const std::string& text) {
  return text.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(text));
}

}  // namespace

QJsonObject ledgerEntryToJson(const LedgerEntry& e) {
  QJsonObject out{
      {"id", QString::fromStdString(e.id)},
      {"session", QString::fromStdString(e.session)},
      {"index", static_cast<qint64>(e.index)},
      {"time", timeText(e.time)},
      {"mechanism", QString::fromStdString(e.mechanism)},
      {"epsilon", e.epsilon},
      {"delta", e.delta},
      {"dataset", QJsonObject{{"name", textOrNull(e.datasetName)}, {"path", textOrNull(e.dataset)}}},
      {"note", QString::fromStdString(e.note)},
      {"inference_budget", QJsonValue::Null},
  };
  if (const auto& b = e.inferenceBudget)
    out["inference_budget"] = QJsonObject{{"id", QString::number(b->id)},
                                          {"budget", static_cast<qint64>(b->budget)},
                                          {"answers", static_cast<qint64>(b->answers)},
                                          {"before", static_cast<qint64>(b->before)},
                                          {"opens", b->opens}};
  return out;
}

QJsonObject budgetTotalToJson(const std::vector<LedgerEntry>& entries, std::uint64_t budgetId) {
  long long budget = 0, releases = 0;
  for (const LedgerEntry& e : entries)
    if (e.inferenceBudget && e.inferenceBudget->id == budgetId) {
      budget = std::max(budget, e.inferenceBudget->budget);
      ++releases;
    }
  const long long used = budgetAnswers(entries, budgetId);
  return QJsonObject{{"id", QString::number(budgetId)},
                     {"budget", static_cast<qint64>(budget)},
                     {"used", static_cast<qint64>(used)},
                     {"remaining", static_cast<qint64>(std::max(0LL, budget - used))},
                     {"entries", static_cast<qint64>(releases)}};
}

namespace {

QJsonArray textArray(const std::vector<std::string>& items) {
  QJsonArray out;
  for (const std::string& item : items) out.append(QString::fromStdString(item));
  return out;
}

LedgerParseError corrupt(std::string message) { return {LedgerParseError::Kind::Corrupt, std::move(message)}; }

// Field readers: each names the entry and the field in its complaint.
class EntryReader {
 public:
  EntryReader(const QJsonObject& object, std::size_t number) : object_(object), where_("entry " + std::to_string(number) + ": ") {}

  std::optional<std::string> problem() const { return problem_; }

  std::string text(const char* key, bool allowEmpty) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isString() || (!allowEmpty && v.toString().isEmpty())) {
      fail(std::string(key) + (allowEmpty ? " must be a string" : " must be a non-empty string"));
      return {};
    }
    return v.toString().toStdString();
  }
  // A string, or null for "none".
  std::string optionalText(const QJsonObject& in, const char* key, const std::string& path) {
    const QJsonValue v = in.value(QLatin1String(key));
    if (v.isNull()) return {};
    if (!v.isString() || v.toString().isEmpty()) {
      fail(path + " must be a non-empty string or null");
      return {};
    }
    return v.toString().toStdString();
  }
  double number(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isDouble()) {
      fail(std::string(key) + " must be a number");
      return 0;
    }
    return v.toDouble();
  }
  long long whole(const QJsonObject& in, const char* key, const std::string& path, long long min) {
    const QJsonValue v = in.value(QLatin1String(key));
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d != std::floor(d) || d < static_cast<double>(min) || d > 9.0e15) {
      fail(path + " must be a whole number >= " + std::to_string(min));
      return 0;
    }
    return static_cast<long long>(d);
  }
  QJsonObject object(const char* key) {
    const QJsonValue v = object_.value(QLatin1String(key));
    if (!v.isObject()) fail(std::string(key) + " must be an object");
    return v.toObject();
  }
  const QJsonObject& self() const { return object_; }
  void fail(const std::string& message) {
    if (!problem_) problem_ = where_ + message;
  }

 private:
  const QJsonObject& object_;
  std::string where_;
  std::optional<std::string> problem_;
};

std::optional<std::chrono::system_clock::time_point> parseTime(const QString& text) {
  const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
  if (!time.isValid()) return std::nullopt;
  return std::chrono::system_clock::time_point{} + std::chrono::milliseconds(time.toMSecsSinceEpoch());
}

std::optional<LedgerEntry> readEntry(EntryReader& r, int version) {
  LedgerEntry e;
  e.id = r.text("id", false);
  e.session = r.text("session", true);
  e.index = static_cast<std::size_t>(r.whole(r.self(), "index", "index", 0));
  const std::string time = r.text("time", false);
  if (auto parsed = parseTime(QString::fromStdString(time))) e.time = *parsed;
  else if (!r.problem()) r.fail("time '" + time + "' is not an ISO 8601 date and time");
  e.mechanism = r.text("mechanism", false);
  e.epsilon = r.number("epsilon");
  if (!r.problem() && !(std::isfinite(e.epsilon) && e.epsilon >= 0)) r.fail("epsilon must be a finite number >= 0");
  e.delta = r.number("delta");
  if (!r.problem() && !(e.delta >= 0 && e.delta < 1)) r.fail("delta must be in [0, 1)");
  const QJsonObject dataset = r.object("dataset");
  e.datasetName = r.optionalText(dataset, "name", "dataset.name");
  e.dataset = r.optionalText(dataset, "path", "dataset.path");
  e.note = r.text("note", true);
  const QJsonValue budget = r.self().value(QLatin1String("inference_budget"));
  if (budget.isObject()) {
    const QJsonObject b = budget.toObject();
    InferenceBudgetUse use;
    bool idOk = false;
    use.id = b.value(QLatin1String("id")).toString().toULongLong(&idOk);
    if (!idOk || use.id == 0) r.fail("inference_budget.id must be a non-zero decimal string");
    use.budget = r.whole(b, "budget", "inference_budget.budget", 1);
    if (version == 1) {
      // Version 1 kept one entry per budget, the opening, with the largest count any session
      // had reported: read as the opening's own answers.
      use.answers = r.whole(b, "used", "inference_budget.used", 0);
      if (!r.problem() && use.answers > use.budget) r.fail("inference_budget.used is larger than its budget");
    } else {
      use.answers = r.whole(b, "answers", "inference_budget.answers", 0);
      use.before = r.whole(b, "before", "inference_budget.before", 0);
      const QJsonValue opens = b.value(QLatin1String("opens"));
      if (!opens.isBool()) r.fail("inference_budget.opens must be true or false");
      use.opens = opens.toBool();
      if (!r.problem() && use.counted() > use.budget)
        r.fail("inference_budget counts more answers than its budget");
    }
    e.inferenceBudget = use;
  } else if (!budget.isNull()) {
    r.fail("inference_budget must be an object or null");
  }
  if (r.problem()) return std::nullopt;
  return e;
}

}  // namespace

QJsonObject datasetTotalToJson(const DatasetTotal& d) {
  return QJsonObject{{"names", textArray(d.names)},
                     {"paths", textArray(d.paths)},
                     {"epsilon", d.cost.epsilon},
                     {"delta", d.cost.delta},
                     {"releases", static_cast<qint64>(d.releases)}};
}

QByteArray ledgerToJson(const std::vector<LedgerEntry>& entries) {
  QJsonArray list;
  for (const LedgerEntry& e : entries) list.append(ledgerEntryToJson(e));
  const PrivacyCost total = ledgerTotal(entries);
  QJsonArray datasets;
  for (const DatasetTotal& d : datasetTotals(entries)) datasets.append(datasetTotalToJson(d));
  QJsonArray budgets;
  std::set<std::uint64_t> seen;
  for (const LedgerEntry& e : entries)
    if (e.inferenceBudget && seen.insert(e.inferenceBudget->id).second)
      budgets.append(budgetTotalToJson(entries, e.inferenceBudget->id));
  const QJsonObject document{
      {"format", kLedgerFormat},
      {"version", kLedgerVersion},
      {"written_by", QStringLiteral("dpstudio " DPSTUDIO_VERSION)},
      {"entries", list},
      // Derived (basic composition), for readers of the file; never read back.
      {"total", QJsonObject{{"epsilon", total.epsilon},
                            {"delta", total.delta},
                            {"releases", static_cast<qint64>(entries.size())}}},
      {"datasets", datasets},
      {"budgets", budgets},
  };
  return QJsonDocument(document).toJson(QJsonDocument::Indented);
}

std::variant<std::vector<LedgerEntry>, LedgerParseError> ledgerFromJson(const QByteArray& bytes) {
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
  if (parseError.error != QJsonParseError::NoError)
    return corrupt("not JSON (" + parseError.errorString().toStdString() + " at byte " +
                   std::to_string(parseError.offset) + ")");
  if (!document.isObject()) return corrupt("not a JSON object");
  const QJsonObject root = document.object();
  if (root.value(QLatin1String("format")).toString() != QLatin1String(kLedgerFormat))
    return corrupt(std::string("not a dpstudio ledger (its format is not \"") + kLedgerFormat + "\")");
  const QJsonValue versionValue = root.value(QLatin1String("version"));
  const double version = versionValue.toDouble(-1);
  if (!versionValue.isDouble() || version != std::floor(version) || version < 1)
    return corrupt("version must be a whole number >= 1");
  if (version > kLedgerVersion)
    return LedgerParseError{LedgerParseError::Kind::NewerVersion,
                            "format version " + std::to_string(static_cast<long long>(version)) +
                                " is newer than this dpstudio reads (" + std::to_string(kLedgerVersion) +
                                "): it was written by a later dpstudio"};
  const QJsonValue list = root.value(QLatin1String("entries"));
  if (!list.isArray()) return corrupt("entries must be an array");
  std::vector<LedgerEntry> entries;
  std::set<std::string> ids;
  std::size_t number = 0;
  for (const QJsonValue& value : list.toArray()) {
    ++number;
    if (!value.isObject()) return corrupt("entry " + std::to_string(number) + ": not an object");
    const QJsonObject object = value.toObject();
    EntryReader reader(object, number);
    auto entry = readEntry(reader, static_cast<int>(version));
    if (!entry) return corrupt(*reader.problem());
    if (!ids.insert(entry->id).second)
      return corrupt("entry " + std::to_string(number) + ": its id " + entry->id + " appears twice");
    entries.push_back(std::move(*entry));
  }
  return entries;
}

}  // namespace dpstudio::privacy
