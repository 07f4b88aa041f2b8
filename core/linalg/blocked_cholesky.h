#pragma once
// Cholesky factorization A = LLᵀ of a symmetric positive definite matrix, blocked so that its
// panel solves and trailing updates run on workerThreads() threads (core/util/parallel.h).
//
// Why not Eigen::LLT: it runs on one thread (Eigen's OpenMP GEMM would choose its blocking from
// the thread count, and with it the rounding). Here the matrix is cut into tiles of a fixed
// size and every tile is computed by the same operations in the same order whichever thread
// runs it, so the factor has the same bits on 1 thread or many. Used for the interior-point
// method's Newton systems (lmgc_interior.cpp: up to 2 500 unknowns), where the factorization
// was half of each step.

#include <Eigen/Core>

namespace dpstudio {

class BlockedCholesky {
 public:
  static constexpr Eigen::Index kTile = 96;

  // Factors the lower triangle of A (its strictly upper part is not read). False when A is
  // not numerically positive definite (a diagonal tile's factorization fails).
  bool compute(Eigen::MatrixXd A);
  // The same on A's storage, which is swapped with the previous factor's: A is left holding
  // that storage, so a caller refactoring a system of the same size every step allocates
  // nothing (fresh pages for an 8 MB system cost more than its factorization on this VM).
  bool computeInPlace(Eigen::MatrixXd& A);
  bool ok() const { return ok_; }

  // x with LLᵀx = b. Only after a successful compute().
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;

  // The factor L (lower triangular; its strictly upper part is zero).
  const Eigen::MatrixXd& factor() const { return L_; }

 private:
  Eigen::MatrixXd L_;
  bool ok_ = false;
};

}  // namespace dpstudio
