#include "core/io/idx_loader.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "core/io/gzip.h"
#include "core/io/parse_util.h"
#include "core/util/huge_pages.h"
#include "core/util/number_text.h"
#include "core/util/parallel.h"

namespace dpstudio {

namespace {

enum class Role { Images, Labels };

constexpr const char* kExpectedImages = "0x00000803 (IDX unsigned-byte images)";
constexpr const char* kExpectedLabels = "0x00000801 (IDX unsigned-byte labels)";

std::size_t elementSize(unsigned type) {
  switch (type) {
    case 0x08:
    case 0x09: return 1;
    case 0x0B: return 2;
    case 0x0C:
    case 0x0D: return 4;
    case 0x0E: return 8;
    default: return 0;
  }
}

std::uint32_t bigEndian32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// One element of the given IDX type at p, as a double.
template <unsigned Type>
double decode(const unsigned char* p) {
  if constexpr (Type == 0x08) {
    return p[0];
  } else if constexpr (Type == 0x09) {
    return static_cast<std::int8_t>(p[0]);
  } else if constexpr (Type == 0x0B) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>((p[0] << 8) | p[1]));
  } else if constexpr (Type == 0x0C) {
    return static_cast<std::int32_t>(bigEndian32(p));
  } else if constexpr (Type == 0x0D) {
    const std::uint32_t bits = bigEndian32(p);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  } else {
    const std::uint64_t bits = (std::uint64_t{bigEndian32(p)} << 32) | bigEndian32(p + 4);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
}

double decodeAny(unsigned type, const unsigned char* p) {
  switch (type) {
    case 0x08: return decode<0x08>(p);
    case 0x09: return decode<0x09>(p);
    case 0x0B: return decode<0x0B>(p);
    case 0x0C: return decode<0x0C>(p);
    case 0x0D: return decode<0x0D>(p);
    default: return decode<0x0E>(p);
  }
}

std::string hex32(std::uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", static_cast<unsigned>(value));
  return buffer;
}

struct IdxFile {
  unsigned type = 0;
  std::size_t elementSize = 0;
  std::vector<std::uint64_t> dims;
  const unsigned char* data = nullptr;  // the first element
  std::uint64_t recordElements = 1;     // product of the dimensions after the first
};

Result<IdxFile> readIdx(std::string_view bytes, const std::string& name, Role role) {
  const char* expected = role == Role::Images ? kExpectedImages : kExpectedLabels;
  const auto size = static_cast<std::uint64_t>(bytes.size());
  if (size < 4)
    return Error::badData(
        "the file is too short for an IDX header (" + std::to_string(size) + " bytes)", name, 0,
        "header");
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::uint32_t magic = bigEndian32(p);
  IdxFile file;
  file.type = p[2];
  file.elementSize = elementSize(file.type);
  const unsigned dimensions = p[3];
  if (p[0] != 0 || p[1] != 0 || file.elementSize == 0 || dimensions == 0)
    return Error::badData(
        "not an IDX file: the magic number is " + hex32(magic) + ", expected " + expected, name, 0,
        "magic");
  if (role == Role::Images && dimensions < 2)
    return Error::badData("the magic number " + hex32(magic) +
                              " is that of a one-dimensional IDX file (labels?), expected " +
                              expected,
                          name, 0, "magic");
  if (role == Role::Labels && dimensions != 1)
    return Error::badData("the magic number " + hex32(magic) + " is that of a " +
                              std::to_string(dimensions) +
                              "-dimensional IDX file (images?), expected " + expected,
                          name, 0, "magic");

  const std::uint64_t headerBytes = 4 + 4ull * dimensions;
  if (size < headerBytes)
    return Error::badData("the IDX header is truncated: expected " + std::to_string(headerBytes) +
                              " bytes, found " + std::to_string(size),
                          name, 0, "header");
  std::uint64_t elements = 1;
  for (unsigned k = 0; k < dimensions; ++k) {
    file.dims.push_back(bigEndian32(p + 4 + 4 * k));
    // Checked as we go so that the product cannot overflow.
    elements *= file.dims.back();
    if (elements > kMaxFileBytes / file.elementSize)
      return Error::badData("the IDX dimensions describe more than 4 GiB of data", name, 0,
                            "header");
    // The record is bounded on its own: with a first dimension of 0 the product above stays 0
    // whatever follows, and the feature names alone would then exhaust memory.
    if (k > 0) {
      file.recordElements *= file.dims.back();
      if (file.recordElements > kMaxFileBytes / file.elementSize)
        return Error::badData("one IDX record describes more than 4 GiB of data", name, 0, "header");
    }
  }
  const std::uint64_t expectedBytes = headerBytes + elements * file.elementSize;
  if (size < expectedBytes) {
    const std::uint64_t recordBytes = file.recordElements * file.elementSize;
    const long record =
        recordBytes > 0 ? static_cast<long>((size - headerBytes) / recordBytes + 1) : 0;
    return Error::badData("truncated IDX data: expected " + std::to_string(expectedBytes) +
                              " bytes, found " + std::to_string(size),
                          name, record, "data");
  }
  if (size > expectedBytes)
    return Error::badData("unexpected " + std::to_string(size - expectedBytes) +
                              " bytes after the IDX data (the header describes " +
                              std::to_string(expectedBytes) + " bytes)",
                          name, 0, "data");
  file.data = p + headerBytes;
  return file;
}

std::vector<std::string> featureNames(const IdxFile& images) {
  const auto d = static_cast<std::size_t>(images.recordElements);
  std::vector<std::string> names;
  names.reserve(d);
  if (images.dims.size() == 3) {
    const std::uint64_t width = images.dims[2];
    for (std::size_t j = 0; j < d; ++j)
      names.push_back(io::numberedName("px_", static_cast<long long>(j / width)) + "_" +
                      std::to_string(j % width));
  } else {
    for (std::size_t j = 0; j < d; ++j)
      names.push_back(io::numberedName("x", static_cast<long long>(j + 1)));
  }
  return names;
}

// Row-major records into the column-major matrix, 64 records at a time so that both
// the records read and the column segments written stay in cache. Returns the first
// non-finite value's (record, feature) for the float types, or nullopt.
template <unsigned Type>
std::optional<std::pair<Index, Index>> fillFeatures(Eigen::MatrixXd& X, const unsigned char* data,
                                                    io::ProgressTicker& ticker, bool& cancelled) {
  constexpr std::size_t kSize = Type == 0x08 || Type == 0x09 ? 1
                                : Type == 0x0B               ? 2
                                : Type == 0x0E               ? 8
                                                             : 4;
  const Index n = X.rows();
  const Index d = X.cols();
  constexpr Index kBlock = 64;
  // Row chunks on the worker pool (the conversion and the matrix's first touch are most of
  // reading MNIST); each chunk notes its first non-finite value, and the earliest chunk's is
  // the file's first, as a sequential pass would find it.
  const RowChunks chunks{n};
  std::vector<std::optional<std::pair<Index, Index>>> firstNonFinite(static_cast<std::size_t>(chunks.count()));
  std::atomic<bool> stopped{false};
  parallelFor(chunks.count(), [&](Index c) {
    if (stopped.load(std::memory_order_relaxed)) return;
    if (ticker.cancelled()) {
      stopped = true;
      return;
    }
    const Index end = chunks.begin(c) + chunks.size(c);
    for (Index r0 = chunks.begin(c); r0 < end; r0 += kBlock) {
      const Index r1 = std::min(end, r0 + kBlock);
      for (Index j = 0; j < d; ++j) {
        double* column = X.col(j).data();
        const unsigned char* in = data + (static_cast<std::size_t>(r0 * d + j)) * kSize;
        for (Index r = r0; r < r1; ++r, in += static_cast<std::size_t>(d) * kSize) column[r] = decode<Type>(in);
      }
      if constexpr (Type == 0x0D || Type == 0x0E) {
        for (Index r = r0; r < r1; ++r)
          for (Index j = 0; j < d; ++j)
            if (!std::isfinite(X(r, j))) {
              firstNonFinite[static_cast<std::size_t>(c)] = std::make_pair(r, j);
              return;
            }
      }
    }
  });
  if (stopped) {
    cancelled = true;
    return std::nullopt;
  }
  for (const auto& first : firstNonFinite)
    if (first) return first;
  if (!ticker.update(0.9)) cancelled = true;
  return std::nullopt;
}

std::string labelName(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15)
    return std::to_string(static_cast<long long>(value));
  return exactNumber(value);
}

}  // namespace

bool looksLikeIdx(std::string_view bytes) {
  if (bytes.size() < 8) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  return p[0] == 0 && p[1] == 0 && elementSize(p[2]) != 0 && p[3] >= 1 && p[3] <= 8;
}

Result<Dataset> parseIdx(std::string_view images, const std::string& imagesName,
                         std::string_view labels, const std::string& labelsName,
                         const Progress& progress) {
  Result<IdxFile> imageFile = readIdx(images, imagesName, Role::Images);
  if (!imageFile) return imageFile.error();
  Result<IdxFile> labelFile = readIdx(labels, labelsName, Role::Labels);
  if (!labelFile) return labelFile.error();
  const IdxFile& img = imageFile.value();
  const IdxFile& lab = labelFile.value();
  if (img.dims[0] != lab.dims[0])
    return Error::badData("the images file has " + std::to_string(img.dims[0]) +
                              " images but the labels file has " + std::to_string(lab.dims[0]) +
                              " labels",
                          labelsName, 0, "header");
  if (img.dims[0] == 0)
    return Error::badData("the IDX files hold no images (the first dimension is 0)", imagesName, 0,
                          "header");
  const auto n = static_cast<Index>(img.dims[0]);
  const auto d = static_cast<Index>(img.recordElements);
  if (io::tooLargeForDense(img.dims[0], img.recordElements))
    return Error::badData("the images are too large for a dense feature matrix", imagesName, 0,
                          "header");

  Dataset data;
  data.featureNames = featureNames(img);
  resizeForFilling(data.X, n, d);
  io::ProgressTicker ticker(progress);
  bool cancelled = false;
  std::optional<std::pair<Index, Index>> nonFinite;
  switch (img.type) {
    case 0x08: nonFinite = fillFeatures<0x08>(data.X, img.data, ticker, cancelled); break;
    case 0x09: nonFinite = fillFeatures<0x09>(data.X, img.data, ticker, cancelled); break;
    case 0x0B: nonFinite = fillFeatures<0x0B>(data.X, img.data, ticker, cancelled); break;
    case 0x0C: nonFinite = fillFeatures<0x0C>(data.X, img.data, ticker, cancelled); break;
    case 0x0D: nonFinite = fillFeatures<0x0D>(data.X, img.data, ticker, cancelled); break;
    default: nonFinite = fillFeatures<0x0E>(data.X, img.data, ticker, cancelled); break;
  }
  if (cancelled) return Error::cancelled();
  if (nonFinite)
    return Error::badData("value is not finite", imagesName,
                          static_cast<long>(nonFinite->first + 1),
                          data.featureNames[static_cast<std::size_t>(nonFinite->second)]);

  io::LabelTable table;
  std::vector<int> ids(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    const double value =
        decodeAny(lab.type, lab.data + static_cast<std::size_t>(i) * lab.elementSize);
    if (!std::isfinite(value))
      return Error::badData("label is not finite", labelsName, static_cast<long>(i + 1), "data");
    ids[static_cast<std::size_t>(i)] = table.intern(labelName(value));
  }
  std::vector<int> remap;
  table.finish(data.classNames, remap);
  data.y.resize(n);
  for (Index i = 0; i < n; ++i)
    data.y[i] = remap[static_cast<std::size_t>(ids[static_cast<std::size_t>(i)])];

  data.provenance.source = imagesName;
  data.provenance.format = "idx";
  ticker.done();
  return data;
}

}  // namespace dpstudio
