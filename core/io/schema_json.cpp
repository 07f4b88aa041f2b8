#include "core/io/schema_json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>
#include <set>

namespace dpstudio {
namespace {

class SchemaReader {
 public:
  explicit SchemaReader(std::string source) : source_(std::move(source)) {}

  Error bad(const std::string& message, const std::string& key) const {
    return Error::badData(message, source_, 0, key);
  }

  // A column given as a name or a 1-based number ("3" and 3 alike).
  Result<std::string> column(const QJsonValue& value, const std::string& key) const {
    if (value.isString() && !value.toString().trimmed().isEmpty()) return value.toString().toStdString();
    if (value.isDouble() && value.toDouble() == std::floor(value.toDouble()) && value.toDouble() != 0)
      return std::to_string(static_cast<long long>(value.toDouble()));
    return bad("expected a column name or a column number (from 1; -1 is the last)", key);
  }

  Result<std::vector<std::string>> strings(const QJsonValue& value, const std::string& key) const {
    if (!value.isArray()) return bad("expected a list of names", key);
    std::vector<std::string> out;
    const QJsonArray array = value.toArray();
    for (qsizetype k = 0; k < array.size(); ++k) {
      const std::string at = key + "[" + std::to_string(k) + "]";
      // A number stands for its spelling in the file: classes 0 and 1 may be written bare.
      if (array[k].isDouble()) {
        const double v = array[k].toDouble();
        if (v != std::floor(v) || std::abs(v) > 1e15) return bad("a number here must be whole; quote other values", at);
        out.push_back(std::to_string(static_cast<long long>(v)));
      } else if (array[k].isString()) {
        out.push_back(array[k].toString().toStdString());
      } else {
        return bad("expected a name (text) or a whole number", at);
      }
    }
    return out;
  }

  Result<FeatureRange> range(const QJsonValue& value, const std::string& key) const {
    const QJsonArray array = value.toArray();
    if (!value.isArray() || array.size() != 2 || !array[0].isDouble() || !array[1].isDouble())
      return bad("expected [lo, hi], two numbers", key);
    const FeatureRange r{array[0].toDouble(), array[1].toDouble()};
    if (!(std::isfinite(r.lo) && std::isfinite(r.hi) && r.hi > r.lo)) return bad("the range needs lo < hi", key);
    return r;
  }

  Status onlyKeys(const QJsonObject& object, const std::set<QString>& allowed, const std::string& where) const {
    for (auto it = object.begin(); it != object.end(); ++it)
      if (!allowed.count(it.key()))
        return bad("unknown key '" + it.key().toStdString() + "' (known: " + list(allowed) + ")",
                   where.empty() ? it.key().toStdString() : where + "." + it.key().toStdString());
    return Ok{};
  }

  Result<FeatureDeclaration> feature(const QJsonValue& value, const std::string& key) const {
    if (value.isString()) return FeatureDeclaration{value.toString().toStdString(), {}, {}};
    if (!value.isObject()) return bad("expected a feature: {\"name\": …, \"range\": [lo, hi]} or {\"name\": …, \"categories\": […]}", key);
    const QJsonObject object = value.toObject();
    if (auto keys = onlyKeys(object, {"name", "range", "categories"}, key); !keys) return keys.error();
    FeatureDeclaration f;
    if (object.contains("name")) {
      if (!object["name"].isString() || object["name"].toString().isEmpty()) return bad("expected a column name", key + ".name");
      f.name = object["name"].toString().toStdString();
    }
    if (object.contains("range")) {
      auto r = range(object["range"], key + ".range");
      if (!r) return r.error();
      f.range = r.value();
    }
    if (object.contains("categories")) {
      auto categories = strings(object["categories"], key + ".categories");
      if (!categories) return categories.error();
      if (categories.value().empty()) return bad("a categorical feature needs at least one category", key + ".categories");
      f.categories = std::move(categories).value();
    }
    return f;
  }

  Result<DataSchema> read(const QJsonObject& json) const {
    if (auto keys = onlyKeys(json, {"dpstudio_schema", "label_column", "classes", "features", "ignore", "feature_range",
                                    "feature_count", "one_hot_groups", "drafted_from_data", "note"},
                             "");
        !keys)
      return keys.error();
    if (!json.contains("dpstudio_schema"))
      return bad("not a dpstudio schema: the key \"dpstudio_schema\": " + std::to_string(kSchemaVersion) + " is missing",
                 "dpstudio_schema");
    if (json["dpstudio_schema"].toInt(-1) != kSchemaVersion)
      return bad("schema version " + std::to_string(json["dpstudio_schema"].toInt(-1)) + " is not supported (this is " +
                     std::to_string(kSchemaVersion) + ")",
                 "dpstudio_schema");
    DataSchema schema;
    if (json.contains("label_column")) {
      auto label = column(json["label_column"], "label_column");
      if (!label) return label.error();
      schema.labelColumn = label.value();
    }
    if (json.contains("classes")) {
      auto classes = strings(json["classes"], "classes");
      if (!classes) return classes.error();
      schema.classes = std::move(classes).value();
    }
    if (json.contains("features")) {
      if (!json["features"].isArray()) return bad("expected a list of features", "features");
      const QJsonArray features = json["features"].toArray();
      for (qsizetype k = 0; k < features.size(); ++k) {
        auto f = feature(features[k], "features[" + std::to_string(k) + "]");
        if (!f) return f.error();
        schema.features.push_back(std::move(f).value());
      }
    }
    if (json.contains("ignore")) {
      if (!json["ignore"].isArray()) return bad("expected a list of columns", "ignore");
      const QJsonArray ignore = json["ignore"].toArray();
      for (qsizetype k = 0; k < ignore.size(); ++k) {
        auto c = column(ignore[k], "ignore[" + std::to_string(k) + "]");
        if (!c) return c.error();
        schema.ignoredColumns.push_back(c.value());
      }
    }
    if (json.contains("feature_range")) {
      auto r = range(json["feature_range"], "feature_range");
      if (!r) return r.error();
      schema.defaultRange = r.value();
    }
    if (json.contains("feature_count")) {
      const double count = json["feature_count"].toDouble(-1);
      if (count < 1 || count != std::floor(count) || count > 1e9) return bad("expected a whole number >= 1", "feature_count");
      schema.featureCount = static_cast<Index>(count);
    }
    if (json.contains("one_hot_groups")) {
      if (!json["one_hot_groups"].isArray()) return bad("expected a list of [first column, count] pairs", "one_hot_groups");
      const QJsonArray groups = json["one_hot_groups"].toArray();
      for (qsizetype k = 0; k < groups.size(); ++k) {
        const std::string key = "one_hot_groups[" + std::to_string(k) + "]";
        const QJsonArray pair = groups[k].toArray();
        const double first = pair.size() == 2 ? pair[0].toDouble(-1) : -1, count = pair.size() == 2 ? pair[1].toDouble(-1) : -1;
        if (first < 1 || count < 1 || first != std::floor(first) || count != std::floor(count) || first > 1e9 || count > 1e9)
          return bad("expected [first column, count]: whole numbers >= 1, columns counted from 1", key);
        schema.oneHotGroups.push_back({static_cast<Index>(first) - 1, static_cast<Index>(count)});
      }
    }
    if (json.contains("drafted_from_data")) {
      if (!json["drafted_from_data"].isBool()) return bad("expected true or false", "drafted_from_data");
      schema.draftedFromData = json["drafted_from_data"].toBool();
    }
    if (auto valid = schema.validate(); !valid) return bad(valid.error().message, valid.error().field);
    // The features' ranges must fit together too: say so when the file is read, not at training.
    if (auto ranges = declaredPreprocessing(schema); !ranges) return bad(ranges.error().message, ranges.error().field);
    return schema;
  }

 private:
  static std::string list(const std::set<QString>& keys) {
    std::string out;
    for (const QString& key : keys) out += (out.empty() ? "" : ", ") + key.toStdString();
    return out;
  }

  std::string source_;
};

QJsonArray toArray(const std::vector<std::string>& values) {
  QJsonArray out;
  for (const std::string& v : values) out.append(QString::fromStdString(v));
  return out;
}

QJsonArray toArray(const FeatureRange& r) { return QJsonArray{r.lo, r.hi}; }

}  // namespace

Result<DataSchema> schemaFromJson(const QJsonObject& json, const std::string& source) {
  return SchemaReader(source).read(json);
}

QJsonObject schemaToJson(const DataSchema& schema) {
  QJsonObject json{{"dpstudio_schema", kSchemaVersion}};
  if (schema.draftedFromData) {
    json["drafted_from_data"] = true;
    json["note"] = "Drafted from the data: every range, category and class below was read off the rows. Replace "
                   "them by what is publicly known about the data, then delete \"drafted_from_data\"; until then "
                   "every result says its structure was read from the data.";
  }
  if (!schema.labelColumn.empty()) json["label_column"] = QString::fromStdString(schema.labelColumn);
  if (!schema.classes.empty()) json["classes"] = toArray(schema.classes);
  if (schema.defaultRange) json["feature_range"] = toArray(*schema.defaultRange);
  if (schema.featureCount > 0) json["feature_count"] = static_cast<double>(schema.featureCount);
  if (!schema.oneHotGroups.empty()) {
    QJsonArray groups;
    for (const OneHotGroup& g : schema.oneHotGroups)
      groups.append(QJsonArray{static_cast<double>(g.first + 1), static_cast<double>(g.count)});
    json["one_hot_groups"] = groups;
  }
  if (!schema.ignoredColumns.empty()) json["ignore"] = toArray(schema.ignoredColumns);
  if (!schema.features.empty()) {
    QJsonArray features;
    for (const FeatureDeclaration& f : schema.features) {
      QJsonObject object;
      if (!f.name.empty()) object["name"] = QString::fromStdString(f.name);
      if (f.range) object["range"] = toArray(*f.range);
      if (f.categorical()) object["categories"] = toArray(f.categories);
      features.append(object);
    }
    json["features"] = features;
  }
  return json;
}

Result<DataSchema> readSchemaFile(const std::string& path) {
  QFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::ReadOnly))
    return Error::badData("cannot read the schema: " + file.errorString().toStdString(), path);
  constexpr qint64 kMaxBytes = 64LL << 20;  // a schema is small; a 64 MB one is not a schema
  if (file.size() > kMaxBytes) return Error::badData("the schema file is larger than 64 MB", path);
  const QByteArray bytes = file.readAll();
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
  if (parseError.error != QJsonParseError::NoError) {
    const long line = 1 + static_cast<long>(bytes.left(parseError.offset).count('\n'));
    return Error::badData("not valid JSON: " + parseError.errorString().toStdString(), path, line);
  }
  if (!document.isObject()) return Error::badData("expected a JSON object", path, 1);
  return schemaFromJson(document.object(), path);
}

Status writeSchemaFile(const DataSchema& schema, const std::string& path) {
  QSaveFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::WriteOnly))
    return Error{ErrorKind::Internal, "cannot write the schema: " + file.errorString().toStdString(), path, 0, {}};
  file.write(QJsonDocument(schemaToJson(schema)).toJson(QJsonDocument::Indented));
  if (!file.commit())
    return Error{ErrorKind::Internal, "cannot write the schema: " + file.errorString().toStdString(), path, 0, {}};
  return Ok{};
}

}  // namespace dpstudio
