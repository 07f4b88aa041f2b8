#include "core/sources/builtin.h"

#include <QFile>

#include <charconv>
#include <map>
#include <optional>

#include "core/io/csv_loader.h"
#include "core/io/gzip.h"

namespace dpstudio {
namespace {

struct ShippedDataset {
  const char* name;
  const char* resource;
  const char* description;
  const char* citation;
  std::vector<std::string> featureNames;  // empty: generated
  std::optional<std::pair<Index, Index>> viewFeatures = std::nullopt;  // suggestedViewFeatures()
};

std::vector<std::string> digitsFeatureNames() {
  std::vector<std::string> names;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) names.push_back("pixel_" + std::to_string(r) + "_" + std::to_string(c));
  return names;
}

const std::vector<ShippedDataset>& shippedDatasets() {
  static const std::vector<ShippedDataset> list = {
      {"iris", ":/datasets/iris.csv", "Iris flowers: 150 rows, 4 features, 3 classes",
       "UCI Iris (R. A. Fisher, 1936), CC BY 4.0",
       {"sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"},
       std::pair<Index, Index>{2, 3}},
      {"wine", ":/datasets/wine_data.csv", "Wine cultivars: 178 rows, 13 features, 3 classes",
       "UCI Wine (M. Forina et al., 1991), CC BY 4.0",
       {"alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
        "flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
        "od280/od315_of_diluted_wines", "proline"}},
      {"breast_cancer", ":/datasets/breast_cancer.csv",
       "Breast cancer Wisconsin (diagnostic): 569 rows, 30 features, 2 classes",
       "UCI Breast Cancer Wisconsin (Diagnostic) (W. H. Wolberg, W. N. Street, "
       "O. L. Mangasarian, 1995), CC BY 4.0",
       {"mean radius", "mean texture", "mean perimeter", "mean area", "mean smoothness",
        "mean compactness", "mean concavity", "mean concave points", "mean symmetry",
        "mean fractal dimension", "radius error", "texture error", "perimeter error",
        "area error", "smoothness error", "compactness error", "concavity error",
        "concave points error", "symmetry error", "fractal dimension error", "worst radius",
        "worst texture", "worst perimeter", "worst area", "worst smoothness",
        "worst compactness", "worst concavity", "worst concave points", "worst symmetry",
        "worst fractal dimension"}},
      {"digits", ":/datasets/digits.csv.gz",
       "Handwritten digits, 8x8 pixel counts 0-16: 1797 rows, 64 features, 10 classes",
       "UCI Optical Recognition of Handwritten Digits (E. Alpaydin, C. Kaynak, 1998), CC BY 4.0",
       digitsFeatureNames()},
  };
  return list;
}

Error badOption(const std::string& spec, const std::string& message, const std::string& key = {}) {
  return Error{ErrorKind::BadData, message, "builtin:" + spec, 0, key};
}

// Parses "key=value,key=value" into a map; values stay text until each generator reads them.
Result<std::map<std::string, std::string>> parseOptions(const std::string& spec,
                                                         const std::string& text) {
  std::map<std::string, std::string> options;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return badOption(spec, "expected key=value, found '" + item + "'");
    options[item.substr(0, eq)] = item.substr(eq + 1);
    start = end + 1;
  }
  return options;
}

// Reads numeric options into the fields of a generator's options, rejecting unknown keys.
class OptionReader {
 public:
  OptionReader(std::string spec, std::map<std::string, std::string> options)
      : spec_(std::move(spec)), options_(std::move(options)) {}

  template <class T>
  void read(const char* key, T& field, double lo, double hi) {
    auto it = options_.find(key);
    if (it == options_.end() || error_) return;
    const std::string text = it->second;
    options_.erase(it);
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !(value >= lo && value <= hi)) {
      error_ = badOption(spec_, std::string(key) + " must be a number in [" + std::to_string(lo) +
                                    ", " + std::to_string(hi) + "], found '" + text + "'",
                         key);
      return;
    }
    field = static_cast<T>(value);
  }

  std::optional<Error> finish() {
    if (!error_ && !options_.empty())
      error_ = badOption(spec_, "unknown option '" + options_.begin()->first + "'",
                         options_.begin()->first);
    return error_;
  }

 private:
  std::string spec_;
  std::map<std::string, std::string> options_;
  std::optional<Error> error_;
};

Result<Dataset> loadShipped(const ShippedDataset& entry) {
  QFile file(QString::fromLatin1(entry.resource));
  if (!file.open(QIODevice::ReadOnly))
    return Error{ErrorKind::Internal, "the built-in dataset is missing from the build",
                 std::string("builtin:") + entry.name, 0, {}};
  const QByteArray raw = file.readAll();
  std::string all(raw.constData(), static_cast<std::size_t>(raw.size()));
  if (isGzip(all)) {
    auto inflated = inflateGzip(all, std::string("builtin:") + entry.name);
    if (!inflated) return inflated.error();
    all = std::move(inflated).value();
  }
  // scikit-learn's files begin with "n,d,class names…" instead of a header.
  const std::size_t firstBreak = all.find('\n');
  std::vector<std::string> classNames;
  std::string_view body(all);
  const std::string firstLine = all.substr(0, firstBreak);
  const bool sklearnHeader = firstLine.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos;
  if (sklearnHeader) {
    std::size_t pos = 0;
    int field = 0;
    while (pos <= firstLine.size()) {
      const std::size_t comma = std::min(firstLine.find(',', pos), firstLine.size());
      std::string token = firstLine.substr(pos, comma - pos);
      if (!token.empty() && token.back() == '\r') token.pop_back();
      if (field >= 2) classNames.push_back(token);
      ++field;
      pos = comma + 1;
    }
    body.remove_prefix(firstBreak + 1);
  }
  LoadOptions options;
  options.hasHeader = false;
  auto data = parseCsv(body, options, std::string("builtin:") + entry.name, Progress{});
  if (!data) return data.error();
  Dataset out = std::move(data).value();
  if (!classNames.empty() && classNames.size() == out.classNames.size()) out.classNames = classNames;
  if (static_cast<Index>(entry.featureNames.size()) == out.features()) out.featureNames = entry.featureNames;
  out.provenance.format = "builtin";
  out.provenance.csv.reset();  // read from a shipped file of known layout: nothing to report
  return out;
}

}  // namespace

std::optional<std::pair<Index, Index>> suggestedViewFeatures(const std::string& spec) {
  const std::string prefix = "builtin:";
  if (spec.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string name = spec.substr(prefix.size());
  for (const auto& entry : shippedDatasets())
    if (entry.name == name) return entry.viewFeatures;
  return std::nullopt;
}

std::vector<BuiltinInfo> builtinCatalog() {
  std::vector<BuiltinInfo> catalog;
  for (const auto& entry : shippedDatasets())
    catalog.push_back({entry.name, false, entry.description, {}, entry.citation});
  catalog.push_back({"blobs", true,
                     "Gaussian blobs, each class with its own covariance",
                     "classes=3,dim=2,per_class=100,separation=3,anisotropy=2,seed=1", {}});
  catalog.push_back({"moons", true, "Two interleaving half circles",
                     "per_class=150,noise=0.1,seed=1", {}});
  catalog.push_back({"xor", true, "Four Gaussian clusters labelled by XOR of the quadrant signs",
                     "per_class=150,noise=0.2,seed=1", {}});
  return catalog;
}

Result<BlobsOptions> blobsOptions(const std::string& nameAndOptions) {
  const std::size_t colon = nameAndOptions.find(':');
  const std::string optionText = colon == std::string::npos ? "" : nameAndOptions.substr(colon + 1);
  auto parsed = parseOptions(nameAndOptions, optionText);
  if (!parsed) return parsed.error();
  OptionReader reader(nameAndOptions, parsed.value());
  BlobsOptions o;
  reader.read("classes", o.classes, 2, 50);
  reader.read("dim", o.dim, 1, 1000);
  reader.read("per_class", o.perClass, 1, 1e6);
  reader.read("separation", o.separation, 0, 1e6);
  reader.read("anisotropy", o.anisotropy, 1, 1e6);
  reader.read("seed", o.seed, 0, 9.007199254740992e15);
  if (auto error = reader.finish()) return *error;
  return o;
}

Result<Dataset> loadBuiltin(const std::string& nameAndOptions) {
  const std::size_t colon = nameAndOptions.find(':');
  const std::string name = nameAndOptions.substr(0, colon);
  const std::string optionText = colon == std::string::npos ? "" : nameAndOptions.substr(colon + 1);
  for (const auto& entry : shippedDatasets()) {
    if (name != entry.name) continue;
    if (!optionText.empty()) return badOption(nameAndOptions, "built-in datasets take no options");
    return loadShipped(entry);
  }
  auto parsed = parseOptions(nameAndOptions, optionText);
  if (!parsed) return parsed.error();
  OptionReader reader(nameAndOptions, parsed.value());
  Dataset data;
  if (name == "blobs") {
    auto o = blobsOptions(nameAndOptions);
    if (!o) return o.error();
    data = makeBlobs(o.value());
  } else if (name == "moons") {
    MoonsOptions o;
    reader.read("per_class", o.perClass, 1, 1e6);
    reader.read("noise", o.noise, 0, 1e3);
    reader.read("seed", o.seed, 0, 9.007199254740992e15);
    if (auto error = reader.finish()) return *error;
    data = makeMoons(o);
  } else if (name == "xor") {
    XorOptions o;
    reader.read("per_class", o.perClass, 1, 1e6);
    reader.read("noise", o.noise, 0, 1e3);
    reader.read("seed", o.seed, 0, 9.007199254740992e15);
    if (auto error = reader.finish()) return *error;
    data = makeXor(o);
  } else {
    std::string names;
    for (const auto& info : builtinCatalog()) names += (names.empty() ? "" : ", ") + info.name;
    return badOption(nameAndOptions, "unknown built-in dataset '" + name + "' (known: " + names + ")");
  }
  data.provenance.source = "builtin:" + nameAndOptions;
  return data;
}

}  // namespace dpstudio
