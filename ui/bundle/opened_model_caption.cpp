#include "ui/bundle/opened_model_caption.h"

#include <QObject>

#include "ui/plot/privacy_status.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {
namespace {

QString number(double value) { return QString::number(value, 'g', 4); }

QString budgetText(const BundlePrivacy& privacy) {
  if (!privacy.epsilon) return QObject::tr("\u03b5 = \u221e: no guarantee");
  return QObject::tr("\u03b5 = %1, \u03b4 = %2").arg(number(*privacy.epsilon), number(privacy.delta.value_or(0.0)));
}

// The dataset's rows by class, then an empty set per class only the bundle has, so that the
// legend shows that class's region colour under its name.
void addPoints(ScatterContent& content, const Dataset& data, const DatasetView& view, const OpenedModel& model,
               const ClassColours& colours) {
  const auto classes = static_cast<std::size_t>(data.classes());
  for (std::size_t k = 0; k < classes; ++k)
    content.pointSets.push_back({QString::fromStdString(data.classNames[k]), static_cast<int>(k), SeriesRole::Points, {}});
  for (Index i = 0; i < view.coords.rows(); ++i) {
    const int k = data.y[i];
    if (k >= 0 && static_cast<std::size_t>(k) < classes)
      content.pointSets[static_cast<std::size_t>(k)].points.append(QPointF(view.coords(i, 0), view.coords(i, 1)));
  }
  for (std::size_t k = 0; k < model.classNames.size(); ++k)
    if (colours.colour[k] >= static_cast<int>(classes))
      content.pointSets.push_back({QObject::tr("%1 (the model's only)").arg(QString::fromStdString(model.classNames[k])),
                                   colours.colour[k], SeriesRole::Points, {}});
}

// How the model's classes were put on the dataset's, or nothing when they are the same.
QString classNote(const OpenedModel& model, const ClassColours& colours, const Dataset& data, const QString& name) {
  if (colours.sameClasses) return {};
  if (!colours.unmatched.isEmpty()) {
    QStringList datasetClasses;
    for (const std::string& c : data.classNames) datasetClasses << QString::fromStdString(c);
    return QObject::tr("\u26a0 the model's classes %1 are not among %2's (%3): their regions have colours of their "
                       "own (legend)")
        .arg(colours.unmatched.join(QStringLiteral(", ")), name, datasetClasses.join(QStringLiteral(", ")));
  }
  if (static_cast<Index>(model.classNames.size()) == data.classes())
    return QObject::tr("the model lists %1's classes in another order: matched by name").arg(name);
  return QObject::tr("the model knows %1 of %2's %3 classes: matched by name")
      .arg(model.classNames.size())
      .arg(name)
      .arg(data.classes());
}

}  // namespace

QString bundlePreprocessingText(const PreprocessSpec& spec) {
  QStringList steps;
  if (spec.publicRanges.size() == 1)
    steps << QObject::tr("feature range [%1, %2]").arg(number(spec.publicRanges[0].lo), number(spec.publicRanges[0].hi));
  else if (!spec.publicRanges.empty())
    steps << QObject::tr("per-feature ranges");
  if (spec.projectionDim) steps << QObject::tr("random projection to %1").arg(*spec.projectionDim);
  if (spec.pcaDim) steps << QObject::tr("PCA to %1 (fitted on its training data)").arg(*spec.pcaDim);
  if (spec.unitRows) steps << QObject::tr("unit rows");
  if (spec.normBound) steps << QObject::tr("norm bound R = %1").arg(number(*spec.normBound));
  if (spec.randomFeatures)
    steps << QObject::tr("RBF kernel via D = %1 random Fourier features (\u03b3 = %2)")
                 .arg(spec.randomFeatures->dim)
                 .arg(number(spec.randomFeatures->gamma));
  if (spec.intercept) steps << QObject::tr("intercept");
  return steps.isEmpty() ? QObject::tr("none") : steps.join(QStringLiteral(", "));
}

ScatterContent openedModelContent(const OpenedModel& model, const ClassColours& colours, const Dataset& data,
                                  const DatasetView& view, const QString& datasetName) {
  ScatterContent content;
  addPoints(content, data, view, model, colours);
  content.axisTitles[0] = QString::fromStdString(view.projection.axisNames[0]);
  content.axisTitles[1] = QString::fromStdString(view.projection.axisNames[1]);

  const BundlePrivacy& privacy = model.privacy;
  const PrivacyStatus marking = privacyStatus(privacy.mechanism, budgetText(privacy), privacy.published);
  const QString modelName = modelDisplayName(model.modelKind);
  content.title = QObject::tr("Opened model: %1 \u2014 %2, %3 (its own preprocessing)")
                      .arg(model.fileName, modelName, marking.plain);

  // The chart shortens a title wider than the plot from its END, dropping every line after
  // the first one that does not fit: short lines, the important ones first. Whose regions
  // these are; how private the model is (marked as a trained model's) and what it is; what
  // must not be missed (classes that are not the dataset's, a guarantee the file disclaims);
  // then the details, the longest last.
  QString html = QObject::tr("Opened model: %1").arg(model.fileName.toHtmlEscaped());
  if (view.projection.notPrivate)
    html += pcaViewWarningHtml();
  html += QObject::tr("<br>%1 &nbsp;<span style=\"font-weight:normal\">%2</span>")
              .arg(marking.html, modelName.toHtmlEscaped());
  const QString noteStyle =
      QStringLiteral("<br><span style=\"font-weight:normal; font-size:small; color:#555555\">%1</span>");
  const QString warningStyle =
      QStringLiteral("<br><span style=\"font-weight:normal; font-size:small; color:#b00020\">%1</span>");
  const QString classes = classNote(model, colours, data, datasetName);
  if (!colours.unmatched.isEmpty()) html += warningStyle.arg(classes.toHtmlEscaped());
  // A mechanism whose guarantee the file itself disclaims (experiment noise, an approximate
  // minimizer, a PCA fitted on the data): the green marking alone would overstate it.
  if (!privacy.mechanism.isEmpty() && !privacy.privateAsFile && !privacy.notPrivate.isEmpty())
    html += warningStyle.arg(QObject::tr("\u26a0 not private as a file, the bundle says: %1")
                                 .arg(privacy.notPrivate.join(QStringLiteral("; ")))
                                 .toHtmlEscaped());
  // The bundle reads raw rows, so the points are the dataset's as they are, and the regions
  // are what the bundle answers for the raw row at each pixel.
  html += noteStyle.arg(
      QObject::tr("regions: its answers for raw rows on %1's plane \u00b7 points: %1, raw").arg(datasetName).toHtmlEscaped());
  html += noteStyle.arg(
      QObject::tr("its own preprocessing: %1").arg(bundlePreprocessingText(model.preprocessor.spec)).toHtmlEscaped());
  if (colours.unmatched.isEmpty() && !classes.isEmpty()) html += noteStyle.arg(classes.toHtmlEscaped());
  if (data.features() > 2)
    html += noteStyle.arg(QObject::tr("points are projected onto the plane from %1-D: a point's region need not be "
                                      "its prediction")
                              .arg(data.features())
                              .toHtmlEscaped());
  content.titleHtml = html;
  return content;
}

}  // namespace dpstudio::ui
