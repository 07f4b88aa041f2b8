// Paper 004's Paillier protocol (core/prediction/paillier_aggregation.h) with the product's
// 2048-bit keys: wall time and bytes sent per stage, for K parties with a9a's uneven split
// (paper 004 Figure 2: 15/20/20/20/25 % of a9a's 32561 rows) and d features (a9a: 123).
// The protocol's cost does not depend on the model's values, so the local models are random
// vectors of the right size; the release is checked against the trusted curator's.
// Usage: bench_multiparty_paillier [d=123] [K=5] [key bits=2048]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "core/prediction/paillier_aggregation.h"

using namespace dpstudio;
using namespace dpstudio::multiparty;

int main(int argc, char** argv) {
  const Index d = argc > 1 ? std::atol(argv[1]) : 123;
  const int K = argc > 2 ? std::atoi(argv[2]) : 5;
  const unsigned bits = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : crypto::kMinimumKeyBits;
  const double paperSplit[5] = {0.15, 0.2, 0.2, 0.2, 0.25};
  std::mt19937_64 engine(123);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  std::vector<LocalModel> locals;
  for (int j = 0; j < K; ++j) {
    LocalModel local;
    local.w = Eigen::VectorXd::NullaryExpr(d, [&] { return coordinate(engine); });
    local.rows = static_cast<Index>(32561 * (K == 5 ? paperSplit[j] : 1.0 / K));
    locals.push_back(local);
  }
  MultipartyOptions options;
  options.parties = K;
  options.lambda = 1.0;
  options.epsilon = 0.1;

  PaillierProtocolSettings settings;
  settings.keyBits = bits;
  settings.strength = bits < crypto::kMinimumKeyBits ? crypto::KeyStrength::TestOnlyShort : crypto::KeyStrength::Production;
  settings.partyNoise = [](privacy::NoiseSource&, int party) -> Result<std::unique_ptr<privacy::NoiseSource>> {
    return std::unique_ptr<privacy::NoiseSource>(std::make_unique<privacy::ExperimentNoise>(100 + party));
  };
  privacy::ExperimentNoise unused(1);
  const auto start = std::chrono::steady_clock::now();
  const PaillierProtocol::Run run = PaillierProtocol(settings).run(locals, options, unused);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (run.error) {
    std::fprintf(stderr, "%s\n", run.error->message.c_str());
    return 1;
  }
  privacy::ExperimentNoise sameNoise(100 + static_cast<std::uint64_t>(run.selectedParty));
  auto trusted = TrustedCurator{}.release(locals, options, sameNoise);
  const double difference = trusted ? (run.release.released - trusted.value().released).cwiseAbs().maxCoeff() : -1;

  std::printf("Paillier protocol, K = %d, d = %ld, %u-bit keys: %.2f s wall, %zu messages, %zu bytes\n", K,
              static_cast<long>(d), bits, seconds, run.transcript->entries().size(), run.transcript->totalBytes());
  std::printf("%-42s %9s %12s %10s\n", "stage", "messages", "bytes", "seconds");
  for (const auto& stage : run.transcript->stages())
    std::printf("%-42s %9zu %12zu %10.3f\n", stage.stage.c_str(), stage.messages, stage.bytes, stage.seconds);
  std::printf("max |release - trusted curator's| = %.3g (fixed-point resolution 2^-40 = 9.1e-13)\n", difference);
  return 0;
}
