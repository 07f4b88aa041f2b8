// dpstudio — the GUI. Usage: dpstudio [--dataset SPEC] [--view features|random|pca]
//                                     [--mechanism none|output|objective|loss|dplmgc|dpsgd|
//                                                  prediction|subsample|multiparty]
//                                     [--train-model logreg|huber|softmax|lmgc]
//                                     [--rff-dim D [--rff-gamma G] [--rff-seed S]]
// SPEC is a data file or "builtin:NAME"; without it the last dataset (or builtin:iris) opens.
// --train-model trains that model (other settings as in the Model dock) once the dataset
// has opened, so that the decision view can be seen, and screenshotted, without clicking;
// --mechanism chooses the privacy mechanism in the dock first (its other parameters as saved);
// --rff-dim turns on the dock's RBF kernel (random Fourier features), as dpstudio-cli's options.

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QThreadPool>

#include "core/learn/learner.h"
#include "ui/dataset_controller.h"
#include "ui/kernel_fields.h"
#include "ui/main_window.h"
#include "ui/mechanism_form.h"
#include "ui/model_panel.h"
#include "ui/model_settings_form.h"
#include "ui/number_field.h"

#include <QSpinBox>

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("dpstudio"));
  QApplication::setOrganizationDomain(QStringLiteral("dpstudio.invalid"));
  QApplication::setApplicationName(QStringLiteral("dpstudio"));
  QApplication::setApplicationDisplayName(QStringLiteral("dpstudio"));
  QApplication::setApplicationVersion(QStringLiteral(DPSTUDIO_VERSION));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dpstudio.svg")));
  QGuiApplication::setDesktopFileName(QStringLiteral("org.dpstudio.Workbench"));  // installer/'s .desktop

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("A desktop workbench for differentially private classification."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption datasetOption(
      QStringLiteral("dataset"),
      QStringLiteral("Open SPEC at start: a data file or builtin:NAME (default: the last "
                     "dataset, else %1).")
          .arg(dpstudio::ui::MainWindow::defaultDatasetSpec()),
      QStringLiteral("SPEC"));
  parser.addOption(datasetOption);
  const QCommandLineOption viewOption(
      QStringLiteral("view"),
      QStringLiteral("The 2-D view to open in: features, random or pca (not private)."),
      QStringLiteral("KIND"));
  parser.addOption(viewOption);
  const QCommandLineOption trainOption(
      QStringLiteral("train-model"),
      QStringLiteral("Train MODEL (logreg, huber, softmax or lmgc) once the dataset has opened."),
      QStringLiteral("MODEL"));
  parser.addOption(trainOption);
  const QCommandLineOption mechanismOption(
      QStringLiteral("mechanism"),
      QStringLiteral("Choose the privacy mechanism: none, output, objective, loss, dplmgc, dpsgd, prediction, "
                     "subsample or multiparty."),
      QStringLiteral("MECHANISM"));
  parser.addOption(mechanismOption);
  const QCommandLineOption rffDimOption(
      QStringLiteral("rff-dim"),
      QStringLiteral("Use the RBF kernel: D random Fourier features (1 to %1; not with LMGC).")
          .arg(dpstudio::ui::KernelFields::kMaxDim),
      QStringLiteral("D"));
  const QCommandLineOption rffGammaOption(QStringLiteral("rff-gamma"),
                                          QStringLiteral("gamma of --rff-dim's kernel (default as saved, else 1)."),
                                          QStringLiteral("G"));
  const QCommandLineOption rffSeedOption(QStringLiteral("rff-seed"),
                                         QStringLiteral("Seed of --rff-dim's draws (default as saved, else 1)."),
                                         QStringLiteral("S"));
  parser.addOptions({rffDimOption, rffGammaOption, rffSeedOption});
  parser.process(app);

  QString spec = parser.value(datasetOption);
  if (spec.isEmpty()) spec = dpstudio::ui::MainWindow::lastDatasetSpec();
  if (spec.isEmpty()) spec = dpstudio::ui::MainWindow::defaultDatasetSpec();

  dpstudio::ui::MainWindow window;
  if (parser.isSet(viewOption)) {
    const QString kind = parser.value(viewOption).toLower();
    if (kind == QLatin1String("features"))
      window.controller()->setPreferredViewKind(dpstudio::ViewKind::Features);
    else if (kind == QLatin1String("random"))
      window.controller()->setPreferredViewKind(dpstudio::ViewKind::RandomProjection);
    else if (kind == QLatin1String("pca"))
      window.controller()->setPreferredViewKind(dpstudio::ViewKind::Pca);
    else
      parser.showHelp(2);
  }
  if (parser.isSet(mechanismOption)) {
    if (!window.modelPanel()->form()->mechanismForm()->setChoice(parser.value(mechanismOption).toLower()))
      parser.showHelp(2);
  }
  if (parser.isSet(rffDimOption)) {
    dpstudio::ui::KernelFields* kernel = window.modelPanel()->form()->kernelFields();
    bool ok = false;
    const int dim = parser.value(rffDimOption).toInt(&ok);
    if (!ok || dim < 1 || dim > dpstudio::ui::KernelFields::kMaxDim) parser.showHelp(2);
    kernel->dimBox()->setValue(dim);
    // As typed: a bad gamma is marked in the dock with core's reason, like a bad saved value.
    if (parser.isSet(rffGammaOption)) kernel->gammaField()->setText(parser.value(rffGammaOption));
    if (parser.isSet(rffSeedOption)) {
      const int seed = parser.value(rffSeedOption).toInt(&ok);
      if (!ok || seed < 0) parser.showHelp(2);
      kernel->seedBox()->setValue(seed);
    }
    kernel->choose(true);
  } else if (parser.isSet(rffGammaOption) || parser.isSet(rffSeedOption)) {
    parser.showHelp(2);
  }
  if (parser.isSet(trainOption)) {
    const auto kind = dpstudio::parseModelKind(parser.value(trainOption).toLower().toStdString());
    if (!kind) parser.showHelp(2);
    window.trainWhenOpened(*kind);
  }
  window.show();
  window.openInitialDataset(spec);
  const int status = app.exec();
  // Jobs still running were cancelled when the window closed; let them wind down.
  QThreadPool::globalInstance()->waitForDone();
  return status;
}
