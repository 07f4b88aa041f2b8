// Malformed inputs, one file each in tests/fixtures/malformed: every one must be refused
// with a BadData error that names the file, the exact line (or record) and the column or
// field, never a crash and never a half-loaded dataset.

#include <QDir>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <string>

#include "core/io/loader.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

std::string malformed(const QString& name) {
  std::string path = test::fixture("malformed");
  if (name != ".") path += '/' + name.toStdString();
  return path;
}

// "key=value;key=value": labels=FILE, features=N, label=COLUMN, missing=drop, header=yes|no,
// dense=N (LoadOptions::maxDenseValues).
LoadOptions optionsFrom(const QString& spec) {
  LoadOptions options;
  for (const QString& item : spec.split(';', Qt::SkipEmptyParts)) {
    const QString key = item.section('=', 0, 0);
    const QString value = item.section('=', 1);
    if (key == "labels") options.labelsPath = malformed(value);
    else if (key == "features") options.libsvmFeatures = value.toLongLong();
    else if (key == "dense") options.maxDenseValues = value.toULongLong();
    else if (key == "label") options.labelColumn = value.toStdString();
    else if (key == "missing") options.missing = MissingPolicy::DropRows;
    else if (key == "header") options.hasHeader = (value == "yes");
    else qFatal("unknown option key in test row: %s", qPrintable(key));
  }
  return options;
}

}  // namespace

class TestIoMalformed : public QObject {
  Q_OBJECT

 private slots:
  void rejected_data();
  void rejected();
  void corpusIsLargeEnough();
};

void TestIoMalformed::rejected_data() {
  QTest::addColumn<QString>("file");      // in tests/fixtures/malformed
  QTest::addColumn<QString>("options");   // see optionsFrom()
  QTest::addColumn<QString>("message");   // a substring of Error::message
  QTest::addColumn<int>("line");          // exact; 0 = none
  QTest::addColumn<QString>("field");     // exact; empty = none
  QTest::addColumn<QString>("source");    // the file the error names; empty = `file`

  const auto row = [](const char* name, const char* file, const char* options,
                          const char* message, int line, const char* field,
                          const char* source = "") {
    QTest::newRow(name) << file << options << message << line << field << source;
  };
  // CSV: shape.
  row("csv ragged row, short", "csv_ragged_short.csv", "",
      "expected 3 cells (as in the header), found 2", 4, "");
  row("csv ragged row, long", "csv_ragged_long.csv", "",
      "expected 3 cells (as in the first row), found 4", 3, "");
  row("csv ragged row, tab-separated", "csv_ragged_tab.tsv", "",
      "expected 3 cells (as in the header), found 2", 4, "");
  row("csv single column", "csv_single_column.csv", "", "single column", 1, "");
  row("csv empty file", "csv_empty.csv", "", "the file is empty", 0, "");
  row("csv blank lines only", "csv_blank_lines.csv", "", "the file is empty", 0, "");
  row("csv header only", "csv_header_only.csv", "", "no data rows after the header", 1, "");
  // CSV: cell values.
  row("csv non-numeric cell", "csv_non_numeric.csv", "",
      "non-numeric value 'abc' in numeric column 'y'", 3, "y");
  row("csv non-numeric cell, semicolons", "csv_non_numeric_semicolon.csv", "",
      "non-numeric value '12abc' in numeric column 'y'", 4, "y");
  row("csv non-numeric cell, no header", "csv_non_numeric_no_header.csv", "",
      "non-numeric value 'x' in numeric column 2", 4, "column 2");
  row("csv NaN", "csv_nan.csv", "", "value is not finite", 3, "x");
  row("csv -inf", "csv_inf.csv", "", "value is not finite", 4, "y");
  row("csv overflowing number", "csv_overflow.csv", "", "value is not finite", 3, "y");
  row("csv one class only", "csv_one_class.csv", "", "only one class ('yes')", 0, "");
  // Binary data under a text name: refused at the byte, never quoted or taken for a category.
  row("csv NUL byte", "csv_nul_byte.csv", "", "a NUL byte at column 3: binary data, not CSV text", 4, "");
  row("csv NUL byte after CR and CRLF line ends", "csv_nul_byte_cr.csv", "",
      "a NUL byte at column 2: binary data", 5, "");
  // CSV: missing values.
  row("csv missing value, empty cell", "csv_missing_empty.csv", "",
      "missing value (an empty cell)", 3, "y");
  row("csv missing value, NA", "csv_missing_na.csv", "", "missing value ('NA')", 4, "x");
  row("csv missing value, question mark", "csv_missing_question.csv", "",
      "missing value ('?')", 3, "workclass");
  row("csv missing label", "csv_missing_label.csv", "", "missing value ('NULL')", 3, "label");
  row("csv every row dropped", "csv_all_dropped.csv", "missing=drop",
      "every data row has a missing value", 0, "");
  // CSV: quoting, and line numbers after quoted line breaks.
  row("csv unterminated quote", "csv_unterminated_quote.csv", "", "quoted field is not closed",
      3, "name");
  row("csv text after closing quote", "csv_after_quote.csv", "",
      "unexpected character 'b' after a closing quote", 2, "name");
  row("csv error after quoted line breaks", "csv_quoted_newline.csv", "",
      "non-numeric value 'zz' in numeric column 'x'", 7, "x");
  // CSV: label column choice.
  row("csv label column name not found", "csv_label_not_found.csv", "label=price",
      "no column named 'price' in the header", 0, "");
  row("csv label column index out of range", "csv_label_index_range.csv", "label=5",
      "label column 5 is out of range: the file has 3 columns, numbered from 1 (-1 is the last)", 0, "");
  // LIBSVM.
  row("libsvm NUL byte", "svm_nul_byte.libsvm", "", "a NUL byte at column 7: binary data, not LIBSVM text", 3, "");
  row("libsvm index 0", "svm_index_zero.libsvm", "",
      "feature index 0 is not allowed: indices are 1-based", 3, "field 2");
  row("libsvm negative index", "svm_index_negative.libsvm", "",
      "feature index -4 is negative", 2, "field 3");
  row("libsvm non-integer index", "svm_index_noninteger.libsvm", "",
      "feature index '1.5' is not an integer", 1, "field 2");
  row("libsvm missing colon", "svm_missing_colon.libsvm", "", "missing ':'", 2, "field 3");
  row("libsvm duplicate index", "svm_duplicate_index.libsvm", "", "duplicate feature index 3",
      1, "feature 3");
  row("libsvm non-numeric label", "svm_bad_label.libsvm", "", "non-numeric label 'abc'", 3,
      "label");
  row("libsvm label missing", "svm_no_label.libsvm", "", "the label is missing", 1, "label");
  row("libsvm infinite label", "svm_label_inf.libsvm", "", "label 'inf' is not a finite number",
      2, "label");
  row("libsvm bad value", "svm_bad_value.libsvm", "", "bad value 'x'", 2, "feature 2");
  row("libsvm missing value", "svm_missing_value.libsvm", "", "missing value after ':'", 2,
      "feature 2");
  row("libsvm NaN value", "svm_nan_value.libsvm", "", "value is not finite", 2, "feature 2");
  row("libsvm index above the feature count", "svm_index_too_large.libsvm", "features=4",
      "feature index 5 is larger than the feature count 4", 2, "feature 5");
  row("libsvm index too large for memory", "svm_index_huge.libsvm", "",
      "feature index 99999999 is too large for a dense matrix", 2, "feature 99999999");
  row("libsvm feature count too large for memory", "svm_index_too_large.libsvm",
      "features=1000000000000", "too large for a dense feature matrix", 0, "");
  // Fuzzing (bench/fuzz.sh, fuzz_libsvm): 16 bytes asked for a 1 × 9999999 matrix and 10^7
  // feature names (8 s under ASan); the fuzzers read with a lower dense limit, which the
  // index check honours too.
  row("libsvm index above a lowered dense limit", "svm_index_dense_limit.libsvm", "dense=4194304",
      "feature index 9999999 is too large for a dense matrix", 1, "feature 9999999");
  row("libsvm rows x features above a lowered dense limit", "svm_index_too_large.libsvm", "dense=9",
      "2 rows × 5 features is too large for a dense feature matrix", 0, "");
  row("libsvm one class only", "svm_one_class.libsvm", "", "only one class ('+1')", 0, "");
  row("libsvm comments only", "svm_comments_only.libsvm", "", "no data lines", 0, "");
  // IDX.
  row("idx wrong magic", "idx_wrong_magic-images-idx3-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte",
      "the magic number is 0x12345678, expected 0x00000803", 0, "magic");
  row("idx too short for a header", "idx_short-images-idx3-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte", "too short for an IDX header", 0, "header");
  row("idx header truncated", "idx_header_truncated-images-idx3-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte",
      "the IDX header is truncated: expected 16 bytes, found 12", 0, "header");
  row("idx images truncated", "idx_truncated-images-idx3-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte",
      "truncated IDX data: expected 28 bytes, found 25", 3, "data");
  row("idx bytes after the data", "idx_trailing-images-idx3-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte", "unexpected 5 bytes after the IDX data", 0, "data");
  row("idx labels truncated", "idx_helper3-images-idx3-ubyte",
      "labels=idx_labels_truncated-labels-idx1-ubyte",
      "truncated IDX data: expected 11 bytes, found 10", 3, "data",
      "idx_labels_truncated-labels-idx1-ubyte");
  row("idx count mismatch", "idx_helper3-images-idx3-ubyte",
      "labels=idx_helper2-labels-idx1-ubyte",
      "the images file has 3 images but the labels file has 2 labels", 0, "header",
      "idx_helper2-labels-idx1-ubyte");
  row("idx labels file is an images file", "idx_helper3-images-idx3-ubyte",
      "labels=idx_helper3-images-idx3-ubyte",
      "magic number 0x00000803 is that of a 3-dimensional IDX file (images?), expected "
      "0x00000801",
      0, "magic");
  row("idx images file is a labels file", "idx_helper3-labels-idx1-ubyte",
      "labels=idx_helper3-labels-idx1-ubyte", "one-dimensional IDX file (labels?)", 0, "magic");
  row("idx missing labels file", "idx_helper3-images-idx3-ubyte", "",
      "IDX images need a labels file (--labels)", 0, "");
  row("idx labels file does not exist", "idx_helper3-images-idx3-ubyte",
      "labels=no_such-labels-idx1-ubyte", "cannot open file: No such file", 0, "",
      "no_such-labels-idx1-ubyte");
  row("idx NaN pixel", "idx_float_nan-images-idx3-ubyte", "labels=idx_helper3-labels-idx1-ubyte",
      "value is not finite", 2, "px_0_1");
  row("idx no images", "idx_no_images-images-idx3-ubyte",
      "labels=idx_empty_helper0-labels-idx1-ubyte", "the IDX files hold no images", 0, "header");
  // Found by fuzz_idx: with no images the data size stays 0 whatever the record size, and the
  // loader went on to name (2^32-1)^2 features.
  row("idx record larger than 4 GiB", "idx_huge_record-images-idx3-ubyte",
      "labels=idx_empty_helper0-labels-idx1-ubyte", "one IDX record describes more than 4 GiB", 0,
      "header");
  row("idx one class only", "idx_helper3-images-idx3-ubyte",
      "labels=idx_oneclass-labels-idx1-ubyte", "only one class ('7')", 0, "");
  // gzip.
  row("gzip truncated", "gzip_truncated.csv.gz", "", "gzip stream is truncated", 0, "");
  row("gzip header only", "gzip_header_only.csv.gz", "", "gzip stream is truncated", 0, "");
  row("gzip corrupt deflate data", "gzip_corrupt.csv.gz", "", "corrupt gzip data", 0, "");
  row("gzip bad CRC", "gzip_bad_crc.csv.gz", "", "corrupt gzip data (incorrect data check)", 0,
      "");
  row("gzip trailing garbage", "gzip_trailing_garbage.csv.gz", "",
      "corrupt gzip data (unexpected bytes after the end of the stream)", 0, "");
  // The file system.
  row("nonexistent file", "does_not_exist.csv", "", "cannot open file: No such file", 0, "");
  row("a directory", ".", "", "cannot open file: it is a directory", 0, "");
}

void TestIoMalformed::rejected() {
  QFETCH(QString, file);
  QFETCH(QString, options);
  QFETCH(QString, message);
  QFETCH(int, line);
  QFETCH(QString, field);
  QFETCH(QString, source);

  const std::string path = malformed(file);
  const Result<Dataset> result = loadDatasetFile(path, optionsFrom(options));
  QVERIFY2(!result.ok(), "a malformed file was accepted");
  const Error& error = result.error();
  const QString text = QString::fromStdString(error.toString());
  QVERIFY2(error.kind == ErrorKind::BadData, qPrintable(text));
  QVERIFY2(QString::fromStdString(error.message).contains(message), qPrintable(text));
  QCOMPARE(error.line, static_cast<long>(line));
  QCOMPARE(QString::fromStdString(error.field), field);
  const std::string expectedSource = source.isEmpty() ? path : malformed(source);
  QCOMPARE(QString::fromStdString(error.source), QString::fromStdString(expectedSource));
  // What a person reads names the file, and the line when there is one.
  QVERIFY2(text.startsWith(QString::fromStdString(expectedSource)), qPrintable(text));
  if (line > 0) QVERIFY2(text.contains(QString(":%1: ").arg(line)), qPrintable(text));
}

void TestIoMalformed::corpusIsLargeEnough() {
  // Every file in the corpus is malformed except the valid IDX helpers that pair with them.
  const QDir dir(QString::fromStdString(malformed(".")));
  const QStringList files = dir.entryList(QDir::Files);
  const auto broken = std::count_if(files.begin(), files.end(),
                                    [](const QString& f) { return !f.contains("helper"); });
  QVERIFY2(broken >= 30, qPrintable(QString("only %1 malformed files").arg(broken)));
}

QTEST_GUILESS_MAIN(TestIoMalformed)
#include "test_io_malformed.moc"
