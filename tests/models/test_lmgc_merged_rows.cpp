// Identical rows merged with their counts (lmgc_merged_rows.h): which rows merge, that every
// evaluation over the merged rows is the evaluation over all of them (the model's loss, the
// screened loss dense and through sparse rows, the factored objective, the pairs' curvature),
// and that the whitened solver, which merges where the interior point does not apply, stops
// at a point the whole problem's own stopping measure accepts.

#include <QTest>

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/linalg/psd.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_interior.h"
#include "core/models/lmgc_merged_rows.h"
#include "core/models/lmgc_pairs.h"
#include "core/models/lmgc_screening.h"
#include "core/models/lmgc_solver.h"
#include "core/models/lmgc_sparse_rows.h"
#include "core/models/objective.h"
#include "tests/common/test_support.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// `distinct` different one-hot-like rows (at most `ones` features set a row), each repeated
// 1–4 times and shuffled, labels from a noisy rule on the features.
struct RepeatedRows {
  Eigen::MatrixXd X;
  Eigen::VectorXi y;
  Eigen::Index distinct = 0;

  RepeatedRows(Eigen::Index rows, Eigen::Index d, Eigen::Index C, int ones, Rng& rng) : distinct(rows) {
    std::vector<Eigen::RowVectorXd> unique;
    std::vector<int> labels;
    const Eigen::VectorXd rule = test::gaussianMatrix(d, 1, rng);
    while (static_cast<Eigen::Index>(unique.size()) < rows) {
      Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(d);
      for (int k = 0; k < ones; ++k) row[static_cast<Eigen::Index>(rng.uniformIndex(static_cast<std::uint64_t>(d)))] = 1;
      if (std::any_of(unique.begin(), unique.end(), [&](const Eigen::RowVectorXd& u) { return u == row; })) continue;
      const double score = row.dot(rule) + 0.5 * rng.normal();
      labels.push_back(static_cast<int>(std::clamp<double>(std::floor(score + static_cast<double>(C) / 2), 0, C - 1)));
      unique.push_back(row);
    }
    std::vector<Eigen::Index> order;
    for (Eigen::Index k = 0; k < rows; ++k)
      for (std::uint64_t copies = 1 + rng.uniformIndex(4); copies > 0; --copies) order.push_back(k);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.uniformIndex(i)]);
    X.resize(static_cast<Eigen::Index>(order.size()), d);
    y.resize(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      X.row(i) = unique[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
      y[i] = labels[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
    }
  }
};

}  // namespace

class TestLmgcMergedRows : public QObject {
  Q_OBJECT

 private slots:
  // Rows merge when features and label are the same; the first appearance keeps its place;
  // counts sum to n; −0 and +0 stay apart; mostly distinct rows are not worth merging.
  void mergesRowsWithTheSameFeaturesAndLabel() {
    Eigen::MatrixXd X(7, 2);
    X << 1, 2,  //
        3, 4,   //
        1, 2,   // the first row again
        1, 2,   // its features, another label
        -0.0, 5,  //
        0.0, 5,   // equal in value, not in bits: kept apart
        3, 4;     // the second row again
    Eigen::VectorXi y(7);
    y << 0, 1, 0, 1, 0, 0, 1;
    const auto merged = LmgcMergedRows::ifWorthwhile(X, y);
    QVERIFY(merged.has_value());
    QCOMPARE(merged->rows.rows(), Eigen::Index(5));
    Eigen::MatrixXd rows(5, 2);
    rows << 1, 2, 3, 4, 1, 2, -0.0, 5, 0.0, 5;
    QVERIFY(merged->rows == rows);
    QCOMPARE(std::vector<int>(merged->y.begin(), merged->y.end()), (std::vector<int>{0, 1, 1, 0, 0}));
    QCOMPARE(std::vector<double>(merged->counts.begin(), merged->counts.end()), (std::vector<double>{2, 2, 1, 1, 1}));

    Rng rng(3);
    Eigen::MatrixXd distinct;
    Eigen::VectorXi labels;
    test::randomLabelledRows(100, 3, 2, rng, distinct, labels);
    distinct.row(1) = distinct.row(0);  // 99 of 100 distinct even when the labels agree
    labels[1] = labels[0];
    QVERIFY(!LmgcMergedRows::ifWorthwhile(distinct, labels).has_value());
  }

  // The model's loss and gradient, the screened loss (dense and through sparse rows, with
  // rows screened out) and the factored objective over the merged rows with their counts are
  // those over every row; the pairs' curvature is the count's multiple.
  void countedEvaluationsAreTheEvaluationsOverEveryRow() {
    Rng rng(5);
    constexpr Eigen::Index d = 30, C = 3, D = d + 1;
    const RepeatedRows data(150, d, C, 3, rng);
    const auto merged = LmgcMergedRows::ifWorthwhile(data.X, data.y);
    QVERIFY(merged.has_value());
    QCOMPARE(merged->rows.rows(), data.distinct);
    QCOMPARE(merged->counts.sum(), static_cast<double>(data.X.rows()));
    const LmgcModel model(d, C, 0.5);
    const Eigen::VectorXd* counts = &merged->counts;

    for (const bool psd : {true, false}) {
      const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 0.3, psd);
      Eigen::VectorXd all, counted;
      const double loss = model.lossSum(theta, data.X, data.y, &all);
      DPSTUDIO_COMPARE_REL(model.countedLossSum(theta, merged->rows, merged->y, &counted, counts), loss, 1e-12);
      QVERIFY((counted - all).norm() <= 1e-12 * all.norm());
    }

    // The screened loss: a reference evaluation, then one a small step away (most rows
    // screened out near a scaled-up point), dense and through the sparse rows.
    const Eigen::MatrixXd T = Eigen::MatrixXd::Identity(D, D);
    const auto sparse = LmgcSparseRows::ifSparse(merged->rows, T);
    QVERIFY(sparse.has_value());
    const Eigen::VectorXd far = test::randomLmgcTheta(model, rng, 30.0, true);
    for (const LmgcSparseRows* through : {static_cast<const LmgcSparseRows*>(nullptr), &*sparse}) {
      ScreenedLmgcLoss screened(model, merged->rows, merged->y, through, counts);
      for (const double step : {0.0, 1e-3}) {
        const Eigen::VectorXd theta = far * (1 + step);
        Eigen::VectorXd grad, all;
        const double value = screened(theta, grad);
        DPSTUDIO_COMPARE_REL(value, model.lossSum(theta, data.X, data.y, &all), 1e-12);
        QVERIFY((grad - all).norm() <= 1e-12 * (1 + all.norm()));
      }
      QVERIFY(screened.computedRows() < merged->rows.rows());
    }

    // The factored objective: the problem over the merged rows with counts against the one
    // over every row, dense and through the sparse rows.
    const Eigen::VectorXd linear;
    const LmgcInteriorProblem whole{model, data.X, data.y, 0.01, 0.2, linear, T};
    const LmgcInteriorProblem dense{model, merged->rows, merged->y, 0.01, 0.2, linear, T, nullptr, counts};
    const LmgcInteriorProblem throughT{model, merged->rows, merged->y, 0.01, 0.2, linear, T, &*sparse, counts};
    const std::vector<Eigen::Index> ranks{2, D, 4};
    const Eigen::VectorXd factors = test::gaussianMatrix(D * (2 + D + 4), 1, rng);
    Eigen::VectorXd reference, grad;
    const double value = LmgcFactoredObjective(whole, ranks)(factors, reference);
    for (const LmgcInteriorProblem* problem : {&dense, &throughT}) {
      DPSTUDIO_COMPARE_REL(LmgcFactoredObjective(*problem, ranks)(factors, grad), value, 1e-12);
      QVERIFY((grad - reference).norm() <= 1e-11 * reference.norm());
    }

    // The pairs' curvature, as the semismooth Newton method and Newton on the face read it.
    const Eigen::MatrixXd S = -model.scores(test::randomLmgcTheta(model, rng, 0.3, true), merged->rows);
    Eigen::MatrixXd once, weighted, W, Wcounted;
    lmgc_detail::pairLoss(S, merged->y, 0.5, &W, &once);
    lmgc_detail::pairLoss(S, merged->y, 0.5, &Wcounted, &weighted, counts->data());
    QVERIFY(once.cwiseAbs().sum() > 0);
    QVERIFY((weighted - counts->asDiagonal() * once).norm() <= 1e-15 * weighted.norm());
    QVERIFY((Wcounted - counts->asDiagonal() * W).norm() <= 1e-15 * Wcounted.norm());
  }

  // The whitened solver merges repeated rows and stops where the whole problem's projected-
  // gradient step, computed here over every row in the original coordinates, meets the
  // tolerance: on a9a-like rows (two classes, 50 binary features: too many unknowns for the
  // interior point, so L-BFGS over factors and the Newton end game) and on few features
  // (three classes, 6: the interior point, its pairs weighted by the counts). With the
  // counts dropped or wrong that point would be another problem's minimizer.
  void solverOnMergedRowsStopsAtTheWholeProblemsMinimizer() {
    struct Case {
      Eigen::Index d, C, distinct;
      int ones;
      bool interior;
    };
    for (const Case& k : {Case{50, 2, 300, 6, false}, Case{6, 3, 30, 3, true}}) {
      Rng rng(7);
      const RepeatedRows data(k.distinct, k.d, k.C, k.ones, rng);
      QVERIFY(LmgcMergedRows::ifWorthwhile(data.X, data.y).has_value());
      QCOMPARE(lmgcInteriorDimension(k.C, k.d + 1) <= LmgcInteriorOptions{}.maxDimension, k.interior);
      const LmgcModel model(k.d, k.C, 0.5);
      const double lambda = 1e-2;
      const ObjectiveTerms terms{LossScale::Mean, lambda, model.traceRegularizer(lambda)};
      ProjectedGradientOptions options;
      options.absoluteTolerance = 1e-7;
      options.relativeTolerance = 1e-9;
      options.maxIterations = 5000;
      Eigen::VectorXd theta = model.initialParameters(data.X, data.y);
      const OptimizeSummary summary =
          minimizeLmgcWhitened(model, data.X, data.y, terms, theta, options, {}, LmgcRun::ExactTraining);
      QCOMPARE(summary.termination, Termination::Converged);
      // The interior point meets the measure on its own (11 steps); with its pairs' weights
      // ignored it stalls and projected gradient finishes (121 iterations).
      if (k.interior) QVERIFY2(summary.iterations < 50, qPrintable(QString::number(summary.iterations)));

      const Objective whole(model, data.X, data.y, terms);
      Eigen::VectorXd grad;
      whole(theta, grad);
      double squared = 0;
      for (Eigen::Index c = 0; c < k.C; ++c) {
        const Eigen::MatrixXd phi = model.classMatrix(theta, c);
        const Eigen::MatrixXd g = model.classMatrix(grad, c);
        squared += (projectPsd(phi - g) - phi).squaredNorm();
      }
      const double tolerance = std::max(options.absoluteTolerance, options.relativeTolerance * theta.norm());
      QVERIFY2(std::sqrt(squared) <= 1.01 * tolerance,
               qPrintable(QStringLiteral("d = %1: measure %2, tolerance %3").arg(k.d).arg(std::sqrt(squared)).arg(tolerance)));
    }
  }
};

QTEST_GUILESS_MAIN(TestLmgcMergedRows)
#include "test_lmgc_merged_rows.moc"
