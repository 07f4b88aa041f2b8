// The readers' fast paths (issue 36) against what they replace: gzip inflated whole by
// libdeflate or streamed by zlib gives the same bytes and names every damage as before; IDX
// converted in row chunks on the worker pool gives the file's values and its first non-finite
// one in row order.

#include <QFile>
#include <QTest>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "core/io/gzip.h"
#include "core/io/idx_loader.h"
#include "core/io/parse_util.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

class TestIoFastPaths : public QObject {
  Q_OBJECT

 private slots:
  void inflatePathsAgreeAndDamageIsNamed();
  void idxChunksReadInOrder();
  void plainDecimalsReadAsFromChars();
};

// The whole-buffer path (libdeflate) where the trailer tells the size, the streaming one
// (zlib) otherwise: the same bytes either way, and every damage still named as before.
void TestIoFastPaths::inflatePathsAgreeAndDamageIsNamed() {
  QFile file(QString::fromStdString(test::fixture("mnist/train100-images-idx3-ubyte.gz")));
  QVERIFY(file.open(QIODevice::ReadOnly));
  const std::string bytes = file.readAll().toStdString();
  const auto plain = inflateGzip(bytes, "a.gz");
  QVERIFY(plain.ok());
  QCOMPARE(plain.value().size(), std::size_t{16 + 100 * 784});
  const auto withTrailerSize = [&bytes](std::uint32_t size) {
    std::string out = bytes;
    for (int k = 0; k < 4; ++k) out[out.size() - 4 + k] = static_cast<char>((size >> (8 * k)) & 0xff);
    return out;
  };
  // A trailer that lies about the size is corrupt data, named by zlib whichever path saw it
  // first; zero padding and a second member read as before.
  for (const std::uint32_t wrong : {std::uint32_t{16 + 100 * 784 - 1}, std::uint32_t{16 + 100 * 784 + 5}}) {
    const auto lied = inflateGzip(withTrailerSize(wrong), "lied.gz");
    QVERIFY(!lied.ok());
    QVERIFY2(QString::fromStdString(lied.error().message).startsWith(QStringLiteral("corrupt gzip data")),
             lied.error().message.c_str());
  }
  const auto padded = inflateGzip(bytes + std::string(10, '\0'), "padded.gz");
  QVERIFY(padded.ok() && padded.value() == plain.value());
  const auto twice = inflateGzip(bytes + bytes, "twice.gz");
  QVERIFY(twice.ok() && twice.value() == plain.value() + plain.value());
  // A damaged checksum: corrupt, named as zlib names it.
  std::string damaged = bytes;
  damaged[damaged.size() - 8] = static_cast<char>(damaged[damaged.size() - 8] ^ 0x5a);
  const auto corrupt = inflateGzip(damaged, "damaged.gz");
  QVERIFY(!corrupt.ok());
  QVERIFY2(QString::fromStdString(corrupt.error().message).startsWith(QStringLiteral("corrupt gzip data")),
           corrupt.error().message.c_str());
  // Cut short: truncated, as before.
  const auto cut = inflateGzip(std::string_view(bytes).substr(0, bytes.size() / 2), "cut.gz");
  QVERIFY(!cut.ok());
  QVERIFY(QString::fromStdString(cut.error().message).contains(QStringLiteral("truncated")));
}

// IDX is converted in row chunks on the worker pool: the same values as the file's, and
// the first non-finite value (in row order) named, whichever chunk finishes first.
void TestIoFastPaths::idxChunksReadInOrder() {
  constexpr std::uint32_t n = 5000, side = 3;
  const auto bigEndian = [](std::string& out, std::uint32_t v) {
    for (int k = 3; k >= 0; --k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  };
  std::string images, labels;
  bigEndian(images, 0x00000D03);  // float32, 3 dimensions
  for (std::uint32_t dim : {n, side, side}) bigEndian(images, dim);
  bigEndian(labels, 0x00000801);
  bigEndian(labels, n);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = 0; j < side * side; ++j) {
      const float value = static_cast<float>(i) + 0.125f * static_cast<float>(j);
      std::uint32_t bits;
      std::memcpy(&bits, &value, 4);
      bigEndian(images, bits);
    }
    labels.push_back(static_cast<char>(i % 3));
  }
  const auto read = parseIdx(images, "f.idx", labels, "l.idx");
  QVERIFY(read.ok());
  QCOMPARE(read.value().X(4321, 5), 4321 + 0.625);
  QCOMPARE(read.value().y[4999], 4999 % 3);
  // NaN in rows 4800 and 2500 (two chunks apart): row 2501 is named.
  const auto putNaN = [&images](std::uint32_t row, std::uint32_t column) {
    const std::size_t at = 16 + (static_cast<std::size_t>(row) * side * side + column) * 4;
    images[at] = 0x7f;
    images[at + 1] = static_cast<char>(0xc0);
  };
  putNaN(4800, 0);
  putNaN(2500, 7);
  const auto refused = parseIdx(images, "f.idx", labels, "l.idx");
  QVERIFY(!refused.ok());
  QCOMPARE(refused.error().line, 2501L);
  QVERIFY(refused.error().message.find("not finite") != std::string::npos);
}

// parseNumber reads plain decimals itself (Clinger's fast path) and leaves the rest to
// std::from_chars: the same bits as from_chars for every text, at the edges of the fast
// path (2^53, 22 digits after the point, signs, zeros) and for random decimals.
void TestIoFastPaths::plainDecimalsReadAsFromChars() {
  const auto expectSame = [](const std::string& text) {
    double fromChars = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), fromChars);
    const bool whole = ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(fromChars);
    double ours = 0;
    const io::NumberKind kind = io::parseNumber(text, ours);
    if (!whole && text.front() != '+') {
      QVERIFY2(kind != io::NumberKind::Number, text.c_str());
      return;
    }
    if (text.front() == '+') return;  // from_chars refuses '+', which parseNumber accepts
    QVERIFY2(kind == io::NumberKind::Number, text.c_str());
    QVERIFY2(std::memcmp(&ours, &fromChars, sizeof ours) == 0, text.c_str());  // -0 too
  };
  for (const char* text : {"0", "-0", "-0.0", "0.000000", "12", "-12.5", "00012.3400", "9007199254740991",
                           "9007199254740992", "9007199254740993", "900719925474099.3", "0.9007199254740993",
                           "1.0000000000000000000001", "0.1234567890123456789012", "0.12345678901234567890123",
                           "1e5", "1.5E-3", ".5", "5.", "-.5", "-", ".", "1.2.3", "--1", "1-", "0x10", "nan",
                           "inf", "1 ", "4503599627370497.5", "+3.25", "0.30000000000000004"})
    expectSame(text);
  std::mt19937_64 engine(36);
  std::uniform_int_distribution<int> digits(1, 19), point(0, 23), sign(0, 1), digit(0, 9);
  for (int trial = 0; trial < 200000; ++trial) {
    std::string text = sign(engine) ? "-" : "";
    const int count = digits(engine);
    const int at = point(engine);  // a point after `at` digits, if inside
    for (int k = 0; k < count; ++k) {
      if (k == at && k > 0) text += '.';
      text += static_cast<char>('0' + digit(engine));
    }
    expectSame(text);
    if (QTest::currentTestFailed()) return;
  }
}

QTEST_GUILESS_MAIN(TestIoFastPaths)
#include "test_io_fast_paths.moc"
