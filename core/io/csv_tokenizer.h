#pragma once
// Splitting CSV text into records and cells (RFC 4180): quoted fields may hold the
// delimiter, doubled quotes and line breaks; CRLF, LF and a lone CR (old Mac files, such as
// a published copy of spambase) each end a record, mixed too; blank lines are skipped. Cells are views into the text, so no string is allocated per cell.
// Internal to core/io.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dpstudio::io {

struct CsvCell {
  std::string_view text;  // unquoted: without surrounding spaces; quoted: the content, "" undoubled
  long line = 0;          // 1-based physical line on which the cell starts
  bool quoted = false;
};

// Cells may point into `scratch` (quoted text with doubled quotes), so a record is
// filled in place and never copied or moved while its cells are in use.
struct CsvRecord {
  std::vector<CsvCell> cells;
  long line = 0;        // 1-based physical line on which the record starts
  std::string scratch;  // undoubled text of quoted cells that contained ""
};

inline bool isLineBreak(char c) { return c == '\n' || c == '\r'; }
// Line breaks in `text`: "\r\n", "\n" and a lone "\r" count one each.
long countLineBreaks(std::string_view text);

// The delimiter of the first non-blank record that has one (a title line has none; ten
// lines are looked at): whichever of ',', ';' and '\t' occurs most often outside quotes. Ties go to '\t', then ';' (decimal commas inflate the count of
// ','); ',' when none occurs.
char detectDelimiter(std::string_view text);

class CsvTokenizer {
 public:
  // firstLine: the physical line number of the text's first line (lines skipped before).
  CsvTokenizer(std::string_view text, char delimiter, long firstLine = 1)
      : text_(text), delimiter_(delimiter), line_(firstLine) {
    endsCell_[static_cast<unsigned char>(delimiter)] = endsCell_['\n'] = endsCell_['\r'] = true;
  }

  // Reads the next non-blank record into `record`, whose cells stay valid until it is
  // read into again.
  // Returns false at the end of the text, or on a syntax error (then failed() is true).
  bool next(CsvRecord& record);

  bool failed() const { return failed_; }
  const std::string& errorMessage() const { return errorMessage_; }
  long errorLine() const { return errorLine_; }
  std::size_t errorColumn() const { return errorColumn_; }  // 0-based cell index

  std::size_t position() const { return pos_; }  // bytes consumed so far
  long line() const { return line_; }              // the physical line at position()

 private:
  struct Fixup {  // a quoted cell whose undoubled text lives in the record's scratch
    std::size_t cell, offset, length;
  };

  void skipBlankLines();
  bool readQuoted(CsvCell& cell, std::size_t column, std::string& scratch);
  bool fail(std::string message, long line, std::size_t column);
  bool isPadding(char c) const { return c == ' ' || (c == '\t' && delimiter_ != '\t'); }
  // Past the line break at pos_ ("\r\n", "\n" or "\r"), counting one line.
  void skipLineBreak();

  std::string_view text_;
  char delimiter_;
  std::array<bool, 256> endsCell_{};  // the delimiter and the line breaks end an unquoted cell
  std::size_t pos_ = 0;
  long line_ = 1;
  std::vector<Fixup> fixups_;
  bool failed_ = false;
  std::string errorMessage_;
  long errorLine_ = 0;
  std::size_t errorColumn_ = 0;
};

}  // namespace dpstudio::io
