#pragma once
// The options `party` and `curator` share (paper 004's protocol, one participant per process
// over TLS; core/prediction/paillier/tls/): --cert, --key, --ca, --peer-fingerprint,
// --timeout, --transcript.

#include "app/cli/cli_common.h"
#include "core/prediction/paillier/protocol_transcript.h"
#include "core/prediction/paillier/tls/network_participant.h"

namespace dpstudio::cli {

void addNetworkOptions(QCommandLineParser& parser);
// The TLS files (all three required: there is no plaintext mode), the pins and the timeout;
// usage errors name the option.
Result<multiparty::paillier::NetworkRunOptions> networkOptions(const Command& command);
// This process's transcript to --transcript (nothing without it), written atomically (a
// temporary file, then renamed) also when the run aborted.
Status writeOwnTranscript(const Command& command, const multiparty::paillier::ProtocolTranscript& transcript);

}  // namespace dpstudio::cli
