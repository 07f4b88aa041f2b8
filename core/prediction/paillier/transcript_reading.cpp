#include "core/prediction/paillier/transcript_reading.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace dpstudio::multiparty::paillier {
namespace {

Error refused(const std::string& origin, const std::string& field, const std::string& what) {
  return Error{ErrorKind::BadData, "the protocol transcript's " + field + " " + what, origin, 0, field};
}

// A non-negative whole number that fits the count it is used as.
bool wholeCount(const QJsonValue& v, double limit) {
  return v.isDouble() && v.toDouble() >= 0 && v.toDouble() <= limit && v.toDouble() == static_cast<double>(v.toInteger());
}

}  // namespace

int TranscriptRecord::lane(const std::string& participant) const {
  for (std::size_t i = 0; i < participants.size(); ++i)
    if (participants[i] == participant) return static_cast<int>(i);
  return -1;
}

Result<TranscriptRecord> parseTranscriptJson(const std::string& json, const std::string& origin) {
  QJsonParseError parseError;
  const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(json), &parseError);
  if (parseError.error != QJsonParseError::NoError)
    return Error{ErrorKind::BadData,
                 "a protocol transcript must be JSON (" + parseError.errorString().toStdString() + " at byte " +
                     std::to_string(parseError.offset) + ")",
                 origin, 0, "transcript"};
  if (!document.isObject()) return refused(origin, "transcript", "must be a JSON object");
  const QJsonObject root = document.object();

  TranscriptRecord out;
  out.protocol = root.value("protocol").toString().toStdString();
  if (!wholeCount(root.value("key_bits"), 1 << 20)) return refused(origin, "key_bits", "must be a whole number");
  out.keyBits = static_cast<unsigned>(root.value("key_bits").toInteger());
  if (!wholeCount(root.value("parties"), 1 << 16) || root.value("parties").toInteger() < 1)
    return refused(origin, "parties", "must be a whole number >= 1");
  out.parties = static_cast<int>(root.value("parties").toInteger());
  const QJsonValue participants = root.value("participants");
  if (!participants.isArray()) return refused(origin, "participants", "must be a list of names");
  for (const QJsonValue& name : participants.toArray()) {
    if (!name.isString() || name.toString().isEmpty()) return refused(origin, "participants", "must be names");
    if (out.lane(name.toString().toStdString()) >= 0)
      return refused(origin, "participants", "names \"" + name.toString().toStdString() + "\" twice");
    out.participants.push_back(name.toString().toStdString());
  }
  if (out.participants.size() != static_cast<std::size_t>(out.parties) + 2)
    return refused(origin, "participants",
                   "must name Charlie, the " + std::to_string(out.parties) + " parties and the public board");

  const QJsonValue messages = root.value("messages");
  if (!messages.isArray()) return refused(origin, "messages", "must be a list");
  const QJsonArray list = messages.toArray();
  for (qsizetype i = 0; i < list.size(); ++i) {
    const std::string at = "messages[" + std::to_string(i) + "]";
    if (!list[i].isObject()) return refused(origin, at, "must be an object");
    const QJsonObject m = list[i].toObject();
    TranscriptEntry e;
    e.sequence = static_cast<std::size_t>(i);
    for (const auto& [field, target] : {std::pair{"stage", &e.stage}, std::pair{"kind", &e.kind},
                                        std::pair{"sender", &e.sender}, std::pair{"receiver", &e.receiver},
                                        std::pair{"reveals", &e.reveals}}) {
      if (!m.value(field).isString()) return refused(origin, at + "." + field, "must be text");
      *target = m.value(field).toString().toStdString();
    }
    for (const char* field : {"sender", "receiver"}) {
      const std::string& who = std::string(field) == "sender" ? e.sender : e.receiver;
      if (out.lane(who) < 0) return refused(origin, at + "." + field, "\"" + who + "\" is not a participant");
    }
    if (!wholeCount(m.value("bytes"), 1e15)) return refused(origin, at + ".bytes", "must be a whole number");
    e.bytes = static_cast<std::size_t>(m.value("bytes").toInteger());
    if (m.contains("sequence") && m.value("sequence").toInteger(-1) != i)
      return refused(origin, at + ".sequence", "is out of order (expected " + std::to_string(i) + ")");
    out.totalBytes += e.bytes;
    out.messages.push_back(std::move(e));
  }

  // Stages: the file's timings, and every stage a message names (in order of appearance).
  const auto stage = [&out](const std::string& name) -> StageSummary& {
    for (StageSummary& s : out.stages)
      if (s.stage == name) return s;
    out.stages.push_back(StageSummary{name, 0, 0, 0});
    return out.stages.back();
  };
  for (const QJsonValue& s : root.value("stages").toArray()) {
    const QJsonObject o = s.toObject();
    if (!o.value("stage").isString()) return refused(origin, "stages", "must name each stage");
    const double seconds = o.value("seconds").toDouble(0);
    stage(o.value("stage").toString().toStdString()).seconds = std::isfinite(seconds) && seconds > 0 ? seconds : 0;
  }
  for (const TranscriptEntry& e : out.messages) {
    StageSummary& s = stage(e.stage);
    ++s.messages;
    s.bytes += e.bytes;
  }
  for (const StageSummary& s : out.stages) out.totalSeconds += s.seconds;
  out.outcome = root.value("outcome").toString("unknown").toStdString();
  return out;
}

}  // namespace dpstudio::multiparty::paillier
