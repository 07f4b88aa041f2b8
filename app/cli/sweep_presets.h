#pragma once
// `sweep --preset NAME`: the sweeps that reproduce the papers' figures on the real data
// beside the repository (paper 003 §4 on MNIST, paper 004 §5 on UCI Adult/a9a). A preset is
// only options: it puts its own before the user's, so any of them can be overridden
// (`--preset paper003-fig1a --repeats 5`). The presets themselves are core's table
// (core/experiment/paper_presets.h), shared with the GUI's Sweep form; this file turns one
// into the options that express it.

#include <QStringList>

#include "core/util/result.h"

namespace dpstudio::cli {

QStringList presetNames();

// args (args[0] is the program) with the preset's options inserted after args[0] when
// --preset is among them; unchanged otherwise. The data directory is --data-dir, else
// $DPSTUDIO_DATA_DIR; an unknown preset or a missing directory is a usage error.
Result<QStringList> withPresetArguments(const QStringList& args);

}  // namespace dpstudio::cli
