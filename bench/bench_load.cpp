// Load times of the real datasets (best of several runs), the first thing a user waits for.
// Usage: DPSTUDIO_DATA_DIR=path/to/shared/data bench_load [repeats]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

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

}  // namespace

int main(int argc, char** argv) {
  const char* dir = std::getenv("DPSTUDIO_DATA_DIR");
  if (!dir) {
    std::fprintf(stderr, "set DPSTUDIO_DATA_DIR to the folder with a9a and the MNIST files\n");
    return 2;
  }
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string base(dir);
  struct Case {
    const char* name;
    std::string path;
    dpstudio::LoadOptions options;
  };
  dpstudio::LoadOptions mnist;
  mnist.labelsPath = base + "/train-labels-idx1-ubyte.gz";
  const Case cases[] = {
      {"a9a (LIBSVM, 2.3 MB)", base + "/a9a", {}},
      {"MNIST train (IDX gzip, 9.9 MB)", base + "/train-images-idx3-ubyte.gz", mnist},
      {"digits (built-in CSV gzip)", "builtin:digits", {}},
  };
  std::printf("%-34s %10s %12s\n", "dataset", "rows", "best [s]");
  for (const auto& c : cases) {
    dpstudio::Index rows = 0;
    const double seconds = bestSeconds(c.path, c.options, repeats, &rows);
    std::printf("%-34s %10lld %12.4f\n", c.name, static_cast<long long>(rows), seconds);
  }
  return 0;
}
