#include "core/experiment/paper_presets.h"

#include <filesystem>

#include "core/experiment/mechanism_item.h"
#include "core/experiment/plan_choice.h"

namespace dpstudio::experiment {
namespace {

// MNIST as paper 003 §4 uses it: 60 000 training and 10 000 test images, each row scaled to
// unit norm (a per-example transform: no privacy cost), softmax regression, δ = 0, B = 100,
// T = 256 teachers. λ: the paper cross-validates it per method without accounting for it;
// 1e-3 is one fixed, public choice at which every mechanism's curve has the paper's shape.
// Quick version: digits (1 797 8×8 images; 1 346 training rows after the test quarter), the
// same settings but T = 16, so that each teacher still sees ~84 rows as MNIST's see ~234.
PresetDataSettings mnistSettings() {
  PresetDataSettings s;
  s.title = "MNIST";
  s.trainFile = "train-images-idx3-ubyte.gz";
  s.trainLabelsFile = "train-labels-idx1-ubyte.gz";
  s.testFile = "t10k-images-idx3-ubyte.gz";
  s.testLabelsFile = "t10k-labels-idx1-ubyte.gz";
  s.unitRows = true;
  s.model = ModelKind::Softmax;
  s.lambda = 1e-3;
  s.delta = 0.0;
  s.budget = 100;
  s.teachers = 256;
  s.repeats = 100;
  s.reducedRepeats = 2;
  s.quickBuiltin = "digits";
  s.quickTitle = "quick version on built-in digits, not the paper's data";
  s.quickTeachers = 16;
  s.quickRepeats = 10;
  return s;
}

// UCI Adult as a9a (paper 004 §5): one-hot rows with at most 14 ones, so ‖x‖ ≤ √14 is a
// public bound; logistic regression with λ = 1e-3 in (1/n)Σℓ + λ‖w‖² (paper 004's λ = 1 is
// for unnormalized rows: on rows in the unit ball it gives the constant classifier).
// Quick version: breast cancer (569 rows, 30 features, 2 classes), rows scaled to unit norm.
PresetDataSettings adultSettings() {
  PresetDataSettings s;
  s.title = "UCI Adult (a9a)";
  s.trainFile = "a9a";
  s.testFile = "a9a.t";
  s.normBound = 3.7416573867739413;  // √14
  s.model = ModelKind::LogisticRegression;
  s.lambda = 1e-3;
  s.repeats = 100;
  s.reducedRepeats = 20;
  s.quickBuiltin = "breast_cancer";
  s.quickTitle = "quick version on built-in breast cancer, not the paper's data";
  s.quickRepeats = 20;
  return s;
}

const std::vector<std::string> kPaper003Mechanisms = {"output", "loss", "prediction", "subsample"};
// With δ > 0 (Figs. 1b, 2b, 3) the paper's methods draw Gaussian noise — model sensitivity,
// loss perturbation and prediction sensitivity (the smaller σ of basic and advanced
// composition) — subsample-and-aggregate takes Theorem 8's β, and DP-SGD joins them (it
// needs δ > 0).
const std::vector<std::string> kPaper003GaussianMechanisms = {"output:gaussian", "loss:gaussian", "dpsgd",
                                                              "prediction:gaussian", "subsample"};

// The plan of one item ("output", "subsample:published", "multiparty:K=5", …) from the
// preset's settings; every option the preset does not set at its default.
Result<PrivacyPlan> presetPlan(const PresetDataSettings& s, Index teachers, const std::string& item,
                               std::optional<double> epsilon, std::optional<double> delta) {
  auto parsed = parseMechanismItem(item);
  if (!parsed) return parsed.error();
  const MechanismItem& m = parsed.value();
  PlanChoice choice;
  choice.mechanism = m.name;
  choice.learner.kind = s.model;
  choice.learner.lambda = s.lambda;
  choice.epsilon = epsilon.value_or(1.0);
  choice.delta = delta.value_or(s.delta.value_or(0.0));
  choice.family = m.family;
  choice.calibration = m.calibration;
  if (s.budget) choice.prediction.budget = *s.budget;
  choice.prediction.teachers = teachers;
  if (m.parties) {
    choice.multiparty.parties = *m.parties;
    choice.multiparty.fractions.clear();
  }
  if (!m.split.empty()) choice.multiparty.fractions = m.split;
  auto plan = buildPlan(choice);
  if (!plan) {
    Error error = plan.error();
    error.message = "'" + item + "': " + error.message;
    return error;
  }
  return plan;
}

}  // namespace

const std::vector<PaperPreset>& paperPresets() {
  using A = SweepAxis;
  static const std::vector<PaperPreset> table = {
      {"paper003-fig1a", "Paper 003 Fig. 1a", "accuracy against ε", PresetData::Mnist, kPaper003Mechanisms,
       A::Epsilon, {0.1, 0.3, 1, 3, 10}, std::nullopt, {1, 3, 10, 30, 100, 300}, std::nullopt},
      // Figs. 1b, 2 and 3: ε "between 0 and 1 because of limitations in some methods when δ > 0";
      // the budget B at ε = 1 (private training is a horizontal line there: its leak does not
      // depend on B), for δ = 0 (2a) and δ = 1e-5 (2b); δ itself at ε = 1, B = 100.
      {"paper003-fig1b", "Paper 003 Fig. 1b", "accuracy against ε, δ = 1e-5", PresetData::Mnist,
       kPaper003GaussianMechanisms, A::Epsilon, {0.1, 0.25, 0.5, 0.75, 1}, std::nullopt, {3, 7.5, 15, 22.5, 30},
       std::nullopt, 1e-5},
      {"paper003-fig2", "Paper 003 Fig. 2a", "accuracy against the inference budget B, δ = 0", PresetData::Mnist,
       kPaper003Mechanisms, A::Budget, {1, 3, 10, 30, 100, 300, 1000}, 1.0, {1, 3, 10, 30, 100, 300, 1000}, 30.0},
      {"paper003-fig2b", "Paper 003 Fig. 2b", "accuracy against the inference budget B, δ = 1e-5",
       PresetData::Mnist, kPaper003GaussianMechanisms, A::Budget, {1, 3, 10, 30, 100, 300, 1000}, 1.0,
       {1, 3, 10, 30, 100, 300, 1000}, 30.0, 1e-5},
      {"paper003-fig3", "Paper 003 Fig. 3", "accuracy against δ", PresetData::Mnist, kPaper003GaussianMechanisms,
       A::Delta, {1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, 1.0, {1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2}, 30.0,
       1e-5},  // the δ the series are built with (Gaussian noise needs δ > 0); the axis replaces it
      {"paper003-fig4", "Paper 003 Fig. 4", "accuracy against the training rows n", PresetData::Mnist,
       kPaper003Mechanisms, A::Rows, {1000, 3000, 10000, 30000, 60000}, 1.0, {100, 200, 400, 800, 1300}, 30.0},
      {"paper003-fig5a", "Paper 003 Fig. 5a", "accuracy against the dimension D of a random projection",
       PresetData::Mnist, kPaper003Mechanisms, A::Dims, {10, 20, 50, 100, 200, 400}, 1.0, {5, 10, 20, 40, 64}, 30.0},
      {"paper003-fig5b", "Paper 003 Fig. 5b", "accuracy against the number of classes C", PresetData::Mnist,
       kPaper003Mechanisms, A::Classes, {2, 3, 4, 5, 6, 7, 8, 9, 10}, 1.0, {2, 3, 4, 5, 6, 7, 8, 9, 10}, 30.0},
      {"paper003-fig6a", "Paper 003 Fig. 6a", "loss perturbation against λ", PresetData::Mnist, {"loss"}, A::Lambda,
       {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 5e-1}, 1.0, {1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 5e-1}, 30.0},
      {"paper003-fig6b", "Paper 003 Fig. 6b", "subsample-and-aggregate against the teachers T", PresetData::Mnist,
       {"subsample"}, A::Teachers, {16, 32, 64, 128, 256, 512, 1024}, 1.0, {2, 4, 8, 16, 32, 64}, 30.0},
      // Paper 004 Figure 2: the three party splits (even and the paper's two uneven ones), each
      // corrected and as published, beside the all-data baselines: non-private w* (added by
      // the sweep) and the same mechanism with one party holding every row (all data, DP),
      // corrected and as published (the paper's own baseline).
      {"paper004-fig2", "Paper 004 Fig. 2", "multiparty aggregation against ε, three party splits",
       PresetData::Adult,
       {"multiparty:parties=5", "multiparty:parties=5:published", "multiparty:split=0.15/0.2/0.2/0.2/0.25",
        "multiparty:split=0.15/0.2/0.2/0.2/0.25:published", "multiparty:split=0.1/0.2/0.2/0.2/0.3",
        "multiparty:split=0.1/0.2/0.2/0.2/0.3:published", "multiparty:parties=1",
        "multiparty:parties=1:published"},
       A::Epsilon, {0.1, 0.3, 1, 3, 10, 30}, std::nullopt, {1, 3, 10, 30, 100, 300, 1000}, std::nullopt},
  };
  return table;
}

const PaperPreset* findPaperPreset(const std::string& name) {
  for (const PaperPreset& preset : paperPresets())
    if (preset.name == name) return &preset;
  return nullptr;
}

std::string figuresWithoutPreset() {
  return "Paper 003's Figure 7 (CIFAR-10 with a ResNet-20) has no preset: it needs a convolutional network, which "
         "dpstudio does not train";
}

const PresetDataSettings& presetDataSettings(PresetData data) {
  static const PresetDataSettings mnist = mnistSettings(), adult = adultSettings();
  return data == PresetData::Mnist ? mnist : adult;
}

DataRequest presetDataRequest(const PaperPreset& preset, const std::string& dir) {
  const PresetDataSettings& s = presetDataSettings(preset.data);
  const std::filesystem::path folder(dir);
  auto in = [&folder](const std::string& file) { return file.empty() ? std::string() : (folder / file).string(); };
  DataRequest request;
  request.trainSpec = in(s.trainFile);
  request.trainOptions.labelsPath = in(s.trainLabelsFile);
  request.testSpec = in(s.testFile);
  request.testOptions.labelsPath = in(s.testLabelsFile);
  request.preprocess.unitRows = s.unitRows;
  request.preprocess.normBound = s.normBound;
  return request;
}

DataRequest quickDataRequest(const PaperPreset& preset) {
  DataRequest request;
  request.trainSpec = "builtin:" + presetDataSettings(preset.data).quickBuiltin;
  request.preprocess.unitRows = true;  // the built-ins' raw units: a per-example transform into the unit ball
  return request;
}

std::vector<std::string> missingPresetFiles(const PaperPreset& preset, const std::string& dir) {
  const PresetDataSettings& s = presetDataSettings(preset.data);
  std::vector<std::string> missing;
  for (const std::string& file : {s.trainFile, s.trainLabelsFile, s.testFile, s.testLabelsFile}) {
    if (file.empty()) continue;
    std::error_code error;
    if (dir.empty() || !std::filesystem::is_regular_file(std::filesystem::path(dir) / file, error))
      missing.push_back(file);
  }
  return missing;
}

std::string presetTitle(const PaperPreset& preset, bool quick) {
  const PresetDataSettings& s = presetDataSettings(preset.data);
  return preset.figure + " \u2014 " + (quick ? s.quickTitle : s.title);
}

Result<SweepSpec> presetSweepSpec(const PaperPreset& preset, bool quick, int repeats, std::uint64_t seed) {
  const PresetDataSettings& s = presetDataSettings(preset.data);
  const Index teachers = (quick && s.quickTeachers) ? *s.quickTeachers : s.teachers.value_or(predict::PredictionOptions{}.teachers);
  SweepSpec spec;
  for (const std::string& item : preset.mechanisms) {
    auto plan = presetPlan(s, teachers, item, quick ? preset.quickEpsilon : preset.epsilon, preset.delta);
    if (!plan) return plan.error();
    spec.series.push_back({item, plan.value().title(), plan.value()});
  }
  spec.axis = preset.axis;
  spec.values = quick ? preset.quickValues : preset.values;
  spec.repeats = repeats;
  spec.seed = seed;
  return spec;
}

}  // namespace dpstudio::experiment
