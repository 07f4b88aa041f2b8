// render_icons — a build-time tool: renders the application's SVG icon to the PNG sizes of
// the hicolor icon theme, with Qt's own SVG renderer (the one the GUI draws its window icon
// with), so the package needs no other converter and the PNGs always match the SVG.
//
// Usage: render_icons ICON.svg OUT_DIR NAME SIZE...
// Writes OUT_DIR/SIZExSIZE/apps/NAME.png for every SIZE. Exit 1 on an unreadable SVG or an
// unwritable PNG, naming the file.

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QStringList>
#include <QSvgRenderer>

#include <cstdio>

namespace {

bool renderPng(QSvgRenderer& svg, int size, const QString& path) {
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  svg.render(&painter);
  painter.end();
  return QDir().mkpath(QFileInfo(path).absolutePath()) && image.save(path, "PNG");
}

}  // namespace

int main(int argc, char* argv[]) {
  // No QGuiApplication: painting into a QImage needs none (the icon has no text, which
  // would need fonts), so the tool runs on a build machine with no display.
  QStringList args;
  for (int i = 0; i < argc; ++i) args.append(QString::fromLocal8Bit(argv[i]));
  if (args.size() < 5) {
    std::fprintf(stderr, "usage: render_icons ICON.svg OUT_DIR NAME SIZE...\n");
    return 2;
  }
  QSvgRenderer svg(args[1]);
  if (!svg.isValid()) {
    std::fprintf(stderr, "render_icons: %s: not a readable SVG\n", qPrintable(args[1]));
    return 1;
  }
  for (qsizetype i = 4; i < args.size(); ++i) {
    bool ok = false;
    const int size = args[i].toInt(&ok);
    if (!ok || size < 1) {
      std::fprintf(stderr, "render_icons: size '%s' is not a positive integer\n", qPrintable(args[i]));
      return 2;
    }
    const QString path = QStringLiteral("%1/%2x%2/apps/%3.png").arg(args[2]).arg(size).arg(args[3]);
    if (!renderPng(svg, size, path)) {
      std::fprintf(stderr, "render_icons: %s: cannot write\n", qPrintable(path));
      return 1;
    }
  }
  return 0;
}
