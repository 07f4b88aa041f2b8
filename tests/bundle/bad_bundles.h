#pragma once
// Makes bad bundles from a good one: its members edited (a manifest field changed, a member
// dropped, an array replaced), checksums recomputed or not, and zip entries whose declared
// sizes lie, written with QuaZip's raw mode around a deflate stream built by hand.

#include <QJsonDocument>
#include <QJsonObject>

#include <quazip.h>
#include <quazipfile.h>
#include <quazipnewinfo.h>
#include <zlib.h>

#include <functional>
#include <vector>

#include "core/bundle/bundle_archive.h"
#include "core/bundle/zip_io.h"
#include "tests/common/test_support.h"

namespace dpstudio::test {

using Members = std::vector<bundle::ZipMember>;

inline bundle::ZipMember* member(Members& members, const QString& name) {
  for (auto& m : members)
    if (m.name == name) return &m;
  return nullptr;
}

inline void editManifest(Members& members, const std::function<void(QJsonObject&)>& edit) {
  bundle::ZipMember* manifest = member(members, "manifest.json");
  QJsonObject json = QJsonDocument::fromJson(manifest->data).object();
  edit(json);
  manifest->data = QJsonDocument(json).toJson();
}

// Recomputes every checksum, as a forger (or a careless tool) would.
inline void resign(Members& members) {
  editManifest(members, [&](QJsonObject& m) {
    QJsonObject checksums;
    for (const auto& entry : members)
      if (entry.name != "manifest.json") checksums[entry.name] = bundle::sha256Hex(entry.data);
    m["checksums"] = checksums;
  });
}

// A raw deflate stream that inflates to `mebibytes` MiB of zeros, built without compressing
// them: one MiB of zeros deflated and fully flushed gives a block that, with the history
// reset, compresses every following MiB to the same bytes, so the stream is that block
// repeated, then an empty final block. A few kB per GiB.
inline QByteArray zeroBomb(int mebibytes) {
  z_stream s{};
  deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  QByteArray zeros(1 << 20, '\0');
  QByteArray buffer(1 << 16, '\0');
  auto run = [&](const QByteArray& in, int flush) {
    QByteArray out;
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.constData()));
    s.avail_in = static_cast<uInt>(in.size());
    do {
      s.next_out = reinterpret_cast<Bytef*>(buffer.data());
      s.avail_out = static_cast<uInt>(buffer.size());
      deflate(&s, flush);
      out.append(buffer.constData(), buffer.size() - static_cast<qsizetype>(s.avail_out));
    } while (s.avail_out == 0);
    return out;
  };
  const QByteArray first = run(zeros, Z_FULL_FLUSH);
  const QByteArray second = run(zeros, Z_FULL_FLUSH);
  const QByteArray tail = run(QByteArray(), Z_FINISH);
  deflateEnd(&s);
  if (first != second) qFatal("zeroBomb: the flushed blocks differ");
  QByteArray stream;
  stream.reserve(first.size() * mebibytes + tail.size());
  for (int i = 0; i < mebibytes; ++i) stream += first;
  return stream + tail;
}

// Writes `members` normally, then `raw` entries of already-deflated bytes whose headers say
// `declaredSize` and `crc`, true or not.
struct RawEntry {
  QString name;
  QByteArray deflated;
  quint32 crc = 0;
  quint32 declaredSize = 0;
};
inline void writeZip(const QString& path, const Members& members, const std::vector<RawEntry>& raw = {}) {
  QuaZip zip(path);
  if (!zip.open(QuaZip::mdCreate)) qFatal("writeZip: cannot create %s", qPrintable(path));
  for (const auto& m : members) {
    QuaZipFile out(&zip);
    if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(m.name))) qFatal("writeZip: cannot add %s", qPrintable(m.name));
    out.write(m.data);
    out.close();
  }
  for (const auto& r : raw) {
    QuaZipNewInfo info(r.name);
    info.uncompressedSize = r.declaredSize;
    QuaZipFile out(&zip);
    if (!out.open(QIODevice::WriteOnly, info, nullptr, r.crc, Z_DEFLATED, Z_BEST_COMPRESSION, true))
      qFatal("writeZip: cannot add raw %s", qPrintable(r.name));
    out.write(r.deflated);
    out.close();
  }
  zip.close();
}

}  // namespace dpstudio::test
