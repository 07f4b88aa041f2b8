#include "core/experiment/answering.h"

#include <algorithm>

#include "core/data/split.h"

namespace dpstudio::experiment {

Result<AnsweredSample> answerTestSample(PredictorRelease& predictor, const Dataset& test,
                                        privacy::NoiseSource& noise, std::uint64_t sampleSeed,
                                        privacy::PrivacyLedger* ledger) {
  AnsweredSample a;
  a.seed = sampleSeed;
  const Index k = std::min<Index>(test.rows(), static_cast<Index>(predictor.remaining()));
  if (k > 0) {
    a.rows = seededSample(test.rows(), k, sampleSeed);
    Eigen::MatrixXd X(k, test.X.cols());
    for (Index i = 0; i < k; ++i) X.row(i) = test.X.row(a.rows[static_cast<std::size_t>(i)]);
    Eigen::VectorXi labels(k);
    auto answered = std::visit(
        [&](auto& p) -> Status {
          auto answers = p.answerRows(X, noise, ledger);
          if (!answers) return answers.error();
          for (Index i = 0; i < k; ++i) labels[i] = static_cast<int>(answers.value()[static_cast<std::size_t>(i)].label);
          return Ok{};
        },
        predictor.predictor);
    if (!answered) return answered.error();
    const Eigen::VectorXi plain = predictor.nonPrivateLabels(X);
    long long agreeing = 0;
    for (Index i = 0; i < k; ++i) {
      const int truth = test.y[a.rows[static_cast<std::size_t>(i)]];
      a.correct += labels[i] == truth;
      agreeing += plain[i] == truth;
    }
    a.answered = k;
    a.nonPrivateAccuracy = static_cast<double>(agreeing) / static_cast<double>(k);
  }
  a.remaining = predictor.remaining();
  return a;
}

}  // namespace dpstudio::experiment
