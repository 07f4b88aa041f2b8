#pragma once
// A protocol transcript read back from its JSON (ProtocolTranscript::toJson(), the CLI's
// --transcript, a party's or curator's file): what the GUI's sequence diagram draws. Every
// message must name a sender and receiver among the participants, so that a drawing never
// guesses a lane. Payloads are never in the JSON and are empty here.

#include <string>
#include <vector>

#include "core/prediction/paillier/protocol_transcript.h"
#include "core/util/result.h"

namespace dpstudio::multiparty::paillier {

struct TranscriptRecord {
  std::string protocol;
  unsigned keyBits = 0;
  int parties = 0;                        // K
  std::vector<std::string> participants;  // lanes, in the file's order: Charlie, P1..PK, public
  std::vector<TranscriptEntry> messages;  // in order of sending
  std::vector<StageSummary> stages;       // in order of first appearance
  std::size_t totalBytes = 0;
  double totalSeconds = 0;
  std::string outcome;                    // "released", "aborted: <reason>", "running"

  bool released() const { return outcome == "released"; }
  // The lane of a participant's name, or −1.
  int lane(const std::string& participant) const;
};

// Errors name `origin` (a file path, or "the protocol transcript") and the field, with the
// message's position for a bad message ("messages[12].sender").
Result<TranscriptRecord> parseTranscriptJson(const std::string& json, const std::string& origin);

}  // namespace dpstudio::multiparty::paillier
