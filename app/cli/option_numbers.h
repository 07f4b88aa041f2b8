#pragma once
// The CLI's parsing of numbers out of option text, as pure functions (no parser, no I/O):
// shared by the commands and fuzzed by fuzz/fuzz_cli_numbers.cpp. Each error is
// ErrorKind::Usage naming the option in `field`.

#include <QString>

#include <vector>

#include "core/data/preprocess.h"
#include "core/util/result.h"

namespace dpstudio::cli {

// --NAME X: a number (QString::toDouble: C locale, "inf" and "nan" accepted).
Result<double> parseNumberOption(const QString& name, const QString& text);
// --NAME N: a whole number >= min.
Result<long long> parseIntegerOption(const QString& name, const QString& text, long long min);
// A comma-separated list of numbers, each trimmed; empty items are skipped when skipEmpty,
// else refused. The error starts "must be a comma-separated list" and names no option.
Result<std::vector<double>> parseNumberList(const QString& text, bool skipEmpty);
// sweep's --values V1,V2,..: at least one number, empty items skipped.
Result<std::vector<double>> parseSweepValues(const QString& text);

// sweep's --shard K/N, 1 <= K <= N; index is 0-based.
struct Shard {
  int index = 0;
  int count = 1;
};
Result<Shard> parseShard(const QString& text);

// --feature-range LO,HI (one range for all features) and --feature-ranges LO:HI,LO:HI,..
Result<FeatureRange> parseFeatureRange(const QString& text);
Result<std::vector<FeatureRange>> parseFeatureRanges(const QString& text);

}  // namespace dpstudio::cli
