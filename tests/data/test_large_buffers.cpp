// Large buffers: huge-page advice (core/util/huge_pages.h) and the column-wise row gather of
// Dataset::subset, which the readers and splits use on matrices of hundreds of megabytes.

#include <QFile>
#include <QTest>

#include <cstdint>
#include <random>
#include <vector>

#include "core/data/dataset.h"
#include "core/util/huge_pages.h"

using namespace dpstudio;

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DPSTUDIO_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPSTUDIO_SANITIZED_ALLOCATOR 1
#endif

namespace {

// The kernel's transparent-huge-page mode ("always", "madvise" or "never"), empty if unknown.
QByteArray thpMode() {
  QFile file("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QByteArray text = file.readAll();
  const int open = text.indexOf('['), close = text.indexOf(']');
  return open >= 0 && close > open ? text.mid(open + 1, close - open - 1) : QByteArray();
}

// AnonHugePages (kB) of the mapping that holds `address`, from /proc/self/smaps.
long hugeKilobytesAt(const void* address) {
  QFile file("/proc/self/smaps");
  if (!file.open(QIODevice::ReadOnly)) return -1;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  bool inside = false;
  for (const QByteArray& line : file.readAll().split('\n')) {
    const int dash = line.indexOf('-');
    const int space = line.indexOf(' ');
    if (dash > 0 && space > dash) {  // a mapping's first line: "begin-end perms ..."
      bool okBegin = false, okEnd = false;
      const auto begin = line.left(dash).toULongLong(&okBegin, 16);
      const auto end = line.mid(dash + 1, space - dash - 1).toULongLong(&okEnd, 16);
      if (okBegin && okEnd) {
        inside = at >= begin && at < end;
        continue;
      }
    }
    if (inside && line.startsWith("AnonHugePages:")) return line.mid(14).trimmed().split(' ').front().toLong();
  }
  return -1;
}

}  // namespace

class TestLargeBuffers : public QObject {
  Q_OBJECT

 private slots:
  void subsetGathersTheRowsInTheGivenOrder() {
    std::mt19937 engine(7);
    std::normal_distribution<double> normal;
    Dataset data;
    data.X.resize(301, 7);
    for (Index k = 0; k < data.X.size(); ++k) data.X.data()[k] = normal(engine);
    data.y.resize(301);
    for (Index i = 0; i < 301; ++i) data.y[i] = static_cast<int>(i % 3);
    data.classNames = {"a", "b", "c"};
    const std::vector<Index> rows{300, 0, 17, 17, 150, 2};  // out of order, one twice
    const Dataset part = data.subset(rows);
    QCOMPARE(part.X.rows(), Index{6});
    QCOMPARE(part.X.cols(), Index{7});
    for (Index k = 0; k < 6; ++k) {
      QVERIFY(part.X.row(k) == data.X.row(rows[static_cast<std::size_t>(k)]));
      QCOMPARE(part.y[k], data.y[rows[static_cast<std::size_t>(k)]]);
    }
    QCOMPARE(part.classNames, data.classNames);
    QCOMPARE(data.subset({}).X.rows(), Index{0});
  }

  void adviceIsHarmlessWhereItCannotApply() {
    adviseHugePages(nullptr, std::size_t{64} << 20);
    std::vector<char> small(1000, 'x');
    adviseHugePages(small.data(), small.size());
    std::vector<char> odd((std::size_t{5} << 20) + 3, 'y');  // touched already, not aligned
    adviseHugePages(odd.data() + 1, odd.size() - 1);
    QCOMPARE(small.back(), 'x');
    QCOMPARE(odd[odd.size() / 2], 'y');
  }

  void aMatrixAboutToBeFilledGetsHugePages() {
    Eigen::MatrixXd X;
    resizeForFilling(X, 5000, 1000);  // 40 MB
    QCOMPARE(X.rows(), Index{5000});
    QCOMPARE(X.cols(), Index{1000});
    X.setConstant(1.5);
    QCOMPARE(X.sum(), 1.5 * 5000 * 1000);
    resizeForFilling(X, 1000, 5000);  // the same storage, reshaped
    QCOMPARE(X.rows(), Index{1000});
#if defined(DPSTUDIO_SANITIZED_ALLOCATOR)
    QSKIP("the sanitizers' allocators place memory themselves");
#elif defined(__linux__)
    const QByteArray mode = thpMode();
    if (mode != "always" && mode != "madvise") QSKIP("transparent huge pages are off on this machine");
    // The kernel may fall back to small pages when memory is fragmented, so this asks only
    // that some of the 40 MB came as 2 MiB pages — none would mean the advice was not given.
    const long huge = hugeKilobytesAt(X.data() + X.size() / 2);
    QVERIFY2(huge > 0, qPrintable(QString("AnonHugePages = %1 kB in the matrix's mapping").arg(huge)));
#endif
  }
};

QTEST_GUILESS_MAIN(TestLargeBuffers)
#include "test_large_buffers.moc"
