#pragma once
// Typing a data schema (docs/formats/schema.md) instead of writing its JSON: the label column,
// the classes, and for each feature its public range or categories, in a table — the GUI's
// `info --draft-schema` plus an editor (issue 32 item 1). It starts from the schema the file
// is read with, or from a draft read off the rows (draftSchema), which it marks as such: the
// values then came from the private data, and the schema stays "drafted from the data" until
// the user says they replaced them by public knowledge. It saves the JSON (written atomically
// by core) for File → Import… to read the file by; nothing here changes data.

#include <QDialog>

#include "core/data/data_schema.h"
#include "core/util/result.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
QT_END_NAMESPACE

namespace dpstudio::ui {

class SchemaEditor : public QDialog {
  Q_OBJECT

 public:
  // `suggestedPath`: where Save proposes to write.
  SchemaEditor(const DataSchema& schema, const QString& suggestedPath, QWidget* parent = nullptr);

  // The schema as edited, or the first problem (naming the feature and the cell).
  Result<DataSchema> schema() const;
  // Writes schema() to `path`; on success the dialog is accepted and savedPath() is `path`.
  Status saveTo(const QString& path);
  QString savedPath() const { return savedPath_; }

  // For tests, and for whoever drives the dialog as a user would.
  QTableWidget* table() const { return table_; }
  QLineEdit* labelColumnField() const { return labelColumn_; }
  QLineEdit* classesField() const { return classes_; }
  QLineEdit* allLowField() const { return allLow_; }
  QLineEdit* allHighField() const { return allHigh_; }
  QPushButton* applyToAllButton() const { return applyToAll_; }
  QCheckBox* publicBox() const { return public_; }
  QLabel* problemLabel() const { return problem_; }

  enum Column { Name, Low, High, Categories };

 private:
  void fillTable();
  void applyRangeToAll();
  void recheck();
  void save();

  DataSchema original_;
  QString suggestedPath_;
  QString savedPath_;
  QLabel* draftNote_;
  QLineEdit* labelColumn_;
  QLineEdit* classes_;
  QTableWidget* table_;
  QLineEdit* allLow_;
  QLineEdit* allHigh_;
  QPushButton* applyToAll_;
  QCheckBox* public_;
  QLabel* problem_;
  QPushButton* saveButton_;
};

}  // namespace dpstudio::ui
