#pragma once
// The "What ε means" page (issue 35): the Training dock's current guarantee as a membership
// test and as an attacker's belief (core/privacy/tradeoff.h, docs/algorithms.md §1.6) —
//
// - the trade-off a test can reach: false negatives β against false positives α, the region
//   the (ε, δ) forbids shaded, and the last audit's threshold tests on the same axes when it
//   audited this (ε, δ); and, where the mechanism's privacy loss is known exactly (a Gaussian
//   mechanism's μ-GDP, DP-SGD's composed steps by the PLD accountant: exact_privacy.h), the
//   tighter curve no test can cross either — computed off the GUI thread;
// - the largest posterior against the prior, beside the diagonal (the output teaches
//   nothing), with the 1 % prior marked and said in a sentence.
//
// It follows the Mechanism form's live calibration: ε and δ are the ones the release would
// claim. It computes nothing itself.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QChart;
class QLabel;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace dpstudio::ui {

class AuditView;
class MechanismForm;

class MeaningView : public QWidget {
  Q_OBJECT

 public:
  MeaningView(MechanismForm* mechanism, AuditView* audit, QWidget* parent = nullptr);

  QLabel* sentenceLabel() const { return sentence_; }
  QLineSeries* boundarySeries() const { return boundary_; }
  QLineSeries* auditSeries() const { return audit_; }
  QLineSeries* posteriorSeries() const { return posterior_; }
  QLineSeries* exactSeries() const { return exact_; }

 private:
  void refresh();
  // The exact curve of the calibration shown (empty when none is known), on a worker.
  void computeExactCurve();

  MechanismForm* mechanism_;
  AuditView* auditView_;
  QLabel* sentence_;
  QLineSeries* boundary_;
  QLineSeries* floor_;
  QAreaSeries* forbidden_;
  QLineSeries* audit_;
  QLineSeries* exact_;
  QLabel* caption_;
  int exactGeneration_ = 0;  // the latest request wins
  QLineSeries* posterior_;
  QScatterSeries* onePercent_;
};

}  // namespace dpstudio::ui
