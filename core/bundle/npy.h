#pragma once
// NumPy's .npy format, version 1.0, for the one kind of array a bundle holds: little-endian
// float64 ('<f8'), C order, one or two dimensions. The writer produces exactly what
// numpy.save writes for such an array; the reader accepts nothing else and says what it
// found instead ("dtype '<f4' is not '<f8'"), so a bundle from another tool is refused
// rather than misread.
//
// Format (numpy.lib.format): the magic "\x93NUMPY", version bytes 1 0, a little-endian
// uint16 header length, an ASCII Python dict literal
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n' so that the data start at a multiple of 64 bytes,
// then the values in C order (row after row).

#include <QByteArray>

#include <string>

#include <Eigen/Core>

#include "core/util/result.h"

namespace dpstudio::bundle {

struct NpyArray {
  Eigen::MatrixXd values;     // a 1-D array of n values is n × 1
  bool oneDimensional = false;

  // (n) or (rows, cols), as NumPy writes it: "(5,)", "(3, 4)".
  std::string shapeText() const;
  bool operator==(const NpyArray& other) const;  // same shape, bit-identical values
};

QByteArray writeNpy(const NpyArray& array);

// Errors are ErrorKind::BadBundle with `member` as the error's source and a message naming
// the problem: bad magic, version, header, dtype, order, shape, or a data size that does
// not match the shape. Values are not checked here (non-finite values are the caller's call).
Result<NpyArray> readNpy(const QByteArray& bytes, const std::string& member);

}  // namespace dpstudio::bundle
