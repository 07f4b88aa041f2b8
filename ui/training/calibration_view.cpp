#include "ui/training/calibration_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace dpstudio::ui {
namespace {

// Two columns keep each label short enough for the dock's width.
constexpr int kColumns = 2;

const std::vector<std::string>& primaryKeys() {
  static const std::vector<std::string> keys = {"beta", "expected_noise_norm", "epsilon_prime", "Delta", "rho", "sigma"};
  return keys;
}

// Digit groups of an integer part, separated by narrow no-break spaces.
QString grouped(const QString& digits) {
  QString out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += QChar(0x202f);
    out += digits[i];
  }
  return out;
}

}  // namespace

QString derivedSymbol(const std::string& key) {
  static const std::map<std::string, QString> symbols = {
      {"beta", QStringLiteral("\u03b2")},
      {"expected_noise_norm", QStringLiteral("E\u2016b\u2016")},
      {"epsilon_prime", QStringLiteral("\u03b5\u2032")},
      {"Delta", QStringLiteral("\u0394")},
      {"rho", QStringLiteral("\u03c1")},
      {"sigma", QStringLiteral("\u03c3")},
      {"sensitivity", QObject::tr("sensitivity")},
      {"epsilon_per_release", QObject::tr("\u03b5 per release")},
      {"releases", QObject::tr("releases")},
      {"epsilon_accounted", QObject::tr("\u03b5 accounted")},
      {"epsilon_classic", QObject::tr("\u03b5 classic RDP")},
      {"epsilon_rdp", QObject::tr("\u03b5 RDP")},
      {"epsilon_error", QObject::tr("\u03b5 error (PLD)")},
      {"pld_discretization", QObject::tr("PLD grid h")},
      {"epsilon_add_remove", QObject::tr("\u03b5 add/remove")},
      {"rdp_order", QObject::tr("RDP order")},
      {"noise_multiplier", QObject::tr("\u03c3/\u03bd")},
      {"clip_norm", QStringLiteral("\u03bd")},
      {"steps", QStringLiteral("T")},
      {"chosen_lambda", QObject::tr("chosen \u03bb")},
      {"chosen_index", QObject::tr("chosen candidate")},
      {"candidates", QObject::tr("candidates")},
      {"part_rows", QObject::tr("rows per part")},
      {"selection_beta", QObject::tr("\u03b2 selection")},
      {"mean_step_noise_norm", QObject::tr("mean \u2016b\u2016 per step")},
      // Private prediction (§3 F, G) and multiparty aggregation (§3 I).
      {"budget", QStringLiteral("B")},
      {"teachers", QStringLiteral("T")},
      {"epsilon_per_answer", QObject::tr("\u03b5 per answer")},
      {"delta_per_answer", QObject::tr("\u03b4 per answer")},
      {"delta_prime", QStringLiteral("\u03b4\u2032")},
      {"sigma_basic", QObject::tr("\u03c3 basic")},
      {"sigma_advanced", QObject::tr("\u03c3 advanced")},
      {"epsilon_actual", QObject::tr("\u03b5 that holds")},
      {"parties", QStringLiteral("K")},
      {"lambda", QStringLiteral("\u03bb")},
      {"smallest_party", QStringLiteral("n\u208d\u2081\u208e")},
      {"laplace_scale", QObject::tr("Laplace scale")},
      {"epsilon_provable", QObject::tr("\u03b5 provable")},
      {"theorem_4_2_bound", QObject::tr("Thm 4.2 bound")},
      {"distance_to_all_data", QObject::tr("\u2016\u0175 \u2212 w*\u2016")},
      {"gradient_tolerance", QObject::tr("gradient tol.")},
      {"release_noise_factor", QObject::tr("noise \u00d7 (rounding)")},
      // DP-SGD's step fitted to the rows (§3 E).
      {"learning_rate", QStringLiteral("\u03b7")},
      {"epsilon_step_estimate", QObject::tr("\u03b5\u2080 for \u03b7")},
      {"step_estimate_scale", QObject::tr("b for \u03b7")},
      {"averaged_steps", QObject::tr("averaged steps")},
      {"epsilon_accounted_lower", QObject::tr("\u03b5 PLD lower")},
  };
  const auto it = symbols.find(key);
  return it != symbols.end() ? it->second : QString::fromStdString(key);
}

QString formatPercent(double fraction) {
  return QLocale().toString(100.0 * fraction, 'f', 1) + QStringLiteral("\u202f%");
}

QString formatDerivedValue(double value) {
  if (!std::isfinite(value)) return QString::number(value);
  const double magnitude = std::abs(value);
  if (magnitude != 0 && (magnitude < 1e-3 || magnitude >= 1e7)) return QString::number(value, 'g', 3);
  QString text;
  if (magnitude >= 1000) text = QString::number(value, 'f', value == std::round(value) ? 0 : 1);
  else text = QString::number(value, 'g', 4);
  // Group the integer part's digits: "1234.5" → "1 234.5".
  const bool negative = text.startsWith(QLatin1Char('-'));
  if (negative) text.remove(0, 1);
  const qsizetype point = text.indexOf(QLatin1Char('.'));
  const QString integer = point < 0 ? text : text.left(point);
  const QString rest = point < 0 ? QString() : text.mid(point);
  return (negative ? QStringLiteral("\u2212") : QString()) + grouped(integer) + rest;
}

QString noiseDisplayName(mech::NoiseLaw noise) {
  switch (noise) {
    case mech::NoiseLaw::L2Laplace: return QObject::tr("\u2113\u2082-Laplace");
    case mech::NoiseLaw::Gaussian: return QObject::tr("Gaussian");
    case mech::NoiseLaw::LaplacePerCoordinate: return QObject::tr("Laplace per coordinate");
    case mech::NoiseLaw::ExponentialMechanism: return QObject::tr("exponential mechanism");
    case mech::NoiseLaw::None: break;
  }
  return QObject::tr("none");
}

CalibrationView::CalibrationView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  headline_ = new QLabel;
  headline_->setWordWrap(true);
  layout->addWidget(headline_);
  grid_ = new QGridLayout;
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(16);
  grid_->setVerticalSpacing(2);
  layout->addLayout(grid_);
}

void CalibrationView::clearValues() {
  for (auto& [key, label] : labels_) delete label;
  labels_.clear();
}

void CalibrationView::setReport(const mech::MechanismReport& report) {
  clearValues();
  if (report.mechanism == "auto")  // private selection: each candidate draws its own noise
    headline_->setText(tr("Private selection among %1 candidates, each with its own noise (tooltip: the list)")
                           .arg(report.find(mech::Calibrated::Candidates).value_or(0)));
  else
    headline_->setText(report.noiseDimension > 0
                           ? tr("%1 noise, %n coordinate(s) per draw", nullptr, static_cast<int>(report.noiseDimension))
                                 .arg(noiseDisplayName(report.noise))
                           : tr("%1 noise").arg(noiseDisplayName(report.noise)));
  headline_->setToolTip(QString::fromStdString(report.statement));
  const std::vector<mech::DerivedValue> rows = report.rows();
  std::vector<const mech::DerivedValue*> ordered;
  for (const std::string& key : primaryKeys())
    for (const mech::DerivedValue& d : rows)
      if (d.key == key) ordered.push_back(&d);
  for (const mech::DerivedValue& d : rows)
    if (std::find(primaryKeys().begin(), primaryKeys().end(), d.key) == primaryKeys().end()) ordered.push_back(&d);

  for (const mech::DerivedValue* d : ordered) {
    auto* label = new QLabel(QStringLiteral("%1 = %2").arg(derivedSymbol(d->key), formatDerivedValue(d->value)));
    // The formula, and the exact value for whoever wants more than four digits.
    label->setToolTip(tr("%1\n%2 = %3").arg(QString::fromStdString(d->formula), QString::fromStdString(d->key))
                          .arg(d->value, 0, 'g', 10));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);  // a long value wraps in a narrow dock rather than widening it
    const int index = static_cast<int>(labels_.size());
    grid_->addWidget(label, index / kColumns, index % kColumns);
    label->show();  // a layout shows a new child of a visible widget only later, from the event loop
    labels_.emplace_back(d->key, label);
  }
}

void CalibrationView::showMessage(const QString& message) {
  clearValues();
  headline_->setText(message);
  headline_->setToolTip(QString());
}

QString CalibrationView::text() const {
  QStringList parts;
  for (const auto& [key, label] : labels_) parts << label->text();
  return parts.join(QStringLiteral(", "));
}

QLabel* CalibrationView::labelFor(const std::string& key) const {
  for (const auto& [k, label] : labels_)
    if (k == key) return label;
  return nullptr;
}

}  // namespace dpstudio::ui
