#pragma once
// The privacy–utility view (a central tab beside the decision view): the sweep's controls
// (sweep_form.h), Start / Cancel, "Add to the chart", Clear and Export, and the chart of
// core's curve (ui/plot/utility_chart.h) filling in as trials finish (sweep_session.h batches the
// updates), its legend under it (series_legend.h: whole names, wrapped). Hovering a point
// shows its value, mean, standard deviation and count; unticking a legend entry hides that
// line (a mean with its band).
//
// It sweeps the current dataset with the Training dock's settings (setSource() says how to get
// them), or a paper figure with its own data (the form's "Paper figure" chooser). A sweep is
// an experiment on the user's data, not a private release: the view says so, and nothing is
// recorded in the ledger.
//
// "Theoretical bounds (as published)" shows, under the accuracy chart, the published bounds
// that apply to the sweeps shown beside what they bound (ui/sweep/bounds_panel.h).

#include <QString>
#include <QWidget>

#include <functional>
#include <set>

#include "core/util/result.h"
#include "ui/sweep/sweep_session.h"
#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
class QResizeEvent;
QT_END_NAMESPACE

namespace dpstudio::ui {

class BoundsPanel;
class SeriesLegend;
class DatasetDocument;
class SweepForm;
class UtilityChart;

class SweepView : public QWidget {
  Q_OBJECT

 public:
  // The Training dock's settings and the training part's shape they give (n after the split,
  // d after the preprocessing, C), or the dock's problems.
  struct Base {
    TrainingSettings settings;
    mech::ProblemShape shape;
  };
  using SettingsSource = std::function<Result<Base>()>;

  SweepView(DatasetDocument* datasets, QWidget* parent = nullptr);

  void setSettingsSource(SettingsSource source);

  SweepForm* form() const { return form_; }
  SweepSession* session() const { return session_; }
  UtilityChart* chart() const { return chart_; }
  QChartView* chartView() const { return chartView_; }
  SeriesLegend* legend() const { return legend_; }
  QPushButton* startButton() const { return startButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QPushButton* exportButton() const { return exportButton_; }
  QCheckBox* addToChartBox() const { return addBox_; }
  QCheckBox* boundsBox() const { return boundsBox_; }
  BoundsPanel* boundsPanel() const { return boundsPanel_; }
  QLabel* statusLabel() const { return status_; }
  QLabel* problemLabel() const { return problem_; }  // why Start Sweep is off, unless the form says it

  // Exports what the view shows: ".png" or ".svg" the figure, ".csv" the last sweep's trial
  // table (as `dpstudio-cli sweep --out`). Atomic; false with *error naming the path.
  bool exportTo(const QString& path, QString* error = nullptr) const;

 public slots:
  // Reads the Training dock's settings again (call when they or the dataset change).
  void refreshBase();
  // Starts a sweep with the controls' choices (no-op, with the reason shown, when invalid).
  void startSweep();
  void showExportDialog();

 signals:
  void jobStarted(dpstudio::ui::JobHandle* job);
  void statusMessage(const QString& text, int timeoutMs);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  // The constructor's parts: the controls' names and tooltips; the layout (form, buttons,
  // messages, the accuracy chart above the bounds in a splitter, which it returns); the
  // connections.
  void setUpControls();
  QSplitter* layOut();
  void connectControls(QSplitter* charts);
  void showCurve();
  void refreshButtons();
  void connectHover();  // a mean's points tell their values
  void showPointAt(int seriesIndex, const QPointF& point, bool entered);

  DatasetDocument* datasets_;
  SettingsSource source_;
  SweepSession* session_;
  SweepForm* form_;
  UtilityChart* chart_;
  QChartView* chartView_;
  QPushButton* startButton_;
  QPushButton* cancelButton_;
  QPushButton* clearButton_;
  QPushButton* exportButton_;
  QCheckBox* addBox_;
  QCheckBox* boundsBox_;
  BoundsPanel* boundsPanel_;
  QLabel* status_;
  QLabel* problem_;
  SeriesLegend* legend_;  // under the chart; unticking hides a line
  QSplitter* page_ = nullptr;  // the settings above the results
  bool pageSplit_ = false;     // the first split is made
  std::set<QString> hidden_;  // names of the lines hidden by their legend entry
};

}  // namespace dpstudio::ui
