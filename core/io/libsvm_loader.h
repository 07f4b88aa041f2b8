#pragma once
// LIBSVM / SVMlight sparse text → dense Dataset, without touching the file system.
//
// Each data line is `label index:value index:value ...` with 1-based integer indices in
// any order; '#' starts a comment (a whole line or the rest of one); blank lines and
// trailing spaces are fine. The feature count is options.libsvmFeatures when set (a test
// file must be read with its training file's count), else the largest index present.
// Class names are the label strings, ordered numerically. Feature names are "f1".."fd".
//
// Errors are BadData with source = sourceName and the 1-based line. Their field is
// "label" for the label, "field N" (1-based token position on the line, the label being
// field 1) when a token is not index:value or its index is not a positive integer, and
// "feature I" when the value of feature I is wrong, repeated, or I exceeds the count.

#include <string>
#include <string_view>

#include "core/io/loader.h"

namespace dpstudio {

Result<Dataset> parseLibSvm(std::string_view text, const LoadOptions& options,
                            const std::string& sourceName, const Progress& progress = {});

}  // namespace dpstudio
