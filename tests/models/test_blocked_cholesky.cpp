// BlockedCholesky (core/linalg/blocked_cholesky.h): the factor and the solves agree with
// Eigen's LLT on sizes below, at and across the tile size; it reads only the lower triangle;
// it has the same bits with one worker thread or two; it refuses a matrix that is not
// positive definite.

#include <QTest>

#include <Eigen/Cholesky>

#include "core/linalg/blocked_cholesky.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"

using namespace dpstudio;
using Index = Eigen::Index;

namespace {

Eigen::MatrixXd randomSpd(Index n, std::uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd G(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < n; ++i) G(i, j) = rng.normal();
  return G * G.transpose() / static_cast<double>(n) + 1e-2 * Eigen::MatrixXd::Identity(n, n);
}

}  // namespace

class TestBlockedCholesky : public QObject {
  Q_OBJECT

 private slots:
  void matchesEigen_data() {
    QTest::addColumn<int>("n");
    const int tile = static_cast<int>(BlockedCholesky::kTile);
    for (const int n : {1, 7, tile - 1, tile, tile + 1, 3 * tile + 17})
      QTest::newRow(qPrintable(QString::number(n))) << n;
  }
  void matchesEigen() {
    QFETCH(int, n);
    const Eigen::MatrixXd A = randomSpd(n, static_cast<std::uint64_t>(n));
    Eigen::MatrixXd lowerOnly = A;
    lowerOnly.triangularView<Eigen::StrictlyUpper>().setConstant(std::nan(""));  // never read
    BlockedCholesky blocked;
    QVERIFY(blocked.compute(lowerOnly));
    const Eigen::MatrixXd L = blocked.factor().triangularView<Eigen::Lower>();
    const Eigen::LLT<Eigen::MatrixXd> reference(A);
    QVERIFY((L - Eigen::MatrixXd(reference.matrixL())).norm() <= 1e-12 * A.norm());
    QVERIFY((L * L.transpose() - A).norm() <= 1e-12 * A.norm());
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    QVERIFY((A * blocked.solve(b) - b).norm() <= 1e-9 * b.norm());
  }

  void sameBitsOnOneOrTwoThreads() {
    const Eigen::MatrixXd A = randomSpd(5 * BlockedCholesky::kTile + 3, 11);
    BlockedCholesky one, two;
    {
      const ScopedWorkerThreads threads(1);
      QVERIFY(one.compute(A));
    }
    {
      const ScopedWorkerThreads threads(2);
      QVERIFY(two.compute(A));
    }
    const Eigen::MatrixXd L1 = one.factor().triangularView<Eigen::Lower>();
    const Eigen::MatrixXd L2 = two.factor().triangularView<Eigen::Lower>();
    QVERIFY((L1.array() == L2.array()).all());
  }

  void refusesIndefiniteMatrices() {
    Eigen::MatrixXd A = randomSpd(2 * BlockedCholesky::kTile + 5, 3);
    const Index last = A.rows() - 1;
    A(last, last) = -1.0;  // the trailing tile's pivot goes negative
    BlockedCholesky blocked;
    QVERIFY(!blocked.compute(A));
    QVERIFY(!blocked.ok());
    QVERIFY(!blocked.compute(Eigen::MatrixXd(3, 2)));  // not square
  }
};

QTEST_APPLESS_MAIN(TestBlockedCholesky)
#include "test_blocked_cholesky.moc"
