#pragma once
// What the GUI is asked to do when it starts (app/gui/main.cpp's options), as plain values,
// and the one place that applies them to a MainWindow.
//
// The first screen teaches: with no dataset named and none from last time, the window opens
// on a 2-D teaching set (three Gaussian blobs, a public norm bound from the generator) and
// trains a private model there at once — output perturbation of logistic regression at
// ε = 1 — so the first picture is a private decision boundary over the dashed non-private
// one, with Redraw noise (Ctrl+R) one key away.

#include <QString>
#include <QStringList>

#include <optional>

#include "core/learn/model_view.h"
#include "core/models/model.h"

namespace dpstudio::ui {

class MainWindow;

struct StartupOptions {
  QString dataset;                   // a file or builtin:NAME; empty: last time's, else the first screen
  std::optional<ViewKind> view;      // the 2-D view to open in
  QString mechanism;                 // "none", "output", …; empty: as saved
  std::optional<ModelKind> trainModel;  // train this model once the dataset has opened
  int rffDim = 0;                    // > 0: the RBF kernel with D random Fourier features
  QString rffGamma;                  // as typed (a bad value is marked in the dock); empty: as saved
  std::optional<int> rffSeed;
};

// The teaching set of the first screen, and its model and mechanism.
QString firstScreenDataset();

// Applies `options` and opens the dataset. Problems with the options (an unknown mechanism,
// D out of range) are returned one per line, and nothing is opened.
QStringList applyStartupOptions(MainWindow& window, StartupOptions options);

}  // namespace dpstudio::ui
