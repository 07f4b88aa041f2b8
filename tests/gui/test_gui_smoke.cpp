// The main window end to end, offscreen: the Dataset dock's load path, a bad file that must
// leave the current dataset in place, view switching, cancelling, export, recent files and
// drag-and-drop.

#include <QAbstractSeries>
#include <QByteArray>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QIODevice>
#include <QImage>
#include <QPoint>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <QTest>
#include <QUrl>

#include <QChart>
#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLegend>
#include <QLegendMarker>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QValueAxis>

#include "tests/common/test_files.h"
#include "ui/dataset/dataset_controller.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/jobs/job_status_widget.h"
#include "ui/main_window.h"
#include "ui/plot/scatter_view.h"

using dpstudio::ViewKind;
using dpstudio::ui::DatasetController;
using dpstudio::ui::MainWindow;

namespace {

constexpr int kTimeoutMs = 20000;

using dpstudio::test::writeFile;

}  // namespace

class TestGuiSmoke : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void opensBuiltinThroughTheDock();
  void fitsALaptopScreen();
  void malformedFileKeepsCurrentDataset();
  void randomProjectionKeepsPointCount();
  void pcaViewIsMarkedNotPrivate();
  void chosenViewKindComesBackNextStart();
  void cancelKeepsCurrentDataset();
  void digitsShowsTenClasses();
  void exportsPngAndSvg();
  void droppedFileOpensAndIsRemembered();
  void legendClickHidesAndShowsAClass();
  void sixtyThousandPointsAreShownInFull();
  void svgOfALargeDatasetHoldsShapes();

 private:
  // A window showing iris, as after start-up.
  void openIris(MainWindow& window);
  void chooseViewKind(MainWindow& window, ViewKind kind);

  QTemporaryDir dir_;
};

void TestGuiSmoke::initTestCase() {
  QVERIFY(dir_.isValid());
  // Keep the user's real settings out of it.
  QCoreApplication::setOrganizationName(QStringLiteral("dpstudio-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("test_gui_smoke"));
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
  qputenv("DPSTUDIO_LEDGER_FILE", dir_.filePath(QStringLiteral("ledger.json")).toUtf8());
  qputenv("DPSTUDIO_SESSION_DIR", dir_.filePath(QStringLiteral("sessions")).toUtf8());
}

void TestGuiSmoke::init() { QSettings().clear(); }

void TestGuiSmoke::openIris(MainWindow& window) {
  window.setErrorDialogsEnabled(false);
  // The same signal the built-in list emits when a user picks a dataset.
  emit window.datasetPanel()->builtinRequested(QStringLiteral("builtin:iris"));
  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), 150, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);
}

// Chooses the 2-D view kind in the Dataset dock and waits until the view shows it.
void TestGuiSmoke::chooseViewKind(MainWindow& window, ViewKind kind) {
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  window.datasetPanel()->setViewKind(kind);
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
}

void TestGuiSmoke::opensBuiltinThroughTheDock() {
  MainWindow window;
  window.show();
  openIris(window);
  QCOMPARE(window.scatterView()->seriesCount(), 3);
  QCOMPARE(window.scatterView()->pointCount(), 150);
  QCOMPARE(window.document()->dataset()->rows(), 150);
  QVERIFY(window.windowTitle().contains(QLatin1String("iris")));
  QCOMPARE(window.datasetPanel()->builtinBox()->currentData().toString(), QStringLiteral("builtin:iris"));
}

// Every dock at its minimum must leave the window usable on a 1366 × 768 screen: a dock
// that forces the window wider pushes the Training dock off the screen.
void TestGuiSmoke::fitsALaptopScreen() {
  MainWindow window;
  window.show();
  openIris(window);
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
  QVERIFY2(minimum.width() <= 1366, qPrintable(QString::number(minimum.width())));
  QVERIFY2(minimum.height() <= 768, qPrintable(QString::number(minimum.height())));
}

void TestGuiSmoke::malformedFileKeepsCurrentDataset() {
  MainWindow window;
  window.show();
  openIris(window);

  const QString path = dir_.filePath(QStringLiteral("ragged.csv"));
  writeFile(path, "a,b,label\n1.0,2.0,x\n3.0,4.0\n5.0,6.0,y\n");
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.openFile(path);
  QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
  const QString message = failed.first().first().toString();
  QVERIFY2(message.contains(QLatin1String("ragged.csv")), qPrintable(message));
  QVERIFY2(message.contains(QLatin1String(":3")), qPrintable(message));  // the short line

  QCOMPARE(window.scatterView()->pointCount(), 150);
  QCOMPARE(window.document()->source().spec, QStringLiteral("builtin:iris"));
  QVERIFY(window.windowTitle().contains(QLatin1String("iris")));
}

void TestGuiSmoke::randomProjectionKeepsPointCount() {
  MainWindow window;
  window.show();
  openIris(window);
  chooseViewKind(window, ViewKind::RandomProjection);
  QCOMPARE(window.document()->view()->spec.kind, ViewKind::RandomProjection);
  QCOMPARE(window.scatterView()->pointCount(), 150);
  QCOMPARE(window.scatterView()->seriesCount(), 3);
  const auto axes = window.scatterView()->chart()->axes(Qt::Horizontal);
  QCOMPARE(axes.size(), 1);
  QCOMPARE(axes.first()->titleText(), QStringLiteral("random direction 1"));
}

void TestGuiSmoke::pcaViewIsMarkedNotPrivate() {
  MainWindow window;
  window.show();
  openIris(window);
  chooseViewKind(window, ViewKind::Pca);
  QVERIFY(window.document()->view()->projection.notPrivate);
  QVERIFY(window.scatterView()->chart()->title().contains(QLatin1String("not private")));
  QCOMPARE(window.scatterView()->pointCount(), 150);
}

// The 2-D view kind a user chose is the kind the next session opens its datasets in (it
// used to fall back to two features, or a random projection past ten features).
void TestGuiSmoke::chosenViewKindComesBackNextStart() {
  {
    MainWindow window;
    window.show();
    openIris(window);
    chooseViewKind(window, ViewKind::Pca);
    window.close();
  }
  MainWindow next;
  next.show();
  openIris(next);
  QCOMPARE(next.document()->view()->spec.kind, ViewKind::Pca);
  QVERIFY(next.scatterView()->chart()->title().contains(QLatin1String("not private")));
}

void TestGuiSmoke::cancelKeepsCurrentDataset() {
  MainWindow window;
  window.show();
  openIris(window);
  QSignalSpy cancelled(window.controller(), &DatasetController::openCancelled);
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.openDataset(QStringLiteral("builtin:digits"));
  QVERIFY(window.controller()->isOpening());
  // What the status bar's Cancel button does.
  window.controller()->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);
  QCOMPARE(failed.count(), 0);  // cancelled is not an error
  QVERIFY(!window.controller()->isBusy());
  QCOMPARE(window.document()->source().spec, QStringLiteral("builtin:iris"));
  QCOMPARE(window.scatterView()->pointCount(), 150);
  QCOMPARE(window.scatterView()->seriesCount(), 3);
}

void TestGuiSmoke::digitsShowsTenClasses() {
  MainWindow window;
  window.show();
  openIris(window);
  window.datasetPanel()->setViewKind(ViewKind::RandomProjection);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);
  window.openDataset(QStringLiteral("builtin:digits"));
  QTRY_COMPARE_WITH_TIMEOUT(window.document()->source().spec, QStringLiteral("builtin:digits"), kTimeoutMs);
  const auto& data = *window.document()->dataset();
  QCOMPARE(window.scatterView()->seriesCount(), 10);
  QCOMPARE(window.scatterView()->pointCount(), static_cast<int>(data.rows()));
  // The view kind carries over to the new dataset.
  QCOMPARE(window.document()->view()->spec.kind, ViewKind::RandomProjection);
}

void TestGuiSmoke::exportsPngAndSvg() {
  MainWindow window;
  window.show();
  openIris(window);
  const QString png = dir_.filePath(QStringLiteral("view.png"));
  const QString svg = dir_.filePath(QStringLiteral("view.svg"));
  QString error;
  QVERIFY2(window.scatterView()->exportImage(png, &error), qPrintable(error));
  QVERIFY2(window.scatterView()->exportImage(svg, &error), qPrintable(error));
  QImage image(png);
  QVERIFY(!image.isNull());
  QVERIFY(image.width() >= window.scatterView()->width());
  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  QVERIFY(text.contains("<svg"));
  QVERIFY(text.count("<path") + text.count("<ellipse") + text.count("<circle") >= 150);
}

void TestGuiSmoke::droppedFileOpensAndIsRemembered() {
  MainWindow window;
  window.show();
  openIris(window);
  const QString path = dir_.filePath(QStringLiteral("tiny.csv"));
  writeFile(path, "a,b,label\n0.0,0.1,no\n0.2,0.0,no\n1.0,1.1,yes\n1.2,0.9,yes\n1.1,1.0,yes\n");

  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&window, &drop);

  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), 5, kTimeoutMs);
  QCOMPARE(window.scatterView()->seriesCount(), 2);
  QVERIFY(window.windowTitle().contains(QLatin1String("tiny.csv")));
  const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
  QCOMPARE(recent.value(0), QFileInfo(path).absoluteFilePath());
  QCOMPARE(MainWindow::lastDatasetSpec(), path);
}

void TestGuiSmoke::legendClickHidesAndShowsAClass() {
  MainWindow window;
  window.show();
  openIris(window);
  QChart* chart = window.scatterView()->chart();
  QLegendMarker* marker = chart->legend()->markers().value(1);
  QVERIFY(marker);
  QAbstractSeries* series = marker->series();
  emit marker->clicked();
  QVERIFY(!series->isVisible());
  QTRY_VERIFY(marker->isVisible());  // still there (once laid out), to be clicked back
  emit marker->clicked();
  QVERIFY(series->isVisible());
  QCOMPARE(window.scatterView()->pointCount(), 150);
}

void TestGuiSmoke::sixtyThousandPointsAreShownInFull() {
  MainWindow window;
  window.show();
  openIris(window);
  QElapsedTimer timer;
  timer.start();
  window.openDataset(QStringLiteral("builtin:blobs:classes=10,per_class=6000"));
  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), 60000, 60000);
  qInfo("60 000 points opened and shown in %lld ms", timer.elapsed());
  QCOMPARE(window.scatterView()->seriesCount(), 10);
  // Switching the view rebuilds every series.
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  window.datasetPanel()->setViewKind(ViewKind::RandomProjection);
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
  QCOMPARE(window.scatterView()->pointCount(), 60000);
}

void TestGuiSmoke::svgOfALargeDatasetHoldsShapes() {
  // Past a few thousand points the screen draws markers as images; the SVG must not.
  MainWindow window;
  window.show();
  openIris(window);
  window.openDataset(QStringLiteral("builtin:blobs:classes=2,per_class=2000"));
  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), 4000, kTimeoutMs);
  const QString svg = dir_.filePath(QStringLiteral("large.svg"));
  QString error;
  QVERIFY2(window.scatterView()->exportSvg(svg, &error), qPrintable(error));
  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  QCOMPARE(text.count("<image"), 0);
  QVERIFY(text.count("<path") + text.count("<ellipse") + text.count("<circle") >= 4000);
  QCOMPARE(window.scatterView()->pointCount(), 4000);
}

QTEST_MAIN(TestGuiSmoke)
#include "test_gui_smoke.moc"
