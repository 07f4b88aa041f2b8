// parseIdx (core/io/idx_loader.h) on an images file and a labels file cut from one input:
// its first 4 bytes (little-endian) modulo the rest's length say where the labels start;
// the seeds (bench/fuzz.sh) are MNIST-style pairs from tests/fixtures put together so.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/idx_loader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint32_t cut = std::uint32_t{data[0]} | std::uint32_t{data[1]} << 8 | std::uint32_t{data[2]} << 16 |
                            std::uint32_t{data[3]} << 24;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 4, size - 4);
  const std::size_t split = rest.empty() ? 0 : cut % (rest.size() + 1);
  const std::string_view images = rest.substr(0, split), labels = rest.substr(split);
  (void)dpstudio::looksLikeIdx(images);
  auto parsed = dpstudio::parseIdx(images, "fuzz-images-idx3-ubyte", labels, "fuzz-labels-idx1-ubyte",
                                   dpstudio::fuzz::checkedProgress());
  if (parsed) dpstudio::fuzz::checkDataset(parsed.value());
  return 0;
}
