// LMGC's class ellipsoids: the exact round trip Φ ↔ (Ψ, μ, θ) with the ½ of the √2
// augmentation, singular shapes reported instead of NaN, and shadows on the 2-D view
// checked by the support function.

#include <QTest>

#include <cmath>
#include <numbers>

#include <Eigen/LU>
#include <Eigen/QR>

#include "core/linalg/psd.h"
#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"
#include "core/random/rng.h"
#include "tests/common/test_support.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;
using Index = Eigen::Index;

namespace {

Eigen::MatrixXd randomOrthonormal(Index d, Index k, Rng& rng) {
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(test::gaussianMatrix(d, k, rng));
  return qr.householderQ() * Eigen::MatrixXd::Identity(d, k);
}

ViewProjection viewWithBasis(const Eigen::MatrixXd& basis) {
  ViewProjection view;
  view.basis = basis;
  view.centre = Eigen::VectorXd::Zero(basis.rows());
  return view;
}

}  // namespace

class TestLmgcEllipsoid : public QObject {
  Q_OBJECT

 private slots:
  // Φ → (Ψ, μ, θ) → Φ exactly, and the ellipsoid's scores equal the model's.
  void ellipsoidRoundTrip_data() {
    QTest::addColumn<int>("d");
    QTest::newRow("d1") << 1;
    QTest::newRow("d2") << 2;
    QTest::newRow("d5") << 5;
  }
  void ellipsoidRoundTrip() {
    QFETCH(int, d);
    Rng rng(static_cast<std::uint64_t>(d) + 7);
    const Eigen::MatrixXd g = test::gaussianMatrix(d, d, rng);
    const Eigen::MatrixXd shape = g * g.transpose() + 0.1 * Eigen::MatrixXd::Identity(d, d);
    const Eigen::VectorXd centre = test::gaussianMatrix(d, 1, rng);
    const double offset = 0.8;
    const Eigen::MatrixXd phi = phiFromEllipsoid(shape, centre, offset);
    QVERIFY(minSymmetricEigenvalue(phi) >= -1e-12);
    const ClassEllipsoid e = extractEllipsoid(phi);
    QVERIFY(e.bounded);
    QVERIFY((e.shape - shape).norm() <= 1e-14 * shape.norm());
    QVERIFY((e.centre - centre).norm() <= 1e-10 * (1 + centre.norm()));
    QVERIFY(std::abs(e.offset - offset) <= 1e-10 * (1 + phi.norm()));
    QVERIFY((phiFromEllipsoid(e.shape, e.centre, e.offset) - phi).norm() <= 1e-10 * phi.norm());

    const LmgcModel model(d, 2);
    const Eigen::VectorXd theta = model.packParameters({phi, Eigen::MatrixXd::Identity(d + 1, d + 1)});
    const Eigen::MatrixXd X = test::gaussianMatrix(15, d, rng);
    QVERIFY((e.scores(X) + model.scores(theta, X).col(0)).norm() <= 1e-10 * e.scores(X).norm());
  }

  // PSD but singular Ψ: reported unbounded, no NaN, and the score identity still holds.
  void singularShapeIsReported_data() {
    QTest::addColumn<int>("rank");
    QTest::newRow("rank1_of_3") << 1;
    QTest::newRow("rank0") << 0;
  }
  void singularShapeIsReported() {
    QFETCH(int, rank);
    Rng rng(31);
    const Index d = 3;
    const Eigen::MatrixXd u = test::gaussianMatrix(d, rank, rng);
    const Eigen::MatrixXd shape = u * u.transpose();
    const Eigen::VectorXd centre = test::gaussianMatrix(d, 1, rng);
    Eigen::MatrixXd phi = phiFromEllipsoid(shape, centre, 0.4);
    phi = projectPsd(phi);  // what training produces: PSD up to rounding
    const ClassEllipsoid e = extractEllipsoid(phi);
    QVERIFY(!e.bounded);
    QVERIFY(e.centre.allFinite() && std::isfinite(e.offset));
    QVERIFY(e.offset >= -1e-10);
    const LmgcModel model(d, 2);
    const Eigen::VectorXd theta = model.packParameters({phi, phi});
    const Eigen::MatrixXd X = test::gaussianMatrix(10, d, rng);
    QVERIFY((e.scores(X) + model.scores(theta, X).col(0)).norm() <= 1e-9 * (1 + e.scores(X).norm()));
  }

  // d = 2 with the identity view: the polyline lies exactly on the level set.
  void shadowIsExactLevelSetIn2d() {
    Eigen::Matrix2d shape;
    shape << 4, 1, 1, 2;
    const Eigen::Vector2d centre(0.3, -0.2);
    const ClassEllipsoid e = extractEllipsoid(phiFromEllipsoid(shape, centre, 0.5));
    const auto shadow = shadowOnView(e, kDefaultEllipseLevel, viewWithBasis(Eigen::MatrixXd::Identity(2, 2)));
    QVERIFY(shadow.ok());
    QVERIFY(shadow.value().bounded);
    QVERIFY((shadow.value().centre - centre).norm() < 1e-14);
    const Eigen::MatrixXd points = shadow.value().polyline(64);
    QCOMPARE(points.rows(), Index(64));
    const Eigen::VectorXd levels = e.levels(points);
    for (Index i = 0; i < levels.size(); ++i) DPSTUDIO_COMPARE_REL(levels[i], kDefaultEllipseLevel, 1e-12);
    // Counter-clockwise: positive signed area.
    double area = 0;
    for (Index i = 0; i < points.rows(); ++i) {
      const Index j = (i + 1) % points.rows();
      area += points(i, 0) * points(j, 1) - points(j, 0) * points(i, 1);
    }
    QVERIFY(area > 0);
  }

  // A 3-D ellipsoid seen through a random orthonormal view: along every in-plane direction
  // w = Va, the extent of the lifted polyline equals the ellipsoid's support function
  // h(w) = wᵀμ + √(t·wᵀΨ⁻¹w).
  void shadowMatchesSupportFunction() {
    Rng rng(55);
    const Index d = 3;
    const Eigen::MatrixXd g = test::gaussianMatrix(d, d, rng);
    const Eigen::MatrixXd shape = g * g.transpose() + 0.2 * Eigen::MatrixXd::Identity(d, d);
    const Eigen::VectorXd centre = test::gaussianMatrix(d, 1, rng);
    const ClassEllipsoid e = extractEllipsoid(phiFromEllipsoid(shape, centre, 0.0));
    ViewProjection view = viewWithBasis(randomOrthonormal(d, 2, rng));
    view.centre = test::gaussianMatrix(d, 1, rng);  // the plane through some "data mean"
    const double level = 1.7;
    const auto shadow = shadowOnView(e, level, view);
    QVERIFY(shadow.ok() && shadow.value().bounded);
    const int k = 4000;
    const Eigen::MatrixXd lifted = view.lift(shadow.value().polyline(k));
    const Eigen::MatrixXd inverse = shape.inverse();
    // The sampling error of a k-gon inscribed in the ellipse is ≤ 1 − cos(π/k) ≈ 3e−7.
    for (int trial = 0; trial < 50; ++trial) {
      const Eigen::Vector2d a = Eigen::Vector2d(rng.normal(), rng.normal()).normalized();
      const Eigen::VectorXd w = view.basis * a;
      const double support = w.dot(centre) + std::sqrt(level * w.dot(inverse * w));
      // Lifting adds the plane's offset along the normal, which w does not see.
      const double extent = (lifted * w).maxCoeff();
      const double radius = std::sqrt(level * w.dot(inverse * w));
      QVERIFY2(std::abs(extent - support) <= 1e-6 * radius,
               qPrintable(QString("%1 vs %2").arg(extent).arg(support)));
      // The ellipsoid's support point projects onto the shadow's boundary.
      const Eigen::VectorXd touching = centre + std::sqrt(level) * inverse * w / std::sqrt(w.dot(inverse * w));
      QVERIFY(std::abs(e.levels(touching.transpose())[0] - level) < 1e-10);
      const Eigen::RowVector2d projected = (view.basis.transpose() * touching).transpose();
      const Eigen::MatrixXd points = shadow.value().polyline(k);
      const double nearest = (points.rowwise() - projected).rowwise().norm().minCoeff();
      QVERIFY(nearest <= 2 * std::numbers::pi / k * 2 * radius);
    }
  }

  void shadowOfUnboundedEllipsoid() {
    // Ψ = diag(1, 1, 0): a cylinder along e₃.
    const Eigen::MatrixXd shape = Eigen::Vector3d(1, 1, 0).asDiagonal();
    const ClassEllipsoid e = extractEllipsoid(phiFromEllipsoid(shape, Eigen::Vector3d(0.1, 0.2, 0.0), 0.3));
    QVERIFY(!e.bounded);
    // The view of (e₁, e₂) looks along the cylinder's axis: a bounded circle of radius √t.
    Eigen::MatrixXd basis = Eigen::MatrixXd::Zero(3, 2);
    basis(0, 0) = basis(1, 1) = 1;
    const auto along = shadowOnView(e, 4.0, viewWithBasis(basis));
    QVERIFY(along.ok() && along.value().bounded);
    const Eigen::MatrixXd points = along.value().polyline(16);
    for (Index i = 0; i < points.rows(); ++i)
      DPSTUDIO_COMPARE_REL((points.row(i) - Eigen::RowVector2d(0.1, 0.2)).norm(), 2.0, 1e-12);
    // The view of (e₁, e₃) sees the axis: unbounded, nothing to draw.
    basis.setZero();
    basis(0, 0) = basis(2, 1) = 1;
    const auto across = shadowOnView(e, 4.0, viewWithBasis(basis));
    QVERIFY(across.ok() && !across.value().bounded);
    QCOMPARE(across.value().polyline(16).rows(), Index(0));
  }

  void shadowRejectsBadInput() {
    const ClassEllipsoid e = extractEllipsoid(Eigen::MatrixXd::Identity(3, 3));
    const ViewProjection view = viewWithBasis(Eigen::MatrixXd::Identity(2, 2));
    QCOMPARE(QString::fromStdString(shadowOnView(e, -1, view).error().field), QString("level"));
    QCOMPARE(QString::fromStdString(shadowOnView(e, std::nan(""), view).error().field), QString("level"));
    QCOMPARE(QString::fromStdString(shadowOnView(e, 1, viewWithBasis(Eigen::MatrixXd::Identity(3, 2))).error().field),
             QString("view"));
  }
};

QTEST_APPLESS_MAIN(TestLmgcEllipsoid)
#include "test_lmgc_ellipsoid.moc"
