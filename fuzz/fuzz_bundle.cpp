// readBundle (core/bundle/bundle_reader.h) on arbitrary bytes written to a temporary
// .dpmodel file (the reader takes a path: QuaZip opens it), with limits of 8 MiB per member
// and 32 MiB in all so that a zip bomb is refused rather than exhausting the fuzzer's memory.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/bundle/bundle_reader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static QTemporaryDir dir;  // one file, rewritten for each input
  static const QString path = dir.filePath("fuzz.dpmodel");
  {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) dpstudio::fuzz::broken("cannot write the input file");
    if (file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size)) != static_cast<qint64>(size))
      dpstudio::fuzz::broken("cannot write the input file");
  }
  dpstudio::bundle::ZipLimits limits;
  limits.maxMemberBytes = qint64(8) << 20;
  limits.maxTotalBytes = qint64(32) << 20;
  auto loaded = dpstudio::bundle::readBundle(path, limits);
  if (loaded) {
    (void)loaded.value().budget();
    (void)loaded.value().budgetRemaining();
    (void)dpstudio::bundle::currentContents(loaded.value());
  }
  return 0;
}
