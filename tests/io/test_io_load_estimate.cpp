// The memory estimate made before a file is read (core/io/load_estimate.h, issues 14 and
// 15): exact for IDX, within a few percent for CSV and LIBSVM files larger than the sample
// it extrapolates from, and a refusal that names the file and the numbers when the least
// a reader needs exceeds what the machine has.

#include <QByteArray>
#include <QIODevice>
#include <QTest>

#include <QFile>
#include <QTemporaryDir>

#include "core/io/load_estimate.h"
#include "core/io/loader.h"
#include "tests/common/test_files.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

using dpstudio::test::writeFile;

// Rows of varying widths of text ("0.5", "12.25", …), so that the sample's bytes per cell
// are an average, not a constant.
QByteArray csvRows(int rows, int features) {
  QByteArray text;
  for (int f = 0; f < features; ++f) text += "f" + QByteArray::number(f) + ",";
  text += "label\n";
  for (int i = 0; i < rows; ++i) {
    for (int f = 0; f < features; ++f) text += QByteArray::number(((i * 7 + f * 13) % 1000) / 8.0) + ",";
    text += QByteArray::number(i % 3) + "\n";
  }
  return text;
}

}  // namespace

class TestIoLoadEstimate : public QObject {
  Q_OBJECT

 private slots:
  void idxIsExact() {
    const auto estimate = estimateLoad(test::fixture("mnist/train100-images-idx3-ubyte.gz"));
    QVERIFY(estimate.ok());
    QCOMPARE(estimate.value().format, DataFormat::Idx);
    QVERIFY(estimate.value().exact);
    QVERIFY(estimate.value().sampledWhole);  // 78 kB of pixels: the reader's own limits apply
    QCOMPARE(estimate.value().values, std::uint64_t{100 * 28 * 28});
    QCOMPARE(estimate.value().textBytes, std::uint64_t{16 + 100 * 28 * 28});  // from the gzip trailer
    QCOMPARE(estimate.value().leastBytes, estimate.value().textBytes + 8 * estimate.value().values);
  }

  // 60 000 rows: the text (~2.5 MB) is larger than the 1 MiB sample, so the values are
  // extrapolated.
  void csvIsExtrapolatedFromItsStart() {
    QTemporaryDir dir;
    const QByteArray text = csvRows(60000, 8);
    const QString plain = writeFile(dir, QStringLiteral("rows.csv"), text);
    const auto estimate = estimateLoad(plain.toStdString());
    QVERIFY(estimate.ok());
    QCOMPARE(estimate.value().format, DataFormat::Csv);
    QVERIFY(!estimate.value().exact);
    QVERIFY(!estimate.value().sampledWhole);
    QCOMPARE(estimate.value().textBytes, static_cast<std::uint64_t>(text.size()));
    const double truth = 60000.0 * 8;
    QVERIFY2(std::abs(static_cast<double>(estimate.value().values) / truth - 1) < 0.05,
             qPrintable(QString::number(estimate.value().values)));
    // The reader's row-major buffer and the matrix: two copies of the values at its peak.
    QCOMPARE(estimate.value().peakBytes, estimate.value().textBytes + 16 * estimate.value().values);
    // The estimate is of the reader: the file reads, with the rows the estimate assumed.
    const auto loaded = loadDatasetFile(plain.toStdString());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.value().rows(), Index{60000});
  }

  void libsvmCountsRowsAndTheWidestIndex() {
    QTemporaryDir dir;
    QByteArray text;
    for (int i = 0; i < 40000; ++i)
      text += QByteArray::number(i % 2 ? 1 : -1) + " 3:0.5 17:1 " + QByteArray::number(20 + i % 5) + ":0.25\n";
    const QString path = writeFile(dir, QStringLiteral("rows.libsvm"), text);
    auto estimate = estimateLoad(path.toStdString());
    QVERIFY(estimate.ok());
    QCOMPARE(estimate.value().format, DataFormat::LibSvm);
    const double truth = 40000.0 * 24;  // dense width: the largest index, 24
    QVERIFY2(std::abs(static_cast<double>(estimate.value().values) / truth - 1) < 0.05,
             qPrintable(QString::number(estimate.value().values)));
    // A declared dimension is the width.
    LoadOptions declared;
    declared.libsvmFeatures = 123;
    estimate = estimateLoad(path.toStdString(), declared);
    QVERIFY(std::abs(static_cast<double>(estimate.value().values) / (40000.0 * 123) - 1) < 0.05);
  }

  void refusalNamesTheFileAndTheNumbers() {
    LoadEstimate estimate;
    estimate.textBytes = 4'000'000'000;
    estimate.values = 640'000'000;
    estimate.leastBytes = estimate.textBytes + 8 * estimate.values;
    estimate.peakBytes = estimate.leastBytes;
    const Status refused = checkLoadFits(estimate, std::uint64_t{3'200'000'000}, "big.csv");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, ErrorKind::BadData);
    QCOMPARE(refused.error().source, std::string("big.csv"));
    QCOMPARE(refused.error().message,
             std::string("reading it needs at least 9.1 GB of memory (text 4.0 GB, 640000000 values as float64 "
                         "5.1 GB), and 3.2 GB are available: use a machine with more memory, or a part of the file"));
    QVERIFY(checkLoadFits(estimate, std::uint64_t{10'000'000'000}, "big.csv").ok());
    QVERIFY(checkLoadFits(estimate, std::nullopt, "big.csv").ok());  // unknown: never refused
  }

  void missingFileIsAnErrorNamingIt() {
    const auto estimate = estimateLoad("/nonexistent/rows.csv");
    QVERIFY(!estimate.ok());
    QCOMPARE(estimate.error().source, std::string("/nonexistent/rows.csv"));
  }

  void sizesReadAsFileManagersShowThem() {
    QCOMPARE(byteSizeText(512), std::string("512 bytes"));
    QCOMPARE(byteSizeText(4'000), std::string("4.0 kB"));
    QCOMPARE(byteSizeText(423'000'000), std::string("423 MB"));
    QCOMPARE(byteSizeText(5'560'000'000), std::string("5.6 GB"));
  }

  void availableMemoryIsKnownOnLinux() {
    const auto available = availableMemoryBytes();
    QVERIFY(available.has_value());
    QVERIFY(*available > 0);
  }
};

QTEST_GUILESS_MAIN(TestIoLoadEstimate)
#include "test_io_load_estimate.moc"
