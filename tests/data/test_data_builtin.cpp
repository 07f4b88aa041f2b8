// Built-in datasets and generators: shapes, class names, determinism, option errors.

#include <QList>
#include <QStringList>
#include <QTest>


#include "core/linalg/symmetric_eigen.h"
#include "core/sources/builtin.h"
#include "core/sources/source.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

class TestDataBuiltin : public QObject {
  Q_OBJECT

 private slots:
  void shippedDatasets_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("features");
    QTest::addColumn<QStringList>("classNames");
    QTest::addColumn<QList<int>>("counts");
    QTest::newRow("iris") << "builtin:iris" << 150 << 4
                          << QStringList{"setosa", "versicolor", "virginica"} << QList<int>{50, 50, 50};
    QTest::newRow("wine") << "builtin:wine" << 178 << 13
                          << QStringList{"class_0", "class_1", "class_2"} << QList<int>{59, 71, 48};
    QTest::newRow("breast_cancer") << "builtin:breast_cancer" << 569 << 30
                                   << QStringList{"malignant", "benign"} << QList<int>{212, 357};
    QTest::newRow("digits") << "builtin:digits" << 1797 << 64
                            << QStringList{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
                            << QList<int>{178, 182, 177, 183, 181, 182, 181, 179, 174, 180};
  }

  void shippedDatasets() {
    QFETCH(QString, spec);
    QFETCH(int, rows);
    QFETCH(int, features);
    QFETCH(QStringList, classNames);
    QFETCH(QList<int>, counts);
    auto loaded = openDataset(spec.toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    const Dataset& data = loaded.value();
    QCOMPARE(data.rows(), rows);
    QCOMPARE(data.features(), features);
    QCOMPARE(static_cast<int>(data.featureNames.size()), features);
    QCOMPARE(data.classes(), classNames.size());
    for (int k = 0; k < classNames.size(); ++k) {
      QCOMPARE(QString::fromStdString(data.classNames[static_cast<std::size_t>(k)]), classNames[k]);
      QCOMPARE(data.classCounts()[static_cast<std::size_t>(k)], counts[k]);
    }
    QCOMPARE(QString::fromStdString(data.provenance.source), spec);
  }

  void irisFirstRowIsFisher() {
    auto data = openDataset("builtin:iris").value();
    QCOMPARE(data.X(0, 0), 5.1);
    QCOMPARE(data.X(0, 3), 0.2);
    QCOMPARE(QString::fromStdString(data.featureNames[2]), QString("petal length (cm)"));
  }

  void generatorsAreSeeded_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("otherSeed");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("features");
    QTest::addColumn<int>("classes");
    QTest::newRow("blobs default") << "builtin:blobs" << "builtin:blobs:seed=2" << 300 << 2 << 3;
    QTest::newRow("blobs 5 classes in 7-D")
        << "builtin:blobs:classes=5,dim=7,per_class=40" << "builtin:blobs:classes=5,dim=7,per_class=40,seed=9"
        << 200 << 7 << 5;
    QTest::newRow("moons") << "builtin:moons" << "builtin:moons:seed=3" << 300 << 2 << 2;
    QTest::newRow("xor") << "builtin:xor:per_class=50" << "builtin:xor:per_class=50,seed=4" << 100 << 2 << 2;
  }

  void generatorsAreSeeded() {
    QFETCH(QString, spec);
    QFETCH(QString, otherSeed);
    QFETCH(int, rows);
    QFETCH(int, features);
    QFETCH(int, classes);
    const Dataset a = openDataset(spec.toStdString()).value();
    const Dataset b = openDataset(spec.toStdString()).value();
    const Dataset c = openDataset(otherSeed.toStdString()).value();
    QCOMPARE(a.rows(), rows);
    QCOMPARE(a.features(), features);
    QCOMPARE(a.classes(), classes);
    QVERIFY(a.X == b.X);  // bit for bit
    QVERIFY(a.y == b.y);
    QVERIFY(!(a.X == c.X));
  }

  // The blobs' class means sit near the centres the generator promises: neighbours are
  // `separation` apart on a circle.
  void blobsCentresAreSeparated() {
    BlobsOptions options;
    options.classes = 4;
    options.perClass = 4000;
    options.separation = 5.0;
    const Dataset data = makeBlobs(options);
    std::vector<Eigen::RowVectorXd> means;
    for (int c = 0; c < 4; ++c) {
      Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(2);
      for (Index i = 0; i < data.rows(); ++i)
        if (data.y[i] == c) sum += data.X.row(i);
      means.push_back(sum / options.perClass);
    }
    for (int c = 0; c < 4; ++c) {
      const double gap = (means[static_cast<std::size_t>(c)] - means[static_cast<std::size_t>((c + 1) % 4)]).norm();
      QVERIFY2(std::abs(gap - 5.0) < 0.1, qPrintable(QString::number(gap)));
    }
  }

  // Each class of blobs gets its own covariance, so the shapes differ between classes.
  void blobsClassesHaveDifferentCovariances() {
    BlobsOptions options;
    options.classes = 2;
    options.perClass = 5000;
    options.anisotropy = 4.0;
    const Dataset data = makeBlobs(options);
    Eigen::Matrix2d cov[2];
    for (int c = 0; c < 2; ++c) {
      Eigen::MatrixXd rows(options.perClass, 2);
      Index k = 0;
      for (Index i = 0; i < data.rows(); ++i)
        if (data.y[i] == c) rows.row(k++) = data.X.row(i);
      const Eigen::MatrixXd centred = rows.rowwise() - rows.colwise().mean();
      cov[c] = centred.transpose() * centred / (options.perClass - 1);
      // Largest to smallest σ is the anisotropy: eigenvalue ratio 16.
      const Eigen::Vector2d values = symmetricEigen2x2(cov[c]).values;
      const double ratio = values[1] / values[0];
      QVERIFY2(ratio > 13.0 && ratio < 19.5, qPrintable(QString::number(ratio)));
    }
    QVERIFY((cov[0] - cov[1]).norm() > 0.2);
  }

  void badSpecs_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("field");
    QTest::newRow("unknown name") << "builtin:nope" << "unknown built-in dataset 'nope'" << "";
    QTest::newRow("unknown option") << "builtin:blobs:colour=3" << "unknown option 'colour'" << "colour";
    QTest::newRow("not a number") << "builtin:blobs:classes=three" << "classes must be a number" << "classes";
    QTest::newRow("out of range") << "builtin:moons:per_class=0" << "per_class must be a number" << "per_class";
    QTest::newRow("no value") << "builtin:xor:noise" << "expected key=value" << "";
    QTest::newRow("options on a dataset") << "builtin:iris:seed=1" << "take no options" << "";
  }

  void badSpecs() {
    QFETCH(QString, spec);
    QFETCH(QString, message);
    QFETCH(QString, field);
    auto loaded = openDataset(spec.toStdString());
    QVERIFY(!loaded.ok());
    QCOMPARE(loaded.error().kind, ErrorKind::BadData);
    QVERIFY2(QString::fromStdString(loaded.error().message).contains(message),
             loaded.error().toString().c_str());
    QCOMPARE(QString::fromStdString(loaded.error().field), field);
  }

  void catalogListsEverything() {
    QStringList names;
    for (const auto& info : builtinCatalog()) names << QString::fromStdString(info.name);
    QCOMPARE(names, (QStringList{"iris", "wine", "breast_cancer", "digits", "blobs", "moons", "xor"}));
  }
};

QTEST_GUILESS_MAIN(TestDataBuiltin)
#include "test_data_builtin.moc"
