#pragma once
// Helpers shared by the test suites: fixture paths, the real-data folder, and a
// relative-tolerance comparison for numbers.

#include <QStringList>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::test {

// The value of a result a test cannot go on without; a failure stops the test executable
// with the error's message.
template <class T>
T orDie(Result<T> result) {
  if (!result) qFatal("%s", result.error().toString().c_str());
  return std::move(result).value();
}

inline std::string fixture(const char* relativePath) {
  return std::string(DPSTUDIO_FIXTURES_DIR) + "/" + relativePath;
}

// The folder of the full real datasets, or empty when DPSTUDIO_DATA_DIR is unset.
inline QString realDataDir() { return qEnvironmentVariable("DPSTUDIO_DATA_DIR"); }

// Skips the calling test (with a clear reason) when the real data are not available.
#define DPSTUDIO_REQUIRE_REAL_DATA()                                                          \
  do {                                                                                        \
    if (dpstudio::test::realDataDir().isEmpty())                                              \
      QSKIP("DPSTUDIO_DATA_DIR is unset: real-data test skipped (set it to shared/data)");    \
  } while (false)

// Names (features, classes) as a QStringList, for QCOMPARE against expected lists.
inline QStringList toQStrings(const std::vector<std::string>& strings) {
  QStringList out;
  for (const std::string& s : strings) out << QString::fromStdString(s);
  return out;
}

inline bool relativelyClose(double actual, double expected, double tolerance) {
  const double scale = std::max(std::abs(expected), 1e-300);
  return std::abs(actual - expected) <= tolerance * scale;
}

#define DPSTUDIO_COMPARE_REL(actual, expected, tolerance)                                     \
  QVERIFY2(dpstudio::test::relativelyClose((actual), (expected), (tolerance)),                \
           qPrintable(QStringLiteral("%1 = %2, expected %3 (relative tolerance %4)")          \
                          .arg(#actual)                                                       \
                          .arg((actual), 0, 'g', 17)                                          \
                          .arg((expected), 0, 'g', 17)                                        \
                          .arg((tolerance))))

}  // namespace dpstudio::test
