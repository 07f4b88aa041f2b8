// docs/formats/bundle-format.md's NumPy-only snippet, run by /usr/bin/python3 on bundles that
// `dpstudio-cli train --out` wrote, predicts exactly what `dpstudio-cli predict` does
// (issue 12, "Interoperability, tested"). Skipped only when NumPy is missing.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QIODevice>
#include <QJsonValue>
#include <QSet>
#include <QStringList>
#include <QTest>

#include "core/sources/source.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

const QString kPython = "/usr/bin/python3";

QString snippetFromDocs() {
  QFile doc(QStringLiteral(DPSTUDIO_SOURCE_DIR) + "/docs/formats/bundle-format.md");
  if (!doc.open(QIODevice::ReadOnly)) return {};
  const QString text = QString::fromUtf8(doc.readAll());
  const QRegularExpression block("```python\\n(.*?)```", QRegularExpression::DotMatchesEverythingOption);
  const auto match = block.match(text);
  return match.hasMatch() ? match.captured(1) : QString();
}

// The rows of a built-in dataset as a CSV file with a header and the class name last.
void writeCsv(const QString& path, const Dataset& data) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) qFatal("cannot write %s", qPrintable(path));
  QStringList header;
  for (Index j = 0; j < data.features(); ++j) header << QString("f%1").arg(j + 1);
  file.write((header.join(',') + ",label\n").toUtf8());
  for (Index i = 0; i < data.rows(); ++i) {
    QStringList row;
    for (Index j = 0; j < data.features(); ++j) row << QString::number(data.X(i, j), 'g', 17);
    row << QString::fromStdString(data.classNames[static_cast<std::size_t>(data.y[i])]);
    file.write((row.join(',') + "\n").toUtf8());
  }
}

}  // namespace

class TestBundleNumpy : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QProcess probe;
    probe.start(kPython, {"-c", "import numpy"});
    if (!probe.waitForFinished(30000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
      QSKIP("python3-numpy is not installed (installer/deps.sh installs it)");
    const QString snippet = snippetFromDocs();
    QVERIFY2(snippet.contains("def predict("), "no python block with predict() in docs/formats/bundle-format.md");
    QFile script(dir_.filePath("predict.py"));
    QVERIFY(script.open(QIODevice::WriteOnly | QIODevice::Text));
    script.write(snippet.toUtf8());
    script.write("\n\nif __name__ == '__main__':\n"
                 "    import sys\n"
                 "    manifest, arrays = load_bundle(sys.argv[1])\n"
                 "    rows = np.loadtxt(sys.argv[2], delimiter=',', skiprows=1,\n"
                 "                      usecols=range(manifest['input_dim']), ndmin=2)\n"
                 "    print('\\n'.join(predict(manifest, arrays, rows)))\n");
  }

  void snippetMatchesCli_data() {
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("train");
    const QString binary = "builtin:blobs:classes=2,dim=4,separation=1,per_class=80";
    QTest::newRow("logreg, output") << binary << QStringList{"--model", "logreg", "--mechanism", "output", "--unit-rows"};
    QTest::newRow("logreg, rff, ranges, projection, norm bound, intercept")
        << binary
        << QStringList{"--model", "logreg", "--mechanism", "objective", "--feature-range", "-10,10", "--project", "3",
                       "--norm-bound", "1", "--rff-dim", "30", "--rff-gamma", "2", "--intercept"};
    QTest::newRow("logreg, ranges with the derived norm bound")
        << binary << QStringList{"--model", "logreg", "--mechanism", "objective", "--feature-range", "-6,6"};
    QTest::newRow("huber one-vs-rest, objective")
        << "builtin:iris" << QStringList{"--model", "huber", "--mechanism", "objective", "--unit-rows", "--epsilon", "5"};
    QTest::newRow("softmax, loss, pca") << "builtin:wine"
                                        << QStringList{"--model", "softmax", "--mechanism", "loss", "--pca", "5",
                                                       "--unit-rows", "--epsilon", "5"};
    QTest::newRow("lmgc, dplmgc") << "builtin:iris"
                                  << QStringList{"--model", "lmgc", "--mechanism", "dplmgc", "--unit-rows"};
    QTest::newRow("lmgc mixture, non-private")
        << "builtin:iris" << QStringList{"--model", "lmgc", "--components", "2", "--mechanism", "none", "--unit-rows"};
    QTest::newRow("softmax, non-private") << "builtin:iris"
                                          << QStringList{"--model", "softmax", "--mechanism", "none", "--unit-rows"};
    QTest::newRow("multiparty") << binary
                                << QStringList{"--model", "logreg", "--mechanism", "multiparty", "--parties", "3",
                                               "--unit-rows", "--lambda", "0.01"};
  }

  void snippetMatchesCli() {
    QFETCH(QString, data);
    QFETCH(QStringList, train);
    const QString name = QString(QTest::currentDataTag()).replace(QRegularExpression("[^a-z]+"), "_");
    const QString bundle = dir_.filePath(name + ".dpmodel");
    const QString csv = dir_.filePath(name + ".csv");
    writeCsv(csv, test::orDie(openDataset(data.toStdString())));

    // Seeded noise: the snippet is compared with the CLI on a replayable model whose answers are
    // not all one class (a release-noise draw sometimes is, at these ε).
    const auto trained = test::runCli(
        QStringList{"train", "--train", data, "--out", bundle, "--noise", "experiment", "--json"} + train);
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const auto cli = test::runCli({"predict", "--model", bundle, "--data", csv, "--label-column", "label", "--json"});
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    QStringList expected;
    for (const QJsonValue& label : cli.json()["predictions"].toArray()) expected << label.toString();

    QProcess python;
    python.start(kPython, {dir_.filePath("predict.py"), bundle, csv});
    QVERIFY(python.waitForFinished(60000));
    QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    const QStringList numpy = QString::fromUtf8(python.readAllStandardOutput()).trimmed().split('\n');
    QCOMPARE(numpy.size(), expected.size());
    QCOMPARE(numpy, expected);
    // A model that predicts one class would prove little.
    QVERIFY(QSet<QString>(expected.begin(), expected.end()).size() > 1);
  }
};

QTEST_GUILESS_MAIN(TestBundleNumpy)
#include "test_bundle_numpy.moc"
