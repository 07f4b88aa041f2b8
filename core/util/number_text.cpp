#include "core/util/number_text.h"

#include <cstdio>

namespace dpstudio {

std::string significantDigits(double value, int digits) {
  char buffer[40];  // %.17g of a double needs at most 24 characters
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

}  // namespace dpstudio
