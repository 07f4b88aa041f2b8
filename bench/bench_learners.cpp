// Fit time and accuracy of the non-private learners on the real data, on the same problem
// scikit-learn solves in bench/sklearn_baseline.py (compare with bench/compare_sklearn.sh):
//   a9a    logistic regression, λ = 1/n   (scikit-learn C = 1, fit_intercept = False)
//   MNIST  softmax regression,  λ = 1e-5  (C = 1/(nλ)); rows scaled to [0,1], then norm 1
// Tolerance: given a gradient norm G for a problem (grad_a9a=G, grad_mnist=G; compare_sklearn.sh
// passes the ‖∇J_mean‖₂ scikit-learn stopped at), we stop at ‖∇J_mean‖₂ ≤ G: at least the
// same optimization accuracy. Without one, at ‖∇J_mean‖₂ ≤ 1e-4/n (scikit-learn's gtol on the
// sum scale, in the stricter 2-norm; scikit-learn itself stops earlier, on its ftol rule).
// Usage: DPSTUDIO_DATA_DIR=… bench_learners [a9a|mnist|all] [repeats] [grad_a9a=G] [grad_mnist=G]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/sources/prepare.h"
#include "core/learn/learner.h"

using namespace dpstudio;

namespace {

struct Case {
  const char* name;
  DataRequest request;
  ModelKind kind;
  double lambda;         // < 0: 1/n
  double gradientNorm;   // ≤ 0: 1e-4/n
};

void run(const Case& c, int repeats) {
  auto prepared = prepareData(c.request);
  if (!prepared) {
    std::fprintf(stderr, "%s\n", prepared.error().toString().c_str());
    std::exit(1);
  }
  const auto& data = prepared.value();
  const double n = static_cast<double>(data.train.rows());
  const double lambda = c.lambda < 0 ? 1.0 / n : c.lambda;
  TrainControl control;
  control.exactGradientNorm = c.gradientNorm > 0 ? c.gradientNorm : 1e-4 / n;  // absolute
  double best = 1e300;
  TrainedModel model;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto trained = trainModel({c.kind, lambda, 0.5}, data.train.X, data.train.y, data.train.classes(), control);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!trained) {
      std::fprintf(stderr, "%s\n", trained.error().toString().c_str());
      std::exit(1);
    }
    model = std::move(trained).value();
    best = std::min(best, seconds);
  }
  const double acc = accuracy(*model.model, model.theta, data.test.X, data.test.y);
  std::printf("dpstudio %-6s %-8s lambda=%.4g C=%.4g  test_accuracy=%.4f  fit_seconds=%.3f  iterations=%d  evaluations=%d  |grad|=%.2e\n",
              c.name, modelKindName(c.kind).c_str(), lambda, 1.0 / (n * lambda), acc, best,
              model.summary.iterations, model.summary.evaluations, model.summary.gradientNorm);
}

}  // namespace

int main(int argc, char** argv) {
  const char* dir = std::getenv("DPSTUDIO_DATA_DIR");
  if (!dir) {
    std::fprintf(stderr, "set DPSTUDIO_DATA_DIR to the folder with a9a and the MNIST files\n");
    return 2;
  }
  const std::string which = argc > 1 ? argv[1] : "all";
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::string base(dir);
  double gradA9a = 0, gradMnist = 0;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("grad_a9a=", 0) == 0) gradA9a = std::atof(arg.c_str() + 9);
    if (arg.rfind("grad_mnist=", 0) == 0) gradMnist = std::atof(arg.c_str() + 11);
  }

  DataRequest a9a;
  a9a.trainSpec = base + "/a9a";
  a9a.testSpec = base + "/a9a.t";
  DataRequest mnist = mnistRequest(base);
  mnist.preprocess.publicRanges = {{0.0, 255.0}};

  if (which == "a9a" || which == "all") run({"a9a", a9a, ModelKind::LogisticRegression, -1, gradA9a}, repeats);
  if (which == "mnist" || which == "all") run({"mnist", mnist, ModelKind::Softmax, 1e-5, gradMnist}, repeats);
  return 0;
}
