#include "core/util/huge_pages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dpstudio {

void adviseHugePages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < kHugePageAdviceMin) return;
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  // Failure (THP compiled out, an old kernel) only means 4 KiB pages, as without the call.
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

void resizeForFilling(Eigen::MatrixXd& X, Eigen::Index rows, Eigen::Index cols) {
  const bool fresh = X.rows() * X.cols() != rows * cols;
  X.resize(rows, cols);
  if (fresh) adviseHugePages(X.data(), static_cast<std::size_t>(X.size()) * sizeof(double));
}

}  // namespace dpstudio
