#pragma once
// The socket transport of paper 004's protocol: this process hosts one participant (a party,
// or Charlie with the public board) and reaches each other participant over one TCP
// connection with TLS, both ends verifying the other's certificate and the role it names
// (tls_credentials.h): on encryption for the peer we dialled, at its hello for one that
// dialled us.
// Frames are length-prefixed (link_frames.h); what arrives is checked exactly as on the
// loopback (checkArrivedEnvelope), and refused frames, aborts and lost peers stop the run.
//
// Topology: Charlie dials every party (--parties host:port,…) and tells each the session id,
// K, its id and every party's address; P_j dials P_1..P_{j−1} and accepts P_{j+1}..P_K, so
// party-to-party messages (the parties' secret key among them) never pass through Charlie.
//
// Blocking with timeouts: receive() and the set-up wait at most `timeoutSeconds` for what
// they need, running Qt's event loop meanwhile (so every connection keeps reading and
// writing). Whatever goes wrong (a timeout, a refused or oversized frame, a peer's abort, a
// connection closed before its Done) is returned as an error naming this participant, the
// peer and what was refused; the caller then calls abortAll(), which tells every peer.
// Needs a QCoreApplication; single-threaded.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/prediction/paillier/protocol_network.h"
#include "core/prediction/paillier/protocol_transcript.h"
#include "core/prediction/paillier/tls/link_frames.h"
#include "core/prediction/paillier/tls/tls_credentials.h"

namespace dpstudio::multiparty::paillier {

class TlsNetwork final : public ProtocolNetwork {
 public:
  ~TlsNetwork() override;
  TlsNetwork(const TlsNetwork&) = delete;
  TlsNetwork& operator=(const TlsNetwork&) = delete;

  // Party `self` of `parties`: listens on the IP address `address` ("127.0.0.1": this
  // machine only; "0.0.0.0": every IPv4 interface) at `port` (0: the OS chooses; port() says
  // which).
  static Result<std::unique_ptr<TlsNetwork>> listenAsParty(std::uint32_t self, int parties, const std::string& address,
                                                           std::uint16_t port, const TlsFiles& tls,
                                                           double timeoutSeconds, ProtocolTranscript& transcript);
  std::uint16_t port() const;
  // Party: waits for Charlie's hello (it must name this party and this K), answers with
  // `parameters` (sessionParametersText) and the kind of its noise, dials the parties before
  // it and waits for the ones after it.
  Status joinSession(const std::string& parameters, privacy::NoiseKind noise);

  // Charlie: dials every party ("host:port", in party order), says hello with a fresh session
  // id, and returns each party's hello (index j − 1: its parameters and its noise kind).
  static Result<std::unique_ptr<TlsNetwork>> connectAsCurator(const std::vector<std::string>& addresses,
                                                              const TlsFiles& tls, double timeoutSeconds,
                                                              ProtocolTranscript& transcript);
  Result<std::vector<PartyHello>> openSession();

  // Once the parameters are agreed: the largest frame accepted from now on (frameLimit).
  void setFrameLimit(std::size_t bytes);

  void send(Envelope envelope) override;
  Result<Bytes> receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind) override;

  // Every step done: waits (bounded) until everything sent has left, says Done, closes.
  Status finish();
  // This participant stopped: tells every connected peer why, then closes (bounded wait).
  void abortAll(const std::string& reason);

 private:
  struct Impl;
  explicit TlsNetwork(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dpstudio::multiparty::paillier
