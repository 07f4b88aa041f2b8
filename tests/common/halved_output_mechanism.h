#pragma once
// A training mechanism that exists only in the tests: output perturbation run at ε/2 while
// claiming ε (ε/2-DP implies ε-DP, so the claim holds; its noise is twice output
// perturbation's). It shows what adding a mechanism takes — this file and one catalogue
// entry (addHalvedOutputMechanism) — and the tests that add it check that every list, the
// plan builder, the runner, the sweep, the ledger, the bundle, the audit and the GUI offer
// it with no other change (test_mechanism_extension, test_gui_added_mechanism).

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/training_mechanism.h"

namespace dpstudio::test {

class HalvedOutputPerturbation final : public mech::TrainingMechanism {
 public:
  static constexpr const char* kKey = "test-halved";

  std::string key() const override { return kKey; }
  std::string title() const override { return "halved output perturbation"; }
  Status validate(const mech::MechanismOptions& o) const override { return inner().validate(atHalf(o)); }
  Result<mech::MechanismReport> calibrate(const mech::MechanismOptions& o, const mech::ProblemShape& shape,
                                          privacy::NoiseKind noise) const override {
    auto report = inner().calibrate(atHalf(o), shape, noise);
    if (report) claimWhole(report.value(), o);
    return report;
  }
  Result<mech::PrivateModel> train(const mech::MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                                   const TrainControl& control, const Eigen::VectorXd*) const override {
    auto model = inner().train(atHalf(o), rows, noise, control, nullptr);
    if (model) claimWhole(model.value().report, o);
    return model;
  }

 private:
  static const mech::TrainingMechanism& inner() { return mech::outputPerturbation(); }
  static mech::MechanismOptions atHalf(mech::MechanismOptions o) {
    o.kind = mech::MechanismKind::Output;
    o.epsilon /= 2;
    return o;
  }
  static void claimWhole(mech::MechanismReport& report, const mech::MechanismOptions& o) {
    report.mechanism = kKey;
    report.epsilon = o.epsilon;
    report.statement = "(ε, δ)-DP: output perturbation at ε/2";
  }
};

inline const mech::TrainingMechanism& halvedOutputPerturbation() {
  static const HalvedOutputPerturbation mechanism;
  return mechanism;
}

inline constexpr mech::MechanismKind kHalvedOutput{&halvedOutputPerturbation};

// Its catalogue entry; once per process (later calls find it there).
inline Status addHalvedOutputMechanism() {
  if (experiment::findMechanism(HalvedOutputPerturbation::kKey)) return Ok{};
  return experiment::addMechanism({.training = kHalvedOutput,
                                   .section = "T",
                                   .note = "Output perturbation at half the ε (a test's mechanism).",
                                   .help = "Trains exactly, then adds output perturbation's noise for ε/2.",
                                   .startsFromBaseline = true});
}

}  // namespace dpstudio::test
