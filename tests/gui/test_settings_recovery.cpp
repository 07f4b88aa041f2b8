// An unreadable settings file (issue 15 item 5) is moved aside with its bytes intact, the
// person is told where it went, the next session writes a fresh file, and a window opens
// with the defaults; a readable file, or none, is left alone.

#include <QByteArray>
#include <QDir>
#include <QIODevice>
#include <QStringList>
#include <QTest>

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>

#include "tests/gui/gui_training_support.h"
#include "ui/main_window.h"
#include "ui/settings_recovery.h"

using namespace dpstudio;

class TestSettingsRecovery : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    QVERIFY(dir_.isValid());
    // A file of its own per test function: QSettings caches what it parsed per file, and a
    // rewrite within the same second would not be noticed.
    test::isolateSettings(dir_.path(), QStringLiteral("test_settings_recovery-") + QTest::currentTestFunction());
  }

  void noFileAndAReadableFileAreLeftAlone() {
    QVERIFY(ui::setAsideUnreadableSettings().isEmpty());
    {
      QSettings settings;
      settings.setValue(QStringLiteral("lastDataset"), QStringLiteral("builtin:iris"));
    }
    QVERIFY(ui::setAsideUnreadableSettings().isEmpty());
    QCOMPARE(QSettings().value(QStringLiteral("lastDataset")).toString(), QStringLiteral("builtin:iris"));
  }

  void unreadableFileIsKeptAsideAndTheDefaultsUsed() {
    const QString path = QSettings().fileName();
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    // A section header cut short, then binary bytes: what a torn write leaves.
    const QByteArray garbage("[MainWindow\ngeometry=@ByteArray(\x01\x02\x00\xff", 34);
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(garbage);
    }
    QCOMPARE(QSettings().status(), QSettings::FormatError);

    const QString message = ui::setAsideUnreadableSettings();
    QVERIFY(message.contains(QStringLiteral("could not be read")));
    QVERIFY(message.contains(QDir::toNativeSeparators(path)));
    QVERIFY(!QFileInfo::exists(path));
    const QStringList aside = QFileInfo(path).dir().entryList({QFileInfo(path).fileName() + QStringLiteral(".unreadable-*")});
    QCOMPARE(aside.size(), 1);
    QVERIFY(message.contains(aside.front()));
    QFile kept(QFileInfo(path).dir().filePath(aside.front()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), garbage);  // nothing the person had is lost

    // The next session starts from the defaults and writes a file that reads back.
    QVERIFY(ui::setAsideUnreadableSettings().isEmpty());
    {
      ui::MainWindow window;
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
    }
    QCOMPARE(QSettings().status(), QSettings::NoError);
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestSettingsRecovery)
#include "test_settings_recovery.moc"
