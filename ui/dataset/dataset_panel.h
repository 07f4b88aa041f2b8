#pragma once
// The Dataset dock's contents: where the data come from (built-ins, Open…), what they are
// (source, format, n, d, C, class balance, max row norm, privacy notes) and which 2-D view
// the scatter shows (two features, a random projection, or PCA marked "not private").
//
// The panel only shows the document and asks for changes through signals; the main window
// routes them to the DatasetController.

#include <QWidget>

#include "core/data/view_projection.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class ClassBalanceWidget;
class DatasetDocument;

class DatasetPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DatasetPanel(DatasetDocument* document, QWidget* parent = nullptr);

  ViewSpec requestedViewSpec() const;
  // For tests and the View menu: choose a view kind as a user would.
  void setViewKind(ViewKind kind);
  QComboBox* builtinBox() const { return builtinBox_; }
  QLabel* testLabel() const { return testLabel_; }
  QPushButton* openTestButton() const { return openTestButton_; }
  QPushButton* removeTestButton() const { return removeTestButton_; }

 public slots:
  void showViewError(const QString& message);

 signals:
  void builtinRequested(const QString& spec);
  void openFileRequested();
  void openTestFileRequested();
  void removeTestFileRequested();
  void viewSpecRequested(const dpstudio::ViewSpec& spec);

 private:
  QWidget* makeSourceGroup();
  QWidget* makeSummaryGroup();
  QWidget* makeViewGroup();
  void refreshDataset();
  void refreshView();
  void refreshTest();
  void updateViewControls();
  void requestView();

  DatasetDocument* document_;
  QComboBox* builtinBox_ = nullptr;
  QPushButton* openButton_ = nullptr;
  QLabel* testLabel_ = nullptr;
  QPushButton* openTestButton_ = nullptr;
  QPushButton* removeTestButton_ = nullptr;
  QLabel* descriptionLabel_ = nullptr;
  QLabel* sourceLabel_ = nullptr;
  QLabel* formatLabel_ = nullptr;
  QLabel* rowsLabel_ = nullptr;
  QLabel* featuresLabel_ = nullptr;
  QLabel* classesLabel_ = nullptr;
  QLabel* normLabel_ = nullptr;
  QLabel* notesLabel_ = nullptr;
  ClassBalanceWidget* balance_ = nullptr;
  QComboBox* kindBox_ = nullptr;
  QComboBox* featureABox_ = nullptr;
  QComboBox* featureBBox_ = nullptr;
  QSpinBox* seedBox_ = nullptr;
  QLabel* notPrivateLabel_ = nullptr;
  QLabel* viewErrorLabel_ = nullptr;
};

}  // namespace dpstudio::ui
