#include "core/prediction/paillier_aggregation.h"

#include <algorithm>
#include <cmath>

#include "core/prediction/paillier/paillier_session.h"

namespace dpstudio::multiparty {
namespace {

Result<std::unique_ptr<privacy::NoiseSource>> defaultPartyNoise(privacy::NoiseSource& run, int party) {
  if (run.kind() == privacy::NoiseKind::Release) {
    auto source = privacy::ReleaseNoise::create();
    if (!source) return source.error();
    return std::unique_ptr<privacy::NoiseSource>(std::move(source).value());
  }
  return std::unique_ptr<privacy::NoiseSource>(
      std::make_unique<privacy::ExperimentNoise>(run.nextU64(), static_cast<std::uint64_t>(party)));
}

}  // namespace

PaillierProtocol::PaillierProtocol(PaillierProtocolSettings settings) : settings_(std::move(settings)) {}

std::string PaillierProtocol::name() const {
  return "Paillier protocol of paper 004 section 3.2 (" + std::to_string(settings_.keyBits) +
         "-bit keys; no participant sees a local model, a size or the noise)";
}

PaillierProtocol::Run PaillierProtocol::run(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                            privacy::NoiseSource& noise, const Progress& progress) const {
  Run out;
  paillier::SessionSettings session;
  session.options = options;
  session.parties = static_cast<int>(locals.size());
  session.features = locals.empty() ? 0 : locals.front().w.size();
  session.keyBits = settings_.keyBits;
  session.strength = settings_.strength;
  if (auto size = crypto::checkKeySize(settings_.keyBits, settings_.strength); !size) {
    out.error = size.error();
    return out;
  }
  std::vector<std::unique_ptr<privacy::NoiseSource>> partyNoise;
  for (int j = 1; j <= session.parties; ++j) {
    auto source = settings_.partyNoise ? settings_.partyNoise(noise, j) : defaultPartyNoise(noise, j);
    if (!source) {
      out.error = source.error();
      return out;
    }
    partyNoise.push_back(std::move(source).value());
  }
  paillier::SessionOutcome outcome = paillier::runPaillierSession(session, locals, std::move(partyNoise), settings_.tamper, progress);
  out.transcript = outcome.transcript;
  out.aborted = outcome.aborted;
  if (outcome.error) {
    out.error = outcome.error;
    if (settings_.abortedTranscript) settings_.abortedTranscript(outcome.transcript->toJson());
    return out;
  }
  // The privacy guard: the noise used must be calibrated for the smallest party.
  Index smallest = locals.front().rows;
  for (const LocalModel& local : locals) smallest = std::min(smallest, local.rows);
  const bool known = outcome.selectedParty >= 1 && outcome.selectedParty <= static_cast<int>(locals.size());
  const Index selectedRows = known ? locals[static_cast<std::size_t>(outcome.selectedParty - 1)].rows : -1;
  if (!known || selectedRows != smallest) {
    out.error = Error{ErrorKind::Internal,
                      "the Paillier protocol selected the noise of a party with " + std::to_string(selectedRows) +
                          " rows while the smallest has " + std::to_string(smallest) +
                          ": refusing to release a wrongly calibrated model (a bug)",
                      {}, 0, "protocol"};
    return out;
  }
  // And the noise actually added (release − ŵ) must be that party's draw, to the fixed-point
  // resolution: this catches a selection that picked the wrong ciphertext.
  const Eigen::VectorXd added = outcome.released - plainAverage(locals);
  for (Index i = 0; i < added.size(); ++i)
    if (!(std::abs(added[i] - outcome.selectedNoise[i]) <= 1e-9 * (1.0 + std::abs(outcome.selectedNoise[i])))) {
      out.error = Error{ErrorKind::Internal,
                        "the Paillier protocol's release does not carry the smallest party's noise (coordinate " +
                            std::to_string(i + 1) + "): refusing to release it (a bug)",
                        {}, 0, "protocol"};
      return out;
    }
  out.selectedParty = outcome.selectedParty;
  out.release.released = std::move(outcome.released);
  out.release.report = std::move(outcome.calibration);
  out.release.report.noiseNorms.push_back(outcome.noiseNorm);
  out.release.report.set("paillier_key_bits", static_cast<double>(settings_.keyBits),
                         "bits of both Paillier moduli (the parties' and Charlie's)");
  out.release.report.set("fixed_point_scale_bits", static_cast<double>(crypto::FixedPoint::kScaleBits),
                         "reals are encoded as round(x·2^40) mod n: resolution 2^-40");
  out.release.report.set(mech::Calibrated::ProtocolBytes, static_cast<double>(out.transcript->totalBytes()),
                         "bytes of all protocol messages (transcript)");
  out.release.transcriptJson = out.transcript->toJson();
  return out;
}

Result<AggregateRelease> PaillierProtocol::release(const std::vector<LocalModel>& locals,
                                                   const MultipartyOptions& options, privacy::NoiseSource& noise,
                                                   const Progress& progress) const {
  Run result = run(locals, options, noise, progress);
  if (result.error) return *result.error;
  return std::move(result.release);
}

}  // namespace dpstudio::multiparty
