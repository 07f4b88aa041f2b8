// The data schema (issue 32 item 1; docs/formats/schema.md): the CSV reader reads feature
// columns as it declares them, refuses what it does not declare (naming file, line and
// column), marks nothing declared as read off the data; its JSON form round-trips and refuses
// unknown keys; a draft of a file read back with its own draft gives the same rows, and the
// one-hot groups make the derived norm bound √(features)/2 whatever the categories.

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string>

#include "core/data/data_schema.h"
#include "core/data/preprocess.h"
#include "core/io/csv_loader.h"
#include "core/io/loader.h"
#include "core/io/schema_json.h"

using namespace dpstudio;

namespace {

const std::string kPeople =
    "id,age,job,hours,income\n"
    "1,39,clerk,40,low\n"
    "2,50,engineer,13,high\n"
    "3,38,clerk,45,low\n"
    "4,53,nurse,40,high\n";

DataSchema peopleSchema() {
  DataSchema schema;
  schema.labelColumn = "income";
  schema.classes = {"low", "high"};
  schema.ignoredColumns = {"id"};
  // Declared in another order than the file's, with a category the rows never use.
  schema.features = {{"hours", FeatureRange{0, 100}, {}},
                     {"job", std::nullopt, {"clerk", "engineer", "farmer", "nurse"}},
                     {"age", FeatureRange{17, 90}, {}}};
  return schema;
}

Result<Dataset> readWith(const std::string& text, const DataSchema& schema, LabelUse use = LabelUse::Training) {
  LoadOptions options;
  options.schema = schema;
  options.labelUse = use;
  return parseCsv(text, withSchemaDefaults(options), "people.csv");
}

bool anyMention(const std::vector<std::string>& lines, const std::string& what) {
  for (const std::string& line : lines)
    if (line.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

class TestIoSchema : public QObject {
  Q_OBJECT

 private slots:
  void featuresAreReadInTheSchemasOrderWithDeclaredCategories() {
    auto read = readWith(kPeople, peopleSchema());
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().toString().c_str());
    const Dataset& data = read.value();
    // hours, job=clerk, job=engineer, job=farmer, job=nurse, age: the unused "farmer" is a column.
    QCOMPARE(data.features(), Index{6});
    QCOMPARE(data.featureNames[0], std::string("hours"));
    QCOMPARE(data.featureNames[3], std::string("job=farmer"));
    QCOMPARE(data.featureNames[5], std::string("age"));
    QCOMPARE(data.X(1, 0), 13.0);
    QCOMPARE(data.X(1, 2), 1.0);  // engineer
    QCOMPARE(data.X(3, 4), 1.0);  // nurse
    QCOMPARE(data.X.col(3).sum(), 0.0);
    QCOMPARE(data.X(2, 5), 38.0);
    // Declared: nothing about the categories is marked as read off the data.
    QVERIFY(data.provenance.notPrivate.empty());
    QVERIFY(anyMention(data.provenance.steps, "declared by the schema"));
    // Without the schema the same column's categories are read off the rows, and marked.
    auto undeclared = parseCsv(kPeople, LoadOptions{}, "people.csv");
    QVERIFY(undeclared.ok());
    QVERIFY(anyMention(undeclared.value().provenance.notPrivate, "categories of column 'job'"));
  }

  void whatTheSchemaDoesNotDeclareIsRefusedByLineAndColumn() {
    auto pilot = readWith(kPeople + "5,41,pilot,40,low\n", peopleSchema());
    QVERIFY(!pilot.ok());
    QCOMPARE(pilot.error().line, 6L);
    QCOMPARE(pilot.error().field, std::string("job"));
    QVERIFY(pilot.error().message.find("'pilot'") != std::string::npos);

    DataSchema noIgnore = peopleSchema();
    noIgnore.ignoredColumns.clear();
    auto extra = readWith(kPeople, noIgnore);
    QVERIFY(!extra.ok());
    QCOMPARE(extra.error().field, std::string("id"));
    QVERIFY(extra.error().message.find("not in the schema") != std::string::npos);

    DataSchema missing = peopleSchema();
    missing.features.push_back({"education", FeatureRange{0, 20}, {}});
    auto absent = readWith(kPeople, missing);
    QVERIFY(!absent.ok());
    QVERIFY(absent.error().message.find("'education'") != std::string::npos);

    // A column declared numeric stays numeric: text in it is an error, not a category.
    auto text = readWith(kPeople + "5,forty,clerk,40,low\n", peopleSchema());
    QVERIFY(!text.ok());
    QCOMPARE(text.error().line, 6L);
    QVERIFY(text.error().message.find("numeric by the schema") != std::string::npos);
  }

  void unnamedFeaturesGoByPositionAndRowsWithoutLabelsReadToo() {
    DataSchema byPosition;
    byPosition.features = {{"", FeatureRange{0, 10}, {}}, {"", std::nullopt, {"a", "b"}}};
    auto read = readWith("1,a,0\n2,b,1\n3,a,1\n", byPosition);
    QVERIFY2(read.ok(), read.ok() ? "" : read.error().toString().c_str());
    QCOMPARE(read.value().features(), Index{3});
    auto wrongCount = readWith("1,a,7,0\n2,b,8,1\n", byPosition);
    QVERIFY(!wrongCount.ok());
    // New rows to predict: the label column the schema names is simply not there.
    auto rows = readWith("id,age,job,hours\n9,30,farmer,20\n", peopleSchema(), LabelUse::None);
    QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().toString().c_str());
    QCOMPARE(rows.value().features(), Index{6});
    QCOMPARE(rows.value().X(0, 3), 1.0);
  }

  void declaredPreprocessingCountsEachCategoricalFeatureOnce() {
    auto declared = declaredPreprocessing(peopleSchema());
    QVERIFY(declared.ok());
    QCOMPARE(declared.value().ranges.size(), std::size_t{6});
    QCOMPARE(declared.value().groups.size(), std::size_t{1});
    QCOMPARE(declared.value().groups[0], (OneHotGroup{1, 4}));
    PreprocessSpec spec;
    spec.publicRanges = declared.value().ranges;
    spec.oneHotGroups = declared.value().groups;
    // Three declared features, each adding at most 1/4 to the squared norm.
    const auto bound = derivedNormBound(spec, 6, {});
    QVERIFY(bound);
    QCOMPARE(*bound, std::sqrt(3.0) / 2);
    // The bound is the largest norm a declared row can have: a row at the corners reaches it.
    auto read = readWith(kPeople + "5,90,farmer,100,low\n", peopleSchema());
    QVERIFY(read.ok());
    auto pre = fitPreprocessor(spec, read.value());
    QVERIFY(pre.ok());
    const Eigen::MatrixXd Z = pre.value().transform(read.value().X);
    QVERIFY(Z.rowwise().norm().maxCoeff() <= 1.0);
    QVERIFY(std::abs(Z.row(4).norm() - 1.0) < 1e-12);
    // Without the groups the same ranges would count all six columns.
    spec.oneHotGroups.clear();
    QCOMPARE(*derivedNormBound(spec, 6, {}), std::sqrt(6.0) / 2);
    // With PCA the bound is the set's diameter: a group's two indicators swapped, 1/2 each.
    spec.oneHotGroups = declared.value().groups;
    spec.pcaDim = 2;
    QCOMPARE(*derivedNormBound(spec, 6, {}), std::sqrt(1.0 + 0.5 + 1.0));

    DataSchema partly = peopleSchema();
    partly.features[2].range.reset();
    QVERIFY(!declaredPreprocessing(partly).ok());
    partly.defaultRange = FeatureRange{0, 100};
    QVERIFY(declaredPreprocessing(partly).ok());
  }

  // Features by position already one-hot encoded (a9a's 14 variables over 123 columns): each
  // group counted once in the derived bound, its columns declared the indicator range, the
  // rest the feature range; read from and written to "one_hot_groups", counted from 1.
  void oneHotGroupsByPosition() {
    DataSchema schema;
    schema.featureCount = 7;
    schema.defaultRange = FeatureRange{0, 10};
    schema.oneHotGroups = {{0, 3}, {4, 2}};  // columns 1–3 and 5–6; 4 and 7 numeric
    auto declared = declaredPreprocessing(schema);
    QVERIFY(declared.ok());
    QCOMPARE(declared.value().ranges.size(), std::size_t{7});
    QCOMPARE(declared.value().ranges[1], kIndicatorRange);
    QCOMPARE(declared.value().ranges[3], (FeatureRange{0, 10}));
    QCOMPARE(declared.value().ranges[5], kIndicatorRange);
    PreprocessSpec spec;
    spec.publicRanges = declared.value().ranges;
    spec.oneHotGroups = declared.value().groups;
    QCOMPARE(*derivedNormBound(spec, 7, {}), std::sqrt(4.0) / 2);  // two groups + two numeric features

    const QJsonObject json = schemaToJson(schema);
    QCOMPARE(json["one_hot_groups"].toArray()[1].toArray(), (QJsonArray{5, 2}));
    auto back = schemaFromJson(json, "a9a.schema.json");
    QVERIFY(back.ok());
    QVERIFY(back.value() == schema);

    // Every column in a group: no feature range needed; one outside without it: refused.
    DataSchema all;
    all.featureCount = 5;
    all.oneHotGroups = {{0, 5}};
    QVERIFY(declaredPreprocessing(all).ok());
    all.oneHotGroups = {{0, 4}};
    QCOMPARE(declaredPreprocessing(all).error().field, std::string("feature_range"));
    // Overlapping, beyond the features, or beside named features: refused, naming the key.
    for (const std::vector<OneHotGroup>& groups :
         {std::vector<OneHotGroup>{{0, 3}, {2, 2}}, std::vector<OneHotGroup>{{5, 3}}}) {
      DataSchema wrong = schema;
      wrong.oneHotGroups = groups;
      QCOMPARE(wrong.validate().error().field, std::string("one_hot_groups"));
    }
    DataSchema named = peopleSchema();
    named.featureCount = 3;
    named.oneHotGroups = {{0, 2}};
    QCOMPARE(named.validate().error().field, std::string("one_hot_groups"));
    QJsonObject zeroBased = json;
    zeroBased["one_hot_groups"] = QJsonArray{QJsonArray{0, 3}};
    QCOMPARE(schemaFromJson(zeroBased, "a9a.schema.json").error().field, std::string("one_hot_groups[0]"));
  }

  void jsonRoundTripsAndRefusesWhatItDoesNotKnow() {
    const DataSchema schema = peopleSchema();
    auto back = schemaFromJson(schemaToJson(schema), "schema.json");
    QVERIFY(back.ok());
    QVERIFY(back.value() == schema);

    QJsonObject typo = schemaToJson(schema);
    QJsonArray features = typo["features"].toArray();
    QJsonObject job = features[1].toObject();
    job.remove("categories");
    job["catgories"] = QJsonArray{"a"};
    features[1] = job;
    typo["features"] = features;
    auto refused = schemaFromJson(typo, "schema.json");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().field, std::string("features[1].catgories"));
    QCOMPARE(refused.error().source, std::string("schema.json"));

    QJsonObject badRange = schemaToJson(schema);
    QJsonArray f2 = badRange["features"].toArray();
    f2[0] = QJsonObject{{"name", "hours"}, {"range", QJsonArray{5, 5}}};
    badRange["features"] = f2;
    auto bad = schemaFromJson(badRange, "schema.json");
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().field, std::string("features[0].range"));

    QJsonObject noVersion = schemaToJson(schema);
    noVersion.remove("dpstudio_schema");
    QVERIFY(!schemaFromJson(noVersion, "schema.json").ok());

    // Classes written as bare numbers are their spelling in the file.
    QJsonObject numeric{{"dpstudio_schema", 1}, {"classes", QJsonArray{0, 1}}};
    auto classes = schemaFromJson(numeric, "schema.json");
    QVERIFY(classes.ok());
    QCOMPARE(classes.value().classes, (std::vector<std::string>{"0", "1"}));
  }

  void aDraftReadsTheFileBackTheSameAndIsMarked() {
    auto plain = parseCsv(kPeople, LoadOptions{}, "people.csv");
    QVERIFY(plain.ok());
    const DataSchema draft = draftSchema(plain.value());
    QVERIFY(draft.draftedFromData);
    QCOMPARE(draft.labelColumn, std::string("income"));
    QCOMPARE(draft.features.size(), std::size_t{4});
    QCOMPARE(draft.features[2].categories, (std::vector<std::string>{"clerk", "engineer", "nurse"}));
    QCOMPARE(*draft.features[1].range, (FeatureRange{38, 53}));

    QTemporaryDir dir;
    const std::string schemaPath = dir.filePath("draft.json").toStdString();
    QVERIFY(writeSchemaFile(draft, schemaPath).ok());
    auto reread = readSchemaFile(schemaPath);
    QVERIFY(reread.ok());
    QVERIFY(reread.value() == draft);

    const std::string csvPath = dir.filePath("people.csv").toStdString();
    {
      QFile file(QString::fromStdString(csvPath));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(kPeople.c_str());
    }
    LoadOptions options;
    options.schema = reread.value();
    auto again = loadDatasetFile(csvPath, options);
    QVERIFY2(again.ok(), again.ok() ? "" : again.error().toString().c_str());
    QVERIFY(again.value().X == plain.value().X);
    QVERIFY(again.value().classNames == plain.value().classNames);
    // A draft's structure was read off the data until a person says otherwise.
    const auto& marks = again.value().provenance.structureFromData;
    QVERIFY(std::find(marks.begin(), marks.end(), kStructureDraftedSchema) != marks.end());
  }
};

QTEST_GUILESS_MAIN(TestIoSchema)
#include "test_io_schema.moc"
