#include "ui/startup_arguments.h"

#include <cstring>

#include "core/experiment/mechanism_catalog.h"
#include "core/learn/learner.h"
#include "ui/training/kernel_fields.h"

namespace dpstudio::ui {

StartupArguments::StartupArguments()
    : dataset_(QStringLiteral("dataset"),
               QStringLiteral("Open SPEC at start: a data file or builtin:NAME (default: the last dataset; the "
                              "first time, a private model on %1).")
                   .arg(firstScreenDataset()),
               QStringLiteral("SPEC")),
      view_(QStringLiteral("view"), QStringLiteral("The 2-D view to open in: features, random or pca (not private)."),
            QStringLiteral("KIND")),
      train_(QStringLiteral("train-model"),
             QStringLiteral("Train MODEL (logreg, huber, softmax or lmgc) once the dataset has opened."),
             QStringLiteral("MODEL")),
      mechanism_(QStringLiteral("mechanism"),
                 QString::fromStdString("Choose the privacy mechanism: " + experiment::mechanismKeyList() + "."),
                 QStringLiteral("MECHANISM")),
      rffDim_(QStringLiteral("rff-dim"),
              QStringLiteral("Use the RBF kernel: D random Fourier features (1 to %1; not with LMGC).")
                  .arg(KernelFields::kMaxDim),
              QStringLiteral("D")),
      rffGamma_(QStringLiteral("rff-gamma"), QStringLiteral("gamma of --rff-dim's kernel (default as saved, else 1)."),
                QStringLiteral("G")),
      rffSeed_(QStringLiteral("rff-seed"), QStringLiteral("Seed of --rff-dim's draws (default as saved, else 1)."),
               QStringLiteral("S")) {
  parser_.setApplicationDescription(QStringLiteral("A desktop workbench for differentially private classification."));
  parser_.addHelpOption();
  parser_.addVersionOption();
  parser_.addOptions({dataset_, view_, train_, mechanism_, rffDim_, rffGamma_, rffSeed_});
  parser_.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A data file to open, as --dataset FILE."),
                                QStringLiteral("[FILE]"));
}

std::optional<StartupOptions> StartupArguments::read() const {
  StartupOptions options;
  options.dataset = parser_.value(dataset_);
  const QStringList files = parser_.positionalArguments();
  if (files.size() > 1 || (files.size() == 1 && parser_.isSet(dataset_))) return std::nullopt;
  if (files.size() == 1) options.dataset = files.front();
  if (parser_.isSet(view_)) {
    options.view = parseViewKind(parser_.value(view_).toLower().toStdString());
    if (!options.view) return std::nullopt;
  }
  options.mechanism = parser_.value(mechanism_);
  if (parser_.isSet(rffDim_)) {
    bool ok = false;
    options.rffDim = parser_.value(rffDim_).toInt(&ok);
    if (!ok || options.rffDim < 1) return std::nullopt;
  }
  options.rffGamma = parser_.value(rffGamma_);
  if (parser_.isSet(rffSeed_)) {
    bool ok = false;
    options.rffSeed = parser_.value(rffSeed_).toInt(&ok);
    if (!ok || *options.rffSeed < 0) return std::nullopt;
  }
  if (parser_.isSet(train_)) {
    options.trainModel = parseModelKind(parser_.value(train_).toLower().toStdString());
    if (!options.trainModel) return std::nullopt;
  }
  return options;
}

bool asksForHelpOrVersion(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    for (const char* flag : {"-h", "-?", "--help", "--help-all", "-v", "--version"})
      if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}

}  // namespace dpstudio::ui
