#include "ui/plot/decision_overlay.h"

#include <algorithm>
#include <cmath>

#include "ui/jobs/job.h"
#include "ui/plot/ensemble_regions.h"
#include "ui/plot/privacy_status.h"
#include "ui/plot/region_image.h"
#include "ui/plot/scatter_view.h"
#include "ui/training/prediction_answers.h"

namespace dpstudio::ui {
namespace {

// Points per ellipse outline: smooth at any zoom a user would pick.
constexpr int kEllipsePoints = 180;
// Region images larger than this (device pixels per side) are not worth their time.
constexpr int kMaxRegionPixels = 2048;
// The first image of a model core cannot restrict exactly has 1/kCoarseFactor² the pixels.
constexpr int kCoarseFactor = 4;

QString number(double value) { return QString::number(value, 'g', 4); }

// The steps the view's coordinates have been through. Behind random Fourier features the
// points are the rows before the map (model_view.h), so the map and the intercept after it
// are not among them: kernelNote() says what the model reads.
// spec: as the user set it; fitted: what preprocessing added (a non-private LMGC's row scale).
QString preprocessingText(const PreprocessSpec& spec, const PreprocessSpec& fitted) {
  QStringList steps;
  if (fitted.rowScale) steps << QObject::tr("rows divided by s = %1 (their RMS norm)").arg(number(*fitted.rowScale));
  if (spec.unitRows) steps << QObject::tr("rows scaled to unit norm");
  if (spec.normBound) steps << QObject::tr("norm bound R = %1").arg(number(*spec.normBound));
  if (spec.intercept && !spec.randomFeatures) steps << QObject::tr("intercept appended");
  return steps.join(QStringLiteral(", "));
}

// Why a "linear" model's regions are curved: it is linear in the D features, not in x.
QString kernelNote(const PreprocessSpec& spec) {
  if (!spec.randomFeatures) return {};
  const RandomFeaturesSpec& map = *spec.randomFeatures;
  return QObject::tr("regions: RBF kernel via D = %1 random Fourier features (\u03b3 = %2)%3 \u2014 linear in "
                     "\u03c6(x), curved in x")
      .arg(map.dim)
      .arg(number(map.gamma))
      .arg(spec.intercept ? QObject::tr(" + intercept") : QString());
}

void addPointSets(ScatterContent& content, const Dataset& data, const Eigen::MatrixXd& coords, SeriesRole role) {
  const std::size_t first = content.pointSets.size();
  for (Index k = 0; k < data.classes(); ++k) {
    PointSet set;
    set.name = QString::fromStdString(data.classNames[static_cast<std::size_t>(k)]);
    set.classIndex = static_cast<int>(k);
    set.role = role;
    content.pointSets.push_back(std::move(set));
  }
  for (Index i = 0; i < coords.rows(); ++i) {
    const int k = data.y[i];
    if (k >= 0 && k < data.classes())
      content.pointSets[first + static_cast<std::size_t>(k)].points.append(QPointF(coords(i, 0), coords(i, 1)));
  }
}

// A private predictor's test points, per class: those not answered yet (by their true
// label), and the answered ones twice — by their true label (the rings) and by the label
// the predictor released (the dots).
struct AnsweredLists {
  std::vector<QList<QPointF>> unanswered, rings, dots;
};

AnsweredLists answeredLists(const Dataset& test, const Eigen::MatrixXd& coords, const std::vector<Index>& labels) {
  const auto classes = static_cast<std::size_t>(test.classes());
  AnsweredLists lists{std::vector<QList<QPointF>>(classes), std::vector<QList<QPointF>>(classes),
                      std::vector<QList<QPointF>>(classes)};
  const auto valid = [classes](Index k) { return k >= 0 && static_cast<std::size_t>(k) < classes; };
  for (Index i = 0; i < coords.rows(); ++i) {
    const QPointF point(coords(i, 0), coords(i, 1));
    const Index truth = test.y[i];
    const auto answered = static_cast<std::size_t>(i) < labels.size();
    if (!valid(truth)) continue;
    if (!answered) {
      lists.unanswered[static_cast<std::size_t>(truth)].append(point);
      continue;
    }
    lists.rings[static_cast<std::size_t>(truth)].append(point);
    const Index label = labels[static_cast<std::size_t>(i)];
    if (valid(label)) lists.dots[static_cast<std::size_t>(label)].append(point);
  }
  return lists;
}

void addSets(ScatterContent& content, const Dataset& data, const std::vector<QList<QPointF>>& lists, SeriesRole role) {
  for (std::size_t k = 0; k < lists.size(); ++k) {
    PointSet set;
    set.name = QString::fromStdString(data.classNames[k]);
    set.classIndex = static_cast<int>(k);
    set.role = role;
    set.points = lists[k];
    content.pointSets.push_back(std::move(set));
  }
}

// What a drawn ellipse is, for its tooltip: the level set itself (d ≤ 2), or which cut of
// the d-D ellipsoid (ellipsoid.h).
QString drawingNote(EllipseDrawing drawing, Index d) {
  if (d <= 2) return {};
  switch (drawing) {
    case EllipseDrawing::Shadow:
      return QObject::tr("\nFor d = %1 > 2 this is the shadow (orthogonal projection) of the class's ellipsoid on "
                         "the view plane.")
          .arg(d);
    case EllipseDrawing::Section:
      return QObject::tr("\nThe %1-D ellipsoid is unbounded (\u03a8 is singular), so its shadow would cover a strip "
                         "or the plane: this is its section by the view plane through the data mean.")
          .arg(d);
    case EllipseDrawing::CentreSection:
      return QObject::tr("\nThe %1-D ellipsoid is unbounded (\u03a8 is singular) and the view plane through the data "
                         "mean misses it: this is its section by the parallel plane through its centre \u03bc.")
          .arg(d);
    case EllipseDrawing::Strip:
      return QObject::tr("\nThe %1-D ellipsoid is unbounded (\u03a8 is singular) along a direction of the view "
                         "plane: its section by the plane is this strip.")
          .arg(d);
    case EllipseDrawing::NotDrawn: break;
  }
  return {};
}

// Ellipse k's name: its class, and with a mixture of M per class which component it is.
QString ellipseName(const Dataset& train, std::size_t k, Index perClass) {
  const QString name = QString::fromStdString(train.classNames[k / static_cast<std::size_t>(perClass)]);
  if (perClass == 1) return name;
  return QObject::tr("%1 (component %2 of %3)").arg(name).arg(static_cast<Index>(k) % perClass + 1).arg(perClass);
}

// Why classes have no visible ellipse (issue 9: never a degenerate conic), in one line so
// that it shows in the title: "no ellipse for setosa, virginica (…) · ellipse of … (zoom out)".
QString ellipseReasons(const std::vector<ViewEllipse>& ellipses, const Dataset& train,
                       const Eigen::MatrixXd& trainCoords, bool isPrivate, Index perClass) {
  const auto classesWith = [&](const auto& pick) {
    QStringList names;
    for (std::size_t k = 0; k < ellipses.size(); ++k)
      if (pick(ellipses[k])) names << ellipseName(train, k, perClass);
    return names.join(QStringLiteral(", "));
  };
  const auto problem = [](EllipseProblem p) { return [p](const ViewEllipse& e) { return !e.bounded && e.problem == p; }; };
  QStringList missing;
  for (EllipseProblem p : {EllipseProblem::UnboundedOnPlane, EllipseProblem::NotPositiveSemidefinite,
                           EllipseProblem::FarBeyondData, EllipseProblem::MissesPlane}) {
    const QString names = classesWith(problem(p));
    if (names.isEmpty()) continue;
    QString why;
    if (p == EllipseProblem::UnboundedOnPlane) {
      why = QObject::tr("score flat on this whole plane");
    } else if (p == EllipseProblem::NotPositiveSemidefinite) {
      why = isPrivate ? QObject::tr("the noise left \u03a8 a negative eigenvalue: hyperbolas")
                      : QObject::tr("\u03a8 has a negative eigenvalue: hyperbolas");
    } else if (p == EllipseProblem::FarBeyondData) {
      why = QObject::tr("over %1\u00d7 wider than the data: two near-parallel lines").arg(kMaxEllipseExtent);
    } else {
      why = QObject::tr("the plane misses its ellipsoid");
    }
    missing << QObject::tr("%1 (%2)").arg(names, why);
  }
  QStringList parts;
  if (!missing.isEmpty()) parts << QObject::tr("no ellipse for %1").arg(missing.join(QStringLiteral("; ")));
  // A section of an unbounded ellipsoid can lie away from the data (iris, sepal plane:
  // versicolor's, two data widths off) or enclose all of it (digits on a random plane):
  // drawn, but no part of it crosses the data's range, where the view opens.
  if (trainCoords.rows() > 0) {
    const Eigen::RowVector2d lo = trainCoords.colwise().minCoeff(), hi = trainCoords.colwise().maxCoeff();
    const QString away = classesWith([&](const ViewEllipse& e) {
      if (e.drawing == EllipseDrawing::Strip) {
        const auto edges = e.stripEdges(lo.transpose(), hi.transpose());
        return edges[0].rows() == 0 && edges[1].rows() == 0;  // the strip holds all the data
      }
      if (!e.bounded) return false;
      const Eigen::MatrixXd outline = e.polyline(kEllipsePoints);
      for (Index i = 0; i < outline.rows(); ++i)
        if ((outline.row(i).array() >= lo.array()).all() && (outline.row(i).array() <= hi.array()).all())
          return false;
      return true;
    });
    if (!away.isEmpty())
      parts << QObject::tr("curve of %1 beyond the data's range on this plane (zoom out)").arg(away);
  }
  return parts.join(QStringLiteral(" \u00b7 "));
}

// A strip's edges are drawn across the data's range on the plane and this many times its
// extent beyond, so that they still cross the view after a zoom out or a pan.
constexpr double kStripMargin = 3.0;

// The ellipses of `ellipses` that can be drawn, as curves of `role` (a strip as its two edge
// lines); returns how many are drawn (with a mixture, M per class). trainCoords: the training points on the plane.
int addEllipses(ScatterContent& content, const std::vector<ViewEllipse>& ellipses, EllipseLevelRule rule,
                SeriesRole role, const TrainingResult& result, const QString& whose, Index d,
                const Eigen::MatrixXd& trainCoords, Index perClass) {
  // Half of the class counts the points as drawn, on the plane (model_view.h).
  const auto whereFor = [&](const ViewEllipse& e) {
    if (rule != EllipseLevelRule::HalfOfClass)
      return QObject::tr("where the class score has risen by one margin above its lowest value");
    if (d > 2 && e.drawing != EllipseDrawing::Shadow)
      return QObject::tr("the contour of the class score on this plane that holds half of the class's training "
                         "points as drawn, projected onto the plane (a statistic of the data, like the model)");
    if (d > 2)
      return QObject::tr("the shadow of the class score's contour that holds half of the class's training "
                         "points as drawn (a statistic of the data, like the model)");
    return QObject::tr("the contour of the class score that holds half of the class's training "
                       "points (a statistic of the data, like the model)");
  };
  Eigen::Vector2d lo = Eigen::Vector2d::Constant(-1), hi = Eigen::Vector2d::Constant(1);
  if (trainCoords.rows() > 0) {
    lo = trainCoords.colwise().minCoeff().transpose();
    hi = trainCoords.colwise().maxCoeff().transpose();
    const double extent = std::max((hi - lo).norm(), 1e-12);
    lo.array() -= kStripMargin * extent;
    hi.array() += kStripMargin * extent;
  }
  int drawn = 0;
  for (std::size_t k = 0; k < ellipses.size(); ++k) {
    const ViewEllipse& e = ellipses[k];
    const QString className = ellipseName(result.data->train, k, perClass);
    std::vector<Eigen::MatrixXd> pieces;
    QString tooltip;
    if (e.drawing == EllipseDrawing::Strip) {
      for (Eigen::MatrixXd& edge : e.stripEdges(lo, hi))
        if (edge.rows() > 0) pieces.push_back(std::move(edge));
      tooltip = QObject::tr("%1: %2 LMGC strip, %3: \u03a8 (rank %4 of %5) is flat along it, so the class's "
                            "ellipsoid meets the plane in a strip, not an ellipse.%6")
                    .arg(className, whose, whereFor(e))
                    .arg(e.rank)
                    .arg(d)
                    .arg(drawingNote(e.drawing, d));
    } else {
      if (Eigen::MatrixXd outline = e.polyline(kEllipsePoints); outline.rows() > 0) pieces.push_back(std::move(outline));
      tooltip = QObject::tr("%1: %2 LMGC ellipse, %3: (x \u2212 \u03bc)\u1d40\u03a8(x \u2212 \u03bc) = %4.%5")
                    .arg(className, whose, whereFor(e))
                    .arg(number(e.level))
                    .arg(drawingNote(e.drawing, d));
    }
    if (pieces.empty()) continue;  // not drawable: ellipseReasons() says why
    for (const Eigen::MatrixXd& piece : pieces) {
      ClassCurve curve;
      curve.classIndex = static_cast<int>(static_cast<Index>(k) / perClass);
      curve.role = role;
      curve.closed = e.drawing != EllipseDrawing::Strip;
      for (Index i = 0; i < piece.rows(); ++i) curve.points.append(QPointF(piece(i, 0), piece(i, 1)));
      curve.tooltip = tooltip;
      content.curves.push_back(std::move(curve));
    }
    ++drawn;
  }
  return drawn;
}

// The legend's name for the drawn ellipses: which cut they are when d > 2.
QString ellipseKeyName(const std::vector<ViewEllipse>& ellipses, bool shadowsOrSections, bool isPrivate) {
  bool shadows = false, sections = false, strips = false;
  for (const ViewEllipse& e : ellipses) {
    shadows |= e.drawing == EllipseDrawing::Shadow;
    sections |= e.drawing == EllipseDrawing::Section || e.drawing == EllipseDrawing::CentreSection;
    strips |= e.drawing == EllipseDrawing::Strip;
  }
  QString base = isPrivate ? QObject::tr("private ellipses") : QObject::tr("class ellipses");
  if (strips) base = isPrivate ? QObject::tr("private ellipses and strips") : QObject::tr("class ellipses and strips");
  if (!shadowsOrSections) return base;
  if (shadows && (sections || strips)) return QObject::tr("%1 (shadows and sections)").arg(base);
  return shadows ? QObject::tr("%1 (shadows)").arg(base) : QObject::tr("%1 (sections)").arg(base);
}

// "(ε = 1, δ = 1e-05)" as the report states them.
QString budgetText(const mech::MechanismReport& report) {
  return QObject::tr("\u03b5 = %1, \u03b4 = %2").arg(number(report.epsilon), number(report.delta));
}

// What the regions image shows, for the title's notes.
QString regionsNote(const TrainingResult& result) {
  if (!result.prediction) return QObject::tr("regions: the model's decisions on the view plane through the data mean");
  if (result.prediction->isSubsample())
    return QObject::tr("\u26a0 regions: plurality vote of the T = %1 non-private teachers \u2014 not released")
        .arg(std::get<predict::SubsampleAggregate>(result.prediction->predictor).teachers().teachers());
  return QObject::tr("\u26a0 regions: the non-private model \u03b8* \u2014 not released");
}

// The data points. Test points first, so that the filled training points are drawn over the
// rings; a predictor's answered points above everything: they are what the budget bought.
// answers: a private predictor's, or nullptr.
void addModelPoints(ScatterContent& content, const TrainingResult& result, const ModelViewGeometry& geometry,
                    const PredictionAnswers* answers) {
  const PreparedData& data = *result.data;
  const bool prediction = result.isPrediction();
  const bool hasTest = geometry.testCoords.rows() > 0;
  AnsweredLists answered;
  if (prediction && hasTest) {
    answered = answeredLists(data.test, geometry.testCoords, answers ? answers->labels() : std::vector<Index>{});
    addSets(content, data.test, answered.unanswered, SeriesRole::TestPoints);
  } else if (hasTest) {
    addPointSets(content, data.test, geometry.testCoords, SeriesRole::TestPoints);
  }
  addPointSets(content, data.train, geometry.trainCoords, SeriesRole::Points);
  if (prediction && hasTest) {
    addSets(content, data.test, answered.rings, SeriesRole::AnsweredRing);
    addSets(content, data.test, answered.dots, SeriesRole::AnsweredFill);
  }
}

// The legend: the points, the model's ellipses when `drawn` are, and the dashed reference.
void addLegendKeys(ScatterContent& content, const TrainingResult& result, const ModelViewGeometry& geometry,
                   int drawn) {
  const bool prediction = result.isPrediction();
  const bool hasTest = geometry.testCoords.rows() > 0;
  content.keys.push_back({QObject::tr("training points"), SeriesRole::Points});
  if (prediction && hasTest) {
    content.keys.push_back({QObject::tr("test points, not answered"), SeriesRole::TestPoints});
    content.keys.push_back({QObject::tr("private answer (dot)"), SeriesRole::AnsweredFill});
    content.keys.push_back({QObject::tr("true label (ring)"), SeriesRole::AnsweredRing});
  } else if (hasTest) {
    content.keys.push_back({QObject::tr("test points"), SeriesRole::TestPoints});
  }
  if (drawn > 0)
    content.keys.push_back(
        {ellipseKeyName(geometry.ellipses, geometry.ellipsesAreShadows, result.isPrivate()), SeriesRole::Curve});
  // The dashed reference: the non-private ellipses and, in the regions image, its boundaries.
  if (result.multiparty)
    content.keys.push_back({QObject::tr("all-data non-private model (dashed)"), SeriesRole::ReferenceCurve});
  else if (result.release)
    content.keys.push_back({QObject::tr("non-private model (dashed)"), SeriesRole::ReferenceCurve});
}

// The title's privacy mark, as an opened bundle's (privacy_status.h).
PrivacyStatus modelPrivacyStatus(const TrainingResult& result) {
  if (!result.isPrivate()) return privacyStatus({}, {}, false);
  const bool prediction = result.isPrediction();
  const mech::MechanismReport& report = prediction ? result.prediction->report() : result.release->report;
  QString budget = budgetText(report);
  // The privacy unit of a predictor is its budget of answers.
  if (prediction) budget += QObject::tr(" for B = %1 answers").arg(result.prediction->budget());
  // Experiment noise can be replayed by whoever knows the seed (issue 30): the mark says so.
  const PrivacySettings& privacy = result.settings.privacy;
  const QString experiment =
      privacy.noise == privacy::NoiseKind::Experiment ? QObject::tr("experiment noise (seeded)") : QString();
  return privacyStatus(privacyDisplayName(privacy), budget, report.calibration == mech::Calibration::Published,
                       experiment);
}

// The title's further lines, one note each: what the picture cannot show when the model sees
// more than two (d) dimensions, and which model is which. drawn and referenceDrawn: how many
// of the model's and of the reference's ellipses are drawn.
QStringList detailNotes(const TrainingResult& result, const ModelViewGeometry& geometry, Index d, int drawn,
                        int referenceDrawn) {
  const bool prediction = result.isPrediction();
  QStringList notes;
  // Every class without a visible ellipse says why, before anything else (the chart shows
  // only the title's first lines when space is short).
  if (!prediction)
    if (const QString reasons =
            ellipseReasons(geometry.ellipses, result.data->train, geometry.trainCoords, result.isPrivate(),
                           geometry.ellipsesPerClass);
        !reasons.isEmpty()) {
      // A data-independent plane of many dimensions mostly sees LMGC's flat directions
      // (digits on a random plane: none of 10); the principal plane sees the class shapes.
      const bool noneDrawn = drawn == 0 && !geometry.ellipses.empty();
      if (noneDrawn && d > 2 && !result.isPrivate() && !geometry.projection.notPrivate &&
          !geometry.projection.hasFeatureMap())
        notes << QObject::tr("%1 — the PCA view (2-D view, fitted on the data) shows them").arg(reasons);
      else
        notes << reasons;
    }
  if (const QString kernel = kernelNote(result.settings.data.preprocess); !kernel.isEmpty()) notes << kernel;
  if (prediction)
    notes << QObject::tr("only the answers are private: each answered test point spends one of the B "
                         "answers \u2014 dot: the released label, ring: the true one");
  else if (result.multiparty)
    notes << QObject::tr("regions: the released model \u0175 + \u03b7 \u00b7 dashed: the all-data "
                         "non-private model w*, for comparison (not released)");
  else if (result.isPrivate())
    notes << QObject::tr("regions%1: the private model \u00b7 dashed: the non-private model, for "
                         "comparison (not released)")
                 .arg(drawn > 0 ? QObject::tr(" and solid ellipses") : QString());
  // The trained ellipsoids are mostly open cylinders (ellipsoid_closing.h): what closed them
  // comes first, before the title's space runs out.
  if (geometry.closing.kappa > 0 && drawn > 0)
    notes << QObject::tr("ellipses: every class's score plus \u00bd\u03ba\u2016x \u2212 x\u0304\u2016\u00b2 "
                         "(\u03ba = %1, fitted to the classes' spread; the same decisions), its contour on "
                         "the plane holding half of the class's points")
                 .arg(number(geometry.closing.kappa));
  if (d > 2)
    notes << QObject::tr("points are projected onto the plane from %1-D: a point's region need not "
                         "be its prediction")
                 .arg(d);
  if (geometry.ellipsesAreShadows && drawn + referenceDrawn > 0 && !(geometry.closing.kappa > 0))
    notes << QObject::tr("ellipses: shadows of the %1-D class ellipsoids on the plane where bounded, else "
                         "their sections (the tooltips say which)")
                 .arg(d);
  if (geometry.levelRule == EllipseLevelRule::HalfOfClass && drawn > 0 && !(geometry.closing.kappa > 0))
    notes << QObject::tr("each class's contour holds half of its training points as drawn");
  return notes;
}

// The plain title and the rich one: dataset, model and privacy mark, then short lines of
// notes rather than one long one (the chart elides a title wider than itself).
void setModelTitle(ScatterContent& content, const TrainingResult& result, const ModelViewGeometry& geometry,
                   const QString& preprocessing, const QStringList& detailNotes) {
  const bool prediction = result.isPrediction();
  const QString model = modelDisplayName(result.settings.learner.kind);
  const PrivacyStatus marking = modelPrivacyStatus(result);
  content.title = QObject::tr("%1 \u2014 %2 (%3)").arg(result.datasetName, model, marking.plain);
  QStringList notes;
  notes << (preprocessing.isEmpty() ? QObject::tr("raw features") : preprocessing);
  if (!prediction) notes << regionsNote(result);

  QString html = QObject::tr("%1 \u2014 %2 &nbsp;%3").arg(result.datasetName.toHtmlEscaped(), model.toHtmlEscaped(),
                                                           marking.html);
  if (geometry.projection.notPrivate)
    html += pcaViewWarningHtml();
  const QString noteStyle = QStringLiteral("<br><span style=\"font-weight:normal; font-size:small; color:#555555\">%1</span>");
  html += noteStyle.arg(notes.join(QStringLiteral(" \u00b7 ")).toHtmlEscaped());
  // What the regions of a predictor are, where nobody can miss it: not what it releases.
  if (prediction)
    html += QStringLiteral("<br><span style=\"font-weight:normal; color:#8a1c00\">%1</span>")
                .arg(regionsNote(result).toHtmlEscaped());
  for (const QString& note : detailNotes) html += noteStyle.arg(note.toHtmlEscaped());
  content.titleHtml = html;
}

// answers: a private predictor's, or nullptr.
ScatterContent modelContent(const TrainingResult& result, const ModelView& view, const PredictionAnswers* answers) {
  const ModelViewGeometry& geometry = view.geometry;
  const bool isPrivate = result.isPrivate();
  const bool prediction = result.isPrediction();
  ScatterContent content;
  addModelPoints(content, result, geometry, answers);

  // The dimension the view plane lives in: the model's inputs, or the rows before its feature map.
  const Index d = geometry.projection.hasFeatureMap() ? geometry.projection.featureMap->inputDim()
                                                      : result.shownModel().model->inputDim();
  // A predictor's picture has no ellipses: its regions are a non-private model's already.
  const int drawn =
      prediction ? 0
                 : addEllipses(content, geometry.ellipses, geometry.levelRule, SeriesRole::Curve, result,
                               isPrivate ? QObject::tr("the private model's") : QObject::tr("the model's"), d,
                               geometry.trainCoords, geometry.ellipsesPerClass);
  // The reference has the same learner, so as many components per class.
  const int referenceDrawn =
      addEllipses(content, view.referenceEllipses, EllipseLevelRule::OneMargin, SeriesRole::ReferenceCurve, result,
                  QObject::tr("the non-private model's (for reference; not released)"), d, geometry.trainCoords,
                  geometry.ellipsesPerClass);
  addLegendKeys(content, result, geometry, drawn);

  const QString preprocessing = preprocessingText(result.settings.data.preprocess, result.data->preprocessor.spec);
  for (int axis = 0; axis < 2; ++axis) {
    const QString name = QString::fromStdString(geometry.projection.axisNames[axis]);
    content.axisTitles[axis] = preprocessing.isEmpty() ? name : QObject::tr("%1, preprocessed").arg(name);
  }
  setModelTitle(content, result, geometry, preprocessing, detailNotes(result, geometry, d, drawn, referenceDrawn));
  return content;
}

}  // namespace

DecisionOverlay::DecisionOverlay(ScatterView* view, QObject* parent) : QObject(parent), view_(view) {
  // Coalesces the bursts of range and resize signals one zoom or drag produces.
  debounce_.setSingleShot(true);
  debounce_.setInterval(15);
  connect(&debounce_, &QTimer::timeout, this, [this] { startRegions(false); });
  connect(view_, &ScatterView::visibleAreaChanged, this, &DecisionOverlay::scheduleRegions);
  // The reference's legend key also takes its boundaries out of (or back into) the regions.
  connect(view_, &ScatterView::roleVisibilityChanged, this, [this](SeriesRole role) {
    if (role == SeriesRole::ReferenceCurve && result_ && result_->release) scheduleRegions();
  });
}

void DecisionOverlay::setAnswerSource(TrainingDocument* document) {
  answerSource_ = document;
  connect(document, &TrainingDocument::answersChanged, this, &DecisionOverlay::showAnswers);
  // Draw N's private models go into the regions image, faintly.
  connect(document, &TrainingDocument::spreadChanged, this, &DecisionOverlay::scheduleRegions);
}

const PredictionAnswers* DecisionOverlay::shownAnswers() const {
  if (!answerSource_ || !result_ || answerSource_->result() != result_) return nullptr;
  return answerSource_->answers().get();
}

void DecisionOverlay::show(std::shared_ptr<const TrainingResult> result, std::shared_ptr<const ModelView> view) {
  detach();
  if (!result || !view) return;
  result_ = std::move(result);
  modelView_ = std::move(view);
  view_->showContent(modelContent(*result_, *modelView_, shownAnswers()));
  scheduleRegions();
}

void DecisionOverlay::showAnswers() {
  const PredictionAnswers* answers = shownAnswers();
  if (!answers || modelView_->geometry.testCoords.rows() == 0) return;
  // Only the test points move between sets: the zoom, the regions and the legend stay.
  const Dataset& test = result_->data->test;
  const AnsweredLists lists = answeredLists(test, modelView_->geometry.testCoords, answers->labels());
  for (std::size_t k = 0; k < lists.rings.size(); ++k) {
    const int classIndex = static_cast<int>(k);
    view_->replacePoints(SeriesRole::TestPoints, classIndex, lists.unanswered[k]);
    view_->replacePoints(SeriesRole::AnsweredRing, classIndex, lists.rings[k]);
    view_->replacePoints(SeriesRole::AnsweredFill, classIndex, lists.dots[k]);
  }
  emit answersShown();
}

void DecisionOverlay::detach() {
  ++generation_;
  debounce_.stop();
  if (regionJob_) regionJob_->cancel();  // its result will be dropped
  result_.reset();
  modelView_.reset();
}

void DecisionOverlay::scheduleRegions() {
  if (!isShowing()) return;
  ++generation_;
  debounce_.start();
}

void DecisionOverlay::startRegions(bool fine) {
  if (!isShowing()) return;
  // One computation at a time: core cannot stop one midway, so superseded ones would pile
  // up during a drag. The running one's finish starts the latest request instead.
  if (regionJob_) return;
  const QRectF rect = view_->visibleDataRect();
  QSize pixels = view_->plotPixelSize().boundedTo(QSize(kMaxRegionPixels, kMaxRegionPixels));
  if (pixels.width() < 2 || pixels.height() < 2 || !(rect.width() > 0) || !(rect.height() > 0)) return;
  // Core restricts models with polynomial scores of degree <= 2 to the plane exactly (a
  // few ms at any size); anything else is evaluated pixel by pixel, so it gets a coarse
  // image first and the full one after it.
  const bool teachers = result_->prediction && result_->prediction->isSubsample();
  const int degree = result_->shownModel().model->scoreDegree();
  if (teachers) {
    // T maps per image: one image at a resolution the teachers can afford, drawn stretched.
    const Index count = std::get<predict::SubsampleAggregate>(result_->prediction->predictor).teachers().teachers();
    const double shrink =
        std::sqrt(static_cast<double>(maxVotePixels(count)) / (static_cast<double>(pixels.width()) * pixels.height()));
    if (shrink < 1.0)
      pixels = QSize(std::max(2, static_cast<int>(pixels.width() * shrink)),
                     std::max(2, static_cast<int>(pixels.height() * shrink)));
    fine = true;
  } else if (degree < 1 || degree > 2) {
    if (!fine) pixels = QSize(std::max(2, pixels.width() / kCoarseFactor), std::max(2, pixels.height() / kCoarseFactor));
  } else {
    fine = true;
  }

  const quint64 generation = generation_;
  // A private model's regions carry the non-private model's boundaries, dashed, unless the
  // legend hid the reference. A predictor's regions are a non-private model's already.
  const bool reference = result_->release && !view_->isRoleHidden(SeriesRole::ReferenceCurve);
  std::shared_ptr<const std::vector<TrainedModel>> spread;
  if (answerSource_ && answerSource_->result() == result_) spread = answerSource_->spread();
  auto* job = startJob<RegionImage>(
      tr("Drawing decision regions"),
      [result = result_, modelView = modelView_, rect, pixels, fine, reference, teachers,
       spread](const Progress& progress) -> Result<RegionImage> {
        if (progress.cancelled()) return Error::cancelled();
        if (teachers) {
          const auto& ensemble = std::get<predict::SubsampleAggregate>(result->prediction->predictor).teachers();
          auto image = computeVoteRegionImage(ensemble, modelView->geometry.projection, rect, pixels, progress);
          if (!image) return Error::cancelled();
          return std::move(*image);
        }
        const TrainedModel& shown = result->shownModel();
        return computeRegionImage(*shown.model, shown.theta, modelView->geometry.projection, rect, pixels, fine,
                                  reference ? &result->model : nullptr, spread.get());
      },
      this);
  regionJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job, generation, fine](JobHandle::State state) {
    job->deleteLater();
    if (regionJob_ == job) regionJob_.clear();
    if (!isShowing()) return;
    // The view moved on while this ran: draw where it is now (unless the timer will).
    if (generation != generation_) {
      if (!debounce_.isActive()) startRegions(false);
      return;
    }
    if (state != JobHandle::State::Succeeded) return;
    RegionImage regions = job->takeValue();
    view_->setUnderlay(regions.image, regions.dataRect);
    emit regionsUpdated();
    if (!fine) startRegions(true);
  });
}

}  // namespace dpstudio::ui
