#pragma once
// The Sweep form's "Paper figure" chooser: none (sweep the current dataset with the Model
// dock's settings), or one of core's paper presets (core/experiment/paper_presets.h, the
// table dpstudio-cli sweep --preset reads), which brings its own data, mechanisms, axis and
// values.
//
// A preset runs on the paper's data when the data folder holds its files (a setting, saved;
// default $DPSTUDIO_DATA_DIR), loaded on the worker; otherwise — or when asked — as a quick
// version on a built-in set, labelled "quick version on built-in digits, not the paper's
// data" everywhere it shows (the check box, the description, the chart's title).

#include <QWidget>

#include <optional>
#include <string>

#include "core/experiment/paper_presets.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace dpstudio::ui {

class PresetChooser : public QWidget {
  Q_OBJECT

 public:
  explicit PresetChooser(QWidget* parent = nullptr);

  // The preset chosen, or null for "none".
  const experiment::PaperPreset* preset() const;
  bool setPreset(const std::string& name);  // "" for none; false for an unknown name
  // Whether the quick version on built-in data runs (forced without the paper's files).
  bool quickVersion() const;
  void setQuickVersion(bool quick);  // ignored while forced
  QString dataFolder() const;
  void setDataFolder(const QString& folder);  // saved in the settings
  // Why the paper's data cannot be read from the folder (empty when they can).
  QString folderProblem() const;

  // What the chosen preset runs on, its chart title, its default repetitions.
  DataRequest dataRequest() const;
  std::string chartTitle() const;
  int defaultRepeats() const;

  QComboBox* presetBox() const { return preset_; }
  QLineEdit* folderField() const { return folder_; }
  QCheckBox* quickBox() const { return quick_; }
  QLabel* descriptionLabel() const { return description_; }

 signals:
  // The preset, the folder or the quick choice changed (not emitted by the setters' echoes).
  void changed();

 private:
  void refresh();
  void chooseFolder();

  QComboBox* preset_;
  QWidget* dataRow_;
  QLineEdit* folder_;
  QPushButton* browse_;
  QCheckBox* quick_;
  QLabel* description_;
  bool quickWanted_ = false;  // the user's choice, kept while the quick version is forced
};

}  // namespace dpstudio::ui
