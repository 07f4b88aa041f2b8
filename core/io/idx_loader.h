#pragma once
// IDX (the MNIST format) → Dataset: an images file and its labels file, both already
// read (and gunzipped) by the caller.
//
// An IDX file is a big-endian header — two zero bytes, an element type (0x08 unsigned
// byte, 0x09 signed byte, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64), the number
// of dimensions, then one uint32 per dimension — followed by the elements in row-major
// order. Images: n × d1 × d2 … (MNIST: magic 0x00000803, n × 28 × 28) become n rows of
// d1·d2·… features, values kept raw (0..255 for MNIST), named "px_R_C" (0-based) for
// images of two dimensions, "x1".."xd" otherwise. Labels: one dimension of n (MNIST:
// magic 0x00000801); class names are the distinct label values, ordered numerically.
//
// Errors are BadData naming the file; field "magic", "header" or "data"; line is the
// 1-based record (image) number where one is meaningful (truncated data, non-finite
// value), else 0.

#include <string>
#include <string_view>

#include "core/data/dataset.h"
#include "core/util/progress.h"
#include "core/util/result.h"

namespace dpstudio {

// True when `bytes` start like an IDX file: two zero bytes, a known element type, and
// one to eight dimensions. Text never starts with two NUL bytes.
bool looksLikeIdx(std::string_view bytes);

Result<Dataset> parseIdx(std::string_view images, const std::string& imagesName,
                         std::string_view labels, const std::string& labelsName,
                         const Progress& progress = {});

}  // namespace dpstudio
