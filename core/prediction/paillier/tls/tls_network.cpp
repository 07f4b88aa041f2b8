#include "core/prediction/paillier/tls/tls_network.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpServer>
#include <QTimer>

#include <deque>
#include <functional>
#include <map>
#include <optional>

#include "core/crypto/secure_random.h"
#include "core/prediction/paillier/tls/link_frames.h"

namespace dpstudio::multiparty::paillier {
namespace {

constexpr std::uint32_t kUnknown = 0xffffffffu;
// After a run (done or aborted), how long we wait for our last bytes to leave.
constexpr int kCloseWaitMs = 5000;

QByteArray toQt(const Bytes& bytes) {
  return QByteArray(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()));
}

Result<std::pair<QString, std::uint16_t>> splitAddress(const std::string& address) {
  const QString text = QString::fromStdString(address);
  const qsizetype colon = text.lastIndexOf(':');
  bool ok = false;
  const uint port = colon > 0 ? text.mid(colon + 1).toUInt(&ok) : 0;
  if (!ok || port == 0 || port > 65535)
    return Error{ErrorKind::Usage, "'" + address + "' is not host:port", {}, 0, "parties"};
  return std::make_pair(text.left(colon), static_cast<std::uint16_t>(port));
}

// Hands every accepted connection to `accept` as a descriptor, so that we wrap it in a
// QSslSocket ourselves and start the server side of the handshake.
class DescriptorServer final : public QTcpServer {
 public:
  std::function<void(qintptr)> accept;

 protected:
  void incomingConnection(qintptr descriptor) override { accept(descriptor); }
};

// One TLS connection to another participant process.
struct Link {
  std::uint32_t remote = kUnknown;  // the participant at the other end, once it said hello
  std::string address;              // "host:port", for errors before the hello
  QSslSocket* socket = nullptr;
  bool encrypted = false;
  bool closed = false;
  bool done = false;                // the peer said Done before closing
  Bytes buffer;                     // bytes of incomplete frames
  std::deque<Frame> hellos;
  std::map<std::uint32_t, std::deque<Bytes>> envelopes;  // by receiver, in arrival order
  std::optional<std::string> failure;                    // why this connection is unusable
  std::optional<AbortNotice> abort;
};

}  // namespace

struct TlsNetwork::Impl {
  std::uint32_t self = 0;
  int parties = 0;
  double timeoutSeconds = 60;
  ProtocolTranscript* transcript = nullptr;
  QSslConfiguration configuration;
  TlsFiles tls;  // for the pins of checkPeerRole
  std::unique_ptr<DescriptorServer> server;
  std::vector<std::unique_ptr<Link>> links;
  std::vector<std::string> addresses;  // P1..PK
  std::uint64_t session = 0;
  std::size_t frameLimit = kSetupFrameLimit;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::deque<Bytes>> local;  // to ourselves (Charlie → board)
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> sent, received;
  std::optional<std::string> sendFailure;

  ~Impl() {
    for (auto& link : links)
      if (link->socket) {
        link->socket->disconnect();
        link->socket->abort();
        delete link->socket;
      }
  }

  std::string name(std::uint32_t id) const { return transcript->participantName(id); }
  std::string selfName() const { return name(self); }
  std::string linkName(const Link& link) const {
    return link.remote == kUnknown ? "the connection with " + link.address : name(link.remote);
  }
  bool hostsLocally(std::uint32_t id) const {
    return id == self || (self == kCurator && id == static_cast<std::uint32_t>(parties) + 1);
  }
  // Parties reach Charlie and the board through Charlie's connection.
  std::uint32_t processOf(std::uint32_t id) const {
    return id == static_cast<std::uint32_t>(parties) + 1 ? kCurator : id;
  }
  Link* linkTo(std::uint32_t remote) {
    for (auto& link : links)
      if (link->remote == remote) return link.get();
    return nullptr;
  }

  void fail(Link& link, const std::string& why) {
    if (!link.failure && !link.done) link.failure = why;
  }

  void readFrames(Link& link) {
    if (!link.socket) return;
    const QByteArray data = link.socket->readAll();
    if (data.isEmpty() || link.failure) return;
    link.buffer.insert(link.buffer.end(), data.begin(), data.end());
    auto frames = takeFrames(link.buffer, frameLimit);
    if (!frames) {
      fail(link, selfName() + " refused a frame from " + linkName(link) + ": " + frames.error().message);
      link.socket->abort();
      return;
    }
    for (Frame& frame : frames.value()) {
      switch (frame.type) {
        case FrameType::CuratorHello:
        case FrameType::PartyHello:
        case FrameType::PeerHello: link.hellos.push_back(std::move(frame)); break;
        case FrameType::Envelope: {
          const auto receiver = peekEnvelopeReceiver(frame.body);
          if (!receiver || !hostsLocally(*receiver)) {
            fail(link, selfName() + " refused a message from " + linkName(link) +
                           (receiver ? ": it is addressed to " + name(*receiver) + ", who is not here"
                                     : ": truncated message: too short for an envelope header"));
            return;
          }
          link.envelopes[*receiver].push_back(std::move(frame.body));
          break;
        }
        case FrameType::Abort: {
          auto notice = decodeAbort(frame.body);
          link.abort = notice ? notice.value() : AbortNotice{link.remote, "(an abort notice that did not decode)"};
          break;
        }
        case FrameType::Done: link.done = true; break;
      }
    }
  }

  // Why the peer on `link` may not act as participant `claimed` (its certificate names
  // another role, or is not the pinned one), or nullopt when it may.
  std::optional<std::string> refusedRole(const Link& link, std::uint32_t claimed) const {
    auto checked = checkPeerRole(link.socket->peerCertificate(), participantRole(claimed), tls);
    if (checked) return std::nullopt;
    return selfName() + " refused the connection with " + link.address + " as " + name(claimed) + ": " +
           checked.error().message;
  }

  void watch(Link& link) {
    QSslSocket* socket = link.socket;
    QObject::connect(socket, &QSslSocket::readyRead, socket, [this, &link] { readFrames(link); });
    QObject::connect(socket, &QSslSocket::encrypted, socket, [this, &link] {
      // A dialled peer must hold the certificate of the participant we dialled; an accepted
      // one is checked when its hello says whom it claims to be (joinSession).
      if (link.remote != kUnknown)
        if (auto role = refusedRole(link, link.remote); role) {
          fail(link, *role);
          link.socket->abort();
          return;
        }
      link.encrypted = true;
    });
    QObject::connect(socket, &QSslSocket::sslErrors, socket, [this, &link](const QList<QSslError>& errors) {
      // The peer is authenticated by the class's CA and the role its certificate names
      // (refusedRole), not by its host name: laptops in a classroom are reached by IP
      // address, which their certificates rarely name.
      QStringList refused;
      for (const QSslError& e : errors)
        if (e.error() != QSslError::HostNameMismatch) refused << e.errorString();
      if (refused.isEmpty()) {
        link.socket->ignoreSslErrors(errors);
        return;
      }
      fail(link, selfName() + " refused the TLS certificate of " + linkName(link) + " (not trusted by --ca): " +
                     refused.join("; ").toStdString());
    });
    QObject::connect(socket, &QSslSocket::errorOccurred, socket, [this, &link](QAbstractSocket::SocketError) {
      readFrames(link);
      if (link.socket->error() == QAbstractSocket::RemoteHostClosedError && link.encrypted) return;  // disconnected() says it
      fail(link, selfName() + (link.encrypted ? " lost the connection with " : " could not open a TLS connection with ") +
                     linkName(link) + ": " + link.socket->errorString().toStdString());
    });
    QObject::connect(socket, &QSslSocket::disconnected, socket, [this, &link] {
      readFrames(link);
      link.closed = true;
      if (link.done || link.abort) return;
      if (!link.buffer.empty())
        fail(link, selfName() + " refused a message from " + linkName(link) + ": truncated message: the connection " +
                       "closed after " + std::to_string(link.buffer.size()) + " bytes of a frame");
      else
        fail(link, "the connection with " + linkName(link) + " closed mid-protocol (" + linkName(link) +
                       " stopped, or the network failed)");
    });
  }

  Link& addLink(QSslSocket* socket, std::string address) {
    links.push_back(std::make_unique<Link>());
    Link& link = *links.back();
    link.socket = socket;
    link.address = std::move(address);
    socket->setSslConfiguration(configuration);
    watch(link);
    return link;
  }

  Link& dial(const std::string& address, std::uint32_t remote) {
    auto* socket = new QSslSocket();
    Link& link = addLink(socket, address);
    link.remote = remote;
    auto hostPort = splitAddress(address);
    if (!hostPort) {
      link.failure = hostPort.error().message;
      return link;
    }
    socket->connectToHostEncrypted(hostPort.value().first, hostPort.value().second);
    return link;
  }

  void accept(qintptr descriptor) {
    auto* socket = new QSslSocket();
    if (!socket->setSocketDescriptor(descriptor)) {
      delete socket;
      return;
    }
    addLink(socket, socket->peerAddress().toString().toStdString() + ":" + std::to_string(socket->peerPort()));
    socket->startServerEncryption();
  }

  // The first problem any connection has: a peer's abort, or a failed connection (one that
  // closed after saying Done is not a problem: that peer finished).
  std::optional<Error> firstProblem() const {
    for (const auto& link : links)
      if (link->abort)
        return protocolError(selfName() + " stopped because " + name(link->abort->sender) +
                             " aborted the protocol: " + link->abort->reason);
    for (const auto& link : links)
      if (link->failure) return protocolError(*link->failure);
    if (sendFailure) return protocolError(*sendFailure);
    return std::nullopt;
  }

  // Runs the event loop until `ready` says done, a connection fails, or the timeout.
  Status waitFor(const std::function<bool()>& ready, const std::string& what) {
    QElapsedTimer clock;
    clock.start();
    QTimer tick;  // wakes the loop to look at the clock even when nothing arrives
    tick.start(100);
    for (;;) {
      if (ready()) return Ok{};
      if (auto problem = firstProblem()) return *problem;
      if (static_cast<double>(clock.elapsed()) > timeoutSeconds * 1000.0)
        return protocolError(selfName() + " waited " + std::to_string(static_cast<long long>(timeoutSeconds)) +
                             " s for " + what + " and stopped (timeout; see --timeout)");
      QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
  }

  void writeFrame(Link& link, FrameType type, const Bytes& body) {
    if (!link.socket || link.closed) return;
    link.socket->write(toQt(encodeFrame(type, body)));
    link.socket->flush();  // hands what it can to the kernel now, without blocking
  }

  bool everythingWritten() const {
    for (const auto& link : links)
      if (link->socket && !link->closed && link->socket->state() == QAbstractSocket::ConnectedState &&
          (link->socket->bytesToWrite() > 0 || link->socket->encryptedBytesToWrite() > 0))
        return false;
    return true;
  }

  void closeAll(int waitMs) {
    QElapsedTimer clock;
    clock.start();
    QTimer tick;
    tick.start(50);
    while (!everythingWritten() && clock.elapsed() < waitMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    for (auto& link : links)
      if (link->socket && !link->closed) link->socket->disconnectFromHost();
    auto allClosed = [&] {
      for (const auto& link : links)
        if (link->socket && link->socket->state() != QAbstractSocket::UnconnectedState) return false;
      return true;
    };
    while (!allClosed() && clock.elapsed() < waitMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
  }
};

TlsNetwork::TlsNetwork(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TlsNetwork::~TlsNetwork() = default;

Result<std::unique_ptr<TlsNetwork>> TlsNetwork::listenAsParty(std::uint32_t self, int parties,
                                                              const std::string& address, std::uint16_t port,
                                                              const TlsFiles& tls, double timeoutSeconds,
                                                              ProtocolTranscript& transcript) {
  const QHostAddress host(QString::fromStdString(address));
  if (host.isNull())
    return Error{ErrorKind::Usage, "'" + address + "' is not an IP address to listen on (e.g. 127.0.0.1, 0.0.0.0)",
                 {}, 0, "listen-address"};
  auto configuration = loadTlsConfiguration(tls, participantRole(self));
  if (!configuration) return configuration.error();
  auto impl = std::make_unique<Impl>();
  impl->self = self;
  impl->parties = parties;
  impl->timeoutSeconds = timeoutSeconds;
  impl->transcript = &transcript;
  impl->configuration = configuration.value();
  impl->tls = tls;
  impl->server = std::make_unique<DescriptorServer>();
  Impl* raw = impl.get();
  impl->server->accept = [raw](qintptr descriptor) { raw->accept(descriptor); };
  if (!impl->server->listen(host, port))
    return Error{ErrorKind::Internal,
                 transcript.participantName(self) + " cannot listen on " + address + " port " + std::to_string(port) + ": " +
                     impl->server->errorString().toStdString(),
                 {}, 0, "listen"};
  return std::unique_ptr<TlsNetwork>(new TlsNetwork(std::move(impl)));
}

std::uint16_t TlsNetwork::port() const { return impl_->server ? impl_->server->serverPort() : 0; }

Status TlsNetwork::joinSession(const std::string& parameters, privacy::NoiseKind noise) {
  Impl& m = *impl_;
  const std::string me = m.selfName();
  // Every incoming connection introduces itself with its first frame: Charlie or a later party.
  std::optional<CuratorHello> curator;
  std::map<std::uint32_t, std::uint64_t> peerSessions;  // later parties that said hello
  std::optional<Error> refused;
  // True once something was refused (in `refused`): the set-up stops there.
  auto refuse = [&](const std::string& message) {
    refused = protocolError(message);
    return true;
  };
  auto identify = [&] {
    for (auto& link : m.links) {
      if (link->remote != kUnknown || link->hellos.empty()) continue;
      Frame frame = std::move(link->hellos.front());
      link->hellos.pop_front();
      if (frame.type == FrameType::CuratorHello) {
        auto hello = decodeCuratorHello(frame.body);
        if (!hello) return refuse(me + " refused Charlie's hello: " + hello.error().message);
        if (curator) return refuse(me + " refused a second curator hello from " + link->address);
        if (auto role = m.refusedRole(*link, kCurator)) return refuse(*role);
        if (hello.value().you != m.self || hello.value().parties != static_cast<std::uint32_t>(m.parties))
          return refuse(me + " refused Charlie's hello: it names party " + std::to_string(hello.value().you) + " of " +
                        std::to_string(hello.value().parties) + ", this is party " + std::to_string(m.self) + " of " +
                        std::to_string(m.parties) + " (--party, --of)");
        link->remote = kCurator;
        curator = hello.value();
      } else if (frame.type == FrameType::PeerHello) {
        auto hello = decodePeerHello(frame.body);
        if (!hello) return refuse(me + " refused a peer hello: " + hello.error().message);
        const std::uint32_t j = hello.value().party;
        if (j <= m.self || j > static_cast<std::uint32_t>(m.parties) || peerSessions.count(j))
          return refuse(me + " refused a peer hello from " + link->address + " claiming to be P" + std::to_string(j) +
                        " (only P" + std::to_string(m.self + 1) + "..P" + std::to_string(m.parties) + " dial P" +
                        std::to_string(m.self) + ", once each)");
        if (auto role = m.refusedRole(*link, j)) return refuse(*role);
        link->remote = j;
        peerSessions[j] = hello.value().session;
      } else {
        return refuse(me + " refused a '" + frameTypeName(frame.type) + "' frame from " + link->address +
                      " before any hello");
      }
    }
    return false;
  };
  if (auto waited = m.waitFor([&] { return identify() || curator.has_value(); }, "Charlie's hello"); !waited)
    return waited;
  if (refused) return *refused;
  m.session = curator->session;
  m.addresses = curator->addresses;
  m.writeFrame(*m.linkTo(kCurator), FrameType::PartyHello, encodePartyHello({m.self, m.session, parameters, noise}));
  if (m.addresses.size() != static_cast<std::size_t>(m.parties))
    return protocolError(me + " refused Charlie's hello: it lists " + std::to_string(m.addresses.size()) + " addresses");
  for (std::uint32_t i = 1; i < m.self; ++i) m.dial(m.addresses[i - 1], i);
  // Dialled links say hello once encrypted; later parties must all have dialled us.
  std::map<std::uint32_t, bool> greeted;
  auto meshReady = [&] {
    if (identify()) return true;
    bool ready = true;
    for (std::uint32_t i = 1; i < m.self; ++i) {
      Link* link = m.linkTo(i);
      if (!link->encrypted) {
        ready = false;
        continue;
      }
      if (!greeted[i]) {
        m.writeFrame(*link, FrameType::PeerHello, encodePeerHello({m.session, m.self}));
        greeted[i] = true;
      }
    }
    return ready && peerSessions.size() == static_cast<std::size_t>(m.parties) - m.self;
  };
  if (auto waited = m.waitFor(meshReady, "the other parties to connect"); !waited) return waited;
  if (refused) return *refused;
  for (const auto& [j, session] : peerSessions)
    if (session != m.session)
      return protocolError(me + " refused P" + std::to_string(j) + "'s hello: it belongs to another session");
  return Ok{};
}

Result<std::unique_ptr<TlsNetwork>> TlsNetwork::connectAsCurator(const std::vector<std::string>& addresses,
                                                                 const TlsFiles& tls, double timeoutSeconds,
                                                                 ProtocolTranscript& transcript) {
  auto configuration = loadTlsConfiguration(tls, participantRole(kCurator));
  if (!configuration) return configuration.error();
  for (const std::string& address : addresses)
    if (auto split = splitAddress(address); !split) return split.error();
  auto impl = std::make_unique<Impl>();
  impl->self = kCurator;
  impl->parties = static_cast<int>(addresses.size());
  impl->timeoutSeconds = timeoutSeconds;
  impl->transcript = &transcript;
  impl->configuration = configuration.value();
  impl->tls = tls;
  impl->addresses = addresses;
  return std::unique_ptr<TlsNetwork>(new TlsNetwork(std::move(impl)));
}

Result<std::vector<PartyHello>> TlsNetwork::openSession() {
  Impl& m = *impl_;
  crypto::OsRandom random;
  m.session = crypto::randomBits(random, 64).get_ui();
  for (std::size_t j = 1; j <= m.addresses.size(); ++j) m.dial(m.addresses[j - 1], static_cast<std::uint32_t>(j));
  auto allEncrypted = [&] {
    for (const auto& link : m.links)
      if (!link->encrypted) return false;
    return true;
  };
  if (auto waited = m.waitFor(allEncrypted, "TLS connections to every party"); !waited) return waited.error();
  for (auto& link : m.links)
    m.writeFrame(*link, FrameType::CuratorHello,
                 encodeCuratorHello({m.session, static_cast<std::uint32_t>(m.parties), link->remote, m.addresses}));
  auto allAnswered = [&] {
    for (const auto& link : m.links)
      if (link->hellos.empty()) return false;
    return true;
  };
  if (auto waited = m.waitFor(allAnswered, "every party's hello"); !waited) return waited.error();
  std::vector<PartyHello> hellos;
  for (auto& link : m.links) {
    const Frame frame = std::move(link->hellos.front());
    link->hellos.pop_front();
    const std::string who = "Charlie refused the hello of " + m.linkName(*link) + " at " + link->address + ": ";
    if (frame.type != FrameType::PartyHello) return protocolError(who + "it is a '" + frameTypeName(frame.type) + "' frame");
    auto hello = decodePartyHello(frame.body);
    if (!hello) return protocolError(who + hello.error().message);
    if (hello.value().party != link->remote)
      return protocolError(who + "it says it is P" + std::to_string(hello.value().party) + " (check --party there)");
    if (hello.value().session != m.session) return protocolError(who + "it belongs to another session");
    hellos.push_back(std::move(hello).value());
  }
  return hellos;
}

void TlsNetwork::setFrameLimit(std::size_t bytes) { impl_->frameLimit = bytes; }

void TlsNetwork::send(Envelope envelope) {
  Impl& m = *impl_;
  const std::pair channel{envelope.sender, envelope.receiver};
  envelope.session = m.session;
  envelope.sequence = m.sent[channel]++;
  const Bytes bytes = encodeEnvelope(envelope);
  m.transcript->record(envelope, bytes.size());
  if (m.hostsLocally(envelope.receiver)) {
    m.local[channel].push_back(bytes);
    return;
  }
  Link* link = m.linkTo(m.processOf(envelope.receiver));
  if (!link || link->closed) {
    if (!m.sendFailure)
      m.sendFailure = m.selfName() + " could not send '" + messageKindName(envelope.kind) + "' to " +
                      m.name(envelope.receiver) + ": the connection is closed";
    return;
  }
  m.writeFrame(*link, FrameType::Envelope, bytes);
}

Result<Bytes> TlsNetwork::receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind) {
  Impl& m = *impl_;
  const std::pair channel{sender, receiver};
  const std::string who = refusalPrefix(m.name(receiver), m.name(sender), kind);
  std::deque<Bytes>* queue = nullptr;
  Link* link = nullptr;
  if (m.hostsLocally(sender)) {
    queue = &m.local[channel];
  } else {
    link = m.linkTo(m.processOf(sender));
    if (!link) return protocolError(who + "there is no connection with " + m.name(sender));
    queue = &link->envelopes[receiver];
  }
  // A peer that said Done and closed will send nothing more: no need to wait for the timeout.
  if (auto waited = m.waitFor([&] { return !queue->empty() || (link && link->closed && link->done); },
                              "'" + messageKindName(kind) + "' from " + m.name(sender));
      !waited)
    return waited.error();
  if (queue->empty()) return protocolError(who + m.name(sender) + " finished and closed the connection without sending it");
  const Bytes bytes = std::move(queue->front());
  queue->pop_front();
  auto envelope = checkArrivedEnvelope(bytes, m.session, sender, receiver, kind, m.received[channel], who);
  if (!envelope) return envelope.error();
  ++m.received[channel];
  return std::move(envelope.value().payload);
}

Status TlsNetwork::finish() {
  Impl& m = *impl_;
  for (auto& link : m.links) m.writeFrame(*link, FrameType::Done, {});
  m.closeAll(static_cast<int>(m.timeoutSeconds * 1000));
  if (!m.everythingWritten()) return protocolError(m.selfName() + " could not deliver its last messages before the timeout");
  return Ok{};
}

void TlsNetwork::abortAll(const std::string& reason) {
  Impl& m = *impl_;
  for (auto& link : m.links)
    if (link->encrypted) m.writeFrame(*link, FrameType::Abort, encodeAbort({m.self, reason}));
  m.closeAll(std::min(kCloseWaitMs, static_cast<int>(m.timeoutSeconds * 1000)));
}

}  // namespace dpstudio::multiparty::paillier
