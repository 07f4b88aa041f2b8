#pragma once
// A .dpmodel bundle as members (docs/formats/bundle-format.md): manifest.json, MODEL_CARD.md and the
// .npy arrays, checked for integrity but not yet for meaning (bundle_reader.h turns them
// into a predictor). The archive is a zip that NumPy reads as an .npz.
//
// Integrity, on reading: format "dpstudio-model" and version 1; the manifest is a JSON
// object with the fields every bundle has; every member other than the manifest has a
// SHA-256 in manifest "checksums" that matches, and every checksum names a member; the .npy
// members are exactly those of manifest "arrays", each a valid '<f8' C-order array of the
// shape listed there, with finite values only; the zip-level checks of zip_io.h. Each
// refusal is ErrorKind::BadBundle with the member in `field`.

#include <QJsonObject>
#include <QString>

#include <map>
#include <string>

#include "core/bundle/npy.h"
#include "core/bundle/zip_io.h"

namespace dpstudio::bundle {

inline constexpr const char* kFormatName = "dpstudio-model";
// Version 2 (2026-12) maps declared feature ranges to [−½, ½] and names the mapping
// (preprocessing.range_mapping); version 1 bundles, which map them to [0, 1], are still read.
inline constexpr int kFormatVersion = 2;
inline constexpr int kOldestReadableVersion = 1;
inline constexpr const char* kManifestMember = "manifest.json";
inline constexpr const char* kModelCardMember = "MODEL_CARD.md";

struct BundleContents {
  // Everything but "checksums", which writing computes and reading checks and removes: the
  // manifest read back equals the one written. Its "arrays" object lists each array by name
  // (without ".npy") with its "shape".
  QJsonObject manifest;
  std::map<std::string, NpyArray> arrays;  // by name, without ".npy"
  QString modelCard;                       // Markdown

  bool operator==(const BundleContents&) const = default;
};

// Sets each array's "shape" in manifest "arrays" (creating the entry if needed), as writing
// does, so that contents built in memory equal the contents read back.
void recordArrayShapes(BundleContents& contents);

// Adds the arrays' shapes to manifest "arrays" (keeping what else each entry says), the
// checksums, and writes the zip atomically (zip_io.h).
Status writeBundleArchive(const BundleContents& contents, const QString& path,
                          const BeforeCommit& beforeCommit = {});

// The integrity checks above; errors name the member and the problem.
Result<BundleContents> readBundleArchive(const QString& path, const ZipLimits& limits = {});

// SHA-256 in lower-case hex.
QString sha256Hex(const QByteArray& bytes);

}  // namespace dpstudio::bundle
