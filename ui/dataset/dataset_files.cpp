#include "ui/dataset/dataset_files.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace dpstudio::ui {

QString dataFileDialogFilters() {
  const auto tr = [](const char* text) { return QCoreApplication::translate("dpstudio", text); };
  return QStringList{
             tr("Data files (*.csv *.tsv *.txt *.data *.libsvm *.svm *.svmlight *.idx* "
                "*-ubyte *.gz)"),
             tr("CSV (*.csv *.tsv *.txt *.data *.csv.gz *.tsv.gz *.txt.gz)"),
             tr("LIBSVM / SVMlight (*.libsvm *.svm *.svmlight *.txt *.libsvm.gz *.svm.gz)"),
             tr("IDX / MNIST images (*-ubyte *.idx* *-ubyte.gz)"),
             tr("gzip-compressed (*.gz)"),
             tr("All files (*)")}
      .join(QStringLiteral(";;"));
}

bool looksLikeIdxImages(const QString& path) {
  const QString name = QFileInfo(path).fileName().toLower();
  const bool idx = name.contains(QLatin1String("idx3")) || name.contains(QLatin1String("-ubyte")) ||
                   name.endsWith(QLatin1String(".idx")) || name.endsWith(QLatin1String(".idx.gz"));
  return idx && !name.contains(QLatin1String("labels")) && !name.contains(QLatin1String("idx1"));
}

QString guessIdxLabelsPath(const QString& imagesPath) {
  const QFileInfo info(imagesPath);
  QString name = info.fileName();
  name.replace(QLatin1String("images"), QLatin1String("labels"));
  name.replace(QLatin1String("idx3"), QLatin1String("idx1"));
  if (name == info.fileName()) return {};
  const QDir dir = info.absoluteDir();
  // The labels may be compressed when the images are not, or the other way round.
  QStringList candidates{name};
  if (name.endsWith(QLatin1String(".gz")))
    candidates << name.chopped(3);
  else
    candidates << name + QLatin1String(".gz");
  for (const QString& candidate : candidates)
    if (dir.exists(candidate)) return dir.filePath(candidate);
  return {};
}

}  // namespace dpstudio::ui
