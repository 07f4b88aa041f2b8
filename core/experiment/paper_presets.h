#pragma once
// The sweeps that reproduce the papers' figures: paper 003 §4 on MNIST (Figures 1a, 1b, 2a,
// 2b, 3, 4, 5a, 5b, 6a, 6b) and paper 004 §5 on UCI Adult as a9a (Figure 2). Paper 003's
// Figure 7 (CIFAR-10 with a ResNet-20) has none: it needs a convolutional network, which
// this product does not train. One table for every front end:
// `dpstudio-cli sweep --preset NAME` turns a preset into options (app/cli/sweep_presets.cpp,
// the user's own options after them win); the GUI's Sweep form builds the SweepSpec here.
//
// Each preset runs on the paper's data, read from a data folder (the files of SOURCES.md:
// MNIST's four IDX files, gzipped as distributed; a9a and a9a.t), or — GUI only — as a quick
// version on a built-in set of the same kind (digits for MNIST, breast cancer for a9a) with
// values scaled to its size, which must be labelled as not the paper's data.
//
// No Qt.

#include <optional>
#include <string>
#include <vector>

#include "core/experiment/sweep_spec.h"
#include "core/sources/prepare.h"

namespace dpstudio::experiment {

enum class PresetData { Mnist, Adult };

// The data of a preset and the settings every one of its mechanisms shares.
struct PresetDataSettings {
  std::string title;  // for a chart: "MNIST", "UCI Adult (a9a)"
  // The files in the data folder: training rows, their labels (IDX only), test rows, theirs.
  std::string trainFile, trainLabelsFile, testFile, testLabelsFile;
  bool unitRows = false;             // scale each row to norm 1 (per-example: no privacy cost)
  std::optional<double> normBound;   // a public bound R: clip rows to ‖x‖ ≤ R, divide by R
  ModelKind model = ModelKind::Softmax;
  double lambda = 1e-3;
  std::optional<double> delta;       // unset: the mechanisms' default (0)
  std::optional<long long> budget;   // B of the private predictors
  std::optional<Index> teachers;     // T of subsample-and-aggregate
  int repeats = 100;                 // the paper's repetitions (the CLI's default)
  // What a GUI starts with: a run that finishes in minutes on a laptop (the user can raise it).
  int reducedRepeats = 3;

  // The quick version: a built-in set, its title, and T scaled to its size.
  std::string quickBuiltin;  // "digits"
  std::string quickTitle;    // "quick version on built-in digits, not the paper's data"
  std::optional<Index> quickTeachers;
  int quickRepeats = 10;
};

struct PaperPreset {
  std::string name;    // the CLI's --preset: "paper003-fig1a"
  std::string figure;  // for people: "Paper 003 Fig. 1a"
  std::string what;    // "accuracy against ε"
  PresetData data = PresetData::Mnist;
  std::vector<std::string> mechanisms;  // items as --mechanisms takes them (mechanism_item.h)
  SweepAxis axis = SweepAxis::Epsilon;
  std::vector<double> values;
  std::optional<double> epsilon;      // ε where it is not the axis
  // The quick version's axis values and ε. Its data have ~45 (digits) or ~76 (breast cancer)
  // times fewer training rows, and every mechanism's noise here scales with 1/(nε) (output
  // perturbation's Δ = 2K/(nλ), loss perturbation's ρ and B, the predictors' budgets per row):
  // the paper's curves appear at ~30× its ε, so the quick ε values are shifted by that much.
  std::vector<double> quickValues;
  std::optional<double> quickEpsilon;
  // δ of every series where the figure sets its own (paper 003 Figs. 1b, 2b: 1e-5); unset: the
  // data's (PresetDataSettings::delta). Not the axis: Fig. 3 sweeps δ itself.
  std::optional<double> delta;
};

// In the order the CLI lists them (by name).
const std::vector<PaperPreset>& paperPresets();
const PaperPreset* findPaperPreset(const std::string& name);
const PresetDataSettings& presetDataSettings(PresetData data);
// The papers' figures that have no preset, and why, for wherever the presets are listed:
// "Paper 003's Figure 7 (CIFAR-10 with a ResNet-20) has no preset: …".
std::string figuresWithoutPreset();

// The paper's data in `dir`, as the CLI's options of the preset prepare it.
DataRequest presetDataRequest(const PaperPreset& preset, const std::string& dir);
// The quick version's built-in data: a seeded stratified quarter for testing, rows as above.
DataRequest quickDataRequest(const PaperPreset& preset);
// The files the preset needs that `dir` lacks (paths as in the folder), empty when all are there.
std::vector<std::string> missingPresetFiles(const PaperPreset& preset, const std::string& dir);

// A chart's title: "Paper 003 Fig. 1a — MNIST", or with the quick version's label.
std::string presetTitle(const PaperPreset& preset, bool quick);

// The sweep a preset runs: one series per mechanism item, keyed by the item (as the CLI keys
// them), each plan built from the preset's settings exactly as the CLI's options would build
// it; the axis, its values (quick: quickValues), `repeats`, `seed`. `dataset` is left empty:
// it is the data's identity (dataIdentity() of the prepared data), known once they are loaded.
Result<SweepSpec> presetSweepSpec(const PaperPreset& preset, bool quick, int repeats, std::uint64_t seed = 1);

}  // namespace dpstudio::experiment
