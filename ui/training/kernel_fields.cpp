#include "ui/training/kernel_fields.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <limits>

#include "ui/widgets/number_field.h"

namespace dpstudio::ui {

KernelFields::KernelFields(QFormLayout* form, QObject* parent) : QObject(parent), form_(form) {
  enable_ = new QCheckBox(tr("RBF kernel (random Fourier features)"));
  enableHelp_ = tr("Map every row to D random Fourier features \u03c6(x) = cos(\u03c9\u1d40x + b)/\u221aD, "
                   "\u03c9 ~ N(0, 2\u03b3I), b ~ U[0, 2\u03c0): a linear model on \u03c6(x) approximates a "
                   "kernel machine with the RBF kernel exp(\u2212\u03b3\u2016x \u2212 x'\u2016\u00b2), so its "
                   "boundaries are curved in x. \u2016\u03c6(x)\u2016 \u2264 1 for every row, so every private "
                   "mechanism applies; its calibration counts d = D (D + 1 with an intercept).");
  enable_->setToolTip(enableHelp_);
  form_->addRow(tr("Kernel:"), enable_);

  dim_ = new QSpinBox;
  dim_->setRange(1, kMaxDim);
  dim_->setValue(kDefaultDim);
  dim_->setToolTip(tr("Number of random features D (default %1, up to %2 here). More features approximate the "
                      "kernel better, but a private model spreads its noise over more coordinates: the "
                      "calibration counts d = D.")
                       .arg(kDefaultDim)
                       .arg(kMaxDim));
  form_->addRow(tr("Features D:"), dim_);

  gamma_ = new NumberField;
  gamma_->setCheck([](double v) {
    RandomFeaturesSpec spec;
    spec.gamma = v;
    const Status status = spec.validate();
    return status ? QString() : QString::fromStdString(status.error().message);
  });
  gamma_->setValue(RandomFeaturesSpec{}.gamma);
  gamma_->setHelp(tr("\u03b3 > 0 of the kernel exp(\u2212\u03b3\u2016x \u2212 x'\u2016\u00b2): larger \u03b3, more "
                     "local (wigglier) boundaries. In the units of the rows the map reads: for rows with "
                     "\u2016x\u2016 \u2264 1, \u03b3 between 1 and 10 is a good start. Default 1."));
  form_->addRow(tr("Kernel \u03b3:"), gamma_);

  seed_ = new QSpinBox;
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setValue(static_cast<int>(RandomFeaturesSpec{}.seed));
  seed_->setToolTip(tr("Seed of the draws of \u03c9 and b: the same seed gives the same map (and the first k "
                       "features are the same for every D \u2265 k)."));
  form_->addRow(tr("Feature seed:"), seed_);

  note_ = new QLabel;
  note_->setWordWrap(true);
  note_->setForegroundRole(QPalette::PlaceholderText);
  form_->addRow(note_);

  connect(enable_, &QCheckBox::toggled, this, [this](bool on) {
    if (available_) wanted_ = on;  // a toggle by setAvailable() is not the user's choice
    updateRows();
    emit edited();
  });
  connect(dim_, &QSpinBox::valueChanged, this, &KernelFields::edited);
  connect(seed_, &QSpinBox::valueChanged, this, &KernelFields::edited);
  connect(gamma_, &NumberField::valueEdited, this, &KernelFields::edited);
  updateNote();
  updateRows();
}

bool KernelFields::isUsed() const { return available_ && enable_->isChecked(); }

std::optional<RandomFeaturesSpec> KernelFields::spec() const {
  if (!isUsed()) return std::nullopt;
  RandomFeaturesSpec spec;
  spec.dim = dim_->value();
  spec.gamma = gamma_->value().value_or(spec.gamma);
  spec.seed = static_cast<std::uint64_t>(seed_->value());
  return spec;
}

QString KernelFields::problem() const { return isUsed() ? gamma_->problem() : QString(); }

void KernelFields::choose(bool on) {
  wanted_ = on;
  if (available_) enable_->setChecked(on);  // toggled() does the rest
}

void KernelFields::setAvailable(bool available, const QString& why) {
  if (available == available_) return;
  available_ = available;
  // A model that cannot use the kernel turns it off for good: when another model makes it
  // available again it stays off until the user turns it on. Turning an option back on as a
  // side effect of another choice is a surprise (objective perturbation on digits chose
  // logistic regression, and an RBF kernel last used long before came back).
  if (!available) wanted_ = false;
  {
    const QSignalBlocker blocker(enable_);
    enable_->setChecked(available && wanted_);
  }
  enable_->setEnabled(available);
  enable_->setToolTip(available ? enableHelp_ : why);
  updateRows();
  emit edited();
}

void KernelFields::setRowsScaled(bool scaled) {
  rowsScaled_ = scaled;
  updateNote();
}

void KernelFields::updateRows() {
  const bool used = isUsed();
  for (QWidget* row : std::initializer_list<QWidget*>{dim_, gamma_, seed_, note_}) form_->setRowVisible(row, used);
  // A hidden field is not in use: it must not stay marked.
  gamma_->setEnabled(used);
}

void KernelFields::updateNote() {
  const QString free = tr("Drawn without looking at the data: no privacy cost, published with the model.");
  note_->setText(rowsScaled_ ? tr("%1 \u03b3 is in the units after the norm bound R / unit-row scaling "
                                  "(\u2016x\u2016 \u2264 1).")
                                   .arg(free)
                             : tr("%1 \u03b3 is in the data's own units (no norm bound R or unit rows).").arg(free));
}

void KernelFields::save(QSettings& settings, const QString& prefix) const {
  settings.setValue(prefix + QStringLiteral("rff/enabled"), wanted_);
  settings.setValue(prefix + QStringLiteral("rff/dim"), dim_->value());
  settings.setValue(prefix + QStringLiteral("rff/gamma"), gamma_->text());
  settings.setValue(prefix + QStringLiteral("rff/seed"), seed_->value());
}

void KernelFields::restore(QSettings& settings, const QString& prefix) {
  dim_->setValue(settings.value(prefix + QStringLiteral("rff/dim"), dim_->value()).toInt());
  seed_->setValue(settings.value(prefix + QStringLiteral("rff/seed"), seed_->value()).toInt());
  // Text as typed, so that a saved invalid value comes back marked rather than replaced.
  if (const QVariant gamma = settings.value(prefix + QStringLiteral("rff/gamma")); gamma.isValid())
    gamma_->setText(gamma.toString());
  choose(settings.value(prefix + QStringLiteral("rff/enabled"), wanted_).toBool());
}

}  // namespace dpstudio::ui
