#include "core/prediction/paillier/protocol_transcript.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "core/crypto/fixed_point.h"

namespace dpstudio::multiparty::paillier {

ProtocolTranscript::ProtocolTranscript(unsigned keyBits, int parties) : keyBits_(keyBits), parties_(parties) {}

std::string ProtocolTranscript::participantName(std::uint32_t id) const {
  if (id == kCurator) return "Charlie";
  if (id == static_cast<std::uint32_t>(parties_) + 1) return "public";
  return "P" + std::to_string(id);
}

void ProtocolTranscript::record(const Envelope& envelope, std::size_t bytes) {
  TranscriptEntry entry;
  entry.sequence = entries_.size();
  entry.stage = messageStage(envelope.kind);
  entry.kind = messageKindName(envelope.kind);
  entry.sender = participantName(envelope.sender);
  entry.receiver = participantName(envelope.receiver);
  entry.reveals = messageReveals(envelope.kind);
  entry.bytes = bytes;
  entry.payload = envelope.payload;
  entries_.push_back(std::move(entry));
}

void ProtocolTranscript::addStageTime(const std::string& stage, double seconds) {
  for (auto& [name, total] : stageTimes_)
    if (name == stage) {
      total += seconds;
      return;
    }
  stageTimes_.emplace_back(stage, seconds);
}

std::vector<StageSummary> ProtocolTranscript::stages() const {
  std::vector<StageSummary> out;
  auto find = [&](const std::string& stage) -> StageSummary& {
    for (StageSummary& s : out)
      if (s.stage == stage) return s;
    out.push_back(StageSummary{stage, 0, 0, 0});
    return out.back();
  };
  for (const auto& [stage, seconds] : stageTimes_) find(stage).seconds += seconds;
  for (const TranscriptEntry& e : entries_) {
    StageSummary& s = find(e.stage);
    ++s.messages;
    s.bytes += e.bytes;
  }
  return out;
}

std::size_t ProtocolTranscript::totalBytes() const {
  std::size_t total = 0;
  for (const TranscriptEntry& e : entries_) total += e.bytes;
  return total;
}

std::string ProtocolTranscript::toJson() const {
  QJsonObject root;
  root["protocol"] = "paper 004 section 3.2: Paillier, blind-and-permute, DGK comparison, oblivious noise selection";
  root["key_bits"] = static_cast<int>(keyBits_);
  root["parties"] = parties_;
  root["fixed_point_scale_bits"] = crypto::FixedPoint::kScaleBits;
  QJsonArray participants;
  for (int id = 0; id <= parties_ + 1; ++id)
    participants.append(QString::fromStdString(participantName(static_cast<std::uint32_t>(id))));
  root["participants"] = participants;
  QJsonArray messages;
  for (const TranscriptEntry& e : entries_) {
    QJsonObject m;
    m["sequence"] = static_cast<qint64>(e.sequence);
    m["stage"] = QString::fromStdString(e.stage);
    m["kind"] = QString::fromStdString(e.kind);
    m["sender"] = QString::fromStdString(e.sender);
    m["receiver"] = QString::fromStdString(e.receiver);
    m["bytes"] = static_cast<qint64>(e.bytes);
    m["reveals"] = QString::fromStdString(e.reveals);
    messages.append(m);
  }
  root["messages"] = messages;
  QJsonArray stageArray;
  double totalSeconds = 0;
  for (const StageSummary& s : stages()) {
    QJsonObject o;
    o["stage"] = QString::fromStdString(s.stage);
    o["messages"] = static_cast<qint64>(s.messages);
    o["bytes"] = static_cast<qint64>(s.bytes);
    o["seconds"] = s.seconds;
    totalSeconds += s.seconds;
    stageArray.append(o);
  }
  root["stages"] = stageArray;
  root["total_bytes"] = static_cast<qint64>(totalBytes());
  root["total_seconds"] = totalSeconds;
  root["outcome"] = QString::fromStdString(outcome_);
  if (noiseSource_) {
    root["noise_source"] = QString::fromStdString(*noiseSource_);
    if (isPrivate_) root["private"] = *isPrivate_;
  }
  if (releaseGranularity_) root["release_granularity"] = *releaseGranularity_;
  return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

}  // namespace dpstudio::multiparty::paillier
