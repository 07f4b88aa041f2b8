#pragma once
// What reading a data file will take in memory, known before it is read: a person loading
// a file of gigabytes is told what it costs (the CLI prints it), and a file that cannot fit
// is refused with the numbers instead of exhausting the machine's memory.
//
// The estimate reads at most the file's first 256 KiB (and its last four bytes, for a gzip
// file's decompressed size) and extrapolates from the first MiB of text:
// - IDX: exact, from the header's dimensions (one value per pixel);
// - CSV: cells per byte of the sampled lines, times the text's size, less the label column;
// - LIBSVM: rows and stored values per byte sampled, the dense width from --features or the
//   largest index sampled (a later, larger index widens the matrix: an underestimate).
// The readers' peak is the text, the parsed values, and the dense feature matrix they fill
// (CSV: a row-major buffer and the matrix; LIBSVM: 16-byte triplets and the matrix).
// Measured: a 2 GB CSV of 4.4 million rows × 50 numbers peaks at 5.5 GB; estimated 5.6 GB.

#include <cstdint>
#include <optional>
#include <string>

#include "core/io/loader.h"
#include "core/util/result.h"

namespace dpstudio {

struct LoadEstimate {
  DataFormat format = DataFormat::Auto;
  std::uint64_t textBytes = 0;    // the content after decompression
  std::uint64_t values = 0;       // numbers in the dense feature matrix
  std::uint64_t peakBytes = 0;    // the reader's peak, as above
  std::uint64_t leastBytes = 0;   // the text and one copy of the values: below this nothing reads
  bool exact = false;             // IDX: from the header, not extrapolated
  bool sampledWhole = false;      // the whole text was in the sample: the reader's own exact
                                  // limits then say more than this estimate can
};

// Errors: the file cannot be opened or read (BadData naming it). A file whose start the
// estimate cannot make sense of gets a rough estimate (text + 8 bytes a byte at most), not
// an error: the reader reports what is wrong with it.
Result<LoadEstimate> estimateLoad(const std::string& path, const LoadOptions& options = {});

// The memory the system could give this process now (Linux: MemAvailable), if known.
std::optional<std::uint64_t> availableMemoryBytes();

// Ok when the estimate's least need fits in `available`; otherwise BadData naming the file:
// "reading it needs at least 9.1 GB of memory (text 4.0 GB, values 5.1 GB); 3.2 GB are
// available". Nothing is refused when `available` is unknown.
Status checkLoadFits(const LoadEstimate& estimate, std::optional<std::uint64_t> available,
                     const std::string& path);

// "5.5 GB", "812 MB", "4.0 kB": decimal units, as file managers show sizes.
std::string byteSizeText(std::uint64_t bytes);

}  // namespace dpstudio
