// inflateGzip (core/io/gzip.h) on arbitrary bytes, with a 16 MiB limit on the inflated size
// (the reader's own limit is 4 GiB; a smaller one exercises the same check without
// exhausting the fuzzer's memory). The result must respect the limit.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/gzip.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::uint64_t kLimit = std::uint64_t{16} << 20;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)dpstudio::isGzip(bytes);
  auto inflated = dpstudio::inflateGzip(bytes, "fuzz.gz", kLimit, dpstudio::fuzz::checkedProgress());
  if (inflated && inflated.value().size() > kLimit) dpstudio::fuzz::broken("inflated past the limit");
  return 0;
}
