#pragma once
// Small readers and writers for manifest fields, shared by the bundle's parts. Readers
// return ErrorKind::BadBundle naming "where.key" ("training.train_rows must be a whole
// number >= 1").

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::bundle {

// A problem with a manifest field is reported against manifest.json, naming the field; one
// with an array against its .npy member.
inline Error manifestError(const std::string& message, const std::string& field) {
  if (field.size() > 4 && field.compare(field.size() - 4, 4, ".npy") == 0)
    return Error{ErrorKind::BadBundle, message, {}, 0, field};
  return Error{ErrorKind::BadBundle, "field " + field + ": " + message, {}, 0, "manifest.json"};
}

QJsonArray stringArray(const std::vector<std::string>& items);
std::vector<std::string> stringList(const QJsonValue& value);  // non-strings are skipped

// 64-bit seeds as decimal strings: JSON numbers are doubles and would round them.
QString seedText(std::uint64_t seed);
std::uint64_t seedValue(const QJsonValue& value);  // 0 when not a decimal string

Result<long long> wholeNumber(const QJsonObject& json, const char* key, long long min, const std::string& where);
Result<double> finiteNumber(const QJsonObject& json, const char* key, const std::string& where);
Result<QJsonObject> object(const QJsonObject& json, const char* key, const std::string& where);

}  // namespace dpstudio::bundle
