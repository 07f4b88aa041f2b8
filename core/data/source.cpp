#include "core/data/source.h"

#include "core/data/builtin.h"
#include "core/data/declared_structure.h"

namespace dpstudio {

bool isBuiltinSpec(const std::string& spec) { return spec.rfind("builtin:", 0) == 0; }

Result<Dataset> openDataset(const std::string& spec, const LoadOptions& options,
                            const Progress& progress) {
  if (isBuiltinSpec(spec)) {
    auto data = loadBuiltin(spec.substr(8));
    if (!data) return data;
    // Built-in datasets are public, so their classes are not marked; declared ones apply.
    if (!options.classes.empty()) data = applyDeclaredClasses(std::move(data).value(), options.classes);
    if (!data) return data;
    if (auto status = validateForClassification(data.value()); !status) return status.error();
    return data;
  }
  return loadDatasetFile(spec, options, progress);
}

}  // namespace dpstudio
