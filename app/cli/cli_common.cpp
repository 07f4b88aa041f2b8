#include "app/cli/cli_common.h"

#include <QJsonDocument>

#include <cstdio>

namespace dpstudio::cli {

int exitCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return kUsage;
    case ErrorKind::BadData: return kBadData;
    case ErrorKind::InvalidPrivacy: return kBadPrivacy;
    case ErrorKind::BadBundle: return kBadBundle;
    case ErrorKind::Cancelled:
    case ErrorKind::Internal: return kOther;
  }
  return kOther;
}

void printText(const QString& text) {
  const QByteArray bytes = text.toUtf8();
  std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
  std::fputc('\n', stdout);
}

Command::Command(QString name, QString description, QString positionalSyntax)
    : name_(std::move(name)) {
  parser_.setApplicationDescription(description);
  parser_.addHelpOption();
  parser_.addOption({"json", "Print one JSON object on stdout."});
  if (!positionalSyntax.isEmpty()) parser_.addPositionalArgument("args", "", positionalSyntax);
}

void Command::addDataOptions() {
  hasDataOptions_ = true;
  parser_.addOptions({
      {"format", "Data format: csv, libsvm or idx (default: from the extension or content).",
       "FMT"},
      {"labels", "IDX labels file that goes with an IDX images file.", "FILE"},
      {"label-column", "CSV label column: a header name or a 0-based index (default: last).",
       "COL"},
      {"drop-missing", "CSV: drop rows with missing values instead of rejecting the file."},
      {"features", "LIBSVM: the number of features (default: the largest index present).", "D"},
  });
}

bool Command::parse(const QStringList& args, int* exitCode) {
  json_ = args.contains("--json");  // so that even a parse error is reported as JSON
  if (!parser_.parse(args)) {
    *exitCode = usageError(parser_.errorText());
    return false;
  }
  json_ = parser_.isSet("json");
  if (parser_.isSet("help")) {
    printText(parser_.helpText());
    *exitCode = kOk;
    return false;
  }
  return true;
}

Result<LoadOptions> Command::loadOptions() const {
  LoadOptions options;
  if (!hasDataOptions_) return options;
  if (parser_.isSet("format")) {
    const auto format = parseDataFormat(parser_.value("format").toStdString());
    if (!format)
      return Error{ErrorKind::Usage, "unknown format (use csv, libsvm or idx)", {}, 0, "format"};
    options.format = *format;
  }
  options.labelsPath = parser_.value("labels").toStdString();
  options.labelColumn = parser_.value("label-column").toStdString();
  if (parser_.isSet("drop-missing")) options.missing = MissingPolicy::DropRows;
  if (parser_.isSet("features")) {
    bool ok = false;
    const long long d = parser_.value("features").toLongLong(&ok);
    if (!ok || d < 1)
      return Error{ErrorKind::Usage, "must be a whole number >= 1", {}, 0, "features"};
    options.libsvmFeatures = static_cast<Index>(d);
  }
  return options;
}

void Command::printJson(const QJsonObject& object) const {
  printText(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)).trimmed());
}

int Command::fail(const Error& error) const {
  const int code = exitCodeFor(error.kind);
  const QString message = QString::fromStdString(error.toString());
  if (json_) {
    printJson(QJsonObject{{"error", QJsonObject{{"code", code}, {"message", message}}}});
  } else {
    const QByteArray bytes = ("dpstudio-cli " + name_ + ": error: " + message + "\n").toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
  }
  return code;
}

int Command::usageError(const QString& message) const {
  return fail(Error{ErrorKind::Usage, message.toStdString() + " (see --help)", {}, 0, {}});
}

}  // namespace dpstudio::cli
