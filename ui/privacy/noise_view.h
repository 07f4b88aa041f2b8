#pragma once
// The Noise view (docs/user-guide.md): the norms ‖b‖ of the noise vectors the shown private model
// actually drew, as a density histogram against the law of ‖b‖ under its calibration
// (mech::noiseNormLaw: Gamma(m, 1/β) for ℓ2-Laplace, σ·χ_m for Gaussian) and E‖b‖.
//
// What it collects. Every release of the same calibration (the same law: family, β or σ,
// m) adds its report.noiseNorms — the first training, each "Redraw noise", one norm per class
// under one-vs-rest — so repeated redraws fill the histogram; a model with another law
// starts it again. A prediction-sensitivity predictor (§3 F) draws per answer: its answers'
// norms are collected as they are given. "Simulate 2 000 draws" adds draws from the same law
// with a fresh experiment-mode seed: they come from the calibration alone — no data, no
// privacy cost, never released — so a teacher can show the shape before any release.
//
// Mechanisms without one law per draw get a message instead of a plot: DP-SGD (noise at
// every step), per-coordinate Laplace (as published), subsample-and-aggregate (no noise
// vector), and the non-private baseline.
//
// A view: it reads the TrainingDocument and owns only what it drew for the simulation.

#include <QPointer>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/privacy/noise_norm_law.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NoiseChart;
class PredictionAnswers;
class TrainingDocument;
struct TrainingResult;

class NoiseView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kSimulatedDraws = 2000;

  explicit NoiseView(TrainingDocument* training, QWidget* parent = nullptr);

  // The law shown, or none (message() says why).
  const std::optional<privacy::NoiseNormLaw>& law() const { return law_; }
  const std::vector<double>& releasedNorms() const { return released_; }
  const std::vector<double>& simulatedNorms() const { return simulated_; }

  NoiseChart* chart() const { return chart_; }
  QLabel* lawLabel() const { return lawLabel_; }       // the law, E‖b‖ and what was drawn
  QLabel* messageLabel() const { return message_; }    // why there is nothing to plot
  QLabel* simulationLabel() const { return simulationNote_; }
  QPushButton* simulateButton() const { return simulateButton_; }
  QPushButton* exportButton() const { return exportButton_; }

  bool exportPlot(const QString& path, QString* error = nullptr);

 public slots:
  // Adds kSimulatedDraws norms drawn from the law with a fresh experiment-mode seed.
  void simulate();
  void showExportDialog();

 private:
  void modelChanged();
  void collectAnswers();
  void reset(const QString& message);
  void refresh();
  QString title() const;  // "‖b‖ ~ Gamma(m = 18, β = 1.02)"; law_ set

  TrainingDocument* training_;
  std::shared_ptr<const TrainingResult> seen_;  // the result whose norms were collected last
  std::shared_ptr<PredictionAnswers> answers_;  // a predictor's answers, collected up to answersTaken_
  std::size_t answersTaken_ = 0;
  std::optional<privacy::NoiseNormLaw> law_;
  QString context_;  // the mechanism and what one draw is
  std::vector<double> released_;
  // The shown release drew release noise, whose norms core withholds (mechanism.h,
  // withholdDrawnNoise): the key says so instead of "no released draw yet".
  bool withheld_ = false;
  std::vector<double> simulated_;
  std::vector<std::uint64_t> seeds_;  // of the simulations, for the note

  NoiseChart* chart_;
  QLabel* lawLabel_;
  QLabel* message_;
  QLabel* simulationNote_;
  QPushButton* simulateButton_;
  QPushButton* exportButton_;
  QWidget* side_;  // the law, Simulate and Export, beside the plot
};

}  // namespace dpstudio::ui
