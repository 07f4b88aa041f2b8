// How a CSV file is read, and that the reading is reported (issue 9 item 7): the header
// choice and why, a scikit-learn metadata line, a title line, skipped rows with physical line
// numbers, weak header guesses, the 1-based label column, many numeric classes.

#include <QByteArray>
#include <QIODevice>
#include <QStringList>
#include <QTest>

#include <QFile>
#include <QTemporaryDir>

#include <string>

#include "core/io/csv_loader.h"
#include "core/io/loader.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using dpstudio::test::toQStrings;

class TestIoCsvReading : public QObject {
  Q_OBJECT

 private slots:
  void headerChoiceIsRecorded();
  void scikitLearnMetadataLineIsSkipped();
  void firstRowWithOtherFieldCountIsNoSilentHeader();
  void skipRowsKeepsPhysicalLineNumbers();
  void weakHeaderGuessWarns();
  void labelColumnZeroIsRefusedWithTheConvention();
  void manyNumericClassesWarn();
  void headerAndDelimiterNames();
};

namespace {

Result<Dataset> parseText(const std::string& text, const LoadOptions& options = {}) {
  return parseCsv(text, options, "inline.csv");
}

}  // namespace

void TestIoCsvReading::headerChoiceIsRecorded() {
  const auto detected = parseText("x,y,label\n1,2,a\n3,4,b\n");
  QVERIFY(detected.ok());
  QVERIFY(detected.value().provenance.csv.has_value());
  const CsvReading& reading = *detected.value().provenance.csv;
  QCOMPARE(reading.headerChoice, std::string("auto"));
  QVERIFY(reading.header);
  QVERIFY2(reading.headerReason.find("2 of the 3 cells") != std::string::npos, reading.headerReason.c_str());
  QCOMPARE(reading.delimiter, ',');
  QVERIFY(detected.value().provenance.warnings.empty());

  const auto none = parseText("1,2,a\n3,4,b\n");
  QVERIFY(none.ok());
  QVERIFY(!none.value().provenance.csv->header);
  QCOMPARE(none.value().provenance.csv->headerChoice, std::string("auto"));

  LoadOptions forced;
  forced.hasHeader = false;
  const auto given = parseText("1,2,a\n3,4,b\n", forced);
  QVERIFY(given.ok());
  QCOMPARE(given.value().provenance.csv->headerChoice, std::string("no"));
  QVERIFY(given.value().provenance.csv->headerReason.empty());
}

// scikit-learn's iris.csv starts "150,4,setosa,versicolor,virginica": it was read as a
// header, naming the features "150" and "4".
void TestIoCsvReading::scikitLearnMetadataLineIsSkipped() {
  const auto iris = parseText("3,2,setosa,versicolor,virginica\n5.1,3.5,0\n7.0,3.2,1\n6.3,3.3,2\n");
  QVERIFY2(iris.ok(), iris.ok() ? "" : iris.error().toString().c_str());
  const Dataset& data = iris.value();
  QCOMPARE(data.rows(), Index{3});
  QCOMPARE(toQStrings(data.featureNames), (QStringList{"x1", "x2"}));
  QCOMPARE(toQStrings(data.classNames), (QStringList{"setosa", "versicolor", "virginica"}));
  QVERIFY(!data.provenance.csv->header);
  QCOMPARE(data.provenance.csv->skippedLines, 1L);
  QVERIFY2(data.provenance.csv->headerReason.find("scikit-learn") != std::string::npos,
           data.provenance.csv->headerReason.c_str());
  // wine_data.csv: the metadata line has fewer fields than the rows ("178,13,class_0,…").
  const auto wine = parseText("2,3,class_0,class_1\n1,2,3,0\n4,5,6,1\n");
  QVERIFY2(wine.ok(), wine.ok() ? "" : wine.error().toString().c_str());
  QCOMPARE(wine.value().features(), Index{3});
  QCOMPARE(toQStrings(wine.value().classNames), (QStringList{"class_0", "class_1"}));
}

void TestIoCsvReading::firstRowWithOtherFieldCountIsNoSilentHeader() {
  const auto titled = parseText("My survey data\nx,y,label\n1,2,a\n3,4,b\n");
  QVERIFY(!titled.ok());
  QCOMPARE(titled.error().line, 1L);
  QVERIFY2(titled.error().message.find("skip") != std::string::npos, titled.error().message.c_str());
  // A title with commas in it, over a semicolon file: the field counts differ.
  const auto commas = parseText("Survey, 2024\nx,y,label\n1,2,a\n3,4,b\n");
  QVERIFY(!commas.ok());
  QVERIFY2(commas.error().message.find("skip it (--skip-rows 1; in the GUI, Skip lines)") != std::string::npos,
           commas.error().message.c_str());
  // The title skipped, the header is found on the next line.
  LoadOptions skip;
  skip.skipRows = 1;
  const auto skipped = parseText("My survey data\nx,y,label\n1,2,a\n3,4,b\n", skip);
  QVERIFY2(skipped.ok(), skipped.ok() ? "" : skipped.error().toString().c_str());
  QCOMPARE(toQStrings(skipped.value().featureNames), (QStringList{"x", "y"}));
  QCOMPARE(skipped.value().rows(), Index{2});
}

void TestIoCsvReading::skipRowsKeepsPhysicalLineNumbers() {
  LoadOptions skip;
  skip.skipRows = 2;
  const auto result = parseText("title\r\nsubtitle\rx,label\n1,a\nzz,b\n2,a\n", skip);
  QVERIFY(!result.ok());
  QCOMPARE(result.error().line, 5L);  // "zz" is on physical line 5
  skip.skipRows = 9;
  const auto nothing = parseText("a\nb\n", skip);
  QVERIFY(!nothing.ok());
  QVERIFY2(nothing.error().message.find("skipping 9") != std::string::npos, nothing.error().message.c_str());
}

// pendigits with one text cell in row 1: 7493 rows instead of 7494, without a word.
void TestIoCsvReading::weakHeaderGuessWarns() {
  const auto result = parseText("1,2,x3,4,5\n6,7,8,9,0\n1,1,1,1,1\n");
  QVERIFY(result.ok());
  QVERIFY(result.value().provenance.csv->header);
  QCOMPARE(result.value().provenance.warnings.size(), std::size_t{1});
  QVERIFY2(result.value().provenance.warnings[0].find("header no") != std::string::npos,
           result.value().provenance.warnings[0].c_str());
}

void TestIoCsvReading::labelColumnZeroIsRefusedWithTheConvention() {
  LoadOptions options;
  options.labelColumn = "0";
  const auto result = parseText("1,2,a\n3,4,b\n", options);
  QVERIFY(!result.ok());
  QVERIFY2(result.error().message.find("numbered from 1") != std::string::npos, result.error().message.c_str());
  options.labelColumn = "1";
  const auto first = parseText("a,1,2\nb,3,4\n", options);
  QVERIFY(first.ok());
  QCOMPARE(toQStrings(first.value().classNames), (QStringList{"a", "b"}));
}

// A label column with 101 distinct numeric values was taken as 101 classes without a word.
void TestIoCsvReading::manyNumericClassesWarn() {
  QTemporaryDir dir;
  const QString path = dir.filePath("continuous.csv");
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("x,target\n");
  for (int i = 0; i < 202; ++i) file.write(QByteArray::number(i) + "," + QByteArray::number(i % 101) + ".5\n");
  file.close();
  const auto many = loadDatasetFile(path.toStdString());
  QVERIFY2(many.ok(), many.ok() ? "" : many.error().toString().c_str());
  QCOMPARE(many.value().classes(), Index{101});
  QCOMPARE(many.value().provenance.warnings.size(), std::size_t{1});
  QVERIFY(many.value().provenance.warnings[0].find("101 distinct numeric values") != std::string::npos);
  // Ten classes are normal: no warning.
  const QString ten = dir.filePath("ten.csv");
  QFile tenFile(ten);
  QVERIFY(tenFile.open(QIODevice::WriteOnly));
  for (int i = 0; i < 100; ++i) tenFile.write(QByteArray::number(i) + "," + QByteArray::number(i % 10) + "\n");
  tenFile.close();
  const auto fine = loadDatasetFile(ten.toStdString());
  QVERIFY(fine.ok());
  QVERIFY(fine.value().provenance.warnings.empty());
}

void TestIoCsvReading::headerAndDelimiterNames() {
  QVERIFY(parseHeaderChoice("auto").has_value() && !parseHeaderChoice("auto")->has_value());
  QCOMPARE(*parseHeaderChoice("yes"), std::optional<bool>(true));
  QCOMPARE(*parseHeaderChoice("No"), std::optional<bool>(false));
  QVERIFY(!parseHeaderChoice("maybe").has_value());
  QCOMPARE(*parseDelimiter("tab"), '\t');
  QCOMPARE(*parseDelimiter(";"), ';');
  QCOMPARE(*parseDelimiter("auto"), '\0');
  QVERIFY(!parseDelimiter("\"").has_value());
  QVERIFY(!parseDelimiter(",,").has_value());
}


QTEST_GUILESS_MAIN(TestIoCsvReading)
#include "test_io_csv_reading.moc"
