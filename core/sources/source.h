#pragma once
// One entry point for "DATA" as the CLI and the GUI name it: a file path, or
// "builtin:NAME" (optionally "builtin:NAME:key=value,key=value" for generators).

#include <string>

#include "core/data/dataset.h"
#include "core/io/loader.h"
#include "core/util/progress.h"

namespace dpstudio {

bool isBuiltinSpec(const std::string& spec);

// The one name under which the privacy ledger counts what a dataset has spent, whoever
// records it (training, a private predictor's answers, multiparty; GUI or CLI): a built-in
// spec as it is ("builtin:iris"), a file by its absolute, normalized path (so that
// "../data/a9a" and "/work/data/a9a" are one dataset). Never read from the data.
std::string datasetIdentity(const std::string& spec);

Result<Dataset> openDataset(const std::string& spec, const LoadOptions& options = {},
                            const Progress& progress = {});

}  // namespace dpstudio
