#include "core/io/gzip.h"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

#include "core/io/parse_util.h"
#include "core/util/huge_pages.h"

// zlib's inflate() is used directly rather than gzopen()/gzread(): gzread() passes
// non-gzip bytes through unchanged, returns the readable prefix of a truncated file
// as if it were the whole file, and reduces a corrupt stream to a generic gzerror()
// text. A loader must never half-load silently, so it needs to tell "truncated" from
// "corrupt" from "fine" exactly, and it already holds the bytes in memory anyway.

namespace dpstudio {

namespace {

// Per inflate() call: small enough that progress and cancellation are seen every few
// milliseconds, large enough that the call overhead does not matter.
constexpr std::size_t kInputChunk = std::size_t{1} << 20;
constexpr std::size_t kOutputChunk = std::size_t{8} << 20;

std::string gibText(std::uint64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buffer;
}

Error tooLarge(const std::string& source, std::uint64_t maxBytes) {
  return Error::badData("the data exceed " + gibText(maxBytes) +
                            " (after decompression); files this large are refused",
                        source);
}

// The gzip trailer's ISIZE (uncompressed size mod 2^32 of the last member) as a first
// guess for the output size; for the usual single-member file below 4 GiB it is exact.
std::size_t initialOutputSize(std::string_view in, std::uint64_t maxBytes) {
  std::uint64_t guess = in.size() >= 18 ? gzipTrailerSize(in) : 0;
  // A damaged trailer must not make us reserve gigabytes: deflate cannot expand data
  // by more than about 1032:1.
  const std::uint64_t ceiling = std::min<std::uint64_t>(maxBytes + 1, in.size() * 1032ull + 1024);
  if (guess < in.size()) guess = std::max<std::uint64_t>(in.size() * 4ull, 1u << 16);
  return static_cast<std::size_t>(std::min(guess + 64, ceiling));
}

struct InflateEnd {
  void operator()(z_stream* stream) const { inflateEnd(stream); }
};

bool onlyZeros(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == '\0'; });
}

// Whole-buffer inflation by libdeflate, about three times zlib's speed (MNIST's training
// images: 47 MB in ~0.1 s), for the usual file: one member whose trailer gives its size, up
// to kWholeBufferLimit (one call, no progress or cancellation within it: a fraction of a
// second). Anything else — several members, a corrupt or truncated stream, a trailer that
// lies, more than maxBytes — returns nullopt, and the streaming zlib path runs instead and
// says exactly what is wrong, so every error is as before.
constexpr std::uint64_t kWholeBufferLimit = std::uint64_t{256} << 20;

struct DecompressorFree {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

std::optional<std::string> inflateWhole(std::string_view in, std::uint64_t maxBytes) {
  if (in.size() < 18) return std::nullopt;
  const std::uint64_t size = gzipTrailerSize(in);
  if (size > maxBytes || size > kWholeBufferLimit || size > in.size() * 1032ull + 1024) return std::nullopt;
  const std::unique_ptr<libdeflate_decompressor, DecompressorFree> decompressor(libdeflate_alloc_decompressor());
  if (!decompressor) return std::nullopt;
  std::string out;
  out.reserve(static_cast<std::size_t>(size));
  adviseHugePages(out.data(), static_cast<std::size_t>(size));
  out.resize(static_cast<std::size_t>(size));
  std::size_t consumed = 0, produced = 0;
  const libdeflate_result result = libdeflate_gzip_decompress_ex(decompressor.get(), in.data(), in.size(), out.data(),
                                                                 out.size(), &consumed, &produced);
  if (result != LIBDEFLATE_SUCCESS || produced != out.size() || !onlyZeros(in.substr(consumed))) return std::nullopt;
  return out;
}

}  // namespace

bool isGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> inflateGzip(std::string_view in, const std::string& sourceName,
                                std::uint64_t maxBytes, const Progress& progress) {
  if (auto whole = inflateWhole(in, maxBytes)) {
    if (!io::ProgressTicker(progress).update(1.0)) return Error::cancelled();
    return std::move(*whole);
  }
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    return Error{ErrorKind::Internal, "cannot initialise zlib", sourceName, 0, {}};
  const std::unique_ptr<z_stream, InflateEnd> guard(&stream);

  std::string out;
  out.resize(initialOutputSize(in, maxBytes));
  std::size_t consumed = 0;
  std::size_t produced = 0;
  io::ProgressTicker ticker(progress);

  for (;;) {
    if (produced == out.size()) {
      // One byte beyond the limit is allowed so that a file of exactly maxBytes passes.
      if (produced > maxBytes) return tooLarge(sourceName, maxBytes);
      const std::uint64_t grown = std::min<std::uint64_t>(out.size() * 2ull + 4096, maxBytes + 1);
      out.resize(static_cast<std::size_t>(grown));
    }
    const auto availIn = static_cast<uInt>(std::min(in.size() - consumed, kInputChunk));
    const auto availOut = static_cast<uInt>(std::min(out.size() - produced, kOutputChunk));
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + consumed));
    stream.avail_in = availIn;
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    stream.avail_out = availOut;
    const int status = inflate(&stream, Z_NO_FLUSH);
    consumed += availIn - stream.avail_in;
    produced += availOut - stream.avail_out;
    if (produced > maxBytes) return tooLarge(sourceName, maxBytes);

    if (status == Z_STREAM_END) {
      const std::string_view rest = in.substr(consumed);
      if (rest.empty() || onlyZeros(rest)) break;
      if (!isGzip(rest))
        return Error::badData("corrupt gzip data (unexpected bytes after the end of the stream)",
                              sourceName);
      inflateReset(&stream);  // another member follows: gzip concatenates them
    } else if (status == Z_OK || status == Z_BUF_ERROR) {
      // With room left for output and no input left, zlib is waiting for bytes the
      // file does not have.
      if (consumed == in.size() && stream.avail_out > 0)
        return Error::badData("gzip stream is truncated (the file ends inside compressed data)",
                              sourceName);
    } else if (status == Z_MEM_ERROR) {
      return Error{ErrorKind::Internal, "out of memory while decompressing", sourceName, 0, {}};
    } else {
      const std::string detail = stream.msg ? stream.msg : "unreadable deflate stream";
      return Error::badData("corrupt gzip data (" + detail + ")", sourceName);
    }
    if (!ticker.update(in.empty() ? 1.0 : static_cast<double>(consumed) / in.size()))
      return Error::cancelled();
  }
  out.resize(produced);
  return out;
}

Result<std::string> inflatePrefix(std::string_view in, std::size_t maxBytes, const std::string& sourceName) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    return Error{ErrorKind::Internal, "cannot initialise zlib", sourceName, 0, {}};
  const std::unique_ptr<z_stream, InflateEnd> guard(&stream);
  std::string out(maxBytes, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  stream.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), std::numeric_limits<uInt>::max()));
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(maxBytes);
  const int status = inflate(&stream, Z_SYNC_FLUSH);
  if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) {
    const std::string detail = stream.msg ? stream.msg : "unreadable deflate stream";
    return Error::badData("corrupt gzip data (" + detail + ")", sourceName);
  }
  out.resize(maxBytes - stream.avail_out);
  return out;
}

std::uint64_t gzipTrailerSize(std::string_view last) {
  if (last.size() < 4) return 0;
  const auto* p = reinterpret_cast<const unsigned char*>(last.data() + last.size() - 4);
  return std::uint64_t{p[0]} | (std::uint64_t{p[1]} << 8) | (std::uint64_t{p[2]} << 16) | (std::uint64_t{p[3]} << 24);
}

Result<FileBytes> readFileBytes(const std::string& path, const Progress& progress,
                                std::uint64_t maxBytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error::badData("cannot open file: it is a directory", path);

  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return Error::badData(std::string("cannot open file: ") + std::strerror(errno), path);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);

  // Reading in chunks also covers files whose size is not known in advance (pipes).
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  FileBytes result;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) {
    if (size > maxBytes) return tooLarge(path, maxBytes);
    result.bytes.reserve(static_cast<std::size_t>(size) + kChunk);
    adviseHugePages(result.bytes.data(), result.bytes.capacity());
  }
  std::size_t have = 0;
  for (;;) {
    result.bytes.resize(have + kChunk);
    const std::size_t got = std::fread(result.bytes.data() + have, 1, kChunk, file);
    have += got;
    if (have > maxBytes) return tooLarge(path, maxBytes);
    if (got < kChunk) break;
    if (progress.cancelled()) return Error::cancelled();
    // Reading a file of gigabytes takes seconds: say how far (its size is known but for pipes).
    if (!ec && size > 0) progress.report(std::min(1.0, static_cast<double>(have) / static_cast<double>(size)));
  }
  result.bytes.resize(have);
  if (std::ferror(file))
    return Error::badData(std::string("cannot read file: ") + std::strerror(errno), path);
  // A file still being written (a download, an export in progress) would be parsed half
  // done, or with a torn last line that happens to parse: refuse it instead.
  std::error_code after;
  const auto sizeAfter = std::filesystem::file_size(path, after);
  if (!ec && !after && (have != size || sizeAfter != size))
    return Error::badData("the file changed while it was read (" + std::to_string(size) + " bytes when opened, " +
                              std::to_string(have) + " read, " + std::to_string(sizeAfter) +
                              " now): read it again once it is complete",
                          path);

  if (isGzip(result.bytes)) {
    auto inflated = inflateGzip(result.bytes, path, maxBytes, progress);
    if (!inflated) return inflated.error();
    result.bytes = std::move(inflated).value();
    result.gzip = true;
  }
  progress.report(1.0);
  return result;
}

}  // namespace dpstudio
