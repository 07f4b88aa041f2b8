// Well-formed inputs of every format: shapes, values, class names and counts, exactly.
// CSV and LIBSVM cases are inline text given to the parsers; the file cases go through
// loadDatasetFile (format detection, gzip, validation) on fixtures in tests/fixtures.

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QStringList>
#include <QTest>

#include <QFile>
#include <QTemporaryDir>

#include <string>

#include "core/io/csv_loader.h"
#include "core/io/gzip.h"
#include "core/io/idx_loader.h"
#include "core/io/libsvm_loader.h"
#include "core/io/loader.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using dpstudio::test::toQStrings;

namespace {

// "key=value;key=value": label=COLUMN, header=yes|no, missing=drop, delimiter=tab|;|,
// features=N, labels=FIXTURE, format=NAME.
LoadOptions optionsFrom(const QString& spec) {
  LoadOptions options;
  for (const QString& item : spec.split(';', Qt::SkipEmptyParts)) {
    const QString key = item.section('=', 0, 0);
    const QString value = item.section('=', 1);
    if (key == "label") options.labelColumn = value.toStdString();
    else if (key == "header") options.hasHeader = (value == "yes");
    else if (key == "missing") options.missing = MissingPolicy::DropRows;
    else if (key == "delimiter") options.delimiter = value == "tab" ? '\t' : value.at(0).toLatin1();
    else if (key == "features") options.libsvmFeatures = value.toLongLong();
    else if (key == "labels") options.labelsPath = test::fixture(qPrintable(value));
    else if (key == "format") options.format = *parseDataFormat(value.toStdString());
    else qFatal("unknown option key in test row: %s", qPrintable(key));
  }
  return options;
}

// Compares everything a parser produced with the expected values (row-major).
void checkDataset(const Dataset& data, const QStringList& features, const QStringList& classes,
                  const QList<int>& y, const QList<double>& values) {
  QCOMPARE(data.rows(), static_cast<Index>(y.size()));
  QCOMPARE(data.features(), static_cast<Index>(features.size()));
  QCOMPARE(toQStrings(data.featureNames), features);
  QCOMPARE(toQStrings(data.classNames), classes);
  QList<int> actualY;
  for (Index i = 0; i < data.y.size(); ++i) actualY << data.y[i];
  QCOMPARE(actualY, y);
  QList<double> actualValues;
  for (Index i = 0; i < data.rows(); ++i)
    for (Index j = 0; j < data.features(); ++j) actualValues << data.X(i, j);
  QCOMPARE(actualValues, values);
}

QList<int> toQInts(const std::vector<Index>& counts) {
  QList<int> out;
  for (Index c : counts) out << static_cast<int>(c);
  return out;
}

}  // namespace

class TestIoFormats : public QObject {
  Q_OBJECT

 private slots:
  void csv_data();
  void csv();
  void libsvm_data();
  void libsvm();
  void files_data();
  void files();
  void mnistSliceValues();
  void a9aSliceValues();
  void gzipIsTransparent();
  void droppedRowsAreRecorded();
  void numbersInACategoricalColumnAreNamed();
  void fileThatChangesWhileReadIsRefused();
  void inflateStopsAtTheSizeLimit();
  void progressIsMonotoneAndEndsAtOne();
  void cancellationBeforeLoading();
  void cancellationDuringParsing();
  void formatNames_data();
  void formatNames();
};

void TestIoFormats::csv_data() {
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QString>("options");
  QTest::addColumn<QStringList>("features");
  QTest::addColumn<QStringList>("classes");
  QTest::addColumn<QList<int>>("y");
  QTest::addColumn<QList<double>>("values");  // row-major

  QTest::newRow("header detected") << QByteArray("x,y,label\n1,2,a\n3,4,b\n5,6,a\n") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1, 0}
      << QList<double>{1, 2, 3, 4, 5, 6};
  QTest::newRow("no header") << QByteArray("1,2,0\n3,4,1\n") << ""
      << QStringList{"x1", "x2"} << QStringList{"0", "1"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("header forced off") << QByteArray("a,b,c\nd,e,f\n") << "header=no"
      << QStringList{"x1=a", "x1=d", "x2=b", "x2=e"} << QStringList{"c", "f"}
      << QList<int>{0, 1} << QList<double>{1, 0, 1, 0, 0, 1, 0, 1};
  QTest::newRow("header forced on") << QByteArray("1,2,3\n4,5,6\n7,8,9\n") << "header=yes"
      << QStringList{"1", "2"} << QStringList{"6", "9"} << QList<int>{0, 1}
      << QList<double>{4, 5, 7, 8};
  QTest::newRow("label by name") << QByteArray("label,x,y\nb,1,2\na,3,4\n") << "label=label"
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{1, 0}
      << QList<double>{1, 2, 3, 4};
  // Column numbers are 1-based, as in every message (issue 9 item 7).
  QTest::newRow("label by number, 1-based") << QByteArray("1,5,2\n3,6,1\n") << "label=2"
      << QStringList{"x1", "x2"} << QStringList{"5", "6"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 1};
  QTest::newRow("label by negative index") << QByteArray("7,1,2\n8,2,3\n") << "label=-3"
      << QStringList{"x1", "x2"} << QStringList{"7", "8"} << QList<int>{0, 1}
      << QList<double>{1, 2, 2, 3};
  QTest::newRow("categorical one-hot")
      << QByteArray("color,size,label\nred,1,a\nblue,2,b\ngreen,3,a\nred,4,b\n") << ""
      << QStringList{"color=blue", "color=green", "color=red", "size"}
      << QStringList{"a", "b"} << QList<int>{0, 1, 0, 1}
      << QList<double>{0, 0, 1, 1, 1, 0, 0, 2, 0, 1, 0, 3, 0, 0, 1, 4};
  QTest::newRow("categorical with a few numbers")
      << QByteArray("kind,w,label\ncat,1,a\ndog,2,b\n42,3,a\ncat,4,b\n") << ""
      << QStringList{"kind=42", "kind=cat", "kind=dog", "w"} << QStringList{"a", "b"}
      << QList<int>{0, 1, 0, 1} << QList<double>{0, 1, 0, 1, 0, 0, 1, 2, 1, 0, 0, 3, 0, 1, 0, 4};
  QTest::newRow("quoted fields")
      << QByteArray("name,x,label\n\"Smith, John\",1,a\n\"say \"\"hi\"\"\",2,b\n") << ""
      << QStringList{"name=Smith, John", "name=say \"hi\"", "x"} << QStringList{"a", "b"}
      << QList<int>{0, 1} << QList<double>{1, 0, 1, 0, 1, 2};
  QTest::newRow("quoted line break")
      << QByteArray("name,x,label\n\"two\nlines\",1,a\n\"one\",2,b\n") << ""
      << QStringList{"name=one", "name=two\nlines", "x"} << QStringList{"a", "b"}
      << QList<int>{0, 1} << QList<double>{0, 1, 1, 1, 0, 2};
  QTest::newRow("quoted numbers") << QByteArray("\"x\",\"label\"\n\"1.5\",\"a\"\n\"2\",\"b\"\n")
      << "" << QStringList{"x"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1.5, 2};
  QTest::newRow("CRLF") << QByteArray("x,y,label\r\n1,2,a\r\n3,4,b\r\n") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 4};
  // Issue 9 item 7: a published spambase has CR-only line ends and was read as one row.
  QTest::newRow("CR only") << QByteArray("x,y,label\r1,2,a\r3,4,b\r") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("CR, LF and CRLF mixed, blank CR lines")
      << QByteArray("x,y,label\r\n1,2,a\r\r3,4,b\n5,6,a\r\n\r\n7,8,b") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1, 0, 1}
      << QList<double>{1, 2, 3, 4, 5, 6, 7, 8};
  QTest::newRow("CR inside quotes is kept") << QByteArray("name,x,label\r\"a\rb\",1,p\r\"c\",2,q\r") << ""
      << QStringList{"name=a\rb", "name=c", "x"} << QStringList{"p", "q"} << QList<int>{0, 1}
      << QList<double>{1, 0, 1, 0, 1, 2};
  QTest::newRow("UTF-8 BOM") << QByteArray("\xEF\xBB\xBFx,y,label\n1,2,a\n3,4,b\n") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("semicolon delimiter") << QByteArray("x;y;label\n1.5;2;a\n3;4;b\n") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1.5, 2, 3, 4};
  QTest::newRow("tab delimiter") << QByteArray("x\ty\tlabel\n1\t2\ta\n3\t4\tb\n") << ""
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("delimiter given") << QByteArray("x|label\n1|a\n2|b\n") << "delimiter=|"
      << QStringList{"x"} << QStringList{"a", "b"} << QList<int>{0, 1} << QList<double>{1, 2};
  QTest::newRow("numeric labels sort by value") << QByteArray("1,-1\n2,+1\n3,10\n4,2\n") << ""
      << QStringList{"x1"} << QStringList{"-1", "+1", "2", "10"} << QList<int>{0, 1, 3, 2}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("text labels sort by bytes") << QByteArray("1,b\n2,a\n3,C\n") << ""
      << QStringList{"x1"} << QStringList{"C", "a", "b"} << QList<int>{2, 1, 0}
      << QList<double>{1, 2, 3};
  QTest::newRow("missing values dropped")
      << QByteArray("x,y,label\n1,2,a\nNA,3,b\n4,?,a\n5,6,b\n7,,a\n8,9,null\n") << "missing=drop"
      << QStringList{"x", "y"} << QStringList{"a", "b"} << QList<int>{0, 1}
      << QList<double>{1, 2, 5, 6};
  QTest::newRow("spaces around cells") << QByteArray("x , y , label\n 1 , 2 , a \n") << ""
      << QStringList{"x", "y"} << QStringList{"a"} << QList<int>{0} << QList<double>{1, 2};
  QTest::newRow("number syntax") << QByteArray("x,label\n+1.5e2,a\n-.5,b\n1e-400,a\n7.,b\n")
      << "" << QStringList{"x"} << QStringList{"a", "b"} << QList<int>{0, 1, 0, 1}
      << QList<double>{150, -0.5, 0, 7};
  QTest::newRow("blank lines, no final newline") << QByteArray("x,label\n\n1,a\n  \n2,b") << ""
      << QStringList{"x"} << QStringList{"a", "b"} << QList<int>{0, 1} << QList<double>{1, 2};
}

void TestIoFormats::csv() {
  QFETCH(QByteArray, text);
  QFETCH(QString, options);
  QFETCH(QStringList, features);
  QFETCH(QStringList, classes);
  QFETCH(QList<int>, y);
  QFETCH(QList<double>, values);

  const auto result =
      parseCsv(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
               optionsFrom(options), "inline.csv");
  QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
  checkDataset(result.value(), features, classes, y, values);
  QCOMPARE(result.value().provenance.format, std::string("csv"));
  QCOMPARE(result.value().provenance.source, std::string("inline.csv"));
}

void TestIoFormats::libsvm_data() {
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QString>("options");
  QTest::addColumn<QStringList>("features");
  QTest::addColumn<QStringList>("classes");
  QTest::addColumn<QList<int>>("y");
  QTest::addColumn<QList<double>>("values");

  QTest::newRow("unsorted indices") << QByteArray("+1 3:1 1:0.5\n-1 2:2\n") << ""
      << QStringList{"f1", "f2", "f3"} << QStringList{"-1", "+1"} << QList<int>{1, 0}
      << QList<double>{0.5, 0, 1, 0, 2, 0};
  QTest::newRow("comments and blank lines")
      << QByteArray("# a header comment\n1 1:1 # trailing comment\n\n   \n2 2:1\n") << ""
      << QStringList{"f1", "f2"} << QStringList{"1", "2"} << QList<int>{0, 1}
      << QList<double>{1, 0, 0, 1};
  QTest::newRow("trailing spaces and CRLF") << QByteArray("1 1:1 \r\n0 2:3 \r\n") << ""
      << QStringList{"f1", "f2"} << QStringList{"0", "1"} << QList<int>{1, 0}
      << QList<double>{1, 0, 0, 3};
  QTest::newRow("CR only and mixed line ends") << QByteArray("1 1:1\r0 2:3\r\n1 1:2\n\r0 2:4\r") << ""
      << QStringList{"f1", "f2"} << QStringList{"0", "1"} << QList<int>{1, 0, 1, 0}
      << QList<double>{1, 0, 0, 3, 2, 0, 0, 4};
  QTest::newRow("tabs") << QByteArray("1\t1:1\t2:2\n0\t1:3\n") << ""
      << QStringList{"f1", "f2"} << QStringList{"0", "1"} << QList<int>{1, 0}
      << QList<double>{1, 2, 3, 0};
  QTest::newRow("feature count given") << QByteArray("1 2:1\n0 1:1\n") << "features=4"
      << QStringList{"f1", "f2", "f3", "f4"} << QStringList{"0", "1"} << QList<int>{1, 0}
      << QList<double>{0, 1, 0, 0, 1, 0, 0, 0};
  QTest::newRow("a line with a label only") << QByteArray("1\n0 2:1\n") << ""
      << QStringList{"f1", "f2"} << QStringList{"0", "1"} << QList<int>{1, 0}
      << QList<double>{0, 0, 0, 1};
  QTest::newRow("multiclass, numeric order") << QByteArray("10 1:1\n2 1:2\n-1 1:3\n2 1:4\n")
      << "" << QStringList{"f1"} << QStringList{"-1", "2", "10"} << QList<int>{2, 1, 0, 1}
      << QList<double>{1, 2, 3, 4};
  QTest::newRow("value syntax") << QByteArray("1 1:+2.5 2:-1e-3 3:0\n0 1:1e2\n") << ""
      << QStringList{"f1", "f2", "f3"} << QStringList{"0", "1"} << QList<int>{1, 0}
      << QList<double>{2.5, -1e-3, 0, 100, 0, 0};
}

void TestIoFormats::libsvm() {
  QFETCH(QByteArray, text);
  QFETCH(QString, options);
  QFETCH(QStringList, features);
  QFETCH(QStringList, classes);
  QFETCH(QList<int>, y);
  QFETCH(QList<double>, values);

  const auto result =
      parseLibSvm(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                  optionsFrom(options), "inline.svm");
  QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
  checkDataset(result.value(), features, classes, y, values);
  QCOMPARE(result.value().provenance.format, std::string("libsvm"));
}

void TestIoFormats::files_data() {
  QTest::addColumn<QString>("file");  // in tests/fixtures
  QTest::addColumn<QString>("options");
  QTest::addColumn<QString>("format");
  QTest::addColumn<bool>("gzip");
  QTest::addColumn<int>("features");
  QTest::addColumn<QStringList>("classes");
  QTest::addColumn<QList<int>>("counts");

  const QStringList digits{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
  QTest::newRow("a9a slice") << "a9a_head.libsvm" << "" << "libsvm" << false << 117
      << QStringList{"-1", "+1"} << QList<int>{230, 70};
  QTest::newRow("a9a slice, feature count given") << "a9a_head.libsvm" << "features=123"
      << "libsvm" << false << 123 << QStringList{"-1", "+1"} << QList<int>{230, 70};
  QTest::newRow("libsvm found by content") << "libsvm/sniffed" << "" << "libsvm" << false << 3
      << QStringList{"-1", "+1"} << QList<int>{2, 1};
  QTest::newRow("MNIST slice, gzip IDX") << "mnist/train100-images-idx3-ubyte.gz"
      << "labels=mnist/train100-labels-idx1-ubyte.gz" << "idx" << true << 784 << digits
      << QList<int>{13, 14, 6, 11, 11, 5, 11, 10, 8, 11};
  QTest::newRow("csv with a categorical column") << "csv/mixed.csv" << "" << "csv" << false << 5
      << QStringList{"<=50K", ">50K"} << QList<int>{6, 4};
  QTest::newRow("csv, gzip") << "csv/mixed.csv.gz" << "" << "csv" << true << 5
      << QStringList{"<=50K", ">50K"} << QList<int>{6, 4};
  QTest::newRow("csv, gzip of two members") << "csv/concat.csv.gz" << "" << "csv" << true << 5
      << QStringList{"<=50K", ">50K"} << QList<int>{6, 4};
  QTest::newRow("csv, BOM and CRLF") << "csv/bom_crlf.csv" << "" << "csv" << false << 2
      << QStringList{"no", "yes"} << QList<int>{2, 1};
  QTest::newRow("csv, CR line ends") << "csv/cr_only.csv" << "" << "csv" << false << 2
      << QStringList{"0", "1"} << QList<int>{3, 2};
  QTest::newRow("csv, CR line ends, gzip") << "csv/cr_only.csv.gz" << "" << "csv" << true << 2
      << QStringList{"0", "1"} << QList<int>{3, 2};
  QTest::newRow("csv, mixed line ends") << "csv/mixed_endings.csv" << "" << "csv" << false << 2
      << QStringList{"0", "1"} << QList<int>{3, 2};
  QTest::newRow("libsvm, CR line ends") << "libsvm/cr_only.libsvm" << "" << "libsvm" << false << 2
      << QStringList{"0", "1"} << QList<int>{3, 2};
  QTest::newRow("libsvm, CR line ends, gzip") << "libsvm/cr_only.libsvm.gz" << "" << "libsvm" << true
      << 2 << QStringList{"0", "1"} << QList<int>{3, 2};
  QTest::newRow(".txt with commas") << "csv/commas.txt" << "" << "csv" << false << 2
      << QStringList{"x", "y"} << QList<int>{1, 1};
  QTest::newRow("format given") << "csv/commas.txt" << "format=csv" << "csv" << false << 2
      << QStringList{"x", "y"} << QList<int>{1, 1};
}

void TestIoFormats::files() {
  QFETCH(QString, file);
  QFETCH(QString, options);
  QFETCH(QString, format);
  QFETCH(bool, gzip);
  QFETCH(int, features);
  QFETCH(QStringList, classes);
  QFETCH(QList<int>, counts);

  const std::string path = test::fixture(qPrintable(file));
  const auto result = loadDatasetFile(path, optionsFrom(options));
  QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
  const Dataset& data = result.value();
  QCOMPARE(QString::fromStdString(data.provenance.format), format);
  QCOMPARE(data.provenance.gzip, gzip);
  QCOMPARE(data.provenance.source, path);
  QCOMPARE(data.features(), static_cast<Index>(features));
  QCOMPARE(toQStrings(data.classNames), classes);
  QCOMPARE(toQInts(data.classCounts()), counts);
  int rows = 0;
  for (int c : counts) rows += c;
  QCOMPARE(data.rows(), static_cast<Index>(rows));
}

void TestIoFormats::mnistSliceValues() {
  LoadOptions options;
  options.labelsPath = test::fixture("mnist/train100-labels-idx1-ubyte.gz");
  const auto result =
      loadDatasetFile(test::fixture("mnist/train100-images-idx3-ubyte.gz"), options);
  QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
  const Dataset& data = result.value();
  // Values computed from the IDX bytes with Python when the fixture was made.
  QCOMPARE(data.X.maxCoeff(), 255.0);
  QCOMPARE(data.X.minCoeff(), 0.0);
  QCOMPARE(data.X.sum(), 2530887.0);
  QCOMPARE(data.X.row(0).sum(), 27525.0);
  QCOMPARE(data.X(0, 5 * 28 + 12), 3.0);
  QCOMPARE(data.X(5, 14 * 28 + 14), 253.0);
  QCOMPARE(data.featureNames[5 * 28 + 12], std::string("px_5_12"));
  const QList<int> firstLabels{5, 0, 4, 1, 9, 2, 1, 3, 1, 4};
  for (int i = 0; i < firstLabels.size(); ++i)
    QCOMPARE(data.classNames[static_cast<std::size_t>(data.y[i])],
             std::to_string(firstLabels[i]));
}

void TestIoFormats::a9aSliceValues() {
  const auto result = loadDatasetFile(test::fixture("a9a_head.libsvm"));
  QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
  const Dataset& data = result.value();
  QCOMPARE(data.X.sum(), 4160.0);  // every stored value is 1
  // Line 1: "-1 3:1 11:1 14:1 19:1 39:1 42:1 55:1 64:1 67:1 73:1 75:1 76:1 80:1 83:1 "
  QCOMPARE(data.X.row(0).sum(), 14.0);
  QCOMPARE(data.X(0, 2), 1.0);
  QCOMPARE(data.X(0, 82), 1.0);
  QCOMPARE(data.X(0, 0), 0.0);
  QCOMPARE(data.classNames[static_cast<std::size_t>(data.y[0])], std::string("-1"));
}

void TestIoFormats::gzipIsTransparent() {
  const auto plain = loadDatasetFile(test::fixture("csv/mixed.csv"));
  const auto packed = loadDatasetFile(test::fixture("csv/mixed.csv.gz"));
  const auto members = loadDatasetFile(test::fixture("csv/concat.csv.gz"));
  QVERIFY(plain.ok() && packed.ok() && members.ok());
  for (const auto* other : {&packed.value(), &members.value()}) {
    QCOMPARE(other->X, plain.value().X);
    QCOMPARE(other->y, plain.value().y);
    QCOMPARE(other->classNames, plain.value().classNames);
    QCOMPARE(other->featureNames, plain.value().featureNames);
  }
  QVERIFY(!plain.value().provenance.gzip);
  QVERIFY(packed.value().provenance.gzip);
}

void TestIoFormats::droppedRowsAreRecorded() {
  LoadOptions options;
  options.missing = MissingPolicy::DropRows;
  const auto result =
      parseCsv("x,y,label\n1,2,a\nNA,3,b\n4,?,a\n5,6,b\n", options, "inline.csv");
  QVERIFY(result.ok());
  const auto& steps = result.value().provenance.steps;
  QVERIFY(std::find(steps.begin(), steps.end(), "dropped 2 rows with missing values") !=
          steps.end());
  // Nothing dropped, nothing said.
  const auto clean = parseCsv("x,label\n1,a\n2,b\n", options, "inline.csv");
  QVERIFY(clean.ok());
  QVERIFY(clean.value().provenance.steps.empty());
}

// Issue 15 item 3: a mostly-text column is one-hot encoded, numbers and all; its note says
// which cells were numbers, so a person who meant the column to be numeric finds the text.
void TestIoFormats::numbersInACategoricalColumnAreNamed() {
  const auto result = parseCsv("kind,w,label\ncat,1,a\ndog,2,b\n42,3,a\ncat,4,b\n", {}, "inline.csv");
  QVERIFY(result.ok());
  const auto& steps = result.value().provenance.steps;
  const std::string expected =
      "one-hot encoded column 'kind' (3 categories): 1 of its 4 cells are numbers, read as category names too "
      "(the first '42' on line 4; the first text 'cat' on line 2)";
  QVERIFY2(std::find(steps.begin(), steps.end(), expected) != steps.end(),
           qPrintable(QString::fromStdString(steps.empty() ? std::string("no notes") : steps.front())));
  // All text: the plain note.
  const auto text = parseCsv("kind,w,label\ncat,1,a\ndog,2,b\n", {}, "inline.csv");
  QVERIFY(text.ok());
  QCOMPARE(text.value().provenance.steps.front(), std::string("one-hot encoded column 'kind' (2 categories)"));
}

// Issue 15 item 3: a file still being written (a download in progress) is refused, not
// parsed half done. The reader reports progress after every MiB; here that is when a line
// is appended to the file, as a writer would.
void TestIoFormats::fileThatChangesWhileReadIsRefused() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("growing.csv"));
  {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x,label\n");
    const QByteArray rows = QByteArray("1,a\n2,b\n").repeated(200000);  // 1.6 MB: two chunks
    file.write(rows);
  }
  bool appended = false;
  const Progress progress([&](double) {
    if (appended) return;
    appended = true;
    QFile file(path);
    if (file.open(QIODevice::Append)) file.write("3,a\n");
  });
  const auto grown = loadDatasetFile(path.toStdString(), {}, progress);
  QVERIFY(appended);
  QVERIFY(!grown.ok());
  QVERIFY2(QString::fromStdString(grown.error().message).contains(QStringLiteral("the file changed while it was read")),
           qPrintable(QString::fromStdString(grown.error().toString())));
  // Once complete, it reads.
  const auto complete = loadDatasetFile(path.toStdString(), {});
  QVERIFY2(complete.ok(), complete.ok() ? "" : complete.error().toString().c_str());
  QCOMPARE(complete.value().rows(), Index{400001});
}

void TestIoFormats::inflateStopsAtTheSizeLimit() {
  QFile file(QString::fromStdString(test::fixture("mnist/train100-images-idx3-ubyte.gz")));
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray raw = file.readAll();
  const std::string_view bytes(raw.constData(), static_cast<std::size_t>(raw.size()));
  constexpr std::uint64_t exact = 16 + 100 * 784;
  QVERIFY(isGzip(bytes));
  const auto fits = inflateGzip(bytes, "slice.gz", exact);
  QVERIFY(fits.ok());
  QCOMPARE(fits.value().size(), static_cast<std::size_t>(exact));
  const auto refused = inflateGzip(bytes, "slice.gz", exact - 1);
  QVERIFY(!refused.ok());
  QCOMPARE(refused.error().kind, ErrorKind::BadData);
  QVERIFY(QString::fromStdString(refused.error().message).contains("files this large are refused"));
}

void TestIoFormats::progressIsMonotoneAndEndsAtOne() {
  std::vector<double> seen;
  const Progress progress([&seen](double f) { seen.push_back(f); });
  LoadOptions options;
  options.labelsPath = test::fixture("mnist/train100-labels-idx1-ubyte.gz");
  QVERIFY(loadDatasetFile(test::fixture("mnist/train100-images-idx3-ubyte.gz"), options, progress)
              .ok());
  QVERIFY(seen.size() >= 2);
  for (std::size_t k = 0; k < seen.size(); ++k) {
    QVERIFY(seen[k] >= 0.0 && seen[k] <= 1.0);
    if (k > 0) QVERIFY2(seen[k] >= seen[k - 1], qPrintable(QString::number(k)));
  }
  QCOMPARE(seen.back(), 1.0);
}

void TestIoFormats::cancellationBeforeLoading() {
  StopToken stop;
  stop.requestStop();
  const auto result = loadDatasetFile(test::fixture("a9a_head.libsvm"), {}, Progress({}, stop));
  QVERIFY(!result.ok());
  QCOMPARE(result.error().kind, ErrorKind::Cancelled);
}

void TestIoFormats::cancellationDuringParsing() {
  // Large enough for several progress reports; the stop is raised from the callback.
  std::string csvText = "x,y,label\n";
  std::string svmText;
  for (int i = 0; i < 50000; ++i) {
    csvText += std::to_string(i) + "," + std::to_string(i % 7) + (i % 2 ? ",a\n" : ",b\n");
    svmText += (i % 2 ? "+1 1:" : "-1 2:") + std::to_string(i) + "\n";
  }
  for (int format = 0; format < 2; ++format) {
    StopToken stop;
    bool reported = false;
    const Progress progress(
        [&](double f) {
          reported = true;
          if (f > 0.1) stop.requestStop();
        },
        stop);
    const auto result = format == 0 ? parseCsv(csvText, {}, "big.csv", progress)
                                    : parseLibSvm(svmText, {}, "big.svm", progress);
    QVERIFY(reported);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, ErrorKind::Cancelled);
  }
}

void TestIoFormats::formatNames_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("format");  // -1: not a format
  QTest::addColumn<QString>("canonical");
  QTest::newRow("csv") << "csv" << int(DataFormat::Csv) << "csv";
  QTest::newRow("upper case") << "CSV" << int(DataFormat::Csv) << "csv";
  QTest::newRow("libsvm") << "libsvm" << int(DataFormat::LibSvm) << "libsvm";
  QTest::newRow("svmlight") << "svmlight" << int(DataFormat::LibSvm) << "libsvm";
  QTest::newRow("idx") << "idx" << int(DataFormat::Idx) << "idx";
  QTest::newRow("auto") << "auto" << int(DataFormat::Auto) << "auto";
  QTest::newRow("unknown") << "xlsx" << -1 << "";
}

void TestIoFormats::formatNames() {
  QFETCH(QString, name);
  QFETCH(int, format);
  QFETCH(QString, canonical);
  const auto parsed = parseDataFormat(name.toStdString());
  if (format < 0) {
    QVERIFY(!parsed.has_value());
    return;
  }
  QVERIFY(parsed.has_value());
  QCOMPARE(int(*parsed), format);
  QCOMPARE(QString::fromStdString(formatName(*parsed)), canonical);
}

QTEST_GUILESS_MAIN(TestIoFormats)
#include "test_io_formats.moc"
