#pragma once
// What a privacy–utility sweep is: a dataset (prepared by the caller), one or more series —
// each a PrivacyPlan under a name —, one swept axis with its values, repetitions and a
// master seed. It expands to trials; a trial's id is (series, value index, repetition) and
// its seed derives from the master seed and that id only, so a trial computes the same
// whatever else runs, in which order, on how many threads or in which shard.
//
// A sweep is an experiment on the user's data, not a release: its accuracies are measured
// on the data, and nothing of it is recorded in the privacy ledger.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/experiment/privacy_plan.h"

namespace dpstudio::experiment {

enum class SweepAxis {
  Epsilon,   // ε of every private series
  Budget,    // B of the private predictors (§3 F, G)
  Delta,     // δ of every private series but multiparty ((ε, 0)-DP)
  Rows,      // n: a seeded random subset of n training rows (paper 003 Fig. 4)
  Dims,      // D: a seeded random projection to D dimensions, rows clipped to norm 1 (Fig. 5a)
  Classes,   // C: the rows of the first C classes (Fig. 5b)
  Lambda,    // λ of every series' learner (Fig. 6a)
  Teachers,  // T of subsample-and-aggregate (Fig. 6b)
  Parties,   // K of multiparty aggregation, split evenly (paper 004 Fig. 2)
};

std::string axisName(SweepAxis axis);  // "epsilon", "budget", "delta", "n", "dims", "classes", "lambda", "teachers", "parties"
std::optional<SweepAxis> parseAxis(const std::string& name);
std::string axisTitle(SweepAxis axis);  // "Privacy parameter ε", …
bool axisIsLogScaled(SweepAxis axis);
// Whether the axis changes the data (n, dims, classes) rather than the plan.
bool axisChangesData(SweepAxis axis);
// Whether the axis takes integer values (budget, n, dims, classes, teachers, parties).
bool axisIsInteger(SweepAxis axis);

// Values a front end offers for an axis before the user types any, for training data of
// `shape` (rows, features, classes): log-spaced where the axis is (ε 0.1…10, δ 1e-8…1e-2,
// λ 1e-4…1e-1, B 1…1000, n from rows/16 to rows), integers within the data's limits
// (D ≤ features, 2 ≤ C ≤ classes, T ≤ rows/2, K ≤ rows/2). Always valid for the axis and
// shape (SweepSpec::validate), possibly a single value on tiny data.
std::vector<double> defaultAxisValues(SweepAxis axis, const mech::ProblemShape& shape);

struct SweepSeries {
  std::string key;    // unique in the sweep; the CSV's mechanism column
  std::string title;  // for people (legend)
  PrivacyPlan plan;
};

struct SweepSpec {
  std::vector<SweepSeries> series;
  SweepAxis axis = SweepAxis::Epsilon;
  std::vector<double> values;
  int repeats = 1;
  std::uint64_t seed = 1;
  std::string dataset;  // identity of the data, for the fingerprint and titles

  // The plan of a series at one value of the axis (the axis's parameter set to the value).
  PrivacyPlan planAt(const SweepSeries& of, double value) const;

  // Everything checkable before any work, each problem named: repeats ≥ 1, values in the
  // axis's domain (ε > 0, 0 ≤ δ < 1, integers ≥ 1 for B, T, K, D, 2 ≤ C ≤ classes,
  // 2 ≤ n ≤ train rows, T ≤ n), an axis that applies to every private series (budget and
  // teachers need predictors, parties needs multiparty), and every series' plan valid at
  // every value. `shape` is the prepared training part's.
  Status validate(const mech::ProblemShape& shape) const;

  // A digest of everything that determines the trials (series plans, axis, values, repeats,
  // seed, dataset): shards of one sweep carry the same fingerprint.
  std::string fingerprint() const;
};

struct TrialId {
  int series = 0;
  int valueIndex = 0;
  int repeat = 0;
  auto operator<=>(const TrialId&) const = default;
};

// The trials in the order they are run and listed: value-major, then repetition, then series
// (so a live chart fills every series at the first values first).
std::vector<TrialId> expandTrials(const SweepSpec& spec);

// The seed of a trial's noise: a hash of the master seed, the series key, the value index
// and the repetition.
std::uint64_t trialSeed(const SweepSpec& spec, const TrialId& id);
// The seed of the data variant a trial sees (n, dims axes): the same for every series at a
// (value, repetition), so series are compared on the same subsets and projections.
std::uint64_t dataSeed(const SweepSpec& spec, int valueIndex, int repeat);

}  // namespace dpstudio::experiment
