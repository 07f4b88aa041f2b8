#pragma once
// One entry point for "DATA" as the CLI and the GUI name it: a file path, or
// "builtin:NAME" (optionally "builtin:NAME:key=value,key=value" for generators).

#include <string>

#include "core/data/dataset.h"
#include "core/io/loader.h"
#include "core/util/progress.h"

namespace dpstudio {

bool isBuiltinSpec(const std::string& spec);

Result<Dataset> openDataset(const std::string& spec, const LoadOptions& options = {},
                            const Progress& progress = {});

}  // namespace dpstudio
