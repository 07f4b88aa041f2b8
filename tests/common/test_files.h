#pragma once
// Small input files the tests write into a temporary folder.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace dpstudio::test {

// Writes `bytes` to `name` in `dir` and returns the path; a test that cannot write its own
// input stops there.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(path));
  return path;
}

// Writes `bytes` to `path`; a test that cannot write its own input stops there.
inline void writeFile(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(path));
}

// The first `rows` rows of a three-class iris-like CSV (header a,b,c,d,label; the three
// species in turn): queries for a bundle trained on iris.
inline QString irisHead(const QTemporaryDir& dir, int rows) {
  QByteArray text = "a,b,c,d,label\n";
  const char* samples[] = {"5.1,3.5,1.4,0.2,setosa", "7.0,3.2,4.7,1.4,versicolor", "6.3,3.3,6.0,2.5,virginica"};
  for (int i = 0; i < rows; ++i) text += QByteArray(samples[i % 3]) + "\n";
  return writeFile(dir, QString("iris%1.csv").arg(rows), text);
}

}  // namespace dpstudio::test
