// readBundleArchive (core/bundle/bundle_archive.h): a bundle's zip, manifest, checksums and
// .npy members, on arbitrary bytes written to a temporary .dpmodel file (QuaZip reads a
// path), with limits of 8 MiB per member and 32 MiB in all so that a zip bomb is refused
// rather than exhausting the fuzzer's memory. fuzz_bundle reads the same bytes up to a
// predictor; this target needs only the archive layer (dpstudio_bundle_archive).
#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

#include "core/bundle/bundle_archive.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static QTemporaryDir dir;  // one file, rewritten for each input
  static const QString path = dir.filePath("fuzz.dpmodel");
  {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size)) != static_cast<qint64>(size))
      dpstudio::fuzz::broken("cannot write the input file");
  }
  dpstudio::bundle::ZipLimits limits;
  limits.maxMemberBytes = qint64(8) << 20;
  limits.maxTotalBytes = qint64(32) << 20;
  auto contents = dpstudio::bundle::readBundleArchive(path, limits);
  if (contents && contents.value().manifest.contains("checksums")) dpstudio::fuzz::broken("checksums left in the manifest");
  return 0;
}
