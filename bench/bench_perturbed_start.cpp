// What a sweep's warm start buys (issue 10 §2 "Reuse", sweep.h): loss perturbation on full
// MNIST as paper003-fig1a runs it (rows scaled to norm 1, softmax, λ = 1e-3, δ = 0), each ε
// solved from zero (as a release) and from the non-private minimizer (as a sweep trial),
// with the same noise draw. Prints the optimizer's work for both, and how far apart the two
// solutions are beside the bound strong convexity gives, (‖∇J(θ_cold)‖ + ‖∇J(θ_warm)‖)/μ.
// Usage: DPSTUDIO_DATA_DIR=… bench_perturbed_start [epsilon,…] [seed]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/learn/learner.h"
#include "core/mechanisms/mechanism.h"
#include "core/models/objective.h"
#include "core/optim/gradient_polish.h"
#include "core/optim/lbfgs.h"
#include "core/sources/prepare.h"

using namespace dpstudio;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const char* dir = std::getenv("DPSTUDIO_DATA_DIR");
  if (!dir) {
    std::fprintf(stderr, "set DPSTUDIO_DATA_DIR to the folder with the MNIST files\n");
    return 2;
  }
  std::vector<double> epsilons = {0.1, 0.3, 1, 3, 10};
  if (argc > 1) {
    epsilons.clear();
    std::stringstream list(argv[1]);
    for (std::string item; std::getline(list, item, ',');) epsilons.push_back(std::atof(item.c_str()));
  }
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  auto prepared = prepareData(mnistRequest(dir));
  if (!prepared) {
    std::fprintf(stderr, "%s\n", prepared.error().toString().c_str());
    return 1;
  }
  const Dataset& train = prepared.value().train;
  const Dataset& test = prepared.value().test;
  const LearnerSpec learner{ModelKind::Softmax, 1e-3, 0.5};

  auto start = std::chrono::steady_clock::now();
  auto baseline = trainModel(learner, train.X, train.y, train.classes());
  if (!baseline) {
    std::fprintf(stderr, "%s\n", baseline.error().toString().c_str());
    return 1;
  }
  std::printf("baseline: %.2f s, %d evaluations, test accuracy %.4f\n", secondsSince(start),
              baseline.value().summary.evaluations,
              accuracy(*baseline.value().model, baseline.value().theta, test.X, test.y));

  for (double epsilon : epsilons) {
    mech::MechanismOptions options;
    options.kind = mech::MechanismKind::Loss;
    options.learner = learner;
    options.epsilon = epsilon;
    struct Run {
      mech::PrivateModel model;
      double seconds = 0;
    };
    auto run = [&](bool warm) -> Run {
      auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, seed);
      const auto t0 = std::chrono::steady_clock::now();
      auto trained = warm ? mech::trainPrivatelyFromSolution(options, train, *noise.value(), {}, baseline.value().theta)
                          : mech::trainPrivately(options, train, *noise.value());
      if (!trained) {
        std::fprintf(stderr, "%s\n", trained.error().toString().c_str());
        std::exit(1);
      }
      return {std::move(trained).value(), secondsSince(t0)};
    };
    const Run cold = run(false);
    const Run warm = run(true);
    // J on the sum scale: μ = nλ + ρ.
    const double mu = static_cast<double>(train.rows()) * learner.lambda + *cold.model.report.value("rho");
    const double bound = (cold.model.trained.summary.gradientNorm + warm.model.trained.summary.gradientNorm) / mu;
    const double distance = (cold.model.trained.theta - warm.model.trained.theta).norm();
    auto line = [&](const char* name, const Run& r) {
      const TrainedModel& t = r.model.trained;
      std::printf("  %-4s %7.2f s  %4d iterations  %4d evaluations  |grad| %.2e  test accuracy %.4f\n", name,
                  r.seconds, t.summary.iterations, t.summary.evaluations, t.summary.gradientNorm,
                  accuracy(*t.model, t.theta, test.X, test.y));
    };
    std::printf("loss perturbation, epsilon = %g:\n", epsilon);
    line("cold", cold);
    line("warm", warm);
    std::printf("  |theta_cold - theta_warm| = %.3e <= bound %.3e: %s\n", distance, bound,
                distance <= bound ? "yes" : "NO");
    // The same perturbed problem (its linear term recovered from the cold solution's
    // stationarity), solved from the sweep's start by each solver alone.
    {
      const auto model = makeModel(learner, train.features(), train.classes()).value();
      const Objective plain(*model, train.X, train.y, {LossScale::Sum, mu, {}});
      Eigen::VectorXd g(cold.model.trained.theta.size());
      plain(cold.model.trained.theta, g);
      const Eigen::VectorXd b = -g;
      const Objective perturbed(*model, train.X, train.y, {LossScale::Sum, mu, b});
      const Eigen::VectorXd start0 =
          (static_cast<double>(train.rows()) * learner.lambda * baseline.value().theta - b) / mu;
      const double tol = 1e-9 * static_cast<double>(train.rows());
      for (int variant = 0; variant < 2; ++variant) {
        Eigen::VectorXd theta = start0;
        const auto t0 = std::chrono::steady_clock::now();
        OptimizeSummary s;
        if (variant == 0) {
          PolishOptions o; o.absoluteTolerance = tol; o.relativeTolerance = 1e-9; o.maxIterations = 2000;
          s = polishGradient(perturbed, theta, o);
        } else {
          LbfgsOptions o; o.absoluteTolerance = tol; o.relativeTolerance = 1e-9; o.maxIterations = 2000;
          s = minimizeLbfgs(perturbed, theta, o);
        }
        std::printf("  %-6s %7.2f s  %4d iterations  %4d evaluations  |grad| %.2e  %s  dist to cold %.2e\n",
                    variant == 0 ? "polish" : "lbfgs", secondsSince(t0), s.iterations, s.evaluations,
                    s.gradientNorm, terminationName(s.termination).c_str(), (theta - cold.model.trained.theta).norm());
      }
    }
  }
  return 0;
}
