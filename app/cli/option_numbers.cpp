#include "app/cli/option_numbers.h"

#include <QStringList>

#include <string>

namespace dpstudio::cli {
namespace {

Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

}  // namespace

Result<double> parseNumberOption(const QString& name, const QString& text) {
  bool ok = false;
  const double value = text.toDouble(&ok);
  if (!ok) return usage("--" + name.toStdString() + " must be a number, found '" + text.toStdString() + "'",
                        name.toStdString());
  return value;
}

Result<long long> parseIntegerOption(const QString& name, const QString& text, long long min) {
  bool ok = false;
  const long long value = text.toLongLong(&ok);
  if (!ok || value < min)
    return usage("--" + name.toStdString() + " must be a whole number >= " + std::to_string(min) + ", found '" +
                     text.toStdString() + "'",
                 name.toStdString());
  return value;
}

Result<std::vector<double>> parseNumberList(const QString& text, bool skipEmpty) {
  std::vector<double> values;
  for (const QString& item : text.split(',', skipEmpty ? Qt::SkipEmptyParts : Qt::KeepEmptyParts)) {
    bool ok = false;
    const double value = item.trimmed().toDouble(&ok);
    if (!ok) return usage("must be a comma-separated list of numbers, found '" + item.toStdString() + "'", {});
    values.push_back(value);
  }
  return values;
}

Result<std::vector<double>> parseSweepValues(const QString& text) {
  auto values = parseNumberList(text, true);
  if (!values) return usage("--values " + values.error().message, "values");
  if (values.value().empty()) return usage("--values needs at least one value", "values");
  return values;
}

Result<Shard> parseShard(const QString& text) {
  const QStringList parts = text.split('/');
  bool okK = false, okN = false;
  Shard shard;
  if (parts.size() == 2) {
    shard.index = parts[0].toInt(&okK) - 1;
    shard.count = parts[1].toInt(&okN);
  }
  if (!okK || !okN || shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    return usage("--shard must be K/N with 1 <= K <= N (e.g. 2/4), found '" + text.toStdString() + "'", "shard");
  return shard;
}

Result<FeatureRange> parseFeatureRange(const QString& text) {
  const QStringList parts = text.split(',');
  bool okLo = false, okHi = false;
  FeatureRange range;
  if (parts.size() == 2) range = {parts[0].toDouble(&okLo), parts[1].toDouble(&okHi)};
  if (!okLo || !okHi)
    return usage("--feature-range: expected LO,HI, found '" + text.toStdString() + "'", "feature-range");
  return range;
}

Result<std::vector<FeatureRange>> parseFeatureRanges(const QString& text) {
  std::vector<FeatureRange> ranges;
  const QStringList items = text.split(',');
  for (int k = 0; k < items.size(); ++k) {
    const QStringList bounds = items[k].split(':');
    bool okLo = false, okHi = false;
    if (bounds.size() == 2) ranges.push_back({bounds[0].toDouble(&okLo), bounds[1].toDouble(&okHi)});
    if (!okLo || !okHi)
      return usage("--feature-ranges: range " + std::to_string(k + 1) + " is '" + items[k].toStdString() +
                       "', expected LO:HI",
                   "feature-ranges");
  }
  return ranges;
}

}  // namespace dpstudio::cli
