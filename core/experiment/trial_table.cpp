#include "core/experiment/trial_table.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dpstudio::experiment {
namespace {

const char* kMagic = "# dpstudio sweep trials ";
// Tables written before the measures columns existed are still read (kBaseColumns).
const char* kBaseColumns = "mechanism,axis,value,repeat,seed,accuracy,seconds,value_index";
const char* kColumns =
    "mechanism,axis,value,repeat,seed,accuracy,seconds,value_index,"
    "train_rows,features,classes,distance,empirical_excess,true_excess";
constexpr int kBaseFields = 8, kFields = 14;

QString number(double value) { return QString::number(value, 'g', 17); }
// Not measured (the series has no published bound, or the sweep did not ask): empty.
QString optionalNumber(double value) { return std::isnan(value) ? QString() : number(value); }

Error bad(const std::string& path, long line, const std::string& message) {
  return Error{ErrorKind::BadData, message, path, line, {}};
}

QJsonObject layoutJson(const TrialTable& table) {
  const SweepLayout& l = table.layout;
  QJsonArray values;
  for (double v : l.values) values.append(v);
  QJsonArray series;
  for (const auto& s : l.series)
    series.append(QJsonObject{{"key", QString::fromStdString(s.key)},
                              {"title", QString::fromStdString(s.title)},
                              {"private", s.isPrivate}});
  return QJsonObject{{"fingerprint", QString::fromStdString(l.fingerprint)},
                     {"title", QString::fromStdString(l.title)},
                     {"axis", QString::fromStdString(axisName(l.axis))},
                     {"values", values},
                     {"repeats", l.repeats},
                     {"series", series},
                     {"total_trials", static_cast<qint64>(l.totalTrials)},
                     {"most_common_class", l.mostCommonClass ? QJsonValue(*l.mostCommonClass) : QJsonValue::Null},
                     {"shard", QString("%1/%2").arg(table.shardIndex + 1).arg(table.shardCount)},
                     {"complete", table.complete}};
}

Result<TrialTable> tableFromJson(const QJsonObject& o, const std::string& path) {
  TrialTable table;
  SweepLayout& l = table.layout;
  l.fingerprint = o["fingerprint"].toString().toStdString();
  l.title = o["title"].toString().toStdString();
  const auto axis = parseAxis(o["axis"].toString().toStdString());
  if (!axis || l.fingerprint.empty()) return bad(path, 1, "the sweep header lacks its axis or fingerprint");
  l.axis = *axis;
  for (const QJsonValue& v : o["values"].toArray()) l.values.push_back(v.toDouble());
  l.repeats = o["repeats"].toInt();
  for (const QJsonValue& v : o["series"].toArray()) {
    const QJsonObject s = v.toObject();
    l.series.push_back({s["key"].toString().toStdString(), s["title"].toString().toStdString(),
                        s["private"].toBool(true)});
  }
  l.totalTrials = o["total_trials"].toInteger();
  if (o["most_common_class"].isDouble()) l.mostCommonClass = o["most_common_class"].toDouble();  // tables before: none
  const QStringList shard = o["shard"].toString().split('/');
  bool okIndex = false, okCount = false;
  if (shard.size() == 2) {
    table.shardIndex = shard[0].toInt(&okIndex) - 1;
    table.shardCount = shard[1].toInt(&okCount);
  }
  if (!okIndex || !okCount || table.shardCount < 1 || table.shardIndex < 0 || table.shardIndex >= table.shardCount)
    return bad(path, 1, "the sweep header's shard is not K/N");
  table.complete = o["complete"].toBool(true);
  if (l.values.empty() || l.series.empty() || l.repeats < 1)
    return bad(path, 1, "the sweep header lists no values, series or repetitions");
  return table;
}

}  // namespace

Status writeTrialTable(const std::string& path, const TrialTable& table) {
  QSaveFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
    return Error{ErrorKind::Internal, "cannot write: " + file.errorString().toStdString(), path, 0, {}};
  QTextStream out(&file);
  out << kMagic << QJsonDocument(layoutJson(table)).toJson(QJsonDocument::Compact) << "\n";
  out << kColumns << "\n";
  const std::string axis = axisName(table.layout.axis);
  for (const TrialRecord& t : table.trials) {
    out << QString::fromStdString(t.series) << ',' << QString::fromStdString(axis) << ',' << number(t.value) << ','
        << t.id.repeat << ',' << QString::number(t.seed) << ',' << number(t.accuracy) << ',' << number(t.seconds)
        << ',' << t.id.valueIndex;
    if (t.measures) {
      const TrialMeasures& m = *t.measures;
      out << ',' << m.shape.rows << ',' << m.shape.features << ',' << m.shape.classes << ','
          << optionalNumber(m.distance) << ',' << optionalNumber(m.empiricalExcess) << ','
          << optionalNumber(m.trueExcess);
    } else {
      out << ",,,,,,";
    }
    out << "\n";
  }
  out.flush();
  if (!file.commit()) return Error{ErrorKind::Internal, "cannot write: " + file.errorString().toStdString(), path, 0, {}};
  return Ok{};
}

Result<TrialTable> readTrialTable(const std::string& path) {
  QFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    return Error{ErrorKind::Internal, "cannot read: " + file.errorString().toStdString(), path, 0, {}};
  QTextStream in(&file);
  const QString first = in.readLine();
  if (!first.startsWith(kMagic)) return bad(path, 1, "not a dpstudio sweep trial table (no sweep header)");
  QJsonParseError parseError;
  const QJsonDocument header = QJsonDocument::fromJson(first.mid(static_cast<int>(qstrlen(kMagic))).toUtf8(), &parseError);
  if (!header.isObject()) return bad(path, 1, "the sweep header is not JSON: " + parseError.errorString().toStdString());
  auto table = tableFromJson(header.object(), path);
  if (!table) return table.error();
  const QString columns = in.readLine();
  if (columns != kColumns && columns != kBaseColumns)
    return bad(path, 2, std::string("expected the columns ") + kColumns);
  const int fields = columns == kColumns ? kFields : kBaseFields;
  std::map<std::string, int> seriesIndex;
  for (std::size_t s = 0; s < table.value().layout.series.size(); ++s)
    seriesIndex[table.value().layout.series[s].key] = static_cast<int>(s);
  const SweepLayout& layout = table.value().layout;
  long line = 2;
  while (!in.atEnd()) {
    const QString text = in.readLine();
    ++line;
    if (text.trimmed().isEmpty()) continue;
    const QStringList f = text.split(',');
    if (f.size() != fields)
      return bad(path, line, "expected " + std::to_string(fields) + " fields, found " + std::to_string(f.size()));
    TrialRecord t;
    t.series = f[0].toStdString();
    const auto it = seriesIndex.find(t.series);
    if (it == seriesIndex.end()) return bad(path, line, "mechanism '" + t.series + "' is not in the sweep header");
    bool ok[6] = {};
    t.value = f[2].toDouble(&ok[0]);
    t.id.repeat = f[3].toInt(&ok[1]);
    t.seed = f[4].toULongLong(&ok[2]);
    t.accuracy = f[5].toDouble(&ok[3]);
    t.seconds = f[6].toDouble(&ok[4]);
    t.id.valueIndex = f[7].toInt(&ok[5]);
    for (int k = 0; k < 6; ++k)
      if (!ok[k]) return bad(path, line, "field " + std::to_string(k + 3) + " is not a number");
    if (fields == kFields && !f[8].isEmpty()) {
      TrialMeasures m;
      bool okShape[3] = {};
      m.shape = {f[8].toLongLong(&okShape[0]), f[9].toLongLong(&okShape[1]), f[10].toLongLong(&okShape[2])};
      for (int k = 0; k < 3; ++k)
        if (!okShape[k]) return bad(path, line, "field " + std::to_string(k + 9) + " is not a whole number");
      double* targets[3] = {&m.distance, &m.empiricalExcess, &m.trueExcess};
      for (int k = 0; k < 3; ++k) {
        if (f[11 + k].isEmpty()) continue;  // not measured: stays NaN
        bool okValue = false;
        *targets[k] = f[11 + k].toDouble(&okValue);
        if (!okValue) return bad(path, line, "field " + std::to_string(k + 12) + " is not a number");
      }
      t.measures = m;
    }
    t.id.series = it->second;
    if (t.id.valueIndex < 0 || t.id.valueIndex >= static_cast<int>(layout.values.size()) || t.id.repeat < 0 ||
        t.id.repeat >= layout.repeats)
      return bad(path, line, "value_index or repeat outside the sweep");
    table.value().trials.push_back(std::move(t));
  }
  return table;
}

Result<TrialTable> mergeTrialTables(const std::vector<TrialTable>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) return Error{ErrorKind::Usage, "nothing to merge", {}, 0, {}};
  TrialTable merged;
  merged.layout = shards.front().layout;
  std::set<int> seen;
  std::set<TrialId> ids;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const TrialTable& shard = shards[k];
    if (shard.layout.fingerprint != merged.layout.fingerprint || shard.layout != merged.layout)
      return Error{ErrorKind::BadData,
                   "tables of different sweeps: " + names[k] + " (fingerprint " + shard.layout.fingerprint + ") and " +
                       names.front() + " (fingerprint " + merged.layout.fingerprint + ")",
                   names[k], 0, {}};
    if (shard.shardCount != shards.front().shardCount)
      return Error{ErrorKind::BadData, "shards of different splits (N differs)", names[k], 0, {}};
    if (!seen.insert(shard.shardIndex).second)
      return Error{ErrorKind::BadData, "shard " + std::to_string(shard.shardIndex + 1) + " given twice", names[k], 0, {}};
    merged.complete = merged.complete && shard.complete;
    for (const TrialRecord& t : shard.trials) {
      if (!ids.insert(t.id).second)
        return Error{ErrorKind::BadData, "a trial appears twice (" + t.series + ")", names[k], 0, {}};
      merged.trials.push_back(t);
    }
  }
  merged.complete = merged.complete && static_cast<int>(seen.size()) == shards.front().shardCount;
  merged.shardCount = 1;
  // expandTrials() order: value-major, then repetition, then series.
  std::sort(merged.trials.begin(), merged.trials.end(), [](const TrialRecord& a, const TrialRecord& b) {
    return std::tie(a.id.valueIndex, a.id.repeat, a.id.series) < std::tie(b.id.valueIndex, b.id.repeat, b.id.series);
  });
  return merged;
}

}  // namespace dpstudio::experiment
