#include "app/cli/sweep_presets.h"

#include <QDir>
#include <QFileInfo>

#include <map>

namespace dpstudio::cli {
namespace {

// MNIST as paper 003 §4 uses it: 60 000 training and 10 000 test images, each row scaled to
// unit norm (a per-example transform: no privacy cost), softmax regression, δ = 0, B = 100,
// T = 256 teachers. λ: the paper cross-validates it per method without accounting for it;
// 1e-3 is one fixed, public choice at which every mechanism's curve has the paper's shape.
QStringList mnist(const QString& dir) {
  return {"--train", dir + "/train-images-idx3-ubyte.gz", "--labels", dir + "/train-labels-idx1-ubyte.gz",
          "--test", dir + "/t10k-images-idx3-ubyte.gz", "--test-labels", dir + "/t10k-labels-idx1-ubyte.gz",
          "--unit-rows", "--model", "softmax", "--lambda", "1e-3", "--delta", "0", "--budget", "100",
          "--teachers", "256", "--repeats", "100", "--title", "MNIST"};
}

// UCI Adult as a9a (paper 004 §5): one-hot rows with at most 14 ones, so ‖x‖ ≤ √14 is a
// public bound; logistic regression with λ = 1e-3 in (1/n)Σℓ + λ‖w‖² (paper 004's λ = 1 is
// for unnormalized rows: on rows in the unit ball it gives the constant classifier).
QStringList a9a(const QString& dir) {
  return {"--train", dir + "/a9a", "--test", dir + "/a9a.t", "--norm-bound", "3.7416573867739413",
          "--model", "logreg", "--lambda", "1e-3", "--repeats", "100", "--title", "UCI Adult (a9a)"};
}

struct Preset {
  QStringList (*data)(const QString&);
  QStringList sweep;
};

const std::map<QString, Preset>& presets() {
  static const std::map<QString, Preset> table = {
      {"paper003-fig1a",
       {mnist, {"--mechanisms", "output,loss,prediction,subsample", "--axis", "epsilon", "--values",
                "0.1,0.3,1,3,10"}}},
      {"paper003-fig4",
       {mnist, {"--mechanisms", "output,loss,prediction,subsample", "--axis", "n", "--values",
                "1000,3000,10000,30000,60000", "--epsilon", "1"}}},
      {"paper003-fig5a",
       {mnist, {"--mechanisms", "output,loss,prediction,subsample", "--axis", "dims", "--values",
                "10,20,50,100,200,400", "--epsilon", "1"}}},
      {"paper003-fig5b",
       {mnist, {"--mechanisms", "output,loss,prediction,subsample", "--axis", "classes", "--values",
                "2,3,4,5,6,7,8,9,10", "--epsilon", "1"}}},
      {"paper003-fig6a",
       {mnist, {"--mechanisms", "loss", "--axis", "lambda", "--values", "1e-5,1e-4,1e-3,1e-2,1e-1,5e-1",
                "--epsilon", "1"}}},
      {"paper003-fig6b",
       {mnist, {"--mechanisms", "subsample", "--axis", "teachers", "--values", "16,32,64,128,256,512,1024",
                "--epsilon", "1"}}},
      // Paper 004 Figure 2: the three party splits (even and the paper's two uneven ones), each
      // corrected and as published, beside the all-data baselines: non-private w* (added by
      // the sweep) and the same mechanism with one party holding every row (all data, DP).
      {"paper004-fig2",
       {a9a, {"--mechanisms",
              "multiparty:parties=5,multiparty:parties=5:published,"
              "multiparty:split=0.15/0.2/0.2/0.2/0.25,multiparty:split=0.15/0.2/0.2/0.2/0.25:published,"
              "multiparty:split=0.1/0.2/0.2/0.2/0.3,multiparty:split=0.1/0.2/0.2/0.2/0.3:published,"
              "multiparty:parties=1",
              "--axis", "epsilon", "--values", "0.1,0.3,1,3,10,30"}}},
  };
  return table;
}

// The value of --name (as "--name V" or "--name=V") in args, or empty.
QString optionValue(const QStringList& args, const QString& name) {
  const QString flag = "--" + name;
  QString value;
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == flag && i + 1 < args.size()) value = args[i + 1];
    else if (args[i].startsWith(flag + "=")) value = args[i].mid(flag.size() + 1);
  }
  return value;
}

}  // namespace

QStringList presetNames() {
  QStringList names;
  for (const auto& [name, preset] : presets()) names << name;
  return names;
}

Result<QStringList> withPresetArguments(const QStringList& args) {
  const QString name = optionValue(args, "preset");
  if (name.isEmpty()) return args;
  const auto it = presets().find(name);
  if (it == presets().end())
    return Error{ErrorKind::Usage,
                 "unknown preset '" + name.toStdString() + "' (" + presetNames().join(", ").toStdString() + ")", {}, 0,
                 "preset"};
  QString dir = optionValue(args, "data-dir");
  if (dir.isEmpty()) dir = qEnvironmentVariable("DPSTUDIO_DATA_DIR");
  if (dir.isEmpty())
    return Error{ErrorKind::Usage, "the preset's data: give --data-dir DIR (or set DPSTUDIO_DATA_DIR)", {}, 0,
                 "data-dir"};
  if (!QFileInfo(dir).isDir())
    return Error{ErrorKind::Usage, "no such directory: " + dir.toStdString(), {}, 0, "data-dir"};
  dir = QDir(dir).absolutePath();
  QStringList out{args.front()};
  out << it->second.data(dir) << it->second.sweep << args.mid(1);
  return out;
}

}  // namespace dpstudio::cli
