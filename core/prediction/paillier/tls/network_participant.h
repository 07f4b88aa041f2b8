#pragma once
// One participant of paper 004's protocol as a process of its own (dpstudio-cli party /
// curator): opens the TLS connections (tls_network.h), then runs exactly its own steps of
// the protocol's schedule (protocol_schedule.h) — the same steps, in the same order, as the
// in-process session. On any failure it wipes its secrets, tells every peer it stopped and
// why (so everyone stops), and returns the error; the transcript of its own messages is
// returned either way.
//
// Charlie's process also hosts the public board: the parties publish their final shares to
// it, and Charlie publishes the release, sum / K (the threads mode's reconstruction).
// The parties agree on the public parameters by announcing them in their hello
// (sessionParametersText); Charlie refuses to start unless every party announced the same.
//
// Noise: each party announces in its hello whether its η_j is release noise (OS CSPRNG) or
// experiment noise (seeded: anyone who knows the seed can subtract it). Nobody learns whose
// noise is selected, so the release is private only if every party drew release noise;
// Charlie's outcome, outputs and transcript say which (and name the seeded parties).
//
// The release grid (release_granularity.h): in release mode Charlie rounds the decoded
// release with privacy::applyReleaseGranularity, as the one-process path (aggregation.cpp)
// does. Its noise-scale term needs the selected party's scale, which depends on n_(1), and
// nobody may learn n_(1): Charlie uses the largest scale the public parameters allow, that
// of a smallest party of one row (the scale falls as 1/n_(1)). The grid is therefore
// 2^⌊log2 n_(1)⌋ or so times the one-process grid's noise term, still about
// n_(1)·2^-30 of the actual per-coordinate noise scale; its ulp term, 2^12 ulps of the
// largest released magnitude, is the one-process path's. Choosing it from public
// parameters and the noisy release is post-processing.

#include <Eigen/Core>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/prediction/aggregation.h"
#include "core/prediction/paillier/protocol_parameters.h"
#include "core/prediction/paillier/protocol_transcript.h"
#include "core/prediction/paillier/tls/tls_credentials.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::multiparty::paillier {

struct NetworkRunOptions {
  TlsFiles tls;
  double timeoutSeconds = 120;  // every blocking wait: set-up, each receive, the final flush
};

// "parties=3;features=124;key_bits=2048;model=logreg;huber=0.5;lambda=0.01;epsilon=1;
// calibration=corrected": what every participant must agree on (numbers to 17 digits).
std::string sessionParametersText(const SessionSettings& settings);

// What the transcripts and Charlie's outputs add to an experiment's noise source.
inline constexpr const char* kExperimentNotPrivate =
    "NOT private: seeded, replayable noise (anyone who knows the seed can subtract it)";

struct ProcessOutcome {
  std::optional<Error> error;
  // This process's own messages, also on abort. Its stage times are this participant's
  // steps, waits for its peers included.
  std::shared_ptr<ProtocolTranscript> transcript;
  // Charlie only, on success: the agreed parameters and the released model ŵ + η_s.
  std::map<std::string, std::string> parameters;
  Eigen::VectorXd released;
  // Charlie only, on success: release only if every party announced release noise; the
  // parties that announced experiment noise; the text the transcript records; the grid the
  // release was rounded to (0 in experiment mode: not rounded).
  privacy::NoiseKind noise = privacy::NoiseKind::Experiment;
  std::vector<std::uint32_t> seededParties;
  std::string noiseSource;
  double releaseGranularity = 0;
};

struct PartyProcess {
  std::uint32_t self = 1;        // j
  SessionSettings settings;      // K = settings.parties, d = settings.features
  LocalModel local;              // ŵ_j and n_j
  std::unique_ptr<privacy::NoiseSource> noise;  // this party's own source of η_j
  // For the transcript: where η_j comes from, e.g. "experiment (seed 42, P2's stream)";
  // empty: noise->provenance().describe().
  std::string noiseDescription;
  std::string listenAddress = "127.0.0.1";  // an IP address; "0.0.0.0": every IPv4 interface
  std::uint16_t port = 0;        // 0: the OS chooses
  std::function<void(std::uint16_t)> listening;  // called once bound, with the port
  std::function<void()> joined;                  // called once every connection is up
};

ProcessOutcome runPartyProcess(PartyProcess party, const NetworkRunOptions& options);

// Charlie: `addresses` are the parties' "host:port", in party order.
ProcessOutcome runCuratorProcess(const std::vector<std::string>& addresses, const NetworkRunOptions& options,
                                 const std::function<void()>& joined = {});

}  // namespace dpstudio::multiparty::paillier
