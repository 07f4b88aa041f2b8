// File → Import…: the options core's loader takes, chosen while looking at the file and at
// what core reads with them (issue 9 item 7: real files were misread with no way to say how
// to read them in the GUI).

#include <QByteArray>
#include <QIODevice>
#include <QStringList>
#include <QTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

#include <cmath>

#include "tests/gui/gui_training_support.h"
#include "tests/common/test_files.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/import_dialog.h"

using namespace dpstudio;
using dpstudio::ui::ImportDialog;
using dpstudio::ui::MainWindow;

namespace {

using dpstudio::test::writeFile;

// Waits for the preview of the options now set.
void waitForPreview(ImportDialog& dialog) {
  QSignalSpy shown(&dialog, &ImportDialog::previewShown);
  QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1 && !dialog.isReading(), test::kTimeoutMs);
}

// File → Import… on `path` in a shown window, its first preview read; null if none opened.
ImportDialog* importDialogOn(MainWindow& window, const QString& path) {
  window.setErrorDialogsEnabled(false);
  window.show();
  window.showImportDialog(path, {});
  auto* dialog = window.findChild<ImportDialog*>();
  if (dialog) waitForPreview(*dialog);
  return dialog;
}

QPushButton* openButton(ImportDialog& dialog) {
  return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Open);
}

}  // namespace

class TestImportDialog : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void titleLineIsSkipped();
  void missingValuesAreDroppedOnRequest();
  void labelColumnByNumber();
  void openUsesTheChosenOptions();
  void aSchemaDeclaresTheLayoutAndTheNormBound();

 private:
  QTemporaryDir dir_;
};

void TestImportDialog::initTestCase() {
  QVERIFY(dir_.isValid());
  test::isolateSettings(dir_.path(), QStringLiteral("test_import_dialog"));
}

void TestImportDialog::titleLineIsSkipped() {
  const QString path = dir_.filePath(QStringLiteral("titled.csv"));
  writeFile(path, "Measurements exported 2026-11-24\r"
                  "a,b,label\r1,2,x\r3,4,y\r5,6,x\r7,8,y\r");  // CR-only line ends too
  ImportDialog dialog(path);
  dialog.show();
  waitForPreview(dialog);
  QVERIFY2(dialog.preview().rawText.startsWith(QStringLiteral("Measurements")), qPrintable(dialog.preview().rawText));
  QCOMPARE(dialog.preview().rawText.count(QLatin1Char('\n')), 5);  // six lines, not one
  // Skip the title: a header, four rows, two classes.
  dialog.findChild<QSpinBox*>(QStringLiteral("skipRows"))->setValue(1);
  waitForPreview(dialog);
  QVERIFY2(dialog.preview().error.isEmpty(), qPrintable(dialog.preview().error));
  QVERIFY2(dialog.preview().summary.startsWith(QStringLiteral("4 rows, 2 features, 2 classes")),
           qPrintable(dialog.preview().summary));
  QVERIFY2(dialog.preview().summary.contains(QStringLiteral("header yes")), qPrintable(dialog.preview().summary));
  QCOMPARE(dialog.preview().columns, (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("label")}));
  QCOMPARE(dialog.preview().rows.size(), 4);
  QVERIFY(openButton(dialog)->isEnabled());
  QCOMPARE(dialog.options().skipRows, 1L);
}

void TestImportDialog::missingValuesAreDroppedOnRequest() {
  const QString path = dir_.filePath(QStringLiteral("missing.csv"));
  writeFile(path, "a,b,label\n1,2,x\n3,,y\n5,6,x\n7,8,y\n");
  ImportDialog dialog(path);
  waitForPreview(dialog);
  QVERIFY(!dialog.preview().error.isEmpty());
  QVERIFY2(dialog.preview().error.contains(QStringLiteral("3")), qPrintable(dialog.preview().error));  // line 3
  QVERIFY(!openButton(dialog)->isEnabled());
  dialog.findChild<QCheckBox*>(QStringLiteral("dropMissing"))->setChecked(true);
  waitForPreview(dialog);
  QVERIFY2(dialog.preview().error.isEmpty(), qPrintable(dialog.preview().error));
  QVERIFY2(dialog.preview().summary.startsWith(QStringLiteral("3 rows")), qPrintable(dialog.preview().summary));
  QCOMPARE(dialog.options().missing, MissingPolicy::DropRows);
  QVERIFY(openButton(dialog)->isEnabled());
}

void TestImportDialog::labelColumnByNumber() {
  const QString path = dir_.filePath(QStringLiteral("first.csv"));
  writeFile(path, "label,a,b\nx,1,2\ny,3,4\nx,5,6\ny,7,8\n");
  ImportDialog dialog(path);
  waitForPreview(dialog);
  // Read as is, the last column (b) is the label: four classes.
  QVERIFY2(dialog.preview().summary.contains(QStringLiteral("4 classes")), qPrintable(dialog.preview().summary));
  dialog.findChild<QLineEdit*>(QStringLiteral("labelColumn"))->setText(QStringLiteral("1"));  // columns count from 1
  waitForPreview(dialog);
  QVERIFY2(dialog.preview().summary.startsWith(QStringLiteral("4 rows, 2 features, 2 classes")),
           qPrintable(dialog.preview().summary));
  QCOMPARE(dialog.options().labelColumn, std::string("1"));
}

void TestImportDialog::openUsesTheChosenOptions() {
  const QString path = dir_.filePath(QStringLiteral("semicolons.csv"));
  writeFile(path, "# exported\nx;y;class\n1;2;a\n3;4;b\n5;6;a\n7;8;b\n9;10;a\n");
  MainWindow window;
  ImportDialog* dialog = importDialogOn(window, path);
  QVERIFY(dialog);
  dialog->findChild<QSpinBox*>(QStringLiteral("skipRows"))->setValue(1);
  waitForPreview(*dialog);
  QVERIFY2(dialog->preview().error.isEmpty(), qPrintable(dialog->preview().error));
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  openButton(*dialog)->click();
  QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, test::kTimeoutMs);
  QCOMPARE(window.document()->dataset()->rows(), Index{5});
  QCOMPARE(window.document()->source().options.skipRows, 1L);
}

// A newcomer's CSV with a categorical column, read by a schema (docs/formats/schema.md): the
// preview says what it declares, the dataset opened keeps it, the form asks for no R, and the
// model trained is preprocessed by the schema's ranges (R = sqrt(3)/2 for three features).
void TestImportDialog::aSchemaDeclaresTheLayoutAndTheNormBound() {
  const QString path = dir_.filePath(QStringLiteral("people.csv"));
  QByteArray rows = "id,age,job,hours,income\n";
  const char* jobs[] = {"clerk", "engineer", "farmer", "nurse"};
  for (int i = 0; i < 120; ++i) {
    const int age = 20 + (i * 7) % 60, job = (i * 5) % 4, hours = 15 + (i * 11) % 55;
    const bool high = (age - 40) / 20.0 + (job == 1 ? 1.0 : 0.0) + (hours - 40) / 15.0 > 0.2;
    rows += QString("%1,%2,%3,%4,%5\n").arg(i).arg(age).arg(jobs[job]).arg(hours).arg(high ? "high" : "low").toUtf8();
  }
  writeFile(path, rows);
  const QString schema = dir_.filePath(QStringLiteral("people.schema.json"));
  writeFile(schema, R"({"dpstudio_schema": 1, "label_column": "income", "classes": ["low", "high"],
    "ignore": ["id"], "features": [{"name": "age", "range": [17, 90]},
    {"name": "job", "categories": ["clerk", "engineer", "farmer", "nurse", "teacher"]},
    {"name": "hours", "range": [0, 100]}]})");
  MainWindow window;
  ImportDialog* dialog = importDialogOn(window, path);
  QVERIFY(dialog);
  dialog->findChild<QLineEdit*>(QStringLiteral("schemaPath"))->setText(schema);
  waitForPreview(*dialog);
  QVERIFY2(dialog->preview().error.isEmpty(), qPrintable(dialog->preview().error));
  QVERIFY2(dialog->preview().summary.contains(QStringLiteral("schema: 3 features declared")),
           qPrintable(dialog->preview().summary));
  QVERIFY(dialog->preview().columns.contains(QStringLiteral("job=teacher")));  // declared, though absent
  test::saveScreenshot(dialog, QStringLiteral("import-schema-dialog"));
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  openButton(*dialog)->click();
  QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, test::kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), test::kTimeoutMs);
  const auto dataset = window.document()->dataset();
  QVERIFY(dataset->provenance.schema);
  QCOMPARE(dataset->features(), Index{7});
  QVERIFY(window.document()->source().options.schema.has_value());

  test::trainFromDock(window, ModelKind::LogisticRegression);
  const auto& prepared = *window.training()->result()->data;
  QVERIFY(prepared.schema.has_value());
  QVERIFY(prepared.preprocessor.normBoundFromRanges);
  QVERIFY(prepared.preprocessor.spec.normBound);
  QCOMPARE(*prepared.preprocessor.spec.normBound, std::sqrt(3.0) / 2);
  test::saveScreenshot(&window, QStringLiteral("import-schema"));
}

QTEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
