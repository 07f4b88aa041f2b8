#pragma once
// A mechanism report's derived values as people read them: "β = 1 234.5", "E‖b‖ = 0.081",
// "ε′ = 0.95", … one label each, with the formula that produced the value (DerivedValue::
// formula, written by core) as its tooltip. The values people look for first come first
// (β, E‖b‖, ε′, Δ, ρ, σ), then the others in the report's order. A headline names the noise
// family and how many coordinates one draw has.
//
// It shows numbers core computed (mech::calibrate or a training's report) and computes none.

#include <QString>
#include <QWidget>

#include <vector>

#include "core/mechanisms/mechanism.h"

QT_BEGIN_NAMESPACE
class QGridLayout;
class QLabel;
QT_END_NAMESPACE

namespace dpstudio::ui {

// The symbol of a derived value's key ("beta" → "β", "epsilon_prime" → "ε′"); the key
// itself for keys it does not know.
QString derivedSymbol(const std::string& key);
// A value for people: 4 significant digits, digit groups above 1 000 ("1 234.5"),
// scientific notation for the very small and very large.
QString formatDerivedValue(double value);
// A fraction as a percentage for people: "96.4 %" (one decimal, narrow space).
QString formatPercent(double fraction);
// The noise family for people: "ℓ2-Laplace", "Gaussian", … (core's name otherwise).
QString noiseDisplayName(mech::NoiseLaw noise);

class CalibrationView : public QWidget {
  Q_OBJECT

 public:
  explicit CalibrationView(QWidget* parent = nullptr);

  void setReport(const mech::MechanismReport& report);
  // Nothing to show: why (e.g. "Open a dataset to see the calibration.").
  void showMessage(const QString& message);

  // "β = 1 234.5, E‖b‖ = 0.081, …": what the labels say, in their order.
  QString text() const;
  // The label of a derived value, or nullptr.
  QLabel* labelFor(const std::string& key) const;

 private:
  void clearValues();

  QLabel* headline_;
  QGridLayout* grid_;
  std::vector<std::pair<std::string, QLabel*>> labels_;
};

}  // namespace dpstudio::ui
