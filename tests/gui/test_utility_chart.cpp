// The privacy–utility figure (ui/plot/utility_chart.h), offscreen: a curve of three mechanisms
// over ε = 0.1 … 10 becomes one mean line and one ±1 sd band per mechanism and a dashed
// reference line, on a log ε axis with ticks at powers of ten and a y range that holds
// every band and reference line inside [0, 1]; points given out of order are drawn by ε;
// PNG and SVG files have the asked size, the series' colours and the title, and are not
// written for another extension; empty and one-point curves draw; setCurve() repeated
// neither grows the chart nor leaves old series; a legend too wide for one row goes to the
// right; dpstudio-cli knows when it needs a GUI.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the sample figure (PNG and SVG) and the empty one there.

#include <QAbstractSeries>
#include <QByteArray>
#include <QColor>
#include <QDir>
#include <QIODevice>
#include <QList>
#include <QPointF>
#include <QPointer>
#include <QRectF>
#include <QRgb>
#include <QSize>
#include <QStringList>
#include <QTest>

#include <QAreaSeries>
#include <QFile>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSet>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QXmlStreamReader>

#include <cmath>
#include <memory>

#include "ui/plot/class_palette.h"
#include "ui/plot/plot_application.h"
#include "ui/plot/utility_chart.h"

using dpstudio::experiment::Curve;
using dpstudio::experiment::CurvePoint;
using dpstudio::ui::UtilityChart;

namespace {

const double kEpsilons[] = {0.1, 0.3, 1.0, 3.0, 10.0};

CurvePoint point(const std::string& series, double value, double mean, double std, long count = 10) {
  CurvePoint p;
  p.series = series;
  p.value = value;
  p.mean = mean;
  p.std = std;
  p.count = count;
  p.low95 = std::max(0.0, mean - 2 * std);
  p.high95 = std::min(1.0, mean + 2 * std);
  return p;
}

// Three mechanisms on digits-like numbers: accuracy rising with ε towards the non-private
// 0.95, the spread shrinking. Points are listed from the largest ε down, so that drawing by
// value is tested too.
Curve sampleCurve() {
  Curve curve;
  curve.axis = "epsilon";
  curve.axisTitle = "Privacy parameter \u03b5";
  curve.logAxis = true;
  curve.title = "digits: accuracy against \u03b5 (10 repetitions)";
  curve.note = "An experiment on the data, not a private release: nothing is in the ledger.";
  curve.series = {{"output", "Output perturbation"},
                  {"objective", "Objective perturbation"},
                  {"loss", "Loss perturbation (Gaussian)"}};
  const double floors[] = {0.25, 0.35, 0.45};
  for (std::size_t s = 0; s < 3; ++s)
    for (int i = 4; i >= 0; --i) {
      const double eps = kEpsilons[i];
      const double mean = 0.95 - (0.95 - floors[s]) * std::exp(-eps * (0.6 + 0.3 * s));
      curve.points.push_back(point(curve.series[s].key, eps, mean, 0.08 / (1.0 + eps)));
    }
  curve.references = {{"Non-private (softmax regression)", 0.95}};
  return curve;
}

int colourDistance(QRgb a, QRgb b) {
  return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

int pixelsNear(const QImage& image, QColor colour, int tolerance = 6) {
  int n = 0;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < rgb.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
    for (int x = 0; x < rgb.width(); ++x)
      if (colourDistance(line[x], colour.rgb()) <= tolerance) ++n;
  }
  return n;
}

int distinctColours(const QImage& image) {
  QSet<QRgb> colours;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < rgb.height(); y += 2)
    for (int x = 0; x < rgb.width(); x += 2) colours.insert(rgb.pixel(x, y));
  return static_cast<int>(colours.size());
}

// DPSTUDIO_TEST_SCREENSHOTS, created when set.
QString screenshotDir() {
  const QString dir = qEnvironmentVariable("DPSTUDIO_TEST_SCREENSHOTS");
  if (!dir.isEmpty()) QDir().mkpath(dir);
  return dir;
}

}  // namespace

class TestUtilityChart : public QObject {
  Q_OBJECT

 private slots:
  void seriesOfTheSampleCurve();
  void logAxisTicksAtPowersOfTen();
  void pointsAreDrawnByValue();
  void axesHoldTheData();
  void linearAxisWhenNotLog();
  void savesPngAndSvg();
  void unsupportedExtensionWritesNothing_data();
  void unsupportedExtensionWritesNothing();
  void emptyCurveSaysNoTrials();
  void onePointCurveDraws();
  void setCurveRepeatedDoesNotGrow();
  void legendBelowUnlessTooWide();
  void needsGuiForPlot_data();
  void needsGuiForPlot();
};

void TestUtilityChart::seriesOfTheSampleCurve() {
  // Laid out in a scene, as a view shows it: legend markers are visible only then.
  QGraphicsScene scene;
  auto* laidOut = new UtilityChart;
  scene.addItem(laidOut);
  laidOut->setCurve(sampleCurve());
  laidOut->setGeometry(QRectF(0, 0, 900, 600));
  laidOut->layout()->activate();
  UtilityChart& chart = *laidOut;
  QCOMPARE(chart.meanSeries().size(), 3);
  QCOMPARE(chart.bandSeries().size(), 3);
  QCOMPARE(chart.referenceSeries().size(), 1);
  QCOMPARE(chart.series().size(), 7);  // the bands' edges are not series of the chart
  int lines = 0, areas = 0;
  for (QAbstractSeries* s : chart.series()) {
    if (s->type() == QAbstractSeries::SeriesTypeLine) ++lines;
    if (s->type() == QAbstractSeries::SeriesTypeArea) ++areas;
  }
  QCOMPARE(lines, 4);
  QCOMPARE(areas, 3);
  QCOMPARE(chart.meanSeries()[0]->name(), QStringLiteral("Output perturbation"));
  QCOMPARE(chart.meanSeries()[0]->color(), dpstudio::ui::classColor(0));
  QCOMPARE(chart.meanSeries()[2]->color(), dpstudio::ui::classColor(2));
  QVERIFY(chart.meanSeries()[0]->pointsVisible());
  QCOMPARE(chart.referenceSeries()[0]->name(), QStringLiteral("Non-private (softmax regression)"));
  QCOMPARE(chart.referenceSeries()[0]->pen().style(), Qt::DashLine);
  // The legend: means and references, no bands.
  int shown = 0;
  for (QLegendMarker* m : chart.legend()->markers()) {
    if (!m->isVisible()) {
      QCOMPARE(m->series()->type(), QAbstractSeries::SeriesTypeArea);
      continue;
    }
    ++shown;
  }
  QCOMPARE(shown, 4);
  QVERIFY(!chart.showsNoData());
  QVERIFY(chart.caption().contains(QStringLiteral("not a private release")));
  QVERIFY(chart.caption().contains(QStringLiteral("standard deviation")));
}

void TestUtilityChart::logAxisTicksAtPowersOfTen() {
  UtilityChart chart;
  chart.setCurve(sampleCurve());
  auto* axis = qobject_cast<QLogValueAxis*>(chart.xAxis());
  QVERIFY(axis);
  QCOMPARE(axis->base(), 10.0);
  QCOMPARE(axis->titleText(), QStringLiteral("Privacy parameter \u03b5"));
  // Padded just outside the decades 0.1 … 10, so that the end ticks exist and markers are whole.
  QVERIFY2(axis->min() < 0.1 && axis->min() > 0.05, qPrintable(QString::number(axis->min())));
  QVERIFY2(axis->max() > 10.0 && axis->max() < 20.0, qPrintable(QString::number(axis->max())));

  // Many decades: ticks every k decades, not one per decade.
  Curve wide = sampleCurve();
  wide.points.push_back(point("output", 1e-12, 0.1, 0.0));
  wide.points.push_back(point("output", 1e12, 0.99, 0.0));
  chart.setCurve(wide);
  axis = qobject_cast<QLogValueAxis*>(chart.xAxis());
  QVERIFY(axis);
  const double majorTicks = std::log(axis->max() / axis->min()) / std::log(axis->base());
  QVERIFY2(majorTicks <= 11.0, qPrintable(QString::number(majorTicks)));
  if (const QString out = screenshotDir(); !out.isEmpty())
    QVERIFY(dpstudio::ui::saveUtilityPlot(wide, QDir(out).filePath("utility_chart_wide.png")).ok());
}

void TestUtilityChart::pointsAreDrawnByValue() {
  UtilityChart chart;
  chart.setCurve(sampleCurve());
  for (QLineSeries* mean : chart.meanSeries()) {
    const QList<QPointF> pts = mean->points();
    QCOMPARE(pts.size(), 5);
    for (qsizetype i = 1; i < pts.size(); ++i) QVERIFY(pts[i - 1].x() < pts[i].x());
    QCOMPARE(pts.front().x(), 0.1);
    QCOMPARE(pts.back().x(), 10.0);
  }
  const QAreaSeries* band = chart.bandSeries()[0];
  const QList<QPointF> mean = chart.meanSeries()[0]->points();
  const QList<QPointF> upper = band->upperSeries()->points();
  const QList<QPointF> lower = band->lowerSeries()->points();
  QCOMPARE(upper.size(), mean.size());
  for (qsizetype i = 0; i < mean.size(); ++i) {
    QCOMPARE(upper[i].x(), mean[i].x());
    QVERIFY(upper[i].y() > mean[i].y() && lower[i].y() < mean[i].y());
    QVERIFY(upper[i].y() <= 1.0 && lower[i].y() >= 0.0);
    QVERIFY(qFuzzyCompare(upper[i].y() - mean[i].y(), mean[i].y() - lower[i].y()));
  }
}

void TestUtilityChart::axesHoldTheData() {
  Curve curve = sampleCurve();
  curve.points.push_back(point("output", 0.2, 0.98, 0.1));  // band above 1: clamped
  UtilityChart chart;
  chart.setCurve(curve);
  const QValueAxis* y = chart.yAxis();
  QCOMPARE(y->titleText(), QStringLiteral("Test accuracy"));
  QVERIFY(y->min() >= 0.0 && y->max() <= 1.0);
  QCOMPARE(y->max(), 1.0);
  for (const QAreaSeries* band : chart.bandSeries()) {
    for (const QPointF& p : band->upperSeries()->points()) QVERIFY(p.y() <= y->max() + 1e-12);
    for (const QPointF& p : band->lowerSeries()->points()) QVERIFY(p.y() >= y->min() - 1e-12);
  }
  QCOMPARE(chart.bandSeries()[0]->upperSeries()->points()[1].y(), 1.0);
  const auto* x = qobject_cast<QLogValueAxis*>(chart.xAxis());
  for (const QLineSeries* mean : chart.meanSeries())
    for (const QPointF& p : mean->points()) QVERIFY(p.x() >= x->min() && p.x() <= x->max());
  // The reference line spans the whole x axis.
  const QList<QPointF> ref = chart.referenceSeries()[0]->points();
  QCOMPARE(ref.size(), 2);
  QCOMPARE(ref[0].x(), x->min());
  QCOMPARE(ref[1].x(), x->max());
  QCOMPARE(ref[0].y(), 0.95);

  // Not blindly 0–1: a curve between 0.8 and 0.95 gets a range about that wide, with round ends.
  Curve high = sampleCurve();
  for (CurvePoint& p : high.points) p.mean = 0.8 + 0.15 * (p.mean - 0.25) / 0.7;
  chart.setCurve(high);
  QVERIFY2(chart.yAxis()->min() >= 0.6 && chart.yAxis()->max() == 1.0,
           qPrintable(QStringLiteral("%1 to %2").arg(chart.yAxis()->min()).arg(chart.yAxis()->max())));
  const double ticks = (chart.yAxis()->max() - chart.yAxis()->min()) / (chart.yAxis()->tickCount() - 1);
  QVERIFY(std::abs(ticks * 20 - std::round(ticks * 20)) < 1e-9);  // a round step: 0.05, 0.1, …
  QVERIFY(chart.yAxis()->tickCount() <= 11);

  // A reference far below the data is still in range.
  curve.references.push_back({"Majority class", 0.1});
  chart.setCurve(curve);
  QVERIFY(chart.yAxis()->min() <= 0.1);
}

void TestUtilityChart::linearAxisWhenNotLog() {
  Curve curve = sampleCurve();
  curve.logAxis = false;
  curve.axis = "teachers";
  curve.axisTitle = "Teachers";
  curve.points.push_back(point("output", 0.0, 0.5, 0.1));  // 0 is fine on a linear axis
  UtilityChart chart;
  chart.setCurve(curve);
  auto* x = qobject_cast<QValueAxis*>(chart.xAxis());
  QVERIFY(x);
  QVERIFY(x->min() < 0.0 && x->max() > 10.0);
  QVERIFY(x->tickType() == QValueAxis::TicksDynamic);
  QVERIFY(x->max() - x->min() < 10 * x->tickInterval() + 1e-9);  // bounded ticks
  QCOMPARE(chart.meanSeries()[0]->points().size(), 6);
  if (const QString out = screenshotDir(); !out.isEmpty())
    QVERIFY(dpstudio::ui::saveUtilityPlot(curve, QDir(out).filePath("utility_chart_linear.png")).ok());

  // Back to log: the value ≤ 0 cannot be drawn and is left out; one x axis, not two.
  curve.logAxis = true;
  chart.setCurve(curve);
  QVERIFY(qobject_cast<QLogValueAxis*>(chart.xAxis()));
  QCOMPARE(chart.axes(Qt::Horizontal).size(), 1);
  QCOMPARE(chart.meanSeries()[0]->points().size(), 5);
}

void TestUtilityChart::savesPngAndSvg() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const Curve curve = sampleCurve();
  const QString png = dir.filePath(QStringLiteral("curve.png"));
  const QString svg = dir.filePath(QStringLiteral("curve.SVG"));
  const dpstudio::Status pngStatus = dpstudio::ui::saveUtilityPlot(curve, png, QSize(800, 500));
  QVERIFY2(pngStatus.ok(), pngStatus.ok() ? "" : pngStatus.error().toString().c_str());
  const dpstudio::Status svgStatus = dpstudio::ui::saveUtilityPlot(curve, svg);
  QVERIFY2(svgStatus.ok(), svgStatus.ok() ? "" : svgStatus.error().toString().c_str());

  QImage image(png);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), QSize(800, 500));
  QVERIFY2(distinctColours(image) > 50, qPrintable(QString::number(distinctColours(image))));
  for (int s = 0; s < 3; ++s) {
    const int n = pixelsNear(image, dpstudio::ui::classColor(s));
    QVERIFY2(n > 100, qPrintable(QStringLiteral("series %1: %2 pixels of its colour").arg(s).arg(n)));
  }
  QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));  // an opaque white background

  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray bytes = file.readAll();
  QXmlStreamReader xml(bytes);
  QString root;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty()) root = xml.name().toString();
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  QCOMPARE(root, QStringLiteral("svg"));
  const QString text = QString::fromUtf8(bytes);
  QVERIFY(text.contains(QString::fromStdString(curve.title)));  // <title>
  QVERIFY(text.contains(QStringLiteral("not a private release")));
  QVERIFY(text.contains(QStringLiteral("Test accuracy")));  // drawn, not only described

  // Atomic write: nothing but the two files is left in the folder.
  QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);

  if (const QString out = screenshotDir(); !out.isEmpty()) {
    QVERIFY(dpstudio::ui::saveUtilityPlot(curve, QDir(out).filePath("utility_chart_sample.png")).ok());
    QVERIFY(dpstudio::ui::saveUtilityPlot(curve, QDir(out).filePath("utility_chart_sample.svg")).ok());
  }
}

void TestUtilityChart::unsupportedExtensionWritesNothing_data() {
  QTest::addColumn<QString>("name");
  QTest::newRow("jpeg") << QStringLiteral("curve.jpg");
  QTest::newRow("pdf") << QStringLiteral("curve.pdf");
  QTest::newRow("no extension") << QStringLiteral("curve");
}

void TestUtilityChart::unsupportedExtensionWritesNothing() {
  QFETCH(QString, name);
  QTemporaryDir dir;
  const QString path = dir.filePath(name);
  const dpstudio::Status status = dpstudio::ui::saveUtilityPlot(sampleCurve(), path);
  QVERIFY(!status.ok());
  QCOMPARE(status.error().kind, dpstudio::ErrorKind::Usage);
  const QString message = QString::fromStdString(status.error().toString());
  QVERIFY2(message.contains(path) && message.contains(QStringLiteral(".png")) && message.contains(QStringLiteral(".svg")),
           qPrintable(message));
  QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());

  // A folder that does not exist: an error naming the path, no crash.
  const QString missing = dir.filePath(QStringLiteral("no/such/folder/curve.png"));
  const dpstudio::Status write = dpstudio::ui::saveUtilityPlot(sampleCurve(), missing);
  QVERIFY(!write.ok());
  QVERIFY(QString::fromStdString(write.error().toString()).contains(missing));
}

void TestUtilityChart::emptyCurveSaysNoTrials() {
  Curve curve = sampleCurve();
  curve.points.clear();
  UtilityChart chart;
  chart.setCurve(curve);
  QVERIFY(chart.showsNoData());
  QVERIFY(chart.series().isEmpty());
  QTemporaryDir dir;
  const QString png = dir.filePath(QStringLiteral("empty.png"));
  QVERIFY(dpstudio::ui::saveUtilityPlot(curve, png, QSize(400, 300)).ok());
  QCOMPARE(QImage(png).size(), QSize(400, 300));
  QVERIFY(dpstudio::ui::saveUtilityPlot(Curve{}, dir.filePath(QStringLiteral("nothing.svg"))).ok());
  QFile svg(dir.filePath(QStringLiteral("empty.svg")));
  QVERIFY(dpstudio::ui::saveUtilityPlot(curve, svg.fileName()).ok());
  QVERIFY(svg.open(QIODevice::ReadOnly));
  QVERIFY(svg.readAll().contains("No finished trials yet"));
  if (const QString out = screenshotDir(); !out.isEmpty())
    QVERIFY(dpstudio::ui::saveUtilityPlot(curve, QDir(out).filePath("utility_chart_empty.png")).ok());
}

void TestUtilityChart::onePointCurveDraws() {
  Curve curve;
  curve.axis = "epsilon";
  curve.logAxis = true;
  curve.series = {{"output", "Output perturbation"}, {"loss", "Loss perturbation"}};
  curve.points = {point("output", 1.0, 0.7, 0.0, 1)};  // one trial: no spread
  UtilityChart chart;
  chart.setCurve(curve);
  QVERIFY(!chart.showsNoData());
  QCOMPARE(chart.meanSeries()[0]->points().size(), 1);
  QCOMPARE(chart.meanSeries()[1]->points().size(), 0);  // listed, nothing finished yet
  const auto* x = qobject_cast<QLogValueAxis*>(chart.xAxis());
  QVERIFY(x->min() < 1.0 && x->max() > 1.0);
  QVERIFY(chart.yAxis()->min() < 0.7 && chart.yAxis()->max() > 0.7);
  QTemporaryDir dir;
  QVERIFY(dpstudio::ui::saveUtilityPlot(curve, dir.filePath(QStringLiteral("one.png"))).ok());
  QVERIFY(dpstudio::ui::saveUtilityPlot(curve, dir.filePath(QStringLiteral("one.svg"))).ok());

  // Undrawable values and a series not listed: no crash, the stray series drawn after.
  curve.points.push_back(point("output", std::nan(""), 0.5, 0.1));
  curve.points.push_back(point("output", 2.0, 0.8, std::nan("")));
  curve.points.push_back(point("unlisted", 2.0, 0.6, 0.05));
  chart.setCurve(curve);
  QCOMPARE(chart.meanSeries().size(), 3);
  QCOMPARE(chart.meanSeries()[0]->points().size(), 2);
  QCOMPARE(chart.meanSeries()[2]->name(), QStringLiteral("unlisted"));
  if (const QString out = screenshotDir(); !out.isEmpty()) {
    Curve many = sampleCurve();
    many.series.push_back({"prediction", "Prediction sensitivity (B = 100)"});
    many.series.push_back({"subsample", "Subsample and aggregate (T = 50 teachers)"});
    many.series.push_back({"multiparty", "Multiparty aggregation (as published)"});
    for (std::size_t s = 3; s < many.series.size(); ++s)
      for (double eps : kEpsilons) many.points.push_back(point(many.series[s].key, eps, 0.5 + 0.04 * s + 0.02 * eps, 0.05));
    many.references.push_back({"Majority class", 0.1});
    QVERIFY(dpstudio::ui::saveUtilityPlot(many, QDir(out).filePath("utility_chart_many.png")).ok());
  }
  if (const QString out = screenshotDir(); !out.isEmpty())
    QVERIFY(dpstudio::ui::saveUtilityPlot(curve, QDir(out).filePath("utility_chart_few.png"), QSize(600, 420)).ok());
}

void TestUtilityChart::setCurveRepeatedDoesNotGrow() {
  auto chart = std::make_unique<UtilityChart>();
  Curve curve = sampleCurve();
  chart->setCurve(curve);
  const qsizetype series = chart->series().size();
  const qsizetype axes = chart->axes().size();
  const qsizetype markers = chart->legend()->markers().size();
  QPointer<QLineSeries> firstMean = chart->meanSeries()[0];
  // Live: more trials finish; same structure, the series are updated in place.
  for (int round = 0; round < 20; ++round) {
    for (CurvePoint& p : curve.points) p.mean = std::min(1.0, p.mean + 0.001);
    chart->setCurve(curve);
  }
  QCOMPARE(chart->series().size(), series);
  QCOMPARE(chart->axes().size(), axes);
  QCOMPARE(chart->legend()->markers().size(), markers);
  QVERIFY(firstMean);
  QCOMPARE(chart->meanSeries()[0], firstMean.data());

  // A new structure (another reference, the axis kind, empty) rebuilds without leaving the
  // old series behind.
  QPointer<QAreaSeries> oldBand = chart->bandSeries()[0];
  QPointer<QLineSeries> oldEdge = chart->bandSeries()[0]->upperSeries();
  for (int round = 0; round < 5; ++round) {
    Curve other = curve;
    other.references.push_back({"Majority class", 0.1});
    chart->setCurve(other);
    QCOMPARE(chart->series().size(), series + 1);
    other.logAxis = false;
    chart->setCurve(other);
    chart->setCurve(Curve{});
    QCOMPARE(chart->series().size(), 0);
    chart->setCurve(curve);
    QCOMPARE(chart->series().size(), series);
    QCOMPARE(chart->axes().size(), axes);
    QCOMPARE(chart->legend()->markers().size(), markers);
  }
  QVERIFY(!oldBand);  // deleted with its edges
  QVERIFY(!oldEdge);
}

void TestUtilityChart::legendBelowUnlessTooWide() {
  QGraphicsScene scene;
  auto* chart = new UtilityChart;
  scene.addItem(chart);
  chart->setGeometry(QRectF(0, 0, 900, 600));
  chart->setCurve(sampleCurve());
  QCOMPARE(chart->legend()->alignment(), Qt::AlignBottom);
  // Six long titles do not fit in a row: Qt would cut them short, so the legend moves right.
  Curve many = sampleCurve();
  many.series.push_back({"prediction", "Prediction sensitivity (B = 100)"});
  many.series.push_back({"subsample", "Subsample and aggregate (T = 50 teachers)"});
  many.series.push_back({"multiparty", "Multiparty aggregation (as published)"});
  chart->setCurve(many);
  QCOMPARE(chart->legend()->alignment(), Qt::AlignRight);
  chart->setGeometry(QRectF(0, 0, 2400, 600));  // wide enough again
  QCOMPARE(chart->legend()->alignment(), Qt::AlignBottom);
}

void TestUtilityChart::needsGuiForPlot_data() {
  QTest::addColumn<QStringList>("args");
  QTest::addColumn<bool>("needed");
  const QString cli = QStringLiteral("dpstudio-cli");
  QTest::newRow("sweep --plot FILE") << QStringList{cli, "sweep", "--axis", "epsilon", "--plot", "c.png"} << true;
  QTest::newRow("sweep --plot=FILE") << QStringList{cli, "sweep", "--plot=c.svg"} << true;
  QTest::newRow("sweep-merge --plot") << QStringList{cli, "sweep-merge", "a.csv", "--plot", "c.png"} << true;
  QTest::newRow("sweep without plot") << QStringList{cli, "sweep", "--out", "t.csv"} << false;
  QTest::newRow("train --plot") << QStringList{cli, "train", "--plot", "c.png"} << false;
  QTest::newRow("--plot after --") << QStringList{cli, "sweep", "--", "--plot"} << false;
  QTest::newRow("a file named plot") << QStringList{cli, "sweep", "--out", "--plotting.csv"} << false;
  QTest::newRow("no command") << QStringList{cli} << false;
}

void TestUtilityChart::needsGuiForPlot() {
  QFETCH(QStringList, args);
  QFETCH(bool, needed);
  QCOMPARE(dpstudio::ui::needsGuiForPlot(args), needed);
}

QTEST_MAIN(TestUtilityChart)
#include "test_utility_chart.moc"
