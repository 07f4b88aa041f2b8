#include "ui/startup_options.h"

#include <QSpinBox>

#include "ui/dataset/dataset_controller.h"
#include "ui/main_window.h"
#include "ui/training/kernel_fields.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_field.h"

namespace dpstudio::ui {

QString firstScreenDataset() { return QStringLiteral("builtin:blobs"); }

QStringList applyStartupOptions(MainWindow& window, StartupOptions options) {
  QStringList problems;
  if (options.dataset.isEmpty()) options.dataset = MainWindow::lastDatasetSpec();
  if (options.dataset.isEmpty()) {
    // The first screen: a private model on the teaching set, unless the options say otherwise.
    options.dataset = firstScreenDataset();
    if (options.mechanism.isEmpty()) {
      options.mechanism = QStringLiteral("output");
      window.offerSelectionForOwnData();
    }
    if (!options.trainModel) options.trainModel = ModelKind::LogisticRegression;
  }
  ModelSettingsForm* form = window.modelPanel()->form();
  if (options.view) window.controller()->setPreferredViewKind(*options.view);
  if (!options.mechanism.isEmpty() && !form->mechanismForm()->setChoice(options.mechanism.toLower()))
    problems << QObject::tr("unknown mechanism '%1'").arg(options.mechanism);
  if (options.rffDim > 0) {
    KernelFields* kernel = form->kernelFields();
    if (options.rffDim > KernelFields::kMaxDim)
      problems << QObject::tr("--rff-dim must be 1 to %1").arg(KernelFields::kMaxDim);
    kernel->dimBox()->setValue(options.rffDim);
    if (!options.rffGamma.isEmpty()) kernel->gammaField()->setText(options.rffGamma);
    if (options.rffSeed) kernel->seedBox()->setValue(*options.rffSeed);
    kernel->choose(true);
  } else if (!options.rffGamma.isEmpty() || options.rffSeed) {
    problems << QObject::tr("--rff-gamma and --rff-seed need --rff-dim");
  }
  if (!problems.isEmpty()) return problems;
  if (options.trainModel) window.trainWhenOpened(*options.trainModel);
  window.openInitialDataset(options.dataset);
  return problems;
}

}  // namespace dpstudio::ui
