#include "core/bundle/manifest_fields.h"

#include <cmath>

namespace dpstudio::bundle {
namespace {

Error bad(const std::string& where, const char* key, const std::string& message) {
  return manifestError(message, where.empty() ? std::string(key) : where + "." + key);
}

}  // namespace

QJsonArray stringArray(const std::vector<std::string>& items) {
  QJsonArray out;
  for (const std::string& item : items) out.append(QString::fromStdString(item));
  return out;
}

std::vector<std::string> stringList(const QJsonValue& value) {
  std::vector<std::string> out;
  for (const QJsonValue& item : value.toArray())
    if (item.isString()) out.push_back(item.toString().toStdString());
  return out;
}

QString seedText(std::uint64_t seed) { return QString::number(seed); }

std::uint64_t seedValue(const QJsonValue& value) {
  bool ok = false;
  const std::uint64_t seed = value.toString().toULongLong(&ok);
  return ok ? seed : 0;
}

Result<long long> wholeNumber(const QJsonObject& json, const char* key, long long min, const std::string& where) {
  const QJsonValue value = json[key];
  const double number = value.toDouble(std::nan(""));
  if (!value.isDouble() || number != std::floor(number) || number < static_cast<double>(min) || number > 9.0e15)
    return bad(where, key, "must be a whole number >= " + std::to_string(min));
  return static_cast<long long>(number);
}

Result<double> finiteNumber(const QJsonObject& json, const char* key, const std::string& where) {
  const QJsonValue value = json[key];
  if (!value.isDouble() || !std::isfinite(value.toDouble())) return bad(where, key, "must be a finite number");
  return value.toDouble();
}

Result<QJsonObject> object(const QJsonObject& json, const char* key, const std::string& where) {
  if (!json[key].isObject()) return bad(where, key, "must be an object");
  return json[key].toObject();
}

}  // namespace dpstudio::bundle
