#include "ui/plot/view_export.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsView>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QSvgGenerator>

namespace dpstudio::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("dpstudio::ui::ViewExport", text); }

}  // namespace

bool writeViewPng(QGraphicsView* view, const QString& path, QString* error) {
  const QPixmap pixmap = view->grab();
  if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
    if (error) *error = tr("Could not write the image to %1.").arg(path);
    return false;
  }
  return true;
}

bool writeViewSvg(QGraphicsView* view, const QString& path, const QString& title,
                  const QString& description, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
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
  if (file.error() != QFileDevice::NoError) {
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
