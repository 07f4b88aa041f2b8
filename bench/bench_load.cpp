// Load times of the real datasets (best of several runs), the first thing a user waits for,
// with the rate over the bytes parsed (after gunzip). With --csv ROWS it reads instead a
// generated CSV of ROWS rows × 50 numbers and a label (issue 36's 4.4 M rows make 2 GB),
// written once to $TMPDIR, and prints the process's peak memory.
// Usage: DPSTUDIO_DATA_DIR=path/to/shared/data bench_load [repeats]
//        bench_load --csv ROWS [repeats]

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "core/io/gzip.h"
#include "core/sources/source.h"

namespace {

double bestSeconds(const std::string& path, const dpstudio::LoadOptions& options, int repeats,
                   dpstudio::Index* rows) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto data = dpstudio::openDataset(path, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!data) {
      std::fprintf(stderr, "%s\n", data.error().toString().c_str());
      std::exit(1);
    }
    *rows = data.value().rows();
    best = std::min(best, seconds);
  }
  return best;
}

// The bytes a reader parses: a gzip file's trailer gives its inflated size.
double parsedBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[2] = {};
  file.read(magic, 2);
  const auto size = static_cast<double>(std::filesystem::file_size(path));
  if (!dpstudio::isGzip(std::string_view(magic, 2))) return size;
  char last[4];
  file.seekg(-4, std::ios::end);
  file.read(last, 4);
  return static_cast<double>(dpstudio::gzipTrailerSize(std::string_view(last, 4)));
}

struct Case {
  std::string name;
  std::string path;
  dpstudio::LoadOptions options;
  std::string companion;  // IDX labels: their bytes count too
};

void run(const Case& c, int repeats) {
  dpstudio::Index rows = 0;
  const double seconds = bestSeconds(c.path, c.options, repeats, &rows);
  double bytes = parsedBytes(c.path);
  if (!c.companion.empty()) bytes += parsedBytes(c.companion);
  std::printf("%-38s %9lld %10.4f %9.0f\n", c.name.c_str(), static_cast<long long>(rows), seconds, bytes / 1e6 / seconds);
}

// ROWS × 50 standard normal numbers ("%.6f") and a 0/1 label, written line by line.
std::string generatedCsv(long rows) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/dpstudio-bench-" + std::to_string(rows) + "x50.csv";
  if (std::filesystem::exists(path)) return path;
  const std::string partial = path + ".part";
  std::FILE* out = std::fopen(partial.c_str(), "w");
  if (!out) {
    std::perror(partial.c_str());
    std::exit(1);
  }
  std::mt19937_64 engine(36);
  std::normal_distribution<double> normal;
  for (int j = 1; j <= 50; ++j) std::fprintf(out, "x%d,", j);
  std::fprintf(out, "label\n");
  for (long i = 0; i < rows; ++i) {
    double sum = 0;
    for (int j = 0; j < 50; ++j) {
      const double z = normal(engine);
      sum += z;
      std::fprintf(out, "%.6f,", z);
    }
    std::fprintf(out, "%d\n", sum > 0 ? 1 : 0);
  }
  if (std::fclose(out) != 0) std::exit(1);
  std::filesystem::rename(partial, path);
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("%-38s %9s %10s %9s\n", "dataset", "rows", "best [s]", "MB/s");
  if (argc > 2 && std::string(argv[1]) == "--csv") {
    const long rows = std::atol(argv[2]);
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 1;
    run({"generated CSV, " + std::to_string(rows) + " × 50", generatedCsv(rows), {}, {}}, repeats);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak memory %.2f GB\n", static_cast<double>(usage.ru_maxrss) / (1 << 20));
    return 0;
  }
  const char* dir = std::getenv("DPSTUDIO_DATA_DIR");
  if (!dir) {
    std::fprintf(stderr, "set DPSTUDIO_DATA_DIR to the folder with a9a and the MNIST files\n");
    return 2;
  }
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string base(dir);
  dpstudio::LoadOptions train, test, a9aTest;
  train.labelsPath = base + "/train-labels-idx1-ubyte.gz";
  test.labelsPath = base + "/t10k-labels-idx1-ubyte.gz";
  test.labelUse = dpstudio::LabelUse::Evaluation;
  a9aTest.libsvmFeatures = 123;
  a9aTest.labelUse = dpstudio::LabelUse::Evaluation;
  const Case cases[] = {
      {"a9a (LIBSVM, 2.3 MB)", base + "/a9a", {}, {}},
      {"a9a.t (LIBSVM, 1.1 MB)", base + "/a9a.t", a9aTest, {}},
      {"MNIST train (IDX gzip, 9.9 MB)", base + "/train-images-idx3-ubyte.gz", train, train.labelsPath},
      {"MNIST test (IDX gzip, 1.7 MB)", base + "/t10k-images-idx3-ubyte.gz", test, test.labelsPath},
      {"digits (built-in CSV gzip)", "builtin:digits", {}, {}},
  };
  for (const auto& c : cases) {
    if (c.path.rfind("builtin:", 0) == 0) {
      dpstudio::Index rows = 0;
      const double seconds = bestSeconds(c.path, c.options, repeats, &rows);
      std::printf("%-38s %9lld %10.4f\n", c.name.c_str(), static_cast<long long>(rows), seconds);
      continue;
    }
    run(c, repeats);
  }
  return 0;
}
