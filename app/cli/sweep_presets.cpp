#include "app/cli/sweep_presets.h"

#include <algorithm>

#include <QDir>
#include <QFileInfo>

#include "core/experiment/paper_presets.h"

namespace dpstudio::cli {
namespace {

using experiment::PaperPreset;
using experiment::PresetDataSettings;

// A number as an option value: the shortest text that reads back as the same double.
QString number(double value) { return QString::number(value, 'g', QLocale::FloatingPointShortest); }

QString numbers(const std::vector<double>& values) {
  QStringList out;
  for (double v : values) out << number(v);
  return out.join(',');
}

// The preset's data and shared settings as options (core's table, experiment/paper_presets.h).
QStringList dataArguments(const PresetDataSettings& s, const PaperPreset& preset, const QString& dir) {
  const auto file = [&dir](const std::string& name) { return dir + "/" + QString::fromStdString(name); };
  QStringList args{"--train", file(s.trainFile)};
  if (!s.trainLabelsFile.empty()) args << "--labels" << file(s.trainLabelsFile);
  args << "--test" << file(s.testFile);
  if (!s.testLabelsFile.empty()) args << "--test-labels" << file(s.testLabelsFile);
  if (s.unitRows) args << "--unit-rows";
  if (s.normBound) args << "--norm-bound" << number(*s.normBound);
  args << "--model" << QString::fromStdString(modelKindName(s.model)) << "--lambda" << number(s.lambda);
  if (const auto delta = preset.delta ? preset.delta : s.delta) args << "--delta" << number(*delta);
  if (s.budget) args << "--budget" << QString::number(*s.budget);
  if (s.teachers) args << "--teachers" << QString::number(*s.teachers);
  args << "--repeats" << QString::number(s.repeats) << "--title" << QString::fromStdString(s.title);
  return args;
}

QStringList sweepArguments(const PaperPreset& preset) {
  QStringList mechanisms;
  for (const std::string& item : preset.mechanisms) mechanisms << QString::fromStdString(item);
  QStringList args{"--mechanisms", mechanisms.join(','), "--axis", QString::fromStdString(axisName(preset.axis)),
                   "--values", numbers(preset.values)};
  if (preset.epsilon) args << "--epsilon" << number(*preset.epsilon);
  // The figures' DP-SGD runs keep the fixed batch and epochs (core's preset, measured so),
  // not the schedule from the problem the CLI otherwise takes.
  if (std::find(preset.mechanisms.begin(), preset.mechanisms.end(), "dpsgd") != preset.mechanisms.end()) {
    const mech::DpSgdSettings fixed;
    args << "--batch-size" << QString::number(fixed.batchSize) << "--epochs" << number(fixed.epochs);
  }
  return args;
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
  for (const PaperPreset& preset : experiment::paperPresets()) names << QString::fromStdString(preset.name);
  return names;
}

Result<QStringList> withPresetArguments(const QStringList& args) {
  const QString name = optionValue(args, "preset");
  if (name.isEmpty()) return args;
  const PaperPreset* preset = experiment::findPaperPreset(name.toStdString());
  if (!preset)
    return Error{ErrorKind::Usage,
                 "unknown preset '" + name.toStdString() + "' (" + presetNames().join(", ").toStdString() + "). " +
                     experiment::figuresWithoutPreset(),
                 {}, 0, "preset"};
  QString dir = optionValue(args, "data-dir");
  if (dir.isEmpty()) dir = qEnvironmentVariable("DPSTUDIO_DATA_DIR");
  if (dir.isEmpty())
    return Error{ErrorKind::Usage, "the preset's data: give --data-dir DIR (or set DPSTUDIO_DATA_DIR)", {}, 0,
                 "data-dir"};
  if (!QFileInfo(dir).isDir())
    return Error{ErrorKind::Usage, "no such directory: " + dir.toStdString(), {}, 0, "data-dir"};
  dir = QDir(dir).absolutePath();
  QStringList out{args.front()};
  out << dataArguments(experiment::presetDataSettings(preset->data), *preset, dir) << sweepArguments(*preset)
      << args.mid(1);
  return out;
}

}  // namespace dpstudio::cli
