// A corpus of bad bundles, made from a good one in the test (issue 12, "Tests"): each refused
// as ErrorKind::BadBundle with its own message naming the member and the problem, and no
// file written anywhere by reading.

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QByteArray>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include "core/bundle/bundle_reader.h"
#include "tests/bundle/bad_bundles.h"
#include "tests/bundle/bundle_fixtures.h"

using namespace dpstudio;
using test::Members;

namespace {

using Mutation = std::function<void(Members&, std::vector<test::RawEntry>&)>;

QByteArray npyOf(const Eigen::MatrixXd& values, bool oneD) { return bundle::writeNpy(bundle::NpyArray{values, oneD}); }

// A .npy whose header says `header` (padded as NumPy pads), followed by `dataBytes` bytes.
QByteArray npyWithHeader(const QByteArray& header, int dataBytes) {
  QByteArray text = header;
  while ((10 + text.size() + 1) % 64 != 0) text += ' ';
  text += '\n';
  QByteArray out("\x93NUMPY\x01\x00", 8);
  const quint16 length = static_cast<quint16>(text.size());
  out.append(reinterpret_cast<const char*>(&length), 2);
  return out + text + QByteArray(dataBytes, '\0');
}

void setArray(Members& m, const char* name, const QByteArray& npy) { test::member(m, name)->data = npy; }

}  // namespace

Q_DECLARE_METATYPE(Mutation)

class TestBundleRefusals : public QObject {
  Q_OBJECT

  test::BundleFolder folder_;
  Members good_;  // the members of a valid binary logistic-regression bundle (d = 4)
  Members goodPredictor_;  // a prediction-sensitivity bundle

  static Members membersOf(const bundle::BundleContents& contents, const QString& path) {
    test::orDie(bundle::writeBundle(contents, path));
    return test::orDie(bundle::readZip(path));
  }

 private slots:
  void initTestCase() {
    const auto model = test::trainRun(experiment::PrivacyPlan::nonPrivate({ModelKind::LogisticRegression, 1e-3, 0.5}),
                                      "builtin:blobs:classes=2,dim=4,separation=3,per_class=40");
    good_ = membersOf(test::exported(model), folder_.path("good.dpmodel"));
    predict::PredictionOptions o;
    o.learner = {ModelKind::LogisticRegression, 1e-2, 0.5};
    o.budget = 10;
    const auto predictor = test::trainRun(experiment::PrivacyPlan::prediction(o),
                                          "builtin:blobs:classes=2,dim=4,separation=3,per_class=40");
    goodPredictor_ = membersOf(test::exported(predictor), folder_.path("predictor.dpmodel"));
    QVERIFY(bundle::readBundle(folder_.path("good.dpmodel")));
    QVERIFY(bundle::readBundle(folder_.path("predictor.dpmodel")));
  }

  void refused_data() {
    QTest::addColumn<bool>("predictor");
    QTest::addColumn<Mutation>("mutate");
    QTest::addColumn<QString>("member");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, Mutation m, const char* member, const char* message, bool predictor = false) {
      QTest::newRow(name) << predictor << m << QString(member) << QString(message);
    };
    row("wrong checksum", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject c = j["checksums"].toObject();
        c["weights.npy"] = QString(64, 'a');
        j["checksums"] = c;
      });
    }, "weights.npy", "checksum mismatch");
    row("array bytes changed", [](Members& m, auto&) { test::member(m, "weights.npy")->data[100] ^= 1; },
        "weights.npy", "checksum mismatch");
    row("model card changed", [](Members& m, auto&) { test::member(m, "MODEL_CARD.md")->data += "forged"; },
        "MODEL_CARD.md", "checksum mismatch");
    row("missing array", [](Members& m, auto&) {
      std::erase_if(m, [](const auto& e) { return e.name == "weights.npy"; });
    }, "weights.npy", "listed in the manifest's checksums but missing");
    row("missing array, manifest edited to match", [](Members& m, auto&) {
      std::erase_if(m, [](const auto& e) { return e.name == "weights.npy"; });
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject a = j["arrays"].toObject();
        a.remove("weights");
        j["arrays"] = a;
      });
      test::resign(m);
    }, "weights.npy", "the model's parameters are missing");
    row("extra array", [](Members& m, auto&) {
      m.push_back({"extra.npy", npyOf(Eigen::VectorXd::Ones(3), true)});
      test::resign(m);
    }, "extra.npy", "extra array the manifest does not list");
    row("extra member without checksum", [](Members& m, auto&) { m.push_back({"notes.txt", "hello"}); },
        "notes.txt", "not listed in the manifest's checksums");
    row("wrong shape for the model", [](Members& m, auto&) {
      setArray(m, "weights.npy", npyOf(Eigen::VectorXd::Ones(3), true));
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject a = j["arrays"].toObject();
        QJsonObject w = a["weights"].toObject();
        w["shape"] = QJsonArray{3};
        a["weights"] = w;
        j["arrays"] = a;
      });
      test::resign(m);
    }, "weights.npy", "has shape (3,), but a binary logreg model of this bundle needs (4,)");
    row("shape differs from the manifest", [](Members& m, auto&) {
      setArray(m, "weights.npy", npyOf(Eigen::MatrixXd::Ones(2, 2), false));
      test::resign(m);
    }, "weights.npy", "has shape (2, 2), but the manifest lists [4]");
    row("NaN", [](Members& m, auto&) {
      Eigen::VectorXd w = Eigen::VectorXd::Ones(4);
      w[2] = std::nan("");
      setArray(m, "weights.npy", npyOf(w, true));
      test::resign(m);
    }, "weights.npy", "non-finite value");
    row("fortran order", [](Members& m, auto&) {
      setArray(m, "weights.npy", npyWithHeader("{'descr': '<f8', 'fortran_order': True, 'shape': (4,), }", 32));
      test::resign(m);
    }, "weights.npy", "Fortran order");
    row("float32", [](Members& m, auto&) {
      setArray(m, "weights.npy", npyWithHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 16));
      test::resign(m);
    }, "weights.npy", "dtype '<f4' is not '<f8'");
    row("three dimensions", [](Members& m, auto&) {
      setArray(m, "weights.npy", npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 2), }", 32));
      test::resign(m);
    }, "weights.npy", "3 dimensions");
    row("npy data cut short", [](Members& m, auto&) {
      test::member(m, "weights.npy")->data.chop(8);
      test::resign(m);
    }, "weights.npy", "data bytes, but shape (4,) needs 32");
    // Fuzzing (fuzz_npy): 129 bytes whose header claims 707604980 values; the reader used to
    // allocate 5.7 GB for them before comparing the shape with the data.
    row("npy shape far beyond its data", [](Members& m, auto&) {
      QFile file(DPSTUDIO_FIXTURES_DIR "/malformed/npy_huge_shape.npy");
      QVERIFY(file.open(QIODevice::ReadOnly));
      setArray(m, "weights.npy", file.readAll());
      test::resign(m);
    }, "weights.npy", "holds 1 data bytes, but shape (707604980,) needs 5660839840");
    row("unknown version", [](Members& m, auto&) { test::editManifest(m, [](QJsonObject& j) { j["version"] = 3; }); },
        "manifest.json", "version 3 is not supported");
    row("wrong format name", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) { j["format"] = "someone-else"; });
    }, "manifest.json", "format 'someone-else' is not 'dpstudio-model'");
    row("manifest not JSON", [](Members& m, auto&) { test::member(m, "manifest.json")->data = "{ not json"; },
        "manifest.json", "is not JSON");
    row("manifest lacks privacy", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) { j.remove("privacy"); });
    }, "manifest.json", "lacks the \"privacy\" object");
    row("manifest missing", [](Members& m, auto&) {
      std::erase_if(m, [](const auto& e) { return e.name == "manifest.json"; });
    }, "manifest.json", "is missing");
    row("tampered manifest: input dimension", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject model = j["model"].toObject();
        model["input_dim"] = 7;
        j["model"] = model;
      });
    }, "manifest.json", "the model reads 7 features but the preprocessing gives 4");
    row("tampered manifest: unknown kind", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) { j["kind"] = "oracle"; });
    }, "manifest.json", "kind 'oracle' is not model");
    row("tampered budget: more answers used than the budget", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject inference = j["inference"].toObject();
        inference["answers_used"] = 11;
        j["inference"] = inference;
      });
    }, "manifest.json", "answers_used 11 is outside 0..10", true);
    row("tampered calibration: beta", [](Members& m, auto&) {
      test::editManifest(m, [](QJsonObject& j) {
        QJsonObject privacy = j["privacy"].toObject();
        QJsonObject derived = privacy["derived"].toObject();
        derived["beta"] = derived["beta"].toDouble() * 100;
        privacy["derived"] = derived;
        j["privacy"] = privacy;
      });
    }, "manifest.json", "the stored beta does not match", true);
    row("parent-directory member", [](Members& m, auto&) { m.push_back({"../evil.npy", "x"}); },
        "../evil.npy", "'..' component");
    row("absolute member", [](Members& m, auto&) { m.push_back({"/tmp/dpstudio-evil.npy", "x"}); },
        "/tmp/dpstudio-evil.npy", "absolute member path");
    row("duplicate member", [](Members& m, auto&) { m.push_back(*test::member(m, "weights.npy")); },
        "weights.npy", "appears twice");
    // 3 GiB of zeros in ~3 MB, declared honestly: refused before inflating anything.
    row("bomb, declared size", [](Members&, std::vector<test::RawEntry>& raw) {
      raw.push_back({"bomb.npy", test::zeroBomb(3072), 0, 3u << 30});
    }, "bomb.npy", "declares an uncompressed size of 3221225472 bytes, beyond the limit");
    // The same stream declaring 1000 bytes: refused as soon as inflating passes 1000 bytes.
    row("bomb, lying declared size", [](Members&, std::vector<test::RawEntry>& raw) {
      raw.push_back({"bomb.npy", test::zeroBomb(3072), 0, 1000});
    }, "bomb.npy", "inflates to more than its declared size of 1000 bytes");
  }

  void refused() {
    QFETCH(bool, predictor);
    QFETCH(Mutation, mutate);
    QFETCH(QString, member);
    QFETCH(QString, message);
    Members members = predictor ? goodPredictor_ : good_;
    std::vector<test::RawEntry> raw;
    mutate(members, raw);
    test::BundleFolder folder;
    const QString path = folder.path("bad.dpmodel");
    test::writeZip(path, members, raw);
    const QStringList before = folder.entries();
    QElapsedTimer timer;
    timer.start();
    auto loaded = bundle::readBundle(path);
    QVERIFY2(timer.elapsed() < 10000, "refusing took too long (inflated the bomb?)");
    QVERIFY(!loaded);
    const Error& error = loaded.error();
    QCOMPARE(error.kind, ErrorKind::BadBundle);
    QCOMPARE(QString::fromStdString(error.field), member);
    QVERIFY2(QString::fromStdString(error.message).contains(message), error.toString().c_str());
    // The message a user sees names the file and the member.
    QVERIFY(QString::fromStdString(error.toString()).startsWith(path + ": " + member + ": "));
    // Reading wrote nothing: not in the folder, not beside it, not where a path pointed.
    QCOMPARE(folder.entries(), before);
    QVERIFY(!QFile::exists(QDir(folder.path("..")).filePath("evil.npy")));
    QVERIFY(!QFile::exists("/tmp/dpstudio-evil.npy"));
  }

  void truncatedZipIsRefused_data() {
    QTest::addColumn<double>("keep");
    QTest::newRow("half") << 0.5;
    QTest::newRow("all but the last 10 bytes") << -10.0;
    QTest::newRow("empty") << 0.0;
  }
  void truncatedZipIsRefused() {
    QFETCH(double, keep);
    QFile good(folder_.path("good.dpmodel"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    QByteArray bytes = good.readAll();
    bytes = keep < 0 ? bytes.chopped(static_cast<qsizetype>(-keep)) : bytes.left(static_cast<qsizetype>(bytes.size() * keep));
    test::BundleFolder folder;
    const QString path = folder.path("cut.dpmodel");
    QFile cut(path);
    QVERIFY(cut.open(QIODevice::WriteOnly));
    cut.write(bytes);
    cut.close();
    auto loaded = bundle::readBundle(path);
    QVERIFY(!loaded);
    QCOMPARE(loaded.error().kind, ErrorKind::BadBundle);
    QVERIFY2(QString::fromStdString(loaded.error().message).contains("not a zip archive, or a truncated one"),
             loaded.error().toString().c_str());
  }

  void missingFileIsRefused() {
    auto loaded = bundle::readBundle(folder_.path("nowhere.dpmodel"));
    QVERIFY(!loaded);
    QCOMPARE(loaded.error().kind, ErrorKind::BadBundle);
    QCOMPARE(loaded.error().message, std::string("no such file"));
  }

  // Fuzzing (fuzz_npy): a 128-byte .npy of shape (719805447, 0) is a valid empty array; reading
  // it (and writing it back) used to walk its 7 * 10^8 empty rows.
  void emptyArrayWithHugeRowCountIsReadAtOnce() {
    QFile file(DPSTUDIO_FIXTURES_DIR "/malformed/npy_empty_huge_rows.npy");
    QVERIFY(file.open(QIODevice::ReadOnly));
    QElapsedTimer timer;
    timer.start();
    auto array = bundle::readNpy(file.readAll(), "empty.npy");
    QVERIFY(array);
    QCOMPARE(array.value().values.rows(), Eigen::Index{719805447});
    QCOMPARE(array.value().values.cols(), Eigen::Index{0});
    auto again = bundle::readNpy(bundle::writeNpy(array.value()), "empty.npy");
    QVERIFY(again && again.value() == array.value());
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString("took %1 ms").arg(timer.elapsed())));
  }

  // The caps hold for members that are not bombs too: a limit below a real member refuses it.
  void limitsApplyToHonestMembers() {
    bundle::ZipLimits tight;
    tight.maxMemberBytes = 64;
    auto loaded = bundle::readBundle(folder_.path("good.dpmodel"), tight);
    QVERIFY(!loaded);
    QVERIFY(QString::fromStdString(loaded.error().message).contains("beyond the limit of 64"));
    bundle::ZipLimits few;
    few.maxMembers = 2;
    loaded = bundle::readBundle(folder_.path("good.dpmodel"), few);
    QVERIFY(!loaded);
    QVERIFY(QString::fromStdString(loaded.error().message).contains("more than the 2 a bundle may have"));
  }
};

QTEST_GUILESS_MAIN(TestBundleRefusals)
#include "test_bundle_refusals.moc"
