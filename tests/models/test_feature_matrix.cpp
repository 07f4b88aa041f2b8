// The sparse products behind every linear model's loss (feature_matrix.h): the compressed
// rows built directly from a column-major matrix, X·W with the class count fixed at compile
// time (1 … 16) or not (17), Xᵀ·R gathered per row chunk or scattered for any other range —
// each against the dense product, and the same bits for 1 and 2 threads.

#include <QTest>

#include "core/models/feature_matrix.h"
#include "core/models/linear.h"
#include "core/util/parallel.h"

using namespace dpstudio;
using RowMajor = FeatureMatrix::RowMajorMatrix;

namespace {

// n rows over several RowChunks chunks (the last one short), ~15% non-zero, with empty rows
// and empty columns.
Eigen::MatrixXd sparseRows(Eigen::Index n, Eigen::Index d, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (i % 97 == 5) continue;  // an empty row
    for (Eigen::Index j = 1; j < d; ++j)  // column 0 stays empty
      if (std::rand() % 100 < 15) X(i, j) = static_cast<double>(std::rand()) / RAND_MAX - 0.5;
  }
  return X;
}

double relativeError(const Eigen::MatrixXd& got, const Eigen::MatrixXd& want) {
  return (got - want).norm() / (1.0 + want.norm());
}

}  // namespace

class TestFeatureMatrix : public QObject {
  Q_OBJECT

 private slots:
  void compressedRowsAreEigensSparseView() {
    const Eigen::MatrixXd X = sparseRows(5000, 40, 1);
    const FeatureMatrix rows = FeatureMatrix::withSparseIfWorthIt(X);
    QVERIFY(rows.hasSparse());
    FeatureMatrix::Sparse expected = X.sparseView();
    expected.makeCompressed();
    const FeatureMatrix::Sparse& got = rows.sparse();
    QCOMPARE(got.nonZeros(), expected.nonZeros());
    QVERIFY(std::equal(got.outerIndexPtr(), got.outerIndexPtr() + X.rows() + 1, expected.outerIndexPtr()));
    QVERIFY(std::equal(got.innerIndexPtr(), got.innerIndexPtr() + got.nonZeros(), expected.innerIndexPtr()));
    QVERIFY(std::equal(got.valuePtr(), got.valuePtr() + got.nonZeros(), expected.valuePtr()));
  }

  void denseRowsGetNoSparseCopy() {
    const Eigen::MatrixXd X = Eigen::MatrixXd::Random(300, 10);
    QVERIFY(!FeatureMatrix::withSparseIfWorthIt(X).hasSparse());
    QVERIFY(FeatureMatrix::withSparseIfWorthIt(X, 1.0).hasSparse());
    QVERIFY(!FeatureMatrix::withSparseIfWorthIt(Eigen::MatrixXd(0, 4)).hasSparse());
  }

  void productsMatchTheDenseOnes_data() {
    QTest::addColumn<int>("C");
    for (int C : {1, 2, 3, 10, 16, 17}) QTest::newRow(qPrintable(QString("C=%1").arg(C))) << C;
  }
  void productsMatchTheDenseOnes() {
    QFETCH(int, C);
    const Eigen::MatrixXd X = sparseRows(5000, 40, 2);
    const FeatureMatrix rows = FeatureMatrix::withSparseIfWorthIt(X);
    QVERIFY(rows.hasSparse());
    const RowMajor W = RowMajor::Random(X.cols(), C);
    // Whole chunks (the gathered transpose), the short last chunk, and ranges that are not
    // chunks (the scattered transpose).
    const std::pair<Eigen::Index, Eigen::Index> ranges[] = {
        {0, RowChunks::kRows}, {RowChunks::kRows, RowChunks::kRows}, {2 * RowChunks::kRows, 5000 - 2 * RowChunks::kRows},
        {100, 300}, {0, 5000}, {4999, 1}};
    for (const auto& [begin, size] : ranges) {
      RowMajor XW;
      rows.multiplyRows(begin, size, W, XW);
      const Eigen::MatrixXd expectedXW = X.middleRows(begin, size) * Eigen::MatrixXd(W);
      QVERIFY2(relativeError(XW, expectedXW) < 1e-14, qPrintable(QString("X·W rows %1+%2").arg(begin).arg(size)));
      const RowMajor R = RowMajor::Random(size, C);
      RowMajor XtR;
      rows.transposeMultiplyRows(begin, size, R, XtR);
      const Eigen::MatrixXd expectedXtR = X.middleRows(begin, size).transpose() * Eigen::MatrixXd(R);
      QVERIFY2(relativeError(XtR, expectedXtR) < 1e-14, qPrintable(QString("Xᵀ·R rows %1+%2").arg(begin).arg(size)));
      if (C == 1) {  // the one-column overloads (binary models)
        Eigen::VectorXd xw(size), xtr(X.cols());
        rows.multiplyRows(begin, size, Eigen::VectorXd(W.col(0)), xw);
        rows.transposeMultiplyRows(begin, size, Eigen::VectorXd(R.col(0)), xtr);
        QVERIFY(relativeError(xw, expectedXW) < 1e-14);
        QVERIFY(relativeError(xtr, expectedXtR) < 1e-14);
      }
    }
  }

  // A softmax gradient over several chunks: the same bits with 1 and 2 threads, and the
  // dense rows' value to rounding.
  void softmaxOnSparseRowsIsThreadInvariant() {
    const Eigen::MatrixXd X = sparseRows(5000, 40, 3);
    Eigen::VectorXi y(X.rows());
    for (Eigen::Index i = 0; i < y.size(); ++i) y[i] = static_cast<int>(i % 10);
    const FeatureMatrix rows = FeatureMatrix::withSparseIfWorthIt(X);
    const SoftmaxModel model(X.cols(), 10);
    const Eigen::VectorXd theta = Eigen::VectorXd::Random(model.parameterCount());
    Eigen::VectorXd one, two, dense;
    double lossOne = 0, lossTwo = 0;
    {
      ScopedWorkerThreads threads(1);
      lossOne = model.lossSumOnRows(theta, rows, y, &one);
    }
    {
      ScopedWorkerThreads threads(2);
      lossTwo = model.lossSumOnRows(theta, rows, y, &two);
    }
    QCOMPARE(lossOne, lossTwo);
    QVERIFY(one == two);
    const double lossDense = model.lossSum(theta, X, y, &dense);
    QVERIFY(std::abs(lossDense - lossOne) <= 1e-12 * std::abs(lossDense));
    QVERIFY((dense - one).norm() <= 1e-12 * (1 + dense.norm()));
  }
};

QTEST_APPLESS_MAIN(TestFeatureMatrix)
#include "test_feature_matrix.moc"
