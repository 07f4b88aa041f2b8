#include "ui/plot/view_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsView>
#include <QPainter>
#include <QPixmap>
#include <QSaveFile>
#include <QSettings>
#include <QSvgGenerator>

namespace dpstudio::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("dpstudio::ui::ViewExport", text); }

}  // namespace

// Images are written whole or not at all (QSaveFile: a temporary file renamed over the
// target), so a failed or interrupted export never leaves a truncated file, nor spoils an
// earlier export of the same name.
bool writeViewPng(QGraphicsView* view, const QString& path, QString* error) {
  const QPixmap pixmap = view->grab();
  QSaveFile file(path);
  if (pixmap.isNull() || !file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
    if (error) *error = tr("Could not write the image to %1.").arg(path);
    return false;
  }
  return true;
}

bool writeViewSvg(QGraphicsView* view, const QString& path, const QString& title,
                  const QString& description, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
    return false;
  }
  QSvgGenerator generator;
  generator.setOutputDevice(&file);
  generator.setSize(view->size());
  generator.setViewBox(view->rect());
  generator.setTitle(title);
  generator.setDescription(description);
  {
    QPainter painter(&generator);
    painter.setRenderHint(QPainter::Antialiasing);
    // QGraphicsView::render() draws the background (drawBackground) too, so underlays
    // painted there are part of the file.
    view->render(&painter, QRectF(view->rect()), view->viewport()->rect());
  }
  if (file.error() != QFileDevice::NoError || !file.commit()) {
    if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

QString askImageExportPath(QWidget* parent, const QString& title, const QString& baseName,
                           const QString& directoryKey) {
  QSettings settings;
  const QString suggested =
      QDir(settings.value(directoryKey, QDir::homePath()).toString()).filePath(baseName + QStringLiteral(".png"));
  QString selectedFilter;
  QString path = QFileDialog::getSaveFileName(parent, title, suggested, tr("PNG image (*.png);;SVG image (*.svg)"),
                                              &selectedFilter);
  if (path.isEmpty()) return {};
  if (QFileInfo(path).suffix().isEmpty())
    path += selectedFilter.contains(QLatin1String("svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
  settings.setValue(directoryKey, QFileInfo(path).absolutePath());
  return path;
}

}  // namespace dpstudio::ui
