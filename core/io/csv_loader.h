#pragma once
// CSV text → Dataset, without touching the file system (the loader reads and gunzips).
//
// - A UTF-8 byte-order mark is skipped; CRLF, LF and a lone CR all end lines (mixed too);
//   quoted fields follow RFC 4180. Blank lines are skipped. Line numbers are 1-based
//   physical lines, counting the options.skipRows lines skipped first.
// - Delimiter: options.delimiter, else detected among ',', ';', '\t' (csv_tokenizer.h).
// - Header: options.hasHeader, else ("auto") present when some cell of the first row is
//   not a number while the second row has a number in that column (or, for a file of one
//   row, when every cell of it is text); a warning when fewer than half of its cells are
//   such text. Auto refuses a first row whose field count differs from the next row's
//   (a title line: skip it), except a scikit-learn metadata line "n,d,name0,name1,…",
//   which is skipped (its names become the class names when the labels are 0..k-1).
//   What was chosen, and why, is in provenance.csv.
// - Label column: options.labelColumn as a header name or a 1-based column number
//   (negative counts from the end); the last column by default. Class names are the
//   distinct label strings, ordered numerically when all are numbers, else by bytes.
// - Features: a column is numeric when most of its cells are numbers; then every cell
//   must be a finite number. Otherwise it is categorical and one-hot encoded as features
//   "name=value" in byte order of the values.
// - Missing values ("", NA, N/A, ?, null; any case) are errors, or drop their row under
//   MissingPolicy::DropRows (recorded in provenance.steps).
// - Errors: BadData with source = sourceName, the line and, for a cell, the column's
//   header name (or "column K", 1-based, without a header) as field.

#include <string>
#include <string_view>

#include "core/io/loader.h"

namespace dpstudio {

Result<Dataset> parseCsv(std::string_view text, const LoadOptions& options,
                         const std::string& sourceName, const Progress& progress = {});

}  // namespace dpstudio
