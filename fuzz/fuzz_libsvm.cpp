// parseLibSvm on arbitrary bytes (core/io/libsvm_loader.h), feature count from the data.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/libsvm_loader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  dpstudio::LoadOptions options;
  options.maxDenseValues = dpstudio::fuzz::kMaxDenseValues;
  auto parsed = dpstudio::parseLibSvm(text, options, "fuzz.libsvm", dpstudio::fuzz::checkedProgress());
  if (parsed) dpstudio::fuzz::checkDataset(parsed.value());
  return 0;
}
