#include "core/io/csv_tokenizer.h"

#include <algorithm>
#include <cstring>

#include "core/io/parse_util.h"

namespace dpstudio::io {

long countLineBreaks(std::string_view text) {
  long breaks = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      ++breaks;
  return breaks;
}

char detectDelimiter(std::string_view text) {
  std::size_t pos = 0;
  // A title line has no delimiter at all: the first of a few lines that has one decides.
  for (int line = 0; line < 10 && pos < text.size(); ++line) {
    // Skip blank lines, as the tokenizer does.
    for (;;) {
      std::size_t p = pos;
      while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
      if (p < text.size() && (text[p] == '\n' || text[p] == '\r')) {
        pos = p + 1;
        continue;
      }
      break;
    }
    std::size_t commas = 0, semicolons = 0, tabs = 0;
    bool inQuotes = false;
    for (; pos < text.size(); ++pos) {
      const char c = text[pos];
      if (c == '"') {
        inQuotes = !inQuotes;  // a doubled quote toggles twice: no change, as it should
      } else if (!inQuotes) {
        if (c == '\n' || c == '\r') break;
        commas += (c == ',');
        semicolons += (c == ';');
        tabs += (c == '\t');
      }
    }
    if (tabs > 0 && tabs >= semicolons && tabs >= commas) return '\t';
    if (semicolons > 0 && semicolons >= commas) return ';';
    if (commas > 0) return ',';
  }
  return ',';
}

bool CsvTokenizer::fail(std::string message, long line, std::size_t column) {
  failed_ = true;
  errorMessage_ = std::move(message);
  errorLine_ = line;
  errorColumn_ = column;
  pos_ = text_.size();
  return false;
}

void CsvTokenizer::skipLineBreak() {
  const std::size_t n = text_.size();
  if (pos_ < n && text_[pos_] == '\r') {
    ++pos_;
    if (pos_ < n && text_[pos_] == '\n') ++pos_;  // CRLF is one break
  } else if (pos_ < n && text_[pos_] == '\n') {
    ++pos_;
  }
  ++line_;
}

void CsvTokenizer::skipBlankLines() {
  for (;;) {
    std::size_t p = pos_;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
    if (p >= text_.size()) {
      pos_ = text_.size();
      return;
    }
    if (text_[p] != '\n' && text_[p] != '\r') return;
    pos_ = p;
    skipLineBreak();
  }
}

bool CsvTokenizer::readQuoted(CsvCell& cell, std::size_t column, std::string& scratch) {
  const char* s = text_.data();
  const std::size_t n = text_.size();
  ++pos_;  // the opening quote
  std::size_t segment = pos_;
  bool undoubled = false;
  std::size_t scratchStart = 0;
  for (;;) {
    const void* found = pos_ < n ? std::memchr(s + pos_, '"', n - pos_) : nullptr;
    if (!found) return fail("quoted field is not closed", cell.line, column);
    const auto quote = static_cast<std::size_t>(static_cast<const char*>(found) - s);
    line_ += countLineBreaks(text_.substr(pos_, quote - pos_));
    if (quote + 1 < n && s[quote + 1] == '"') {  // "" stands for one quote
      if (!undoubled) {
        undoubled = true;
        scratchStart = scratch.size();
      }
      scratch.append(s + segment, quote + 1 - segment);
      pos_ = quote + 2;
      segment = pos_;
      continue;
    }
    if (undoubled) {
      scratch.append(s + segment, quote - segment);
      // scratch may still grow within this record, so the view is made at its end.
      fixups_.push_back({column, scratchStart, scratch.size() - scratchStart});
    } else {
      cell.text = text_.substr(segment, quote - segment);
    }
    cell.quoted = true;
    pos_ = quote + 1;
    return true;
  }
}

bool CsvTokenizer::next(CsvRecord& record) {
  record.cells.clear();
  record.scratch.clear();
  fixups_.clear();
  if (failed_) return false;
  skipBlankLines();
  if (pos_ >= text_.size()) return false;

  const char* s = text_.data();
  const std::size_t n = text_.size();
  record.line = line_;
  for (;;) {
    CsvCell cell;
    cell.line = line_;
    const std::size_t column = record.cells.size();
    while (pos_ < n && isPadding(s[pos_])) ++pos_;
    if (pos_ < n && s[pos_] == '"') {
      if (!readQuoted(cell, column, record.scratch)) return false;
      while (pos_ < n && isPadding(s[pos_])) ++pos_;
      if (pos_ < n && s[pos_] != delimiter_ && !isLineBreak(s[pos_]))
        return fail(std::string("unexpected character '") + s[pos_] + "' after a closing quote",
                    line_, column);
    } else {
      const std::size_t start = pos_;
      while (pos_ < n && !endsCell_[static_cast<unsigned char>(s[pos_])]) ++pos_;
      cell.text = text_.substr(start, pos_ - start);
      // Leading padding is skipped above; trailing is rare, and checked before trimming.
      if (!cell.text.empty() && (cell.text.back() == ' ' || cell.text.back() == '\t' || cell.text.back() == '\r'))
        cell.text = trimSpaces(cell.text);
    }
    record.cells.push_back(cell);
    if (pos_ >= n) break;
    if (s[pos_] == delimiter_) {
      ++pos_;
      continue;  // also at the very end: "a,b," has an empty third cell
    }
    skipLineBreak();
    break;
  }
  for (const Fixup& f : fixups_)
    record.cells[f.cell].text = std::string_view(record.scratch).substr(f.offset, f.length);
  return true;
}

}  // namespace dpstudio::io
