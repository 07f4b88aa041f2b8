#include "core/io/load_estimate.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string_view>

#include "core/io/csv_tokenizer.h"
#include "core/io/gzip.h"
#include "core/io/parse_util.h"

namespace dpstudio {
namespace {

constexpr std::size_t kHeadBytes = std::size_t{256} << 10;  // read from the file
constexpr std::size_t kSampleBytes = std::size_t{1} << 20;  // of text, at most

// The sample up to its last line break, so that a cut-off last line does not count.
std::string_view wholeLines(std::string_view text, bool complete) {
  if (complete) return text;
  const std::size_t last = text.find_last_of("\r\n");
  return last == std::string_view::npos ? text : text.substr(0, last + 1);
}

long lineBreaks(std::string_view text) {
  long count = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++count;
  return count;
}

double perByte(double count, std::string_view sample) {
  return sample.empty() ? 0.0 : count / static_cast<double>(sample.size());
}

// IDX images: the product of the dimensions, from the big-endian header.
std::optional<std::uint64_t> idxValues(std::string_view head) {
  if (head.size() < 4) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(head.data());
  const int dims = p[3];
  if (dims < 1 || head.size() < 4 + 4 * static_cast<std::size_t>(dims)) return std::nullopt;
  std::uint64_t values = 1;
  for (int k = 0; k < dims; ++k) {
    const unsigned char* d = p + 4 + 4 * k;
    const std::uint64_t size = (std::uint64_t{d[0]} << 24) | (std::uint64_t{d[1]} << 16) | (std::uint64_t{d[2]} << 8) | d[3];
    values *= std::max<std::uint64_t>(size, 1);
  }
  return values;
}

std::uint64_t csvValues(std::string_view sample, std::uint64_t textBytes, char delimiter) {
  const double lines = static_cast<double>(std::max(lineBreaks(sample), 1L));
  const double delimiters = static_cast<double>(std::count(sample.begin(), sample.end(), delimiter));
  const double cellsPerLine = delimiters / lines + 1;
  // Every line but the label cell is features (a header line is one line among many).
  const double featureShare = cellsPerLine > 1 ? (cellsPerLine - 1) / cellsPerLine : 1.0;
  return static_cast<std::uint64_t>(perByte(delimiters + lines, sample) * featureShare * static_cast<double>(textBytes));
}

struct LibSvmShape {
  std::uint64_t rows = 0, stored = 0, width = 0;
};

LibSvmShape libsvmShape(std::string_view sample, std::uint64_t textBytes, Index declaredWidth) {
  LibSvmShape shape;
  const double scale = static_cast<double>(textBytes);
  shape.rows = static_cast<std::uint64_t>(perByte(static_cast<double>(lineBreaks(sample)), sample) * scale);
  shape.stored = static_cast<std::uint64_t>(
      perByte(static_cast<double>(std::count(sample.begin(), sample.end(), ':')), sample) * scale);
  if (declaredWidth > 0) {
    shape.width = static_cast<std::uint64_t>(declaredWidth);
    return shape;
  }
  // The largest "index:" seen: digits right before a colon.
  for (std::size_t colon = sample.find(':'); colon != std::string_view::npos; colon = sample.find(':', colon + 1)) {
    std::size_t start = colon;
    while (start > 0 && sample[start - 1] >= '0' && sample[start - 1] <= '9') --start;
    long long index = 0;
    if (start < colon && io::parseInteger(sample.substr(start, colon - start), index) == io::IntegerKind::Integer)
      shape.width = std::max<std::uint64_t>(shape.width, static_cast<std::uint64_t>(std::max(index, 0LL)));
  }
  return shape;
}

}  // namespace

Result<LoadEstimate> estimateLoad(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  const std::uint64_t fileBytes = std::filesystem::file_size(path, ec);
  if (ec) return Error::badData("cannot open file: " + ec.message(), path);
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error::badData(std::string("cannot open file: ") + std::strerror(errno), path);
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(fileBytes, kHeadBytes)), '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));

  LoadEstimate estimate;
  estimate.textBytes = fileBytes;
  std::string text = head;
  bool complete = head.size() == fileBytes;
  if (isGzip(head)) {
    char tail[4] = {};
    file.clear();
    file.seekg(-4, std::ios::end);
    file.read(tail, 4);
    // ISIZE is modulo 2^32: a text smaller than its compressed file means it wrapped (or the
    // trailer is damaged): deflate's typical 4:1 on text is the better guess then.
    // Deflate expands at most ~1032:1, so a larger ISIZE is a damaged trailer.
    const std::uint64_t size = gzipTrailerSize(std::string_view(tail, 4));
    estimate.textBytes = size >= fileBytes && size <= fileBytes * 1032 ? size : fileBytes * 4;
    auto inflated = inflatePrefix(head, kSampleBytes, path);
    text = inflated ? std::move(inflated).value() : std::string();
    complete = complete && text.size() == estimate.textBytes;
  }
  estimate.sampledWhole = complete;
  estimate.format = detectDataFormat(path, text, options.format);
  const std::string_view sample = wholeLines(text, complete);

  std::uint64_t extra = 0;  // what the reader holds besides text and values
  switch (estimate.format) {
    case DataFormat::Idx:
      if (const auto values = idxValues(text)) {
        estimate.values = *values;
        estimate.exact = true;
      }
      break;
    case DataFormat::LibSvm: {
      const LibSvmShape shape = libsvmShape(sample, estimate.textBytes, options.libsvmFeatures);
      estimate.values = shape.rows * shape.width;
      extra = shape.stored * 16;
      break;
    }
    case DataFormat::Csv:
    case DataFormat::Auto: {
      const char delimiter = options.delimiter != 0 ? options.delimiter : io::detectDelimiter(sample);
      estimate.values = csvValues(sample, estimate.textBytes, delimiter);
      extra = estimate.values * sizeof(double);  // the row-major buffer the matrix is filled from
      break;
    }
  }
  if (estimate.values == 0 && !estimate.exact) estimate.values = estimate.textBytes;  // nothing sampled: at most a value a byte
  const std::uint64_t valueBytes = estimate.values * sizeof(double);
  estimate.leastBytes = estimate.textBytes + valueBytes;
  estimate.peakBytes = estimate.leastBytes + extra;
  return estimate;
}

std::optional<std::uint64_t> availableMemoryBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kilobytes = 0;
  std::string unit;
  while (meminfo >> key >> kilobytes >> unit)
    if (key == "MemAvailable:") return kilobytes * 1024;
  return std::nullopt;
}

Status checkLoadFits(const LoadEstimate& estimate, std::optional<std::uint64_t> available, const std::string& path) {
  if (!available || estimate.leastBytes <= *available) return Ok{};
  return Error::badData("reading it needs at least " + byteSizeText(estimate.leastBytes) + " of memory (text " +
                            byteSizeText(estimate.textBytes) + ", " + std::to_string(estimate.values) +
                            " values as float64 " + byteSizeText(estimate.values * sizeof(double)) + "), and " +
                            byteSizeText(*available) +
                            " are available: use a machine with more memory, or a part of the file",
                        path);
}

std::string byteSizeText(std::uint64_t bytes) {
  static const char* const kUnits[] = {"bytes", "kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000 && unit < 4) {
    value /= 1000;
    ++unit;
  }
  char text[32];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, value < 10 ? "%.1f %s" : "%.0f %s", value, kUnits[unit]);
  return text;
}

}  // namespace dpstudio
