#pragma once
// Large buffers on 2 MiB pages. Writing a freshly allocated buffer for the first time costs a
// page fault per 4 KiB page, and on a virtual machine a fault is dear: first-touching MNIST's
// 376 MB feature matrix took 1.1 s on the project's 2-core VM, about as long as the reading
// around it, and 0.16–0.7 s on 2 MiB pages. Linux gives a buffer transparent huge pages when
// asked (madvise(MADV_HUGEPAGE); Debian's default mode is "madvise"), so a buffer that is
// about to be filled asks first. Advice only: where it is not offered (another system, THP
// off) nothing changes but the speed.

#include <cstddef>

#include <Eigen/Core>

namespace dpstudio {

// Buffers below this are left alone: they span too few huge pages to matter.
inline constexpr std::size_t kHugePageAdviceMin = std::size_t{4} << 20;

// Asks for huge pages on the whole 2 MiB-aligned pages inside [data, data + bytes). Call it
// before the buffer is first written: pages already touched stay as they are.
void adviseHugePages(void* data, std::size_t bytes);

// X.resize(rows, cols) for a matrix about to be filled: the new storage asks for huge pages
// before anything is written to it.
void resizeForFilling(Eigen::MatrixXd& X, Eigen::Index rows, Eigen::Index cols);

}  // namespace dpstudio
