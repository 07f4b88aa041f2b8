// Train → export → write → read → identical predictions and identical contents, for every
// model and mechanism kind (issue 12, "Round trip"), and what a bundle must never hold.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTest>

#include "tests/bundle/bundle_fixtures.h"

using namespace dpstudio;
using experiment::PrivacyPlan;
using mech::MechanismKind;

namespace {

constexpr const char* kBinary = "builtin:blobs:classes=2,dim=4,separation=3,per_class=80";
constexpr const char* kIris = "builtin:iris";

bool bitIdentical(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0);
}

PrivacyPlan tunedPlan() {
  mech::MechanismOptions o;
  o.kind = MechanismKind::Output;
  o.learner = {ModelKind::LogisticRegression, 1e-2, 0.5};
  o.epsilon = 2.0;
  return PrivacyPlan::training(o, {1e-3, 1e-2, 1e-1});
}

PrivacyPlan predictionPlan(predict::PredictionKind kind, ModelKind model, bool gaussian = false) {
  predict::PredictionOptions o;
  o.kind = kind;
  o.learner = {model, 1e-2, 0.5};
  o.epsilon = 2.0;
  o.budget = 30;
  o.teachers = 6;
  if (gaussian) {
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
  }
  return PrivacyPlan::prediction(o);
}

PrivacyPlan multipartyPlan() {
  multiparty::MultipartyOptions o;
  o.lambda = 1e-2;
  o.epsilon = 2.0;
  o.parties = 3;
  return PrivacyPlan::multiparty(o);
}

PreprocessSpec featureMapPipeline() {
  PreprocessSpec spec;
  spec.publicRanges = {{-10.0, 10.0}};
  spec.projectionDim = 3;
  spec.normBound = 1.0;
  spec.randomFeatures = RandomFeaturesSpec{40, 0.5, 9};
  spec.intercept = true;
  return spec;
}

PreprocessSpec pcaPipeline() {
  PreprocessSpec spec;
  spec.pcaDim = 2;
  spec.unitRows = true;
  return spec;
}

// Keys whose presence anywhere in a bundle would leak what the data or the noise did.
const QStringList kForbiddenKeys = {"noise_norm", "noise_norms", "gradient_norm", "train_accuracy", "test_accuracy",
                                    "objective", "iterations", "rows_clipped", "mean_step_noise_norm",
                                    "distance_to_all_data", "dataset", "termination"};

void collectKeys(const QJsonValue& value, QStringList& keys) {
  if (value.isObject()) {
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
      keys << it.key();
      collectKeys(it.value(), keys);
    }
  } else if (value.isArray()) {
    for (const QJsonValue& item : value.toArray()) collectKeys(item, keys);
  }
}

}  // namespace

Q_DECLARE_METATYPE(PrivacyPlan)
Q_DECLARE_METATYPE(PreprocessSpec)

class TestBundleRoundTrip : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip_data() {
    QTest::addColumn<PrivacyPlan>("plan");
    QTest::addColumn<QString>("data");
    QTest::addColumn<PreprocessSpec>("preprocess");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("structure");
    const PreprocessSpec unit = test::unitRows();
    auto none = [](ModelKind m) { return PrivacyPlan::nonPrivate({m, m == ModelKind::Lmgc ? 1e-2 : 1e-3, 0.5}); };
    QTest::newRow("none logreg") << none(ModelKind::LogisticRegression) << kBinary << unit << "model" << "binary";
    QTest::newRow("none huber one-vs-rest") << none(ModelKind::HuberSvm) << kIris << unit << "model" << "one-vs-rest";
    QTest::newRow("none softmax") << none(ModelKind::Softmax) << kIris << unit << "model" << "multiclass";
    QTest::newRow("none lmgc") << none(ModelKind::Lmgc) << kIris << unit << "model" << "lmgc";
    QTest::newRow("output logreg") << test::mechanismPlan(MechanismKind::Output, ModelKind::LogisticRegression)
                                   << kBinary << unit << "model" << "binary";
    QTest::newRow("output gaussian softmax")
        << test::mechanismPlan(MechanismKind::Output, ModelKind::Softmax, 1e-2, 1e-5) << kIris << unit << "model"
        << "multiclass";
    QTest::newRow("output lmgc") << test::mechanismPlan(MechanismKind::Output, ModelKind::Lmgc) << kIris << unit
                                 << "model" << "lmgc";
    QTest::newRow("output huber one-vs-rest") << test::mechanismPlan(MechanismKind::Output, ModelKind::HuberSvm)
                                              << kIris << unit << "model" << "one-vs-rest";
    QTest::newRow("objective logreg") << test::mechanismPlan(MechanismKind::Objective, ModelKind::LogisticRegression)
                                      << kBinary << unit << "model" << "binary";
    QTest::newRow("objective huber one-vs-rest") << test::mechanismPlan(MechanismKind::Objective, ModelKind::HuberSvm)
                                                 << kIris << unit << "model" << "one-vs-rest";
    QTest::newRow("loss softmax") << test::mechanismPlan(MechanismKind::Loss, ModelKind::Softmax) << kIris << unit
                                  << "model" << "multiclass";
    QTest::newRow("dplmgc") << test::mechanismPlan(MechanismKind::DpLmgc, ModelKind::Lmgc) << kIris << unit << "model"
                            << "lmgc";
    QTest::newRow("dpsgd softmax") << test::mechanismPlan(MechanismKind::DpSgd, ModelKind::Softmax, 1e-2, 1e-5)
                                   << kIris << unit << "model" << "multiclass";
    QTest::newRow("dpsgd lmgc") << test::mechanismPlan(MechanismKind::DpSgd, ModelKind::Lmgc, 1e-2, 1e-5) << kIris
                                << unit << "model" << "lmgc";
    QTest::newRow("tuned output") << tunedPlan() << kBinary << unit << "model" << "binary";
    QTest::newRow("rff, projection, ranges, intercept")
        << test::mechanismPlan(MechanismKind::Output, ModelKind::LogisticRegression) << kBinary
        << featureMapPipeline() << "model" << "binary";
    QTest::newRow("pca (not private)") << test::mechanismPlan(MechanismKind::Output, ModelKind::Softmax) << kIris
                                       << pcaPipeline() << "model" << "multiclass";
    QTest::newRow("multiparty") << multipartyPlan() << kBinary << unit << "model" << "binary";
    QTest::newRow("prediction sensitivity logreg")
        << predictionPlan(predict::PredictionKind::Sensitivity, ModelKind::LogisticRegression) << kBinary << unit
        << "prediction-sensitivity" << "binary";
    QTest::newRow("prediction sensitivity gaussian softmax")
        << predictionPlan(predict::PredictionKind::Sensitivity, ModelKind::Softmax, true) << kIris << unit
        << "prediction-sensitivity" << "multiclass";
    QTest::newRow("subsample-and-aggregate lmgc")
        << predictionPlan(predict::PredictionKind::Subsample, ModelKind::Lmgc) << kIris << unit
        << "subsample-aggregate" << "lmgc";
    QTest::newRow("subsample-and-aggregate with rff")
        << predictionPlan(predict::PredictionKind::Subsample, ModelKind::LogisticRegression) << kBinary
        << featureMapPipeline() << "subsample-aggregate" << "binary";
  }

  void roundTrip() {
    QFETCH(PrivacyPlan, plan);
    QFETCH(QString, data);
    QFETCH(PreprocessSpec, preprocess);
    QFETCH(QString, kind);
    QFETCH(QString, structure);
    test::TrainedRun trained = test::trainRun(plan, data.toStdString(), preprocess);
    const bundle::BundleContents contents = test::exported(trained);
    QCOMPARE(contents.manifest["kind"].toString(), kind);
    QCOMPARE(contents.manifest["model"].toObject()["structure"].toString(), structure);

    test::BundleFolder folder;
    const QString path = folder.path("m.dpmodel");
    QVERIFY(bundle::writeBundle(contents, path));
    auto loaded = bundle::readBundle(path);
    QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
    bundle::LoadedBundle& back = loaded.value();
    QVERIFY(back.contents == contents);  // manifest, arrays (bit for bit) and model card
    QCOMPARE(back.classNames, trained.data.train.classNames);
    // The preprocessing read back transforms raw rows bit for bit as the run did.
    QVERIFY(bitIdentical(back.preprocessor.transform(trained.rawTest), trained.data.test.X));

    const Eigen::MatrixXd& X = trained.data.test.X;
    if (kind == "model") {
      const TrainedModel& model = plan.isPrivate() ? trained.run.release->model : trained.run.baseline.model;
      privacy::ExperimentNoise unused(1);
      auto predicted = test::orDie(bundle::predict(back, trained.rawTest, unused));
      QVERIFY(bitIdentical(predicted.scores, model.model->scores(model.theta, X)));
      QVERIFY(predicted.labels == model.model->predict(model.theta, X));
      QCOMPARE(predicted.answersSpent, 0LL);
      QVERIFY(!back.stateful());
      return;
    }
    // A stateful predictor: the same non-private parameters, the same budget left, and the
    // same answers from the same noise as the predictor in memory.
    QVERIFY(back.stateful());
    auto& inMemory = trained.run.prediction->predictor;
    const long long remaining = trained.run.prediction->remaining();
    QCOMPARE(*back.budgetRemaining(), remaining);
    QCOMPARE(contents.manifest["inference"].toObject()["budget_remaining"].toInteger(), remaining);
    const Eigen::MatrixXd few = trained.rawTest.topRows(5);
    privacy::ExperimentNoise fromBundle(77), fromMemory(77);
    auto predicted = test::orDie(bundle::predict(back, few, fromBundle));
    QCOMPARE(predicted.answersSpent, 5LL);
    QCOMPARE(*back.budgetRemaining(), remaining - 5);
    if (auto* f = std::get_if<predict::PrivatePredictor>(&inMemory)) {
      const auto* restored = std::get_if<predict::PrivatePredictor>(&back.predictor);
      QVERIFY(bitIdentical(restored->theta(), f->theta()));
      auto answers = test::orDie(f->answerRows(X.topRows(5), fromMemory));
      for (Index i = 0; i < 5; ++i) {
        QCOMPARE(predicted.labels[i], static_cast<int>(answers[static_cast<std::size_t>(i)].label));
        QVERIFY(bitIdentical(predicted.scores.row(i).transpose(), answers[static_cast<std::size_t>(i)].scores));
      }
    } else {
      auto& g = std::get<predict::SubsampleAggregate>(inMemory);
      const auto& restored = std::get<predict::SubsampleAggregate>(back.predictor);
      QVERIFY(restored.teachers().votes(X) == g.teachers().votes(X));
      QCOMPARE(restored.beta(), g.beta());
      auto answers = test::orDie(g.answerRows(X.topRows(5), fromMemory));
      for (Index i = 0; i < 5; ++i)
        QCOMPARE(predicted.labels[i], static_cast<int>(answers[static_cast<std::size_t>(i)].label));
    }
    // The count travels: written back and read again, the predictor continues from it.
    QVERIFY(bundle::writeBundle(bundle::currentContents(back), path));
    auto again = test::orDie(bundle::readBundle(path));
    QCOMPARE(*again.budgetRemaining(), remaining - 5);
    QCOMPARE(again.contents.manifest["inference"].toObject()["answers_used"].toInteger(),
             *again.budget() - (remaining - 5));
    QVERIFY(again.contents.modelCard.contains(
        QString("%1 of the %2 answers have been given").arg(*again.budget() - (remaining - 5)).arg(*again.budget())));
  }

  // Issue 12: nothing measured on the private data or the drawn noise goes into a bundle.
  void nothingDerivedFromTheData_data() { roundTrip_data(); }
  void nothingDerivedFromTheData() {
    QFETCH(PrivacyPlan, plan);
    QFETCH(QString, data);
    QFETCH(PreprocessSpec, preprocess);
    const test::TrainedRun trained = test::trainRun(plan, data.toStdString(), preprocess);
    const bundle::BundleContents contents = test::exported(trained);
    QStringList keys;
    collectKeys(contents.manifest, keys);
    for (const QString& forbidden : kForbiddenKeys)
      QVERIFY2(!keys.contains(forbidden), qPrintable("the manifest holds '" + forbidden + "'"));
    const QString card = contents.modelCard.toLower();
    // (The card may say that `predict` reports the accuracy on the user's own labelled data.)
    for (const char* measured : {"train accuracy", "training accuracy", "test accuracy", "objective value"})
      QVERIFY2(!card.contains(measured), measured);
    QVERIFY(!card.contains("noise norm") && !card.contains("noise drawn"));
    // Arrays: the parameters, the data-independent draws and PCA only; never rows.
    for (const auto& [name, array] : contents.arrays) {
      QVERIFY2(array.values.rows() != trained.data.train.rows() || name == "teachers",
               ("array " + name + " has one row per training example").c_str());
      const QJsonObject info = contents.manifest["arrays"].toObject()[QString::fromStdString(name)].toObject();
      QVERIFY2(info["private"].isBool(), ("array " + name + " is not marked private or not").c_str());
    }
    const QJsonObject privacy = contents.manifest["privacy"].toObject();
    QCOMPARE(privacy["adjacency"].toString(), QString("substitution of one training example"));
    // Non-private parts are marked so.
    if (!plan.isPrivate()) {
      QVERIFY(!privacy["private"].toBool());
      QVERIFY(!privacy["not_private"].toArray().isEmpty());
    }
    if (preprocess.pcaDim) {
      QVERIFY(!privacy["private"].toBool());
      QVERIFY(!contents.manifest["preprocessing"].toObject()["private"].toBool());
      QVERIFY(!contents.manifest["arrays"].toObject()["pca_basis"].toObject()["private"].toBool());
    }
    if (contents.manifest["kind"].toString() != "model") {
      const QString parameters = contents.manifest["model"].toObject()["parameters"].toString();
      QVERIFY(!contents.manifest["arrays"].toObject()[parameters].toObject()["private"].toBool());
      QVERIFY(contents.manifest["inference"].toObject()["budget"].toInteger() > 0);
    }
  }

  // Release mode (issue 12): no drawn noise norm in the report, so none can reach a bundle, a
  // ledger or the CLI's JSON; the calibration stays.
  void releaseModeReportsCarryNoNoiseNorm_data() {
    QTest::addColumn<PrivacyPlan>("plan");
    QTest::addColumn<QString>("data");
    QTest::newRow("output") << test::mechanismPlan(MechanismKind::Output, ModelKind::LogisticRegression) << kBinary;
    QTest::newRow("objective") << test::mechanismPlan(MechanismKind::Objective, ModelKind::LogisticRegression)
                               << kBinary;
    QTest::newRow("loss") << test::mechanismPlan(MechanismKind::Loss, ModelKind::Softmax) << kIris;
    QTest::newRow("dplmgc") << test::mechanismPlan(MechanismKind::DpLmgc, ModelKind::Lmgc) << kIris;
    QTest::newRow("dpsgd") << test::mechanismPlan(MechanismKind::DpSgd, ModelKind::Softmax, 1e-2, 1e-5) << kIris;
    QTest::newRow("multiparty") << multipartyPlan() << kBinary;
  }
  void releaseModeReportsCarryNoNoiseNorm() {
    QFETCH(PrivacyPlan, plan);
    QFETCH(QString, data);
    const test::TrainedRun experiment = test::trainRun(plan, data.toStdString(), test::unitRows());
    QVERIFY(!experiment.run.release->report.noiseNorms.empty());  // experiment mode keeps the diagnostic
    const test::TrainedRun release =
        test::trainRun(plan, data.toStdString(), test::unitRows(), privacy::NoiseKind::Release);
    const mech::MechanismReport& report = release.run.release->report;
    QVERIFY(report.noiseNorms.empty());
    QVERIFY(!report.value("mean_step_noise_norm"));
    QVERIFY(report.expectedNoiseNorm > 0 || plan.key() == "dpsgd");
    const bundle::BundleContents contents = test::exported(release);
    QVERIFY(contents.manifest["privacy"].toObject()["private"].toBool());
    QCOMPARE(contents.manifest["privacy"].toObject()["noise_source"].toString(), QString("release"));
  }

  // An experiment-mode bundle says that its noise can be removed by whoever has the seed, and
  // does not store the seed.
  void experimentNoiseIsMarkedNotPrivate() {
    const test::TrainedRun trained =
        test::trainRun(test::mechanismPlan(MechanismKind::Output, ModelKind::LogisticRegression), kBinary);
    const QJsonObject privacy = test::exported(trained).manifest["privacy"].toObject();
    QVERIFY(!privacy["private"].toBool());
    QCOMPARE(privacy["noise_source"].toString(), QString("experiment"));
    const QString json = QString::fromUtf8(QJsonDocument(test::exported(trained).manifest).toJson());
    QVERIFY(!json.contains("4242"));
    QVERIFY(privacy["not_private"].toArray().first().toString().contains("seed"));
  }

  // Issue 30 bug 6: whatever was read off the private rows — a CSV's categories (a step the
  // loader fitted), the class set, a stratified split — makes the bundle NOT private as a
  // whole, at the manifest's top level and in the model card's first words; the mechanism's
  // own guarantee is kept apart. Before the fix the categories were left out and the bundle
  // said private: true with a (2, 0)-DP card.
  void dataDerivedStructureMakesTheBundleNotPrivate() {
    test::TrainedRun clean =
        test::trainRun(test::mechanismPlan(MechanismKind::Output, ModelKind::LogisticRegression), kBinary,
                       test::unitRows(), privacy::NoiseKind::Release);
    const bundle::BundleContents declared = test::exported(clean);
    QVERIFY(declared.manifest["private"].toBool());
    QVERIFY(declared.manifest["privacy"].toObject()["private"].toBool());
    QVERIFY(declared.manifest["guarantee_covers"].toString().startsWith("the whole result"));
    QVERIFY(!declared.modelCard.contains("NOT PRIVATE"));

    test::TrainedRun categories = clean;
    categories.data.train.provenance.notPrivate.push_back(
        "the categories of column 'colour' (3 values) were read off the data");
    const bundle::BundleContents fitted = test::exported(categories);
    QVERIFY(!fitted.manifest["private"].toBool());
    const QJsonObject privacy = fitted.manifest["privacy"].toObject();
    QVERIFY(!privacy["private"].toBool());
    QVERIFY(!privacy["mechanism_guarantee_holds"].toBool());
    QVERIFY(privacy["not_private"].toArray().last().toString().contains("categories of column 'colour'"));
    QVERIFY(fitted.modelCard.contains("## Privacy guarantee\n\nNOT PRIVATE as a whole"));

    test::TrainedRun structure = clean;
    structure.data.train.provenance.structureFromData = {"classes", "stratified split"};
    const bundle::BundleContents read = test::exported(structure);
    QVERIFY(!read.manifest["private"].toBool());
    QVERIFY(read.manifest["privacy"].toObject()["mechanism_guarantee_holds"].toBool());
    QVERIFY(read.manifest["guarantee_covers"].toString().contains("NOT the structure itself (classes, stratified split)"));
    QVERIFY(read.modelCard.contains("NOT PRIVATE as a whole"));
  }

  // NumPy's layout: W is d × C, Φ_c are stacked blocks, the binary model is a vector.
  void parameterLayoutIsNumPys() {
    const test::TrainedRun softmax = test::trainRun(PrivacyPlan::nonPrivate({ModelKind::Softmax, 1e-3, 0.5}), kIris);
    const bundle::BundleContents contents = test::exported(softmax);
    const bundle::NpyArray& W = contents.arrays.at("weights");
    QCOMPARE(W.values.rows(), Index(4));
    QCOMPARE(W.values.cols(), Index(3));
    const Eigen::MatrixXd expected = softmax.data.test.X * W.values;
    QVERIFY(bitIdentical(expected, softmax.run.baseline.model.model->scores(softmax.run.baseline.model.theta,
                                                                            softmax.data.test.X)) ||
            (expected - softmax.run.baseline.model.model->scores(softmax.run.baseline.model.theta,
                                                                  softmax.data.test.X))
                    .cwiseAbs()
                    .maxCoeff() < 1e-12);
  }
};

QTEST_GUILESS_MAIN(TestBundleRoundTrip)
#include "test_bundle_roundtrip.moc"
