#pragma once
// File → Import…: how a data file is read, chosen while looking at it (as spreadsheet
// programs and Orange's File widget do). The first lines of the file as they are, and below
// them what core reads with the options chosen — rows, features, classes, the header choice
// and why, warnings, the first rows — or the error naming line and column. Every change of
// an option reads the file again on a worker thread (the last request wins); Open is
// enabled while the reading succeeds.
//
// The options are core's LoadOptions (core/io/loader.h): format, header (auto/yes/no), rows
// to skip, delimiter, label column (a header name or a 1-based column number), dropping rows
// with missing values, the LIBSVM feature count, the IDX labels file, and a data schema
// (docs/formats/schema.md), read with the file on the worker thread. Nothing here parses.

#include <QDialog>
#include <QPointer>
#include <QString>

#include <optional>

#include "core/io/loader.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QVBoxLayout;
QT_END_NAMESPACE

namespace dpstudio::ui {

class JobHandle;

// What a preview shows: the first lines as text, and a summary of the dataset read.
struct ImportPreview {
  QString rawText;       // the first lines of the (inflated) file
  QString error;         // the loader's message when reading failed; empty otherwise
  QString summary;       // "150 rows, 4 features, 3 classes (50/50/50); header: yes (…)"
  QStringList warnings;  // provenance warnings (weak header guess, continuous labels, …)
  QStringList columns;   // feature names, then the label
  QList<QStringList> rows;  // the first rows: features then label
  std::optional<DataSchema> schema;  // the schema the rows were read by, if any
  // What Edit schema… starts from: that schema, or one drafted from the rows (marked).
  std::optional<DataSchema> editable;
};

class ImportDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ImportDialog(const QString& path, QWidget* parent = nullptr);

  QString path() const { return path_; }
  LoadOptions options() const;
  // Sets the fields from options (for File → Import… on the file shown, its last options).
  void setOptions(const LoadOptions& options);
  // The preview shown last: for tests and for whoever needs the summary.
  const ImportPreview& preview() const { return preview_; }
  bool isReading() const { return !job_.isNull(); }

 signals:
  void previewShown();  // after every preview (success or error)

 private:
  // The constructor's parts, in order: the option fields' names, entries and tooltips; the
  // form that lays them out; the file's first lines and what is read below it; the signals
  // that read the file again.
  void setUpOptionFields();
  QFormLayout* makeOptionsForm();
  void addPreview(QVBoxLayout* layout);
  void connectOptions();
  void schedulePreview();
  void startPreview();
  void showPreview(const ImportPreview& preview);
  void updateRows();
  void editSchema();

  QString path_;
  QComboBox* format_;
  QComboBox* header_;
  QSpinBox* skipRows_;
  QComboBox* delimiter_;
  QLineEdit* labelColumn_;
  QCheckBox* dropMissing_;
  QSpinBox* libsvmFeatures_;
  QLineEdit* labelsPath_;
  QLineEdit* schemaPath_;
  QPushButton* editSchema_;
  // The schema the file was last opened with (setOptions), used while the path field is
  // empty and untouched; the schema of the preview shown last, which Open hands on.
  std::optional<DataSchema> openedSchema_;
  std::optional<DataSchema> schema_;
  QPlainTextEdit* raw_;
  QLabel* summary_;
  QLabel* warnings_;
  QTableWidget* table_;
  QDialogButtonBox* buttons_;
  QTimer* debounce_;
  QPointer<JobHandle> job_;
  ImportPreview preview_;
};

}  // namespace dpstudio::ui
