#pragma once
// Writing what a QGraphicsView shows to a file: PNG at the widget's device pixel ratio (so
// a HiDPI screen gives a sharp file) or SVG (vector shapes; images the view draws, such as
// decision regions, are embedded). For every chart view that offers "Export".

#include <QString>

QT_BEGIN_NAMESPACE
class QGraphicsView;
QT_END_NAMESPACE

namespace dpstudio::ui {

// false with *error set (naming the path) on failure.
bool writeViewPng(QGraphicsView* view, const QString& path, QString* error = nullptr);
bool writeViewSvg(QGraphicsView* view, const QString& path, const QString& title,
                  const QString& description, QString* error = nullptr);

}  // namespace dpstudio::ui
