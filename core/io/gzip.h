#pragma once
// Reading a file's bytes, gzip-compressed or not: compression is recognised from the
// first two bytes (1f 8b), never from the name.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/progress.h"
#include "core/util/result.h"

namespace dpstudio {

// The most a file may hold, compressed or decompressed: 4 GiB. Anything larger is
// refused with a BadData error before it can exhaust memory (a "zip bomb" included).
inline constexpr std::uint64_t kMaxFileBytes = std::uint64_t{4} << 30;

struct FileBytes {
  std::string bytes;  // the decompressed content
  bool gzip = false;  // the file was gzip-compressed
};

// True when `bytes` starts with the gzip magic number 1f 8b.
bool isGzip(std::string_view bytes);

// Inflates every gzip member in `compressed` (concatenated members are joined, as gzip
// does; zero padding after the last member is ignored). Errors are BadData with
// `sourceName` as their source: "gzip stream is truncated", "corrupt gzip data (...)",
// or a refusal when the output would exceed maxBytes. Progress runs over the input.
Result<std::string> inflateGzip(std::string_view compressed, const std::string& sourceName,
                                std::uint64_t maxBytes = kMaxFileBytes,
                                const Progress& progress = {});

// The first (at most) maxBytes of what a gzip stream decompresses to, without inflating
// the rest: what a reader will face, for estimating it before reading (load_estimate.h).
// Fewer bytes when the stream ends (or the given compressed bytes run out) first; a corrupt
// start is BadData.
Result<std::string> inflatePrefix(std::string_view compressed, std::size_t maxBytes,
                                  const std::string& sourceName);

// The gzip trailer's ISIZE, read from a file's last four bytes: the last member's
// uncompressed size modulo 2^32 (exact for the usual single member under 4 GiB).
std::uint64_t gzipTrailerSize(std::string_view lastFourBytes);

// Reads the whole file at `path` and inflates it if it is gzip. A missing or unreadable
// file is BadData "cannot open file: <reason>" with the path as source.
Result<FileBytes> readFileBytes(const std::string& path, const Progress& progress = {},
                                std::uint64_t maxBytes = kMaxFileBytes);

}  // namespace dpstudio
