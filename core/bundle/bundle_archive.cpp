#include "core/bundle/bundle_archive.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace dpstudio::bundle {
namespace {

using Index = Eigen::Index;

Error bad(const std::string& member, const std::string& message) {
  return Error{ErrorKind::BadBundle, message, {}, 0, member};
}

QString npyMember(const std::string& name) { return QString::fromStdString(name) + ".npy"; }

QJsonArray shapeJson(const NpyArray& array) {
  if (array.oneDimensional) return QJsonArray{static_cast<qint64>(array.values.rows())};
  return QJsonArray{static_cast<qint64>(array.values.rows()), static_cast<qint64>(array.values.cols())};
}

// The fields every bundle's manifest has, whatever its kind (bundle_reader.h checks the rest).
Status checkManifestHeader(const QJsonObject& manifest) {
  const std::string member = kManifestMember;
  if (!manifest["format"].isString()) return bad(member, "has no \"format\" field: not a dpstudio model bundle");
  if (manifest["format"].toString() != kFormatName)
    return bad(member, "format '" + manifest["format"].toString().toStdString() + "' is not '" + kFormatName + "'");
  if (!manifest["version"].isDouble()) return bad(member, "has no numeric \"version\" field");
  const double version = manifest["version"].toDouble();
  if (version != std::floor(version) || version < kOldestReadableVersion || version > kFormatVersion)
    return bad(member, "version " + QString::number(version).toStdString() +
                           " is not supported (this program reads versions " + std::to_string(kOldestReadableVersion) +
                           " to " + std::to_string(kFormatVersion) + ")");
  for (const char* key : {"producer", "model", "preprocessing", "privacy", "training", "arrays", "checksums"})
    if (!manifest[key].isObject()) return bad(member, std::string("lacks the \"") + key + "\" object");
  for (const char* key : {"kind", "classes", "input_dim"})
    if (manifest[key].isUndefined()) return bad(member, std::string("lacks the \"") + key + "\" field");
  return Ok{};
}

Status checkShape(const std::string& member, const NpyArray& array, const QJsonValue& declared) {
  if (declared["shape"].toArray() != shapeJson(array))
    return bad(member, "has shape " + array.shapeText() + ", but the manifest lists " +
                           QJsonDocument(declared["shape"].toArray()).toJson(QJsonDocument::Compact).toStdString());
  for (Index i = 0; i < array.values.size(); ++i)
    if (!std::isfinite(array.values.data()[i]))
      return bad(member, "holds a non-finite value (NaN or infinity) at flat index " + std::to_string(i));
  return Ok{};
}

}  // namespace

QString sha256Hex(const QByteArray& bytes) {
  return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

void recordArrayShapes(BundleContents& contents) {
  QJsonObject arrays = contents.manifest["arrays"].toObject();
  for (const auto& [name, array] : contents.arrays) {
    QJsonObject entry = arrays[QString::fromStdString(name)].toObject();
    entry["shape"] = shapeJson(array);
    arrays[QString::fromStdString(name)] = entry;
  }
  contents.manifest["arrays"] = arrays;
}

Status writeBundleArchive(const BundleContents& contents, const QString& path, const BeforeCommit& beforeCommit) {
  BundleContents shaped = contents;
  recordArrayShapes(shaped);
  QJsonObject manifest = shaped.manifest;
  std::vector<ZipMember> members;
  QJsonObject checksums;
  for (const auto& [name, array] : contents.arrays) {
    members.push_back({npyMember(name), writeNpy(array)});
    checksums[members.back().name] = sha256Hex(members.back().data);
  }
  members.push_back({kModelCardMember, contents.modelCard.toUtf8()});
  checksums[kModelCardMember] = sha256Hex(members.back().data);
  manifest["checksums"] = checksums;
  // The manifest first, so that a person listing the archive sees it at the top.
  members.insert(members.begin(), ZipMember{kManifestMember, QJsonDocument(manifest).toJson(QJsonDocument::Indented)});
  return writeZipAtomically(members, path, beforeCommit);
}

Result<BundleContents> readBundleArchive(const QString& path, const ZipLimits& limits) {
  auto members = readZip(path, limits);
  if (!members) return members.error();
  std::map<QString, QByteArray> byName;
  for (ZipMember& member : members.value()) byName[member.name] = std::move(member.data);

  const auto manifestIt = byName.find(kManifestMember);
  if (manifestIt == byName.end()) return bad(kManifestMember, "is missing: not a dpstudio model bundle");
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(manifestIt->second, &parseError);
  if (parseError.error != QJsonParseError::NoError)
    return bad(kManifestMember, "is not JSON: " + parseError.errorString().toStdString() + " at offset " +
                                    std::to_string(parseError.offset));
  if (!document.isObject()) return bad(kManifestMember, "is JSON but not an object");
  BundleContents contents;
  contents.manifest = document.object();
  if (auto status = checkManifestHeader(contents.manifest); !status) return status.error();

  const QJsonObject checksums = contents.manifest["checksums"].toObject();
  for (const auto& [name, data] : byName) {
    if (name == kManifestMember) continue;
    if (!checksums.contains(name)) return bad(name.toStdString(), "is not listed in the manifest's checksums (an extra member)");
    if (checksums[name].toString() != sha256Hex(data))
      return bad(name.toStdString(), "checksum mismatch: its SHA-256 differs from the manifest's");
  }
  for (auto it = checksums.begin(); it != checksums.end(); ++it)
    if (!byName.contains(it.key())) return bad(it.key().toStdString(), "is listed in the manifest's checksums but missing");
  if (!byName.contains(kModelCardMember)) return bad(kModelCardMember, "is missing");

  const QJsonObject arrays = contents.manifest["arrays"].toObject();
  for (const auto& [name, data] : byName) {
    if (!name.endsWith(".npy")) {
      if (name != kManifestMember && name != kModelCardMember)
        return bad(name.toStdString(), "is neither an array, the manifest nor the model card (an extra member)");
      continue;
    }
    const QString arrayName = name.chopped(4);
    if (!arrays.contains(arrayName)) return bad(name.toStdString(), "is an extra array the manifest does not list");
    auto array = readNpy(data, name.toStdString());
    if (!array) return Error{ErrorKind::BadBundle, array.error().message, {}, 0, name.toStdString()};
    if (auto status = checkShape(name.toStdString(), array.value(), arrays[arrayName]); !status) return status.error();
    contents.arrays[arrayName.toStdString()] = std::move(array).value();
  }
  for (auto it = arrays.begin(); it != arrays.end(); ++it)
    if (!contents.arrays.contains(it.key().toStdString()))
      return bad((it.key() + ".npy").toStdString(), "is listed in the manifest's arrays but missing");

  contents.modelCard = QString::fromUtf8(byName[kModelCardMember]);
  contents.manifest.remove("checksums");
  return contents;
}

}  // namespace dpstudio::bundle
