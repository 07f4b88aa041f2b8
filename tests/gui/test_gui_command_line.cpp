// The GUI's command line (ui/startup_arguments.h): --help and --version answered without a
// display (they used to abort with exit 134 where no X server runs), and the values each
// option accepts.
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

#include "ui/startup_arguments.h"

using dpstudio::ui::StartupArguments;

namespace {

std::optional<dpstudio::ui::StartupOptions> readArguments(const QStringList& arguments) {
  StartupArguments parsed;
  if (!parsed.parser().parse(QStringList{QStringLiteral("dpstudio")} + arguments)) return std::nullopt;
  return parsed.read();
}

}  // namespace

class TestGuiCommandLine : public QObject {
  Q_OBJECT

 private slots:
  void helpAndVersionNeedNoDisplay() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    for (const QString& flag : {QStringLiteral("--help"), QStringLiteral("-h"), QStringLiteral("--version")}) {
      QProcess gui;
      gui.setProcessEnvironment(environment);
      gui.start(QStringLiteral(DPSTUDIO_GUI_PATH), {flag});
      QVERIFY(gui.waitForFinished(30000));
      QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
      QCOMPARE(gui.exitCode(), 0);
      const QString out = QString::fromUtf8(gui.readAllStandardOutput());
      QVERIFY2(out.contains(flag == QLatin1String("--version") ? QStringLiteral("dpstudio ")
                                                               : QStringLiteral("--dataset <SPEC>")),
               qPrintable(out));
    }
  }

  void optionsAreReadAsTheirKinds() {
    const auto options = readArguments({QStringLiteral("--view"), QStringLiteral("PCA"), QStringLiteral("--train-model"),
                                        QStringLiteral("softmax"), QStringLiteral("--rff-dim"), QStringLiteral("50"),
                                        QStringLiteral("data.csv")});
    QVERIFY(options);
    QCOMPARE(options->dataset, QStringLiteral("data.csv"));
    QVERIFY(options->view == dpstudio::ViewKind::Pca);
    QVERIFY(options->trainModel == dpstudio::ModelKind::Softmax);
    QCOMPARE(options->rffDim, 50);
    QVERIFY(!readArguments({QStringLiteral("--view"), QStringLiteral("sideways")}));
    QVERIFY(!readArguments({QStringLiteral("--train-model"), QStringLiteral("forest")}));
    QVERIFY(!readArguments({QStringLiteral("--rff-dim"), QStringLiteral("0")}));
    QVERIFY(!readArguments({QStringLiteral("--dataset"), QStringLiteral("a.csv"), QStringLiteral("b.csv")}));
  }
};

QTEST_GUILESS_MAIN(TestGuiCommandLine)
#include "test_gui_command_line.moc"
