#pragma once
// The zip layer of a bundle (QuaZip): writing a whole archive atomically, and reading one
// that may come from anyone without trusting it.
//
// Writing: the archive is built in memory (bundles are parameters, megabytes at most) and
// written atomically (core/util/atomic_file.h): a failure, or the process dying, before the
// commit leaves no file at the target and an existing one untouched.
//
// Reading refuses, before inflating anything: a file that is not a zip or is truncated, more
// than ZipLimits::maxMembers members, encrypted members, methods other than stored and
// deflate, member names that are absolute, contain "..", a backslash or a drive letter, or
// are directories, duplicate names, and a declared uncompressed size beyond the limits. Then
// each member is inflated by zlib (not by minizip, which trusts the declared size) with the
// output capped at its declared size: a stream that inflates to more than it declared (a zip
// bomb with lying headers) is refused as soon as it passes the cap, never held in memory. The
// CRC-32 is checked too. Every error is ErrorKind::BadBundle with the member as `field`.

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>
#include <vector>

#include "core/util/atomic_file.h"
#include "core/util/result.h"

namespace dpstudio::bundle {

struct ZipMember {
  QString name;
  QByteArray data;
  bool operator==(const ZipMember&) const = default;
};

struct ZipLimits {
  qint64 maxMemberBytes = qint64(256) << 20;  // uncompressed, per member
  qint64 maxTotalBytes = qint64(1) << 30;     // uncompressed, all members together
  int maxMembers = 64;
};

// A test's window into an export (atomic_file.h): called before the rename.
using dpstudio::BeforeCommit;

Status writeZipAtomically(const std::vector<ZipMember>& members, const QString& path,
                          const BeforeCommit& beforeCommit = {});

Result<std::vector<ZipMember>> readZip(const QString& path, const ZipLimits& limits = {});

// Whether a member name may appear in an archive this program reads: relative, no "..",
// no backslash, no drive letter, not a directory. The reason when it may not.
std::optional<std::string> unsafeMemberName(const QString& name);

}  // namespace dpstudio::bundle
