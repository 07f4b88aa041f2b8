#pragma once
// Writing what a QGraphicsView shows to a file: PNG at the widget's device pixel ratio (so
// a HiDPI screen gives a sharp file) or SVG (vector shapes; images the view draws, such as
// decision regions, are embedded). For every chart view that offers "Export".

#include <QString>

QT_BEGIN_NAMESPACE
class QGraphicsView;
class QWidget;
QT_END_NAMESPACE

namespace dpstudio::ui {

// false with *error set (naming the path) on failure.
bool writeViewPng(QGraphicsView* view, const QString& path, QString* error = nullptr);
bool writeViewSvg(QGraphicsView* view, const QString& path, const QString& title,
                  const QString& description, QString* error = nullptr);

// The Export dialog of every view: asks for a PNG or SVG path, starting in the folder last
// used (QSettings `directoryKey`) with `baseName`.png suggested; adds the extension of the
// chosen filter when the name has none and remembers the folder. Empty when cancelled.
QString askImageExportPath(QWidget* parent, const QString& title, const QString& baseName,
                           const QString& directoryKey);

}  // namespace dpstudio::ui
