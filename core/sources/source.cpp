#include "core/sources/source.h"

#include "core/sources/builtin.h"
#include "core/data/declared_structure.h"

#include <filesystem>
#include <system_error>

namespace dpstudio {

bool isBuiltinSpec(const std::string& spec) { return spec.rfind("builtin:", 0) == 0; }

std::string datasetIdentity(const std::string& spec) {
  if (spec.empty() || isBuiltinSpec(spec)) return spec;
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(spec, error);
  if (error) return spec;
  // weakly_canonical resolves symbolic links and "..", and keeps a path that does not
  // exist (any more) as it is.
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, error);
  return (error ? absolute.lexically_normal() : canonical).string();
}

Result<Dataset> openDataset(const std::string& spec, const LoadOptions& options,
                            const Progress& progress) {
  if (isBuiltinSpec(spec)) {
    auto data = loadBuiltin(spec.substr(8));
    if (!data) return data;
    // Built-in datasets are public, so their classes are not marked; declared ones apply.
    if (!options.classes.empty()) data = applyDeclaredClasses(std::move(data).value(), options.classes);
    if (!data) return data;
    if (auto status = validateForClassification(data.value(), options.labelUse == LabelUse::Training ? 2 : 1); !status)
      return status.error();
    return data;
  }
  return loadDatasetFile(spec, options, progress);
}

}  // namespace dpstudio
