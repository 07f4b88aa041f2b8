// LMGC's rows evaluated sparse under the whitening map (lmgc_sparse_rows.h): every product
// equals the one on the dense whitened rows, on all rows and on a list, with the same bits on
// any thread count, and the screened loss and the factored objective that use them equal their
// dense selves.

#include <QTest>

#include <cmath>
#include <numeric>

#include "core/models/lmgc.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_mixture_solver.h"
#include "core/models/lmgc_screening.h"
#include "core/models/lmgc_sparse_rows.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// 1 500 rows of 40 features, about 8 % of them non-zero (binary, and a few other values), in
// C = 3 classes; T = [A, b; 0, 1] as whitening builds it; the whitened rows x ↦ (x A ᵀ + bᵀ).
struct SparseProblem {
  static constexpr Index n = 1500, d = 40, C = 3, D = d + 1;
  LmgcModel model{d, C, 0.5};
  Eigen::MatrixXd X, T, mapped;
  Eigen::VectorXi y;

  explicit SparseProblem(Rng& rng) {
    X = Eigen::MatrixXd::Zero(n, d);
    y.resize(n);
    for (Index i = 0; i < n; ++i) {
      y[i] = static_cast<int>(rng.uniformIndex(C));
      for (Index j = 0; j < d; ++j) {
        const double u = rng.uniform01();
        if (u < 0.06) X(i, j) = 1.0;
        else if (u < 0.08) X(i, j) = rng.normal();
      }
    }
    T = Eigen::MatrixXd::Identity(D, D);
    T.topLeftCorner(d, d) += 0.2 * test::gaussianMatrix(d, d, rng);
    T.topRightCorner(d, 1) = test::gaussianMatrix(d, 1, rng);
    const Eigen::RowVectorXd shift = T.topRightCorner(d, 1).transpose();
    mapped = (X * T.topLeftCorner(d, d).transpose()).rowwise() + shift;
  }
};

Eigen::VectorXd denseGram(const SparseProblem& p, const Eigen::MatrixXd& W, const std::vector<Index>& rows) {
  const Eigen::MatrixXd Xt = LmgcModel::augmentedRows(p.mapped);
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(p.C * p.D * p.D);
  for (Index c = 0; c < p.C; ++c) {
    Eigen::Map<Eigen::MatrixXd> G(grad.data() + c * p.D * p.D, p.D, p.D);
    for (std::size_t j = 0; j < rows.size(); ++j)
      G += W(static_cast<Index>(j), c) * Xt.row(rows[j]).transpose() * Xt.row(rows[j]);
  }
  return grad;
}

}  // namespace

class TestLmgcSparseRows : public QObject {
  Q_OBJECT

 private slots:
  void keptOnlyWhenSparse() {
    Rng rng(3);
    const SparseProblem p(rng);
    QVERIFY(LmgcSparseRows::ifSparse(p.X, p.T).has_value());
    QVERIFY(!LmgcSparseRows::ifSparse(p.mapped, p.T).has_value());  // whitened rows are dense
    QVERIFY(!LmgcSparseRows::ifSparse(p.X, Eigen::MatrixXd::Identity(3, 3)).has_value());  // wrong map
  }

  // Scores, weighted Gram matrices and the factor products equal the dense ones on the
  // whitened rows, on all rows and on a list of them (with a repeat), to rounding.
  void productsEqualTheDenseOnes() {
    Rng rng(5);
    const SparseProblem p(rng);
    const LmgcSparseRows sparse = *LmgcSparseRows::ifSparse(p.X, p.T);
    QCOMPARE(sparse.rows(), p.n);
    QCOMPARE(sparse.dim(), p.D);
    const Eigen::VectorXd theta = test::randomLmgcTheta(p.model, rng, 1.0, true);
    const Eigen::MatrixXd expected = -p.model.scores(theta, p.mapped);
    const Eigen::MatrixXd all = sparse.scores(theta, p.C);
    QVERIFY2((all - expected).norm() <= 1e-12 * expected.norm(), qPrintable(QString::number((all - expected).norm())));

    const std::vector<Index> listed{7, 1499, 0, 7, 640};
    const Eigen::MatrixXd some = sparse.scores(theta, p.C, listed);
    QCOMPARE(some.rows(), Index(5));
    for (std::size_t j = 0; j < listed.size(); ++j)
      QVERIFY((some.row(static_cast<Index>(j)) - expected.row(listed[j])).norm() <= 1e-12 * expected.norm());

    Eigen::MatrixXd W = test::gaussianMatrix(p.n, p.C, rng);
    W.topRows(300).setZero();  // rows beyond every margin
    std::vector<Index> everyRow(static_cast<std::size_t>(p.n));
    std::iota(everyRow.begin(), everyRow.end(), Index(0));
    const Eigen::VectorXd gram = sparse.weightedGram(W), reference = denseGram(p, W, everyRow);
    QVERIFY2((gram - reference).norm() <= 1e-12 * reference.norm(), qPrintable(QString::number((gram - reference).norm())));
    const Eigen::MatrixXd Wsome = test::gaussianMatrix(5, p.C, rng);
    const Eigen::VectorXd listedGram = sparse.weightedGram(Wsome, listed), listedReference = denseGram(p, Wsome, listed);
    QVERIFY((listedGram - listedReference).norm() <= 1e-12 * listedReference.norm());

    // X̃_w M and X̃_wᵀ V through T.
    const Eigen::MatrixXd Xt = LmgcModel::augmentedRows(p.mapped);
    const Eigen::MatrixXd M = test::gaussianMatrix(p.D, 37, rng);
    LmgcSparseRows::RowMajorMatrix U;
    sparse.multiply(listed, sparse.pullFactors(M), U);
    for (std::size_t j = 0; j < listed.size(); ++j)
      QVERIFY((U.row(static_cast<Index>(j)) - Xt.row(listed[j]) * M).norm() <= 1e-12 * (1 + U.norm()));
    const LmgcSparseRows::RowMajorMatrix V = test::gaussianMatrix(5, 37, rng);
    LmgcSparseRows::RowMajorMatrix acc;
    sparse.transposeProduct(listed, V, acc);
    Eigen::MatrixXd expectedProduct = Eigen::MatrixXd::Zero(p.D, 37);
    for (std::size_t j = 0; j < listed.size(); ++j)
      expectedProduct += Xt.row(listed[j]).transpose() * V.row(static_cast<Index>(j));
    const Eigen::MatrixXd pushed = sparse.pushFactors(acc);
    QVERIFY((pushed - expectedProduct).norm() <= 1e-12 * expectedProduct.norm());
  }

  void sameBitsOnAnyThreadCount() {
    Rng rng(8);
    const SparseProblem p(rng);
    const LmgcSparseRows sparse = *LmgcSparseRows::ifSparse(p.X, p.T);
    const Eigen::VectorXd theta = test::randomLmgcTheta(p.model, rng, 1.0, true);
    const Eigen::MatrixXd W = test::gaussianMatrix(p.n, p.C, rng);
    Eigen::MatrixXd scores[2];
    Eigen::VectorXd grams[2];
    for (const int threads : {1, 2}) {
      const ScopedWorkerThreads scope(threads);
      scores[threads - 1] = sparse.scores(theta, p.C);
      grams[threads - 1] = sparse.weightedGram(W);
    }
    QVERIFY(scores[0] == scores[1]);
    QVERIFY(grams[0] == grams[1]);
  }

  // The screened loss and the factored objective through the sparse rows equal the model's
  // loss and the factored objective on the dense whitened rows, at points near a reference
  // (rows screened out) and far from it.
  void screenedLossAndFactoredObjectiveEqualTheDense() {
    Rng rng(13);
    const SparseProblem p(rng);
    const LmgcSparseRows sparse = *LmgcSparseRows::ifSparse(p.X, p.T);
    const Eigen::VectorXd theta = 20.0 * p.model.initialParameters(p.mapped, p.y);
    const Eigen::VectorXd direction = test::randomLmgcTheta(p.model, rng, 1.0, false).normalized();
    ScreenedLmgcLoss screened(p.model, p.mapped, p.y, &sparse);
    for (const double step : {0.0, 1e-6, 1e-3, 1e-2, 10.0, 1e-4}) {
      const Eigen::VectorXd t = theta + step * theta.norm() * direction;
      Eigen::VectorXd full, partial;
      const double expected = p.model.lossSum(t, p.mapped, p.y, &full);
      const double value = screened(t, partial);
      DPSTUDIO_COMPARE_REL(value, expected, 1e-11);
      QVERIFY2((partial - full).norm() <= 1e-11 * (1.0 + full.norm()), qPrintable(QString::number((partial - full).norm())));
    }

    const Eigen::VectorXd linear = p.model.traceRegularizer(0.1);
    const LmgcInteriorProblem dense{p.model, p.mapped, p.y, 0.5, 0.01, linear, p.T};
    const LmgcInteriorProblem throughT{p.model, p.mapped, p.y, 0.5, 0.01, linear, p.T, &sparse};
    const std::vector<Index> ranks{p.D, 2, 5};
    LmgcFactoredObjective expectedObjective(dense, ranks), objective(throughT, ranks);
    const Eigen::VectorXd start = test::gaussianMatrix(p.D * objective.width(), 1, rng);
    const Eigen::VectorXd move = test::gaussianMatrix(start.size(), 1, rng).normalized();
    for (const double step : {0.0, 1e-6, 1e-3, 1e-1, 10.0, 1e-5}) {
      const Eigen::VectorXd f = start + step * start.norm() * move;
      Eigen::VectorXd full, partial;
      const double expected = expectedObjective(f, full);
      const double value = objective(f, partial);
      DPSTUDIO_COMPARE_REL(value, expected, 1e-11);
      QVERIFY2((partial - full).norm() <= 1e-11 * (1.0 + full.norm()), qPrintable(QString::number((partial - full).norm())));
    }
  }

  // A mixture's factored objective (two components a class) through the sparse rows equals the
  // one on the dense whitened rows, value and gradient, with factors of several ranks.
  void mixtureObjectiveEqualsTheDense() {
    Rng rng(17);
    const SparseProblem p(rng);
    const LmgcSparseRows sparse = *LmgcSparseRows::ifSparse(p.X, p.T);
    constexpr Index M = 2;
    Eigen::VectorXi own(p.n);
    for (Index i = 0; i < p.n; ++i) own[i] = static_cast<int>(rng.uniformIndex(M));
    const Eigen::MatrixXd P = p.T * p.T.transpose();
    const Eigen::VectorXd linear = 0.1 * test::gaussianMatrix(p.C * M * p.D * p.D, 1, rng);
    const LmgcMixtureProblem dense{p.mapped, p.y, own, p.C, M, 0.5, 0.5, 0.01, P, linear};
    const LmgcMixtureProblem throughT{p.mapped, p.y, own, p.C, M, 0.5, 0.5, 0.01, P, linear, &sparse};
    const std::vector<Index> ranks{p.D, 2, 5, 1, 17, 3};
    LmgcMixtureFactoredObjective expectedObjective(dense, ranks), objective(throughT, ranks);
    const Eigen::VectorXd start = test::gaussianMatrix(p.D * objective.width(), 1, rng);
    for (const double scale : {0.3, 1.0, 3.0}) {
      Eigen::VectorXd full, partial;
      const double expected = expectedObjective(scale * start, full);
      const double value = objective(scale * start, partial);
      DPSTUDIO_COMPARE_REL(value, expected, 1e-11);
      QVERIFY2((partial - full).norm() <= 1e-11 * (1.0 + full.norm()), qPrintable(QString::number((partial - full).norm())));
    }
  }
};

QTEST_APPLESS_MAIN(TestLmgcSparseRows)
#include "test_lmgc_sparse_rows.moc"
