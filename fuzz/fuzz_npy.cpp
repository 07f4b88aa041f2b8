// readNpy (core/bundle/npy.h), the reader of a bundle's arrays, on arbitrary bytes; an array
// it accepts must come back bit-identical through writeNpy and readNpy.
#include <QByteArray>

#include <cstddef>
#include <cstdint>

#include "core/bundle/npy.h"
#include "fuzz/fuzz_support.h"

using namespace dpstudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
  auto array = bundle::readNpy(bytes, "fuzz.npy");
  if (!array) return 0;
  auto again = bundle::readNpy(bundle::writeNpy(array.value()), "fuzz.npy");
  if (!again || !(again.value() == array.value())) fuzz::broken("an array read does not survive writeNpy/readNpy");
  return 0;
}
