// The CSV reader's chunks (issue 36): a text larger than a chunk and free of quotes is read in
// pieces on the worker pool, one with a quote in one piece. Both must give the same dataset,
// and the same first error with the same line, wherever in the file it is.

#include <QTest>

#include <string>

#include "core/io/csv_loader.h"
#include "core/util/parallel.h"

using namespace dpstudio;

namespace {

constexpr int kRows = 240000;  // about 20 MB: several chunks
constexpr int kNumeric = 11;

// An exact value for row i, column j (eighths print and parse exactly).
double valueAt(int i, int j) { return ((i * 7 + j * 13) % 1000) / 8.0 - 40.0; }

// Header, then kRows rows of 11 numbers, a colour (categorical) and a label c0/c1/c2; CRLF
// line ends and a blank line every 50 000 rows. `edit(i, row)` may change row i's text.
template <class Edit>
std::string makeText(Edit edit) {
  std::string text;
  text.reserve(std::size_t{kRows} * 90);
  // Appended piece by piece: GCC 12 warns falsely about "x" + std::to_string(…) (bug 105651).
  for (int j = 0; j < kNumeric; ++j) {
    text += 'x';
    text += std::to_string(j + 1);
    text += ',';
  }
  text += "colour,label\r\n";
  static const char* const kColours[] = {"red", "green", "blue"};
  char cell[32];
  for (int i = 0; i < kRows; ++i) {
    std::string row;
    for (int j = 0; j < kNumeric; ++j) {
      std::snprintf(cell, sizeof cell, "%.3f,", valueAt(i, j));
      row += cell;
    }
    row += kColours[(i / 7) % 3];
    row += ",c";
    row += std::to_string(i % 3);
    edit(i, row);
    text += row + "\r\n";
    if (i % 50000 == 49999) text += "\r\n";
  }
  return text;
}

// The line a data row i is on: the header is line 1, and each blank line moves the rest.
long lineOf(int i) { return 2 + i + i / 50000; }

// The same text with the last row's label quoted ("c0" reads as c0): a quote keeps the reader
// from cutting the text, so it is read in one piece.
std::string inOnePiece(const std::string& text) {
  const std::size_t label = text.rfind(",c") + 1;
  const std::size_t end = text.find('\r', label);
  return text.substr(0, label) + '"' + text.substr(label, end - label) + '"' + text.substr(end);
}

Result<Dataset> read(const std::string& text, MissingPolicy missing = MissingPolicy::Reject) {
  LoadOptions options;
  options.missing = missing;
  return parseCsv(text, options, "chunks.csv");
}

}  // namespace

class TestIoCsvChunks : public QObject {
  Q_OBJECT

 private slots:
  void chunksReadAsOnePiece() {
    // Some rows miss a value, dropped: in the first chunk, a middle one and the last.
    const auto edit = [](int i, std::string& row) {
      if (i == 3 || i == 120001 || i == kRows - 2) row.replace(0, row.find(','), "NA");
    };
    const std::string text = makeText(edit);
    const auto chunked = read(text, MissingPolicy::DropRows);
    QVERIFY2(chunked.ok(), chunked.ok() ? "" : chunked.error().toString().c_str());
    const Dataset& a = chunked.value();
    QCOMPARE(a.rows(), Index{kRows - 3});
    QCOMPARE(a.features(), Index{kNumeric + 3});  // three colours, one-hot
    QCOMPARE(a.classNames, (std::vector<std::string>{"c0", "c1", "c2"}));
    // Rows after a dropped one move up; check either side of each.
    const auto fileRow = [](Index r) { return static_cast<int>(r) + (r >= 3) + (r >= 120000) + (r >= kRows - 4); };
    for (Index r : {Index{0}, Index{2}, Index{3}, Index{119999}, Index{120000}, Index{kRows - 4}, a.rows() - 1}) {
      const int i = fileRow(r);
      for (int j = 0; j < kNumeric; ++j) QCOMPARE(a.X(r, j), valueAt(i, j));
      QCOMPARE(a.y[r], i % 3);
    }

    for (int threads : {1, 2}) {  // the same bits whatever the threads
      const ScopedWorkerThreads scope(threads);
      const auto again = read(text, MissingPolicy::DropRows);
      QVERIFY(again.ok());
      QVERIFY(again.value().X == a.X);
    }
    const auto whole = read(inOnePiece(text), MissingPolicy::DropRows);
    QVERIFY2(whole.ok(), whole.ok() ? "" : whole.error().toString().c_str());
    const Dataset& b = whole.value();
    QVERIFY(b.X == a.X);
    QVERIFY(b.y == a.y);
    QCOMPARE(b.classNames, a.classNames);
    QCOMPARE(b.featureNames, a.featureNames);
    QCOMPARE(b.provenance.steps, a.provenance.steps);
    QVERIFY(a.provenance.steps.front().find("dropped 3 rows") != std::string::npos);
  }

  void theFirstErrorInTheFileWithItsLine_data() {
    QTest::addColumn<int>("shortRow");    // a row missing a cell (-1: none)
    QTest::addColumn<int>("missingRow");  // a row with NA (-1: none)
    QTest::addColumn<int>("textRow");     // a word in a numeric column (-1: none)
    QTest::addColumn<int>("expectedRow");
    QTest::addColumn<QString>("expectedMessage");
    QTest::newRow("short row, later chunk") << 200001 << -1 << -1 << 200001 << "expected 13 cells";
    QTest::newRow("missing before short") << 200001 << 150000 << -1 << 150000 << "missing value";
    QTest::newRow("short in the first chunk") << 5 << 150000 << -1 << 5 << "expected 13 cells";
    // A word in a numeric column is found after the whole file is read: its line still counts.
    QTest::newRow("word in a numeric column") << -1 << -1 << 180000 << 180000 << "non-numeric value 'oops'";
    QTest::newRow("short row after a word") << 230000 << -1 << 180000 << 230000 << "expected 13 cells";
  }

  void theFirstErrorInTheFileWithItsLine() {
    QFETCH(int, shortRow);
    QFETCH(int, missingRow);
    QFETCH(int, textRow);
    QFETCH(int, expectedRow);
    QFETCH(QString, expectedMessage);
    const std::string text = makeText([&](int i, std::string& row) {
      if (i == shortRow) row.erase(0, row.find(',') + 1);
      if (i == missingRow) row.replace(0, row.find(','), "NA");
      if (i == textRow) row.replace(0, row.find(','), "oops");
    });
    for (const std::string& version : {text, inOnePiece(text)}) {
      const auto result = read(version);
      QVERIFY(!result.ok());
      QCOMPARE(result.error().line, lineOf(expectedRow));
      QVERIFY2(result.error().message.find(expectedMessage.toStdString()) != std::string::npos,
               result.error().toString().c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestIoCsvChunks)
#include "test_io_csv_chunks.moc"
