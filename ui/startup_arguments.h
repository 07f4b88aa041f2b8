#pragma once
// The GUI's command line (`dpstudio --help` lists it): its options on a QCommandLineParser,
// and the StartupOptions read from them. Out of app/gui/main.cpp so that the main stays a
// thin start-up, and so that --help and --version can be answered without a display.

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <optional>

#include "ui/startup_options.h"

namespace dpstudio::ui {

class StartupArguments {
 public:
  StartupArguments();  // every option on parser()

  QCommandLineParser& parser() { return parser_; }
  // After parser().process(): the options, or nullopt when a value is not one of its kind's
  // (then the caller shows the help and exits with status 2).
  std::optional<StartupOptions> read() const;

 private:
  QCommandLineParser parser_;
  QCommandLineOption dataset_, view_, train_, mechanism_, rffDim_, rffGamma_, rffSeed_;
};

// Whether the command line asks only for --help, --help-all or --version: answered by a
// QCoreApplication, which needs no display (a QApplication without one aborts).
bool asksForHelpOrVersion(int argc, char* argv[]);

}  // namespace dpstudio::ui
