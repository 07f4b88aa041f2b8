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
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>

#include "tests/gui/gui_training_support.h"
#include "tests/common/test_files.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/import_dialog.h"
#include "ui/dataset/schema_editor.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/mechanism_form.h"
#include "core/io/schema_json.h"

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
  void aDraftSchemaIsTypedAndSaved();

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

// Issue 32 item 1 in the GUI: Edit… drafts a schema from the rows (marked as read off the
// data), the user types each feature's public range and the categories, says they are public,
// saves; the preview then reads the file by that schema, which declares nothing from the data.
void TestImportDialog::aDraftSchemaIsTypedAndSaved() {
  const QString path = dir_.filePath(QStringLiteral("survey.csv"));
  QByteArray rows = "age,job,hours,answer\n";
  const char* jobs[] = {"clerk", "nurse", "farmer"};
  for (int i = 0; i < 60; ++i)
    rows += QString("%1,%2,%3,%4\n").arg(25 + i % 30).arg(jobs[i % 3]).arg(20 + (i * 7) % 40).arg(i % 2 ? "yes" : "no").toUtf8();
  writeFile(path, rows);
  MainWindow window;
  ImportDialog* dialog = importDialogOn(window, path);
  QVERIFY(dialog);
  auto* edit = dialog->findChild<QPushButton*>(QStringLiteral("editSchema"));
  QVERIFY(edit && edit->isEnabled());
  edit->click();
  auto* editor = dialog->findChild<ui::SchemaEditor*>();
  QVERIFY(editor && editor->isVisible());
  QTableWidget* table = editor->table();
  QCOMPARE(table->rowCount(), 3);
  // The draft's values are the data's: marked, and the box that clears the mark unticked.
  QVERIFY(!editor->publicBox()->isChecked());
  QCOMPARE(table->item(0, ui::SchemaEditor::Low)->text(), QStringLiteral("25"));  // the observed minimum
  QVERIFY(!(table->item(1, ui::SchemaEditor::Low)->flags() & Qt::ItemIsEditable));  // job: categorical
  QCOMPARE(table->item(1, ui::SchemaEditor::Categories)->text(), QStringLiteral("clerk, farmer, nurse"));
  auto drafted = editor->schema();
  QVERIFY(drafted && drafted.value().draftedFromData);

  // One range for the numeric features, then a typo, named, which Save waits for.
  editor->allLowField()->setText(QStringLiteral("0"));
  editor->allHighField()->setText(QStringLiteral("120"));
  editor->applyToAllButton()->click();
  QCOMPARE(table->item(2, ui::SchemaEditor::High)->text(), QStringLiteral("120"));
  table->item(2, ui::SchemaEditor::High)->setText(QStringLiteral("8o"));
  QVERIFY(editor->problemLabel()->text().contains(QStringLiteral("hours")));
  QVERIFY(!editor->schema());
  table->item(2, ui::SchemaEditor::High)->setText(QStringLiteral("80"));
  table->item(1, ui::SchemaEditor::Categories)->setText(QStringLiteral("clerk, farmer, nurse, teacher"));
  editor->classesField()->setText(QStringLiteral("no, yes"));
  editor->publicBox()->setChecked(true);
  QVERIFY2(editor->problemLabel()->text().isEmpty(), qPrintable(editor->problemLabel()->text()));
  test::saveScreenshot(editor, QStringLiteral("schema-editor"));

  const QString saved = dir_.filePath(QStringLiteral("survey.schema.json"));
  QVERIFY(editor->saveTo(saved));
  auto read = readSchemaFile(saved.toStdString());
  QVERIFY(read);
  QVERIFY(!read.value().draftedFromData);
  QCOMPARE(read.value().features.at(0).range, std::optional(FeatureRange{0, 120}));
  QCOMPARE(read.value().features.at(2).range, std::optional(FeatureRange{0, 80}));
  QCOMPARE(read.value().features.at(1).categories.size(), std::size_t{4});
  QCOMPARE(read.value().classes, (std::vector<std::string>{"no", "yes"}));
  // The dialog reads the file by it now: four job categories declared, nothing marked.
  QTRY_COMPARE_WITH_TIMEOUT(dialog->findChild<QLineEdit*>(QStringLiteral("schemaPath"))->text(), saved, test::kTimeoutMs);
  waitForPreview(*dialog);
  QVERIFY2(dialog->preview().summary.contains(QStringLiteral("schema: 3 features declared")),
           qPrintable(dialog->preview().summary));
  QVERIFY(!dialog->preview().summary.contains(QStringLiteral("draft")));
  QVERIFY(dialog->preview().columns.contains(QStringLiteral("job=teacher")));

  // Opened by it, a private mechanism needs no R: the schema's ranges give it.
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  openButton(*dialog)->click();
  QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, test::kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), test::kTimeoutMs);
  // The file dialogs start beside it, though no dialog opened it.
  QCOMPARE(QFileInfo(window.fileDialogDirectory()).canonicalFilePath(), QFileInfo(dir_.path()).canonicalFilePath());
  test::mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
  auto* settings = window.modelPanel()->form();
  QVERIFY2(settings->problems().isEmpty(), qPrintable(settings->problems().join('\n')));
  test::trainFromDock(window, ModelKind::LogisticRegression);
  QVERIFY(window.training()->result()->release);
  QVERIFY(window.training()->result()->data->preprocessor.normBoundFromRanges);
}

QTEST_MAIN(TestImportDialog)
#include "test_import_dialog.moc"
