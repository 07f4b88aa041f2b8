#pragma once
// What a user chooses about private selection (docs/algorithms.md §3 K): plain values, so that
// a PrivacyPlan can hold them without the selection's machinery (selection.h).

#include <vector>

namespace dpstudio::mech {

// The law of the number of runs K (Papernot & Steinke 2022's truncated negative binomial
// with shape η): logarithmic (η = 0) costs the least privacy, geometric (η = 1, Liu & Talwar
// 2019's random stopping) is less often stopped after a single run.
enum class RunLaw { Logarithmic, Geometric };

struct SelectionSettings {
  // False: the candidates are the public rule's (usually one mechanism at one λ, trained at the
  // whole ε: no selection, nothing spent on it). True: every mechanism that fits the model,
  // each with its λ grid, chosen among privately.
  bool tune = false;
  // λ candidates (of the rule's mechanism, or of every mechanism with `tune`); empty: the
  // rule's λ, or each mechanism's own grid with `tune` (selection.h).
  std::vector<double> lambdas;
  // E[K], the mean number of training runs; 0: twice the number of candidates, at least 10.
  double meanRuns = 0;
  RunLaw law = RunLaw::Geometric;
  bool operator==(const SelectionSettings&) const = default;
};

}  // namespace dpstudio::mech
