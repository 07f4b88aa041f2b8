#pragma once
// Declared versus data-derived structure (issue 13 bug 6). A private file's class set, a
// LIBSVM file's dimension (its largest feature index) and a stratified split (which reads
// every label) are all functions of the private rows: a model whose shape was read off the
// data reveals e.g. that some class occurs in it. The user can declare the classes (here)
// and the LIBSVM dimension (LoadOptions::libsvmFeatures); whatever was not declared is
// listed in Provenance::structureFromData, which outputs show beside "not private" steps.

#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/util/result.h"

namespace dpstudio {

// The names Provenance::structureFromData uses.
inline constexpr const char* kStructureClasses = "classes";
inline constexpr const char* kStructureDimension = "dimension";
inline constexpr const char* kStructureSplit = "stratified split";

// Adds `what` to provenance.structureFromData once.
void markStructureFromData(Provenance& provenance, const std::string& what);

// Parses a class declaration: "0,1,2" (labels in class order, as spelled in the file) or a
// count "10" (labels 0..9). At least two distinct, non-empty labels; errors name "classes".
Result<std::vector<std::string>> parseDeclaredClasses(const std::string& text);

// Re-expresses `data` in the declared classes (class k = classes[k], whether or not it
// occurs). A label matches a declared one when the spellings agree or both are the same
// number ("+1" and "1"). A row with any other label is a BadData error naming the source,
// the data row (1-based, header and comment lines not counted) and the label. Clears the
// "classes" mark, since the class set is now public.
Result<Dataset> applyDeclaredClasses(Dataset data, const std::vector<std::string>& classes);

}  // namespace dpstudio
