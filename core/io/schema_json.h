#pragma once
// The data schema's file: JSON (docs/formats/schema.md). Read without trusting it: every
// error names the file and the key at fault ("features[3].range"); unknown keys are refused,
// so a misspelt "catgories" is not silently a numeric feature.

#include <QJsonObject>

#include <string>

#include "core/data/data_schema.h"
#include "core/util/result.h"

namespace dpstudio {

inline constexpr int kSchemaVersion = 1;

Result<DataSchema> schemaFromJson(const QJsonObject& json, const std::string& source);
QJsonObject schemaToJson(const DataSchema& schema);

Result<DataSchema> readSchemaFile(const std::string& path);
// Written atomically (a temporary file renamed over the target).
Status writeSchemaFile(const DataSchema& schema, const std::string& path);

}  // namespace dpstudio
