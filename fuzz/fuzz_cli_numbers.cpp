// The CLI's parsing of numbers in option values (app/cli/option_numbers.h) on arbitrary
// UTF-8: every parser sees the same text; what each accepts must keep its promise.
#include <QString>

#include <cstddef>
#include <cstdint>

#include "app/cli/option_numbers.h"
#include "fuzz/fuzz_support.h"

using namespace dpstudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
  (void)cli::parseNumberOption("epsilon", text);
  for (long long min : {0LL, 1LL}) {
    auto n = cli::parseIntegerOption("repeats", text, min);
    if (n && n.value() < min) fuzz::broken("a whole number below its minimum was accepted");
  }
  for (bool skipEmpty : {false, true}) (void)cli::parseNumberList(text, skipEmpty);
  if (auto values = cli::parseSweepValues(text); values && values.value().empty())
    fuzz::broken("--values accepted an empty list");
  if (auto shard = cli::parseShard(text);
      shard && !(shard.value().count >= 1 && shard.value().index >= 0 && shard.value().index < shard.value().count))
    fuzz::broken("--shard accepted K outside 1..N");
  (void)cli::parseFeatureRange(text);
  if (auto ranges = cli::parseFeatureRanges(text); ranges && ranges.value().empty())
    fuzz::broken("--feature-ranges accepted no range");
  return 0;
}
