#pragma once
// The "What ε means" page (issue 35): the Training dock's current guarantee as a membership
// test and as an attacker's belief (core/privacy/tradeoff.h, docs/algorithms.md §1.6) —
//
// - the trade-off a test can reach: false negatives β against false positives α, the region
//   the (ε, δ) forbids shaded, and the last audit's threshold tests on the same axes when it
//   audited this (ε, δ);
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

 private:
  void refresh();

  MechanismForm* mechanism_;
  AuditView* auditView_;
  QLabel* sentence_;
  QLineSeries* boundary_;
  QLineSeries* floor_;
  QAreaSeries* forbidden_;
  QLineSeries* audit_;
  QLineSeries* posterior_;
  QScatterSeries* onePercent_;
};

}  // namespace dpstudio::ui
