#pragma once
// Colours for classes, shared by every view so that class k looks the same in the scatter,
// the class-balance bars and later charts.
// The first eight colours are Okabe & Ito's palette for colour-vision deficiencies, with
// black moved last and yellow darkened for contrast on white; two more follow from Paul Tol's
// "muted" scheme so that digits (10 classes) get ten distinct hues.

#include <QColor>

namespace dpstudio::ui {

QColor classColor(int classIndex);
int classPaletteSize();

}  // namespace dpstudio::ui
