#pragma once
// One private-training mechanism (docs/algorithms.md §3 A–E) as trainPrivately and
// calibrate run it. A mechanism is this interface, implemented in its own file, plus its
// entry in the catalogue (core/experiment/mechanism_catalog.h), which every front end, the
// sweep, the audit, the bundle and the ledger read: nothing else lists mechanisms.
// docs/contributing.md ("Adding a mechanism") walks through one.
//
// The contract every implementation keeps (the reason the interface is this narrow):
//  - calibrate() derives the noise from public numbers only (the options and the problem's
//    shape), and train() uses exactly the numbers calibrate() returns;
//  - train() receives rows already checked to lie in the unit ball (clipped within the
//    rounding allowance) and never rescales them by anything computed from them;
//  - a release path starts its optimizer from a data-independent point; only a sweep's
//    experimentStart (trainPrivatelyFromSolution) may differ.

#include <string>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

class TrainingMechanism {
 public:
  virtual ~TrainingMechanism() = default;

  // The key the catalogue, the CLI's --mechanism, bundles and the ledger use ("output").
  virtual std::string key() const = 0;
  // What people call it, within a sentence ("output perturbation", "DP-SGD").
  virtual std::string title() const = 0;

  // Refuses what this mechanism does not support (a model, a noise family, its own
  // settings), naming the field. The checks shared by all mechanisms — the learner, ε, δ's
  // range, δ > 0 where needsDelta(), a published calibration only where offered — are
  // made by MechanismOptions::validate() around this one.
  virtual Status validate(const MechanismOptions& options) const = 0;
  // Whether the guarantee needs δ > 0: Gaussian noise (the default), or always.
  virtual bool needsDelta(const MechanismOptions& options) const { return options.family == NoiseFamily::Gaussian; }
  // Whether it has an "as published" calibration beside the corrected one.
  virtual bool offersPublishedCalibration() const { return false; }

  // The noise parameters a run uses, from public numbers alone. `noise`: the source a run
  // would draw from (release mode may enlarge additive noise, release_granularity.h).
  virtual Result<MechanismReport> calibrate(const MechanismOptions& options, const ProblemShape& shape,
                                            privacy::NoiseKind noise) const = 0;
  // Trains on `rows` (‖x‖ ≤ 1 for every row), drawing from `noise`. `experimentStart`:
  // set only for an experiment that starts a perturbed problem from the non-private
  // minimizer (perturbsObjective()); nullptr on every release path.
  virtual Result<PrivateModel> train(const MechanismOptions& options, const Dataset& rows,
                                     privacy::NoiseSource& noise, const TrainControl& control,
                                     const Eigen::VectorXd* experimentStart) const = 0;
  // Minimizes a perturbation of the non-private objective, so that a sweep may start it
  // from the non-private minimizer (trainPrivatelyFromSolution).
  virtual bool perturbsObjective() const { return false; }
};

}  // namespace dpstudio::mech
