#include "core/bundle/zip_io.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QSet>

#include <quazip.h>
#include <quazipfile.h>
#include <quazipfileinfo.h>
#include <quazipnewinfo.h>
#include <zlib.h>

namespace dpstudio::bundle {
namespace {

constexpr int kMethodStored = 0;
constexpr int kMethodDeflate = Z_DEFLATED;
constexpr qint64 kInflateChunk = 64 * 1024;

Error bad(const std::string& message, const QString& member = {}) {
  return Error{ErrorKind::BadBundle, message, {}, 0, member.toStdString()};
}

Error internal(const std::string& message, const QString& path) {
  return Error{ErrorKind::Internal, message, path.toStdString(), 0, {}};
}

Error badFile(const std::string& message, const QString& path) {
  return Error{ErrorKind::BadBundle, message, path.toStdString(), 0, {}};
}

Result<QByteArray> buildArchive(const std::vector<ZipMember>& members) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  QuaZip zip(&buffer);
  if (!zip.open(QuaZip::mdCreate)) return internal("cannot start a zip archive in memory", {});
  zip.setUtf8Enabled(true);
  for (const ZipMember& member : members) {
    QuaZipNewInfo info(member.name);
    // A fixed time: the same contents give the same bytes (no wall clock in a bundle).
    info.dateTime = QDateTime(QDate(1980, 1, 1), QTime(0, 0));
    info.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    QuaZipFile out(&zip);
    if (!out.open(QIODevice::WriteOnly, info, nullptr, 0, kMethodDeflate, Z_BEST_COMPRESSION) ||
        out.write(member.data) != member.data.size())
      return internal("cannot add " + member.name.toStdString() + " to the zip archive", {});
    out.close();
    if (out.getZipError() != ZIP_OK)
      return internal("cannot add " + member.name.toStdString() + " to the zip archive", {});
  }
  zip.close();
  if (zip.getZipError() != ZIP_OK) return internal("cannot finish the zip archive", {});
  return bytes;
}

// Inflates (or copies, when stored) one member's raw bytes, refusing output beyond `cap`.
Result<QByteArray> inflateCapped(const QByteArray& raw, int method, qint64 declared, qint64 cap,
                                 const QString& name) {
  if (method == kMethodStored) {
    if (raw.size() != declared) return bad("stored data size differs from the declared size", name);
    return raw;
  }
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) return bad("cannot start inflating", name);
  QByteArray out;
  out.reserve(static_cast<qsizetype>(std::min(declared, cap)));
  QByteArray chunk(static_cast<qsizetype>(kInflateChunk), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
  stream.avail_in = static_cast<uInt>(raw.size());
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
    stream.avail_out = static_cast<uInt>(chunk.size());
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      inflateEnd(&stream);
      return bad("the compressed data are corrupt or truncated", name);
    }
    const qint64 produced = chunk.size() - static_cast<qint64>(stream.avail_out);
    if (out.size() + produced > cap) {
      inflateEnd(&stream);
      return bad("inflates to more than its declared size of " + std::to_string(declared) +
                     " bytes (a zip bomb?); refused after " + std::to_string(out.size() + produced) + " bytes",
                 name);
    }
    out.append(chunk.constData(), static_cast<qsizetype>(produced));
    if (status == Z_OK && produced == 0 && stream.avail_in == 0) {
      inflateEnd(&stream);
      return bad("the compressed data end before the stream does (truncated)", name);
    }
  }
  inflateEnd(&stream);
  if (out.size() != declared)
    return bad("inflates to " + std::to_string(out.size()) + " bytes, not the declared " + std::to_string(declared),
               name);
  return out;
}

}  // namespace

std::optional<std::string> unsafeMemberName(const QString& name) {
  if (name.isEmpty()) return "an empty member name";
  if (name.startsWith('/')) return "an absolute member path";
  if (name.contains('\\')) return "a backslash in a member path";
  if (name.size() >= 2 && name[1] == ':') return "a drive letter in a member path";
  if (name.endsWith('/')) return "a directory member";
  for (const QString& part : name.split('/'))
    if (part == "..") return "a '..' component in a member path";
  return std::nullopt;
}

Status writeZipAtomically(const std::vector<ZipMember>& members, const QString& path,
                          const BeforeCommit& beforeCommit) {
  auto archive = buildArchive(members);
  if (!archive) return archive.error();
  return writeFileAtomically(archive.value(), path, "the bundle", beforeCommit);
}

Result<std::vector<ZipMember>> readZip(const QString& path, const ZipLimits& limits) {
  if (!QFile::exists(path)) return badFile("no such file", path);
  QuaZip zip(path);
  if (!zip.open(QuaZip::mdUnzip))
    return badFile("not a zip archive, or a truncated one (no readable central directory)", path);
  const QList<QuaZipFileInfo64> infos = zip.getFileInfoList64();
  if (zip.getZipError() != UNZ_OK)
    return badFile("not a zip archive, or a truncated one (its directory cannot be read)", path);
  if (infos.size() > limits.maxMembers)
    return badFile("holds " + std::to_string(infos.size()) + " members, more than the " +
                       std::to_string(limits.maxMembers) + " a bundle may have",
                   path);
  const qint64 fileSize = QFile(path).size();
  QSet<QString> seen;
  qint64 declaredTotal = 0;
  for (const QuaZipFileInfo64& info : infos) {
    if (auto reason = unsafeMemberName(info.name)) return bad("refused: " + *reason, info.name);
    if (seen.contains(info.name)) return bad("appears twice in the archive", info.name);
    seen.insert(info.name);
    if (info.isEncrypted()) return bad("is encrypted", info.name);
    if (info.method != kMethodStored && info.method != kMethodDeflate)
      return bad("uses compression method " + std::to_string(info.method) + " (only stored and deflate)",
                 info.name);
    const auto declared = static_cast<qint64>(info.uncompressedSize);
    if (declared < 0 || declared > limits.maxMemberBytes)
      return bad("declares an uncompressed size of " + std::to_string(info.uncompressedSize) +
                     " bytes, beyond the limit of " + std::to_string(limits.maxMemberBytes),
                 info.name);
    if (static_cast<qint64>(info.compressedSize) > fileSize)
      return bad("declares more compressed bytes than the file holds (truncated?)", info.name);
    declaredTotal += declared;
    if (declaredTotal > limits.maxTotalBytes)
      return bad("brings the declared uncompressed total beyond the limit of " +
                     std::to_string(limits.maxTotalBytes) + " bytes",
                 info.name);
  }

  std::vector<ZipMember> members;
  members.reserve(static_cast<std::size_t>(infos.size()));
  for (const QuaZipFileInfo64& info : infos) {
    if (!zip.setCurrentFile(info.name)) return bad("cannot be located in the archive", info.name);
    QuaZipFile file(&zip);
    int method = 0, level = 0;
    // Raw: the compressed bytes as stored; inflated below under our own cap.
    if (!file.open(QIODevice::ReadOnly, &method, &level, true))
      return bad("cannot be opened (corrupt local header?)", info.name);
    const QByteArray raw = file.read(static_cast<qint64>(info.compressedSize));
    file.close();
    if (raw.size() != static_cast<qsizetype>(info.compressedSize))
      return bad("is cut short: the archive is truncated", info.name);
    const auto declared = static_cast<qint64>(info.uncompressedSize);
    auto data = inflateCapped(raw, method, declared, std::min(declared, limits.maxMemberBytes), info.name);
    if (!data) return data.error();
    const uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.value().constData()),
                            static_cast<uInt>(data.value().size()));
    if (crc != info.crc) return bad("fails its CRC-32 check (corrupt data)", info.name);
    members.push_back(ZipMember{info.name, std::move(data).value()});
  }
  return members;
}

}  // namespace dpstudio::bundle
