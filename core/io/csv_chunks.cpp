// Pass 1 of the CSV reader over the records after the first two (csv_loader.cpp reads
// those and decides the layout). A large text without quotes is cut after line breaks into
// chunks of a fixed size, and the chunks are read on the worker pool, each into its own
// ScanPart; merging the parts in file order gives what one reader going through the text
// would: the same rows, labels, column statistics and the first error in the file. The cut
// depends on the text alone, so the result does not depend on the thread count. A text with
// quotes (a quoted cell may hold a line break) is read from start to end as before.
//
// Line numbers: a chunk's tokenizer counts from 1, and the lines it reports are moved by
// the chunk's first line once the chunks before it have said how many line breaks they held.

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "core/io/csv_parser.h"
#include "core/util/huge_pages.h"
#include "core/util/parallel.h"

namespace dpstudio::csv_detail {

namespace {

// Large enough that a chunk's set-up is noise, small enough that two cores share the work
// of a text of a few chunks evenly and that progress moves.
constexpr std::size_t kChunkBytes = std::size_t{8} << 20;

// Chunk boundaries in `text`: each chunk ends just after a '\n' (so a CRLF is never cut),
// or at the end of the text.
std::vector<std::size_t> chunkEnds(std::string_view text) {
  std::vector<std::size_t> ends;
  std::size_t begin = 0;
  while (text.size() - begin > kChunkBytes) {
    const void* found = std::memchr(text.data() + begin + kChunkBytes, '\n', text.size() - begin - kChunkBytes);
    if (!found) break;
    begin = static_cast<std::size_t>(static_cast<const char*>(found) - text.data()) + 1;
    ends.push_back(begin);
  }
  if (ends.empty() || ends.back() != text.size()) ends.push_back(text.size());
  return ends;
}

// An upper bound on the records in `text`: every record ends at a line break or at the end.
std::size_t recordBound(std::string_view text) {
  std::size_t breaks = 0;
  for (const char c : text) breaks += static_cast<std::size_t>((c == '\n') | (c == '\r'));
  return breaks + 1;
}

void shiftLines(ColumnStats& stats, long by) {
  if (stats.firstTextLine > 0) stats.firstTextLine += by;
  if (stats.firstNonFiniteLine > 0) stats.firstNonFiniteLine += by;
  if (stats.firstNumberLine > 0) stats.firstNumberLine += by;
}

}  // namespace

ScanPart CsvParser::newPart(std::size_t lineBound) const {
  ScanPart part;
  part.stats.resize(featureColumns_.size());
  const std::size_t values = lineBound * featureColumns_.size();
  part.values.reserve(values);
  adviseHugePages(part.values.data(), values * sizeof(double));
  if (label_ != kNoLabel) part.labelIds.reserve(lineBound);
  return part;
}

MaybeError CsvParser::scanRest(CsvTokenizer& tokenizer, long line) {
  if (!scanInChunks(tokenizer.position(), line))
    if (MaybeError e = scanSequentially(tokenizer)) return e;
  return mergeParts();
}

MaybeError CsvParser::scanSequentially(CsvTokenizer& tokenizer) {
  ScanPart& part = parts_.front();
  // Every record needs a line, so the line count bounds the rows: one allocation.
  const std::size_t bound = part.rows + recordBound(text_.substr(tokenizer.position()));
  part.values.reserve(bound * featureColumns_.size());
  adviseHugePages(part.values.data(), part.values.capacity() * sizeof(double));
  if (label_ != kNoLabel) part.labelIds.reserve(bound);
  CsvRecord record;
  for (std::size_t count = 1; tokenizer.next(record); ++count) {
    if (MaybeError e = scanRecord(record, part)) return e;
    if (count % 1024 == 0 && !ticker_.update(0.8 * static_cast<double>(tokenizer.position()) / text_.size()))
      return Error::cancelled();
  }
  if (tokenizer.failed()) return syntaxError(tokenizer);
  return std::nullopt;
}

bool CsvParser::scanInChunks(std::size_t from, long line) {
  const std::string_view rest = text_.substr(from);
  if (rest.size() <= kChunkBytes) return false;
  const std::vector<std::size_t> ends = chunkEnds(rest);
  const auto chunks = static_cast<Index>(ends.size());
  const auto chunkText = [&](Index c) {
    const std::size_t begin = c == 0 ? 0 : ends[static_cast<std::size_t>(c - 1)];
    return rest.substr(begin, ends[static_cast<std::size_t>(c)] - begin);
  };
  // A quote anywhere and a cut may fall inside a quoted cell: then the text is read in one piece.
  std::atomic<bool> quoted{false};
  parallelFor(chunks, [&](Index c) {
    if (!quoted.load(std::memory_order_relaxed) && chunkText(c).find('"') != std::string_view::npos) quoted = true;
  });
  if (quoted) return false;

  std::vector<ScanPart> parts(ends.size());
  std::vector<long> lineBreaks(ends.size(), 0);
  std::atomic<bool> stop{false};
  std::mutex progressLock;
  std::size_t bytesDone = from;
  parallelFor(chunks, [&](Index c) {
    if (stop.load(std::memory_order_relaxed)) return;
    const std::string_view text = chunkText(c);
    ScanPart& part = parts[static_cast<std::size_t>(c)];
    part = newPart(recordBound(text));
    CsvTokenizer tokenizer(text, delimiter_, 1);
    CsvRecord record;
    for (std::size_t count = 1; tokenizer.next(record); ++count) {
      if (MaybeError e = scanRecord(record, part)) {
        part.error = std::move(e);
        break;
      }
      if (count % 1024 == 0 && ticker_.cancelled()) {
        stop = true;
        return;
      }
    }
    if (tokenizer.failed()) part.error = syntaxError(tokenizer);
    lineBreaks[static_cast<std::size_t>(c)] = tokenizer.line() - 1;
    const std::lock_guard<std::mutex> lock(progressLock);
    bytesDone += text.size();
    if (!ticker_.update(0.8 * static_cast<double>(bytesDone) / text_.size())) stop = true;
  });
  if (stop) {
    parts_.front().error = Error::cancelled();
    return true;
  }
  // Each chunk's lines, counted from 1, become the file's: chunk c starts on `line`
  // plus the line breaks of the chunks before it.
  for (std::size_t c = 0; c < parts.size(); ++c) {
    const long shift = line - 1;
    if (parts[c].error && parts[c].error->line > 0) parts[c].error->line += shift;
    for (ColumnStats& stats : parts[c].stats) shiftLines(stats, shift);
    line += lineBreaks[c];
    const bool failed = parts[c].error.has_value();
    parts_.push_back(std::move(parts[c]));
    if (failed) break;  // the file's first error: what follows is not read on
  }
  return true;
}

MaybeError CsvParser::mergeParts() {
  stats_.assign(featureColumns_.size(), ColumnStats{});
  std::size_t totalRows = 0;
  for (const ScanPart& part : parts_) totalRows += static_cast<std::size_t>(part.rows);
  if (label_ != kNoLabel) labelIds_.reserve(totalRows);
  for (ScanPart& part : parts_) {
    if (part.error) return std::move(part.error);
    rows_ += part.rows;
    dropped_ += part.dropped;
    for (std::size_t k = 0; k < stats_.size(); ++k) {
      ColumnStats& to = stats_[k];
      const ColumnStats& from = part.stats[k];
      to.numbers += from.numbers;
      to.texts += from.texts;
      if (to.firstTextLine == 0 && from.firstTextLine > 0) {
        to.firstTextLine = from.firstTextLine;
        to.firstText = from.firstText;
      }
      if (to.firstNonFiniteLine == 0 && from.firstNonFiniteLine > 0) {
        to.firstNonFiniteLine = from.firstNonFiniteLine;
        to.firstNonFinite = from.firstNonFinite;
      }
      if (to.firstNumberLine == 0 && from.firstNumberLine > 0) {
        to.firstNumberLine = from.firstNumberLine;
        to.firstNumber = from.firstNumber;
      }
    }
    if (label_ == kNoLabel) continue;
    // The part's labels in its first-seen order: interned in file order, as one reader would.
    std::vector<int> toFile(static_cast<std::size_t>(part.labels.size()));
    for (int id = 0; id < part.labels.size(); ++id) toFile[static_cast<std::size_t>(id)] = labels_.intern(part.labels.name(id));
    for (int id : part.labelIds) labelIds_.push_back(toFile[static_cast<std::size_t>(id)]);
    std::vector<int>().swap(part.labelIds);
  }
  return std::nullopt;
}

void CsvParser::fillNumericColumns(Eigen::MatrixXd& X, const std::vector<Index>& offset) {
  const std::size_t features = featureColumns_.size();
  std::vector<Index> firstRow(parts_.size(), 0);
  for (std::size_t p = 1; p < parts_.size(); ++p) firstRow[p] = firstRow[p - 1] + parts_[p - 1].rows;
  // Row-major values to column-major matrix, a block of rows at a time so that both sides
  // stay in cache even for wide data; parts write disjoint rows.
  parallelFor(static_cast<Index>(parts_.size()), [&](Index p) {
    ScanPart& part = parts_[static_cast<std::size_t>(p)];
    constexpr Index kBlock = 64;
    for (Index r0 = 0; r0 < part.rows; r0 += kBlock) {
      const Index r1 = std::min(part.rows, r0 + kBlock);
      for (std::size_t k = 0; k < features; ++k) {
        if (categorical_[k]) continue;
        double* column = X.col(offset[k]).data() + firstRow[static_cast<std::size_t>(p)];
        const double* in = part.values.data() + static_cast<std::size_t>(r0) * features + k;
        for (Index r = r0; r < r1; ++r, in += features) column[r] = *in;
      }
    }
    std::vector<double>().swap(part.values);
  });
}

}  // namespace dpstudio::csv_detail
