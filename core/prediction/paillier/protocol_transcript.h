#pragma once
// The record of every message of one run of the protocol: who sent what to whom, at which
// stage, how many bytes, and what the receiver learns from it — what a student reads to see
// that no participant learned a party's size or model. Exported as JSON (toJson); the
// payloads are kept in memory only (for the tests that search them for plaintexts) and never
// exported.
//
// JSON: {"protocol", "key_bits", "parties", "fixed_point_scale_bits", "participants": [names],
//        "messages": [{"sequence", "stage", "kind", "sender", "receiver", "bytes", "reveals"}],
//        "stages": [{"stage", "messages", "bytes", "seconds"}], "total_bytes", "total_seconds",
//        "outcome": "released" | "aborted: <reason>"}
// and, when the participant process recorded them (dpstudio-cli party / curator):
//        "noise_source": "release (…)" | "experiment (…): NOT private …", "private": bool (Charlie),
//        "release_granularity": the grid the release was rounded to (Charlie; 0 = none)

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/prediction/paillier/protocol_messages.h"

namespace dpstudio::multiparty::paillier {

struct TranscriptEntry {
  std::size_t sequence = 0;  // order of sending, over the whole run
  std::string stage, kind, sender, receiver, reveals;
  std::size_t bytes = 0;     // the whole envelope as sent
  Bytes payload;             // in memory only: for the plaintext-leak tests
};

struct StageSummary {
  std::string stage;
  std::size_t messages = 0;
  std::size_t bytes = 0;
  double seconds = 0;  // wall time of the coordinator's steps in this stage (computation included)
};

class ProtocolTranscript {
 public:
  ProtocolTranscript(unsigned keyBits, int parties);

  void record(const Envelope& envelope, std::size_t bytes);
  void addStageTime(const std::string& stage, double seconds);
  void setOutcome(std::string outcome) { outcome_ = std::move(outcome); }
  // Charlie's process learns the key size from the parties' hellos, after it started recording.
  void setKeyBits(unsigned keyBits) { keyBits_ = keyBits; }
  // Where the noise came from (a party: its own η_j; Charlie: the parties' noise, as they
  // announced it) and, when this participant can tell, whether the release is private (a
  // party cannot: it does not know the others' noise).
  void setNoise(std::string source, std::optional<bool> isPrivate) {
    noiseSource_ = std::move(source);
    isPrivate_ = isPrivate;
  }
  void setReleaseGranularity(double grid) { releaseGranularity_ = grid; }

  std::string participantName(std::uint32_t id) const;  // "Charlie", "P3", "public"
  const std::vector<TranscriptEntry>& entries() const { return entries_; }
  std::vector<StageSummary> stages() const;  // in order of first appearance
  std::size_t totalBytes() const;
  const std::string& outcome() const { return outcome_; }

  std::string toJson() const;  // indented UTF-8

 private:
  unsigned keyBits_;
  int parties_;
  std::vector<TranscriptEntry> entries_;
  std::vector<std::pair<std::string, double>> stageTimes_;
  std::string outcome_ = "running";
  std::optional<std::string> noiseSource_;
  std::optional<bool> isPrivate_;
  std::optional<double> releaseGranularity_;
};

}  // namespace dpstudio::multiparty::paillier
