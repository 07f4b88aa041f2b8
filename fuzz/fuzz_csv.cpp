// parseCsv on arbitrary bytes (core/io/csv_loader.h), default options (header, delimiter
// and label column detected). A refusal is fine; a crash, leak, hang or UB is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/csv_loader.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  dpstudio::LoadOptions options;
  options.maxDenseValues = dpstudio::fuzz::kMaxDenseValues;
  auto parsed = dpstudio::parseCsv(text, options, "fuzz.csv", dpstudio::fuzz::checkedProgress());
  if (parsed) dpstudio::fuzz::checkDataset(parsed.value());
  return 0;
}
