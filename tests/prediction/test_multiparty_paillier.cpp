// Paper 004's protocol (core/prediction/paillier_aggregation.h): the release equals the
// trusted curator's for the same noise draws (even, uneven and tied splits, both
// calibrations), the noise used is the smallest party's own draw, no message carries a
// party's n_j or ŵ_j, and a truncated, corrupted, replayed or lost message aborts everyone.
// Keys are 512 bits (KeyStrength::TestOnlyShort) for speed; the product's 2048-bit rule is
// checked on its own.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <random>

#include "core/crypto/byte_codec.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/paillier_aggregation.h"
#include "core/prediction/paillier/transcript_reading.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::multiparty;

namespace {

constexpr unsigned kTestKeyBits = 512;
constexpr std::uint64_t kNoiseSeedBase = 1000;

std::vector<LocalModel> makeLocals(const std::vector<Index>& rows, Index d, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> coordinate(-2.0, 2.0);
  std::vector<LocalModel> locals;
  for (Index n : rows) {
    LocalModel local;
    local.w.resize(d);
    for (Index i = 0; i < d; ++i) local.w[i] = coordinate(engine);
    local.rows = n;
    locals.push_back(local);
  }
  return locals;
}

MultipartyOptions optionsFor(std::size_t parties, mech::Calibration calibration) {
  MultipartyOptions o;
  o.parties = static_cast<Index>(parties);
  o.lambda = 0.05;
  o.epsilon = 2.0;
  o.calibration = calibration;
  return o;
}

// Party j's noise comes from ExperimentNoise(1000 + j): the test can redraw any party's η_j.
PaillierProtocolSettings testSettings(paillier::Tamper tamper = {}) {
  PaillierProtocolSettings s;
  s.keyBits = kTestKeyBits;
  s.strength = crypto::KeyStrength::TestOnlyShort;
  s.partyNoise = [](privacy::NoiseSource&, int party) -> Result<std::unique_ptr<privacy::NoiseSource>> {
    return std::unique_ptr<privacy::NoiseSource>(std::make_unique<privacy::ExperimentNoise>(kNoiseSeedBase + party));
  };
  s.tamper = std::move(tamper);
  return s;
}

Eigen::VectorXd partyNoise(const MultipartyOptions& o, const LocalModel& local, int party) {
  privacy::ExperimentNoise source(kNoiseSeedBase + static_cast<std::uint64_t>(party));
  const auto calibration = test::orDie(calibrateMultiparty(o, local.rows, local.w.size()));
  return test::orDie(mech::drawReportedNoise(calibration, source)).noise;
}

bool contains(const crypto::Bytes& haystack, const crypto::Bytes& needle) {
  return !needle.empty() && std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) != haystack.end();
}

crypto::Bytes lengthPrefixed(const mpz_class& v) {
  crypto::ByteWriter w;
  w.big(v);
  return w.take();
}

crypto::Bytes rawBytes(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  return crypto::Bytes(p, p + size);
}

crypto::Bytes reversed(crypto::Bytes b) {
  std::reverse(b.begin(), b.end());
  return b;
}

// Every byte pattern by which a plaintext n_j or ŵ_j coordinate could travel in a message:
// length-prefixed big integer (our codec), 8- and 4-byte integers in both byte orders,
// decimal text, IEEE doubles in both orders, and the fixed-point encoding (±, mod n').
std::vector<crypto::Bytes> sizePatterns(Index n) {
  const std::uint64_t v64 = static_cast<std::uint64_t>(n);
  const std::uint32_t v32 = static_cast<std::uint32_t>(n);
  crypto::ByteWriter be64, be32;
  be64.u64(v64);
  be32.u32(v32);
  const std::string decimal = std::to_string(n);
  return {lengthPrefixed(mpz_class(static_cast<unsigned long>(n))), be64.bytes(), reversed(be64.bytes()), be32.bytes(),
          reversed(be32.bytes()), crypto::Bytes(decimal.begin(), decimal.end())};
}

std::vector<crypto::Bytes> coordinatePatterns(double x, const mpz_class& curatorModulus) {
  crypto::Bytes le = rawBytes(&x, sizeof x);
  mpz_class scaled;
  mpz_set_d(scaled.get_mpz_t(), std::nearbyint(std::ldexp(x, 40)));
  mpz_class magnitude = abs(scaled);
  return {le, reversed(le), lengthPrefixed(magnitude), lengthPrefixed(curatorModulus - magnitude)};
}

mpz_class curatorModulusFrom(const paillier::ProtocolTranscript& transcript) {
  for (const auto& e : transcript.entries())
    if (e.kind == paillier::messageKindName(paillier::MessageKind::CuratorPublicKey)) {
      crypto::ByteReader reader(e.payload);
      return test::orDie(reader.big("n", 1024));
    }
  return 0;
}

}  // namespace

class TestMultipartyPaillier : public QObject {
  Q_OBJECT
 private slots:
  void releaseEqualsTrustedCurator_data() {
    QTest::addColumn<QList<qlonglong>>("rows");
    QTest::addColumn<bool>("published");
    QTest::newRow("even split, corrected") << QList<qlonglong>{300, 300, 300} << false;
    QTest::newRow("uneven split, smallest third, corrected") << QList<qlonglong>{200, 250, 150, 200, 200} << false;
    QTest::newRow("uneven split, smallest last, as published") << QList<qlonglong>{650, 651, 977, 325} << true;
    QTest::newRow("uneven split, smallest first, as published") << QList<qlonglong>{120, 121, 4000} << true;
    QTest::newRow("tie for the smallest, corrected") << QList<qlonglong>{500, 90, 90, 300} << false;
    QTest::newRow("one party") << QList<qlonglong>{1000} << false;
  }
  void releaseEqualsTrustedCurator() {
    QFETCH(QList<qlonglong>, rows);
    QFETCH(bool, published);
    std::vector<Index> sizes(rows.begin(), rows.end());
    const Index d = 6;
    const auto locals = makeLocals(sizes, d, 17);
    const auto o = optionsFor(sizes.size(), published ? mech::Calibration::Published : mech::Calibration::Corrected);
    const PaillierProtocol protocol(testSettings());
    privacy::ExperimentNoise unused(1);
    const PaillierProtocol::Run run = protocol.run(locals, o, unused);
    QVERIFY2(!run.error, run.error ? run.error->message.c_str() : "");

    const Index smallest = *std::min_element(sizes.begin(), sizes.end());
    const int s = run.selectedParty;
    QVERIFY(s >= 1 && s <= static_cast<int>(sizes.size()));
    QCOMPARE(sizes[static_cast<std::size_t>(s - 1)], smallest);

    // The trusted curator with the selected party's noise stream releases the same vector.
    privacy::ExperimentNoise sameNoise(kNoiseSeedBase + static_cast<std::uint64_t>(s));
    const AggregateRelease trusted = test::orDie(TrustedCurator{}.release(locals, o, sameNoise));
    const Eigen::VectorXd& released = run.release.released;
    QCOMPARE(released.size(), d);
    const double maxDifference = (released - trusted.released).cwiseAbs().maxCoeff();
    QVERIFY2(maxDifference < 1e-11, QByteArray::number(maxDifference, 'g', 5));  // 2^-40 ≈ 9e-13 resolution

    // The noise added is the selected (smallest) party's own draw and no other party's.
    const Eigen::VectorXd added = released - plainAverage(locals);
    for (std::size_t j = 0; j < sizes.size(); ++j) {
      const double distance = (added - partyNoise(o, locals[j], static_cast<int>(j + 1))).cwiseAbs().maxCoeff();
      if (static_cast<int>(j + 1) == s)
        QVERIFY2(distance < 1e-11, QByteArray::number(distance, 'g', 5));
      else
        QVERIFY(distance > 1e-6);
    }

    // The report is the calibration for n_(1), with the norm of the noise actually added.
    const mech::MechanismReport& report = run.release.report;
    QCOMPARE(*report.value("smallest_party"), double(smallest));
    QCOMPARE(report.noise, published ? mech::NoiseLaw::LaplacePerCoordinate : mech::NoiseLaw::L2Laplace);
    QCOMPARE(report.noiseNorms.size(), std::size_t(1));
    DPSTUDIO_COMPARE_REL(report.noiseNorms.front(), added.norm(), 1e-9);
    const auto expected = test::orDie(calibrateMultiparty(o, smallest, d));
    QCOMPARE(report.noiseScale(), expected.noiseScale());
    QCOMPARE(*report.value("paillier_key_bits"), double(kTestKeyBits));
  }

  void transcriptCarriesNoSizeOrModel() {
    const std::vector<Index> sizes{1234567, 2345678, 1234568, 3456789};
    const auto locals = makeLocals(sizes, 5, 23);
    const auto o = optionsFor(sizes.size(), mech::Calibration::Corrected);
    privacy::ExperimentNoise unused(1);
    const PaillierProtocol::Run run = PaillierProtocol(testSettings()).run(locals, o, unused);
    QVERIFY2(!run.error, run.error ? run.error->message.c_str() : "");
    const auto& transcript = *run.transcript;
    const mpz_class curatorModulus = curatorModulusFrom(transcript);
    QVERIFY(curatorModulus > 0);

    std::vector<crypto::Bytes> secrets;
    for (const LocalModel& local : locals) {
      for (auto& p : sizePatterns(local.rows)) secrets.push_back(p);
      for (Index i = 0; i < local.w.size(); ++i)
        for (auto& p : coordinatePatterns(local.w[i], curatorModulus)) secrets.push_back(p);
    }
    // The detector finds a planted plaintext (otherwise this test could pass vacuously).
    crypto::Bytes planted{9, 9};
    const auto plantedSize = lengthPrefixed(mpz_class(static_cast<unsigned long>(sizes[2])));
    planted.insert(planted.end(), plantedSize.begin(), plantedSize.end());
    QVERIFY(std::any_of(secrets.begin(), secrets.end(), [&](const auto& p) { return contains(planted, p); }));

    QVERIFY(transcript.entries().size() > 20);
    for (const auto& entry : transcript.entries()) {
      for (std::size_t k = 0; k < secrets.size(); ++k)
        QVERIFY2(!contains(entry.payload, secrets[k]),
                 qPrintable(QString("secret pattern %1 in '%2' from %3 to %4")
                                .arg(k)
                                .arg(QString::fromStdString(entry.kind), QString::fromStdString(entry.sender),
                                     QString::fromStdString(entry.receiver))));
      // The parties' secret key never goes to Charlie or the public.
      if (entry.kind == paillier::messageKindName(paillier::MessageKind::PartiesKeyPair))
        QVERIFY(entry.receiver != "Charlie" && entry.receiver != "public");
      QVERIFY(!entry.reveals.empty());
    }

    // The JSON a user reads: every message with its endpoints, stage, size and what it reveals.
    const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(run.release.transcriptJson)).object();
    QCOMPARE(json["outcome"].toString(), QString("released"));
    QCOMPARE(json["parties"].toInt(), 4);
    const QJsonArray messages = json["messages"].toArray();
    QCOMPARE(messages.size(), qsizetype(transcript.entries().size()));
    qint64 bytes = 0;
    for (const auto& m : messages) {
      const QJsonObject message = m.toObject();
      for (const char* key : {"sequence", "stage", "kind", "sender", "receiver", "bytes", "reveals"})
        QVERIFY2(message.contains(key), key);
      bytes += message["bytes"].toInteger();
    }
    QCOMPARE(bytes, json["total_bytes"].toInteger());
    QStringList stages;
    for (const auto& s : json["stages"].toArray()) stages << s.toObject()["stage"].toString();
    QCOMPARE(stages.size(), 6);
    QVERIFY(stages.contains("stage 1: secure comparisons"));
    QVERIFY(stages.contains("stage 2: oblivious noise selection"));
  }

  // The transcript's JSON reads back as written (what the GUI's sequence diagram draws, and
  // what it opens from a CLI run), and a file naming a participant that does not exist, or
  // that is not JSON, is refused naming the field.
  void transcriptReadsBackFromItsJson() {
    const std::vector<Index> sizes{40, 25, 31};
    const auto locals = makeLocals(sizes, 3, 5);
    privacy::ExperimentNoise unused(1);
    const PaillierProtocol::Run run =
        PaillierProtocol(testSettings()).run(locals, optionsFor(sizes.size(), mech::Calibration::Corrected), unused);
    QVERIFY2(!run.error, run.error ? run.error->message.c_str() : "");
    const std::string json = run.transcript->toJson();
    const auto record = test::orDie(paillier::parseTranscriptJson(json, "run.json"));
    QVERIFY(record.released());
    QCOMPARE(record.parties, 3);
    QCOMPARE(record.keyBits, kTestKeyBits);
    QCOMPARE(record.participants, (std::vector<std::string>{"Charlie", "P1", "P2", "P3", "public"}));
    QCOMPARE(record.messages.size(), run.transcript->entries().size());
    for (std::size_t i = 0; i < record.messages.size(); ++i) {
      const auto& read = record.messages[i];
      const auto& sent = run.transcript->entries()[i];
      QCOMPARE(read.sender, sent.sender);
      QCOMPARE(read.receiver, sent.receiver);
      QCOMPARE(read.stage, sent.stage);
      QCOMPARE(read.kind, sent.kind);
      QCOMPARE(read.bytes, sent.bytes);
      QVERIFY(read.payload.empty());
    }
    QCOMPARE(record.totalBytes, run.transcript->totalBytes());
    QCOMPARE(record.stages.size(), run.transcript->stages().size());
    QVERIFY(record.totalSeconds > 0);

    std::string forged = json;
    const std::string needle = "\"sender\": \"P2\"";
    const auto at = forged.find(needle);
    QVERIFY(at != std::string::npos);
    forged.replace(at, needle.size(), "\"sender\": \"P9\"");
    const auto refused = paillier::parseTranscriptJson(forged, "forged.json");
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().field.rfind("messages[", 0) == 0 && refused.error().field.ends_with(".sender"),
             refused.error().field.c_str());
    QCOMPARE(refused.error().source, std::string("forged.json"));
    QCOMPARE(paillier::parseTranscriptJson("{\"key_bits\": ", "cut.json").error().field, std::string("transcript"));
  }

  // A stop request (the GUI's Cancel) ends the run between steps: nothing is released, every
  // participant aborts, the transcript says so, and the error is a cancellation, not a failure.
  void cancelledBetweenSteps() {
    const std::vector<Index> sizes{40, 25, 31};
    const auto locals = makeLocals(sizes, 3, 5);
    privacy::ExperimentNoise unused(1);
    StopToken stop;
    std::vector<double> reported;
    const Progress progress([&](double f) {
      reported.push_back(f);
      if (reported.size() == 3) stop.requestStop();
    }, stop);
    const PaillierProtocol::Run run = PaillierProtocol(testSettings())
                                          .run(locals, optionsFor(sizes.size(), mech::Calibration::Corrected), unused,
                                               progress);
    QVERIFY(run.error);
    QCOMPARE(run.error->kind, ErrorKind::Cancelled);
    QCOMPARE(reported.size(), std::size_t{3});
    QVERIFY(reported.back() > 0 && reported.back() < 1);
    QCOMPARE(run.aborted.size(), sizes.size() + 1);
    QVERIFY(run.transcript->outcome().rfind("aborted", 0) == 0);
    QVERIFY(run.release.released.size() == 0);
  }

  void tamperedMessageAbortsEveryone_data() {
    QTest::addColumn<int>("attack");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated") << 0 << "truncated";
    QTest::newRow("bad magic") << 1 << "not a dpstudio aggregation message";
    QTest::newRow("replayed comparison request") << 2 << "replayed";
    QTest::newRow("lost noise contribution") << 3 << "no message arrived";
    QTest::newRow("zero ciphertext") << 4 << "not a ciphertext";
    QTest::newRow("replayed final reshare") << 5 << "unexpected extra message";
    QTest::newRow("trailing bytes") << 6 << "bytes after the payload";
  }
  void tamperedMessageAbortsEveryone() {
    QFETCH(int, attack);
    QFETCH(QString, expected);
    using paillier::MessageKind;
    bool done = false;
    auto tamper = [&](const paillier::Envelope& sent, crypto::Bytes bytes) -> std::vector<crypto::Bytes> {
      if (done) return {bytes};
      auto once = [&](MessageKind kind) { return !done && sent.kind == kind && (done = true); };
      switch (attack) {
        case 0:
          if (once(MessageKind::BlindedShare)) bytes.resize(bytes.size() - 10);
          break;
        case 1:
          if (once(MessageKind::SizeShare)) bytes[0] ^= 0xFF;
          break;
        case 2:
          if (once(MessageKind::ComparisonRequest)) return {bytes, bytes};
          break;
        case 3:
          if (sent.sender == 3 && once(MessageKind::NoiseContribution)) return {};
          break;
        case 4:
          if (once(MessageKind::SelectionVector)) {
            paillier::Envelope forged = sent;
            crypto::ByteWriter payload;
            payload.u32(3);
            for (int k = 0; k < 3; ++k) payload.big(0);
            forged.payload = payload.take();
            return {paillier::encodeEnvelope(forged)};
          }
          break;
        case 5:
          if (sent.kind == MessageKind::Reshare && sent.sender == 3 && sent.receiver == 2 && (done = true))
            return {bytes, bytes};
          break;
        case 6:
          if (once(MessageKind::ComparisonReply)) bytes.push_back(0);
          break;
      }
      return {bytes};
    };
    const auto locals = makeLocals({100, 80, 120}, 4, 5);
    const auto o = optionsFor(3, mech::Calibration::Corrected);
    privacy::ExperimentNoise unused(1);
    const PaillierProtocol protocol(testSettings(tamper));
    const PaillierProtocol::Run run = protocol.run(locals, o, unused);
    QVERIFY(done);
    QVERIFY(run.error.has_value());
    const std::string& message = run.error->message;
    QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
    QVERIFY2(message.find("aborted") != std::string::npos, message.c_str());
    QCOMPARE(run.aborted, (std::vector<std::string>{"Charlie", "P1", "P2", "P3"}));
    QVERIFY(run.transcript->outcome().rfind("aborted", 0) == 0);
    QCOMPARE(run.release.released.size(), Index(0));  // nothing released
    // Through the AggregationProtocol interface the abort is an error, not a release.
    privacy::ExperimentNoise again(1);
    done = false;
    QVERIFY(!aggregate(locals, o, protocol, again).ok());
  }

  void productRefusesKeysBelow2048Bits() {
    PaillierProtocolSettings settings;
    QCOMPARE(settings.keyBits, 2048u);
    QCOMPARE(settings.strength, crypto::KeyStrength::Production);
    settings.keyBits = 1024;
    privacy::ExperimentNoise noise(1);
    auto refused = PaillierProtocol(settings).release(makeLocals({10, 20}, 2, 1), optionsFor(2, mech::Calibration::Corrected), noise);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.find("2048") != std::string::npos, refused.error().message.c_str());
  }

  // End to end through trainMultiparty and aggregate(): the statement names the protocol and
  // the replayed run (same seed) releases the same model.
  void trainMultipartyThroughTheProtocol() {
    const PreparedData data = test::predictionBlobs(2, 120);
    MultipartyOptions o;
    o.parties = 3;
    o.lambda = 0.05;
    o.epsilon = 1.0;
    o.fractions = {0.2, 0.5, 0.3};
    PaillierProtocolSettings settings;
    settings.keyBits = kTestKeyBits;
    settings.strength = crypto::KeyStrength::TestOnlyShort;  // default per-party noise streams
    const PaillierProtocol protocol(settings);
    privacy::ExperimentNoise first(42), second(42), curatorNoise(42);
    const auto a = test::orDie(trainMultiparty(o, data.train, first, {}, &protocol));
    const auto b = test::orDie(trainMultiparty(o, data.train, second, {}, &protocol));
    QVERIFY((a.released.theta - b.released.theta).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY(a.report.statement.find("Paillier protocol") != std::string::npos);
    QCOMPARE(*a.report.value("smallest_party"), double(*std::min_element(a.partySizes.begin(), a.partySizes.end())));
    DPSTUDIO_COMPARE_REL(a.report.noiseNorms.front(), (a.released.theta - a.average).norm(), 1e-9);
    QVERIFY(!a.transcriptJson.empty());
    // The trusted curator draws from the run's own stream, not a party's: a different η.
    const auto trusted = test::orDie(trainMultiparty(o, data.train, curatorNoise));
    QVERIFY(trusted.transcriptJson.empty());
    QVERIFY((trusted.average - a.average).cwiseAbs().maxCoeff() < 1e-12);
  }
};

QTEST_GUILESS_MAIN(TestMultipartyPaillier)
#include "test_multiparty_paillier.moc"
