#pragma once
// The application object dpstudio-cli runs under. The CLI is headless and normally needs no
// more than a QCoreApplication, but drawing a plot (Qt Charts, ui/plot/utility_chart.h) needs a
// QApplication, and a QApplication needs a platform: on a server without a display that is
// Qt's "offscreen" platform, whose fonts come from fontconfig like a desktop's, so text in
// the exported PNG and SVG files looks the same as on screen.

#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QCoreApplication;
QT_END_NAMESPACE

namespace dpstudio::ui {

// True when `args` — the command line as main() receives it: program, subcommand, options —
// is a run of `sweep` or `sweep-merge` with a --plot option ("--plot FILE" or "--plot=FILE").
bool needsGuiForPlot(const QStringList& args);

// The application for dpstudio-cli's main(): a QApplication when needsGuiForPlot() (with
// QT_QPA_PLATFORM set to "offscreen" first when the variable is unset or empty, so that no
// display is needed; a value the user set is kept), a QCoreApplication otherwise.
// `argc` and `argv` must outlive the application, as for any Qt application object.
std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv);

}  // namespace dpstudio::ui
