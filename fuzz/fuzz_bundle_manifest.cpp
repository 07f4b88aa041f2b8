// readBundle past the checksums: random bytes rarely survive a bundle's SHA-256 checks, so
// here the input is the manifest (JSON) alone. Its "arrays" entries get arrays of the shapes
// they list (values 0.25; up to 2-D, 4096 values), the model card is fixed, and the bundle is
// written as export does (checksums computed) and read back: what the reader then checks is
// the manifest's meaning (bundle_reader.cpp). Seeds: the manifests of real bundles.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

#include "core/bundle/bundle_reader.h"
#include "fuzz/fuzz_support.h"

using namespace dpstudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static QTemporaryDir dir;
  static const QString path = dir.filePath("fuzz.dpmodel");
  QJsonParseError error;
  const QJsonDocument document =
      QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)), &error);
  if (error.error != QJsonParseError::NoError || !document.isObject()) return 0;
  bundle::BundleContents contents;
  contents.manifest = document.object();
  contents.manifest.remove("checksums");
  contents.modelCard = "# fuzz\n";
  const QJsonObject arrays = contents.manifest["arrays"].toObject();
  for (auto it = arrays.begin(); it != arrays.end(); ++it) {
    const QJsonArray shape = it.value().toObject()["shape"].toArray();
    if (shape.isEmpty() || shape.size() > 2) continue;
    const qint64 rows = shape[0].toInteger(-1), cols = shape.size() == 2 ? shape[1].toInteger(-1) : 1;
    // Divided, not multiplied: a shape of 17 × 7.8·10¹⁸ overflowed the product (a finding of
    // this harness, tests/fixtures/malformed/manifest_shape_overflow.json).
    if (rows < 0 || cols < 0 || (cols > 0 && rows > 4096 / cols)) continue;
    bundle::NpyArray array;
    array.values = Eigen::MatrixXd::Constant(rows, cols, 0.25);
    array.oneDimensional = shape.size() == 1;
    contents.arrays[it.key().toStdString()] = array;
  }
  // writeBundleArchive records the arrays' shapes in the manifest, as export does.
  if (!bundle::writeBundleArchive(contents, path)) return 0;
  auto loaded = bundle::readBundle(path);
  if (loaded) {
    (void)loaded.value().budget();
    (void)loaded.value().budgetRemaining();
    (void)bundle::currentContents(loaded.value());
  }
  return 0;
}
