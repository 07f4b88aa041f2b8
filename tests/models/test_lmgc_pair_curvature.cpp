// The interior point's Newton system in symmetric-matrix coordinates (lmgc_sym_coordinates.h)
// and its pairs' part (lmgc_pair_curvature.h): the change of basis L maps coords(S) to
// coords(VᵀSV) and is orthogonal; both ways of summing Σ_p κ_p A_pA_pᵀ (by class bases and by
// Gram matrices) equal the sum taken pair by pair, whichever the count of flops chooses, with
// the same bits on one thread and two.

#include <QTest>

#include <vector>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_pair_curvature.h"
#include "core/models/lmgc_sym_coordinates.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;
using namespace dpstudio::lmgc_detail;
using Index = Eigen::Index;

namespace {

Eigen::MatrixXd randomOrthogonal(Index D, Rng& rng) {
  const Eigen::MatrixXd g = test::gaussianMatrix(D, D, rng);
  return symmetricEigen(g + g.transpose()).vectors;
}

Eigen::VectorXd coordinates(const SymmetricPairs& pairs, const Eigen::MatrixXd& S) {
  Eigen::VectorXd out(pairs.size());
  coordinatesOf(pairs, S, out);
  return out;
}

// A problem in class order: n rows of dimension D, C classes of n/C rows, curvatures κ ≥ 0
// (spread over twelve orders of magnitude, as the interior point's are) and zero on each row's
// own class, and a random orthogonal basis a class.
struct Problem {
  SymmetricPairs pairs;
  Eigen::MatrixXd rows, outer, kappa;
  std::vector<Index> classStart;
  std::vector<Eigen::MatrixXd> V, L;

  Problem(Index n, Index D, Index C, Rng& rng) : pairs(D), rows(test::gaussianMatrix(n, D, rng)) {
    outer = outerProductCoordinates(pairs, rows);
    for (Index c = 0; c <= C; ++c) classStart.push_back(c * n / C);
    kappa = Eigen::MatrixXd::Zero(n, C);
    for (Index c = 0; c < C; ++c)
      for (Index i = classStart[static_cast<std::size_t>(c)]; i < classStart[static_cast<std::size_t>(c + 1)]; ++i)
        for (Index other = 0; other < C; ++other)
          if (other != c) kappa(i, other) = std::pow(10.0, rng.uniform(-12, 0));
    for (Index c = 0; c < C; ++c) {
      V.push_back(randomOrthogonal(D, rng));
      L.push_back(basisChange(pairs, V.back()));
    }
  }
  Index label(Index i) const {
    Index c = 0;
    while (i >= classStart[static_cast<std::size_t>(c + 1)]) ++c;
    return c;
  }

  // Σ_p κ_p A_pA_pᵀ pair by pair, A_p = a_ic − a_iy in the class bases.
  Eigen::MatrixXd reference() const {
    const Index C = static_cast<Index>(V.size()), m = pairs.size();
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(C * m, C * m);
    for (Index i = 0; i < rows.rows(); ++i) {
      const Eigen::MatrixXd xx = rows.row(i).transpose() * rows.row(i);
      for (Index c = 0; c < C; ++c) {
        if (c == label(i)) continue;
        Eigen::VectorXd A = Eigen::VectorXd::Zero(C * m);
        A.segment(c * m, m) = coordinates(pairs, V[static_cast<std::size_t>(c)].transpose() * xx * V[static_cast<std::size_t>(c)]);
        A.segment(label(i) * m, m) = -coordinates(pairs, V[static_cast<std::size_t>(label(i))].transpose() * xx *
                                                              V[static_cast<std::size_t>(label(i))]);
        H += kappa(i, c) * A * A.transpose();
      }
    }
    return H;
  }

  Eigen::MatrixXd summed(bool& byGram) const {
    PairCurvature curvature(pairs, rows, outer, classStart);
    byGram = curvature.byGramMatrices();
    const Index M = static_cast<Index>(V.size()) * pairs.size();
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(M, M);
    curvature.addTo(H, kappa, V, L);
    return H;
  }
};

}  // namespace

class TestLmgcPairCurvature : public QObject {
  Q_OBJECT

 private slots:
  void basisChangeMapsCoordinatesIntoTheBasis() {
    Rng rng(5);
    for (const Index D : {1, 2, 5, 9}) {
      const SymmetricPairs pairs(D);
      QCOMPARE(pairs.size(), D * (D + 1) / 2);
      const Eigen::MatrixXd V = randomOrthogonal(D, rng);
      const Eigen::MatrixXd L = basisChange(pairs, V);
      const Eigen::MatrixXd g = test::gaussianMatrix(D, D, rng);
      const Eigen::MatrixXd S = g + g.transpose();
      QVERIFY((L * coordinates(pairs, S) - coordinates(pairs, V.transpose() * S * V)).norm() < 1e-12 * S.norm());
      // Orthogonal: the coordinates keep the Frobenius norm.
      QVERIFY((L.transpose() * L - Eigen::MatrixXd::Identity(pairs.size(), pairs.size())).norm() < 1e-12);
      QVERIFY(std::abs(coordinates(pairs, S).norm() - S.norm()) < 1e-12 * S.norm());
      QVERIFY((matrixOf(pairs, coordinates(pairs, S), D) - S).norm() < 1e-15 * S.norm());
      // Rows' outer products.
      const Eigen::MatrixXd X = test::gaussianMatrix(4, D, rng);
      const Eigen::MatrixXd outer = outerProductCoordinates(pairs, X);
      for (Index i = 0; i < X.rows(); ++i)
        QVERIFY((outer.row(i).transpose() - coordinates(pairs, X.row(i).transpose() * X.row(i))).norm() <
                1e-14 * X.row(i).squaredNorm());
    }
  }

  // Many rows of few features (shuttle's shape) go by Gram matrices, few rows of many features
  // (raw breast cancer's) by class bases; both give the pair-by-pair sum.
  void bothWaysEqualThePairByPairSum_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("C");
    QTest::addColumn<bool>("expectGram");
    QTest::newRow("many rows, 4 classes") << 600 << 3 << 4 << true;
    QTest::newRow("many rows, 2 classes") << 3000 << 4 << 2 << true;
    // C(15, 4) = 1 365 quartics: more than one block of them (lmgc_pair_curvature.cpp).
    QTest::newRow("many rows, 12 features") << 3000 << 12 << 2 << true;
    QTest::newRow("few rows, many features") << 20 << 8 << 2 << false;
    QTest::newRow("few rows, 3 classes") << 30 << 7 << 3 << false;
  }
  void bothWaysEqualThePairByPairSum() {
    QFETCH(int, n);
    QFETCH(int, D);
    QFETCH(int, C);
    QFETCH(bool, expectGram);
    Rng rng(static_cast<std::uint64_t>(n * 100 + D));
    const Problem problem(n, D, C, rng);
    bool byGram = false;
    const Eigen::MatrixXd H = problem.summed(byGram);
    QCOMPARE(byGram, expectGram);
    const Eigen::MatrixXd reference = problem.reference();
    // The upper triangle is what is filled (the Cholesky factorization reads it).
    const Eigen::MatrixXd upper = H.triangularView<Eigen::Upper>();
    const Eigen::MatrixXd referenceUpper = reference.triangularView<Eigen::Upper>();
    QVERIFY2((upper - referenceUpper).norm() < 1e-12 * reference.norm(),
             qPrintable(QString::number((upper - referenceUpper).norm() / reference.norm())));
  }

  void sameBitsOnOneThreadAndTwo() {
    for (const auto& [n, D, C] : {std::tuple{5000, 3, 4}, std::tuple{40, 8, 2}}) {
      Rng rng(11);
      const Problem problem(n, D, C, rng);
      bool byGram = false;
      Eigen::MatrixXd one, two;
      {
        const ScopedWorkerThreads threads(1);
        one = problem.summed(byGram);
      }
      {
        const ScopedWorkerThreads threads(2);
        two = problem.summed(byGram);
      }
      QVERIFY(one == two);
    }
  }
};

QTEST_GUILESS_MAIN(TestLmgcPairCurvature)
#include "test_lmgc_pair_curvature.moc"
