#include "core/prediction/paillier/paillier_session.h"

#include <chrono>

#include "core/prediction/paillier/protocol_curator.h"
#include "core/prediction/paillier/protocol_party.h"

namespace dpstudio::multiparty::paillier {
namespace {

std::uint64_t freshSessionId() {
  crypto::OsRandom random;
  return crypto::randomBits(random, 64).get_ui();
}

// Sum of the K + 1 published shares, as the public (anyone) would compute it.
Result<Eigen::VectorXd> reconstruct(LoopbackNetwork& network, const SessionSettings& settings,
                                    const crypto::PaillierPublicKey& curatorKey) {
  const std::uint32_t board = static_cast<std::uint32_t>(settings.parties) + 1;
  const std::size_t d = static_cast<std::size_t>(settings.features);
  std::vector<mpz_class> sum(d, mpz_class(0));
  for (std::uint32_t sender = 0; sender < board; ++sender) {
    auto payload = network.receive(sender, board, MessageKind::PublishedShare);
    if (!payload) return payload.error();
    crypto::ByteReader reader(payload.value());
    auto share = readResidues(reader, "published share", d, curatorKey.n, settings.keyBits);
    if (!share) return share.error();
    if (auto done = reader.finish(); !done) return done.error();
    for (std::size_t i = 0; i < d; ++i) {
      sum[i] += share.value()[i];
      mpz_mod(sum[i].get_mpz_t(), sum[i].get_mpz_t(), curatorKey.n.get_mpz_t());
    }
  }
  auto codec = stageThreeCodec(curatorKey, settings.parties);
  if (!codec) return codec.error();
  Eigen::VectorXd out(settings.features);
  for (std::size_t i = 0; i < d; ++i) {
    auto v = codec.value().decode(sum[i]);  // K·ŵ_s
    if (!v) return v.error();
    out[static_cast<Index>(i)] = v.value() / static_cast<double>(settings.parties);
  }
  return out;
}

}  // namespace

SessionOutcome runPaillierSession(const SessionSettings& settings, const std::vector<LocalModel>& locals,
                                  std::vector<std::unique_ptr<privacy::NoiseSource>> partyNoise, Tamper tamper) {
  SessionOutcome outcome;
  outcome.transcript = std::make_shared<ProtocolTranscript>(settings.keyBits, settings.parties);
  LoopbackNetwork network(freshSessionId(), *outcome.transcript, std::move(tamper));
  const int K = settings.parties;
  ProtocolCurator curator(settings);
  std::vector<std::unique_ptr<ProtocolParty>> parties;
  for (int j = 1; j <= K; ++j)
    parties.push_back(std::make_unique<ProtocolParty>(static_cast<std::uint32_t>(j), settings,
                                                      locals[static_cast<std::size_t>(j - 1)],
                                                      std::move(partyNoise[static_cast<std::size_t>(j - 1)])));

  // Runs one step of the protocol, timing it under its stage; false once anything failed.
  Status failure = Ok{};
  auto step = [&](const std::string& stage, const auto& action) {
    if (!failure) return false;
    const auto start = std::chrono::steady_clock::now();
    Status status = action();
    outcome.transcript->addStageTime(stage, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!status) failure = status.error();
    return status.ok();
  };
  auto forEachParty = [&](const auto& action) -> Status {
    for (auto& party : parties)
      if (auto status = action(*party); !status) return status;
    return Ok{};
  };

  const std::string setup = messageStage(MessageKind::CuratorPublicKey);
  const std::string blind = messageStage(MessageKind::SizeShare);
  const std::string compare = messageStage(MessageKind::ComparisonRequest);
  const std::string select = messageStage(MessageKind::SelectionVector);
  const std::string share = messageStage(MessageKind::Reshare);
  const std::string publish = messageStage(MessageKind::PublishedShare);

  step(setup, [&] { return curator.createKey(network); });
  step(setup, [&] { return forEachParty([&](ProtocolParty& p) { return p.receiveCuratorKey(network); }); });
  step(setup, [&] { return parties[0]->createPartiesKeyAndPermutation(network); });
  step(setup, [&] {
    for (int j = 2; j <= K; ++j)
      if (auto s = parties[static_cast<std::size_t>(j - 1)]->receivePartiesKeyAndPermutation(network); !s) return s;
    return curator.receivePartiesPublicKey(network);
  });
  step(blind, [&] { return forEachParty([&](ProtocolParty& p) { return p.sendSizeShares(network); }); });
  step(blind, [&] { return forEachParty([&](ProtocolParty& p) { return p.sendPositionShares(network); }); });
  step(blind, [&] { return curator.blindAndPermute(network); });
  step(blind, [&] { return forEachParty([&](ProtocolParty& p) { return p.receiveBlindedShare(network); }); });
  step(blind, [&] { return forEachParty([&](ProtocolParty& p) { return p.receiveBlindedShareBroadcasts(network); }); });
  for (int k = 2; k <= K; ++k)
    step(compare, [&]() -> Status {
      const auto slot = static_cast<std::uint32_t>(k);
      if (auto s = curator.requestComparison(network, slot); !s) return s;
      if (auto s = parties[static_cast<std::size_t>(k - 1)]->answerComparison(network); !s) return s;
      return curator.finishComparison(network, slot);
    });
  step(select, [&] { return curator.sendSelection(network); });
  step(select, [&] { return forEachParty([&](ProtocolParty& p) { return p.contributeNoise(network); }); });
  step(share, [&] { return parties[0]->sendBlindedNoise(network); });
  step(share, [&] { return curator.receiveBlindedNoise(network); });
  step(share, [&]() -> Status {
    if (auto s = curator.sendReshares(network); !s) return s;
    return forEachParty([&](ProtocolParty& p) { return p.sendReshares(network); });
  });
  step(publish, [&]() -> Status {
    if (auto s = curator.publishShare(network); !s) return s;
    return forEachParty([&](ProtocolParty& p) { return p.publishShare(network); });
  });
  Result<Eigen::VectorXd> released = Error{ErrorKind::Internal, "not run", {}, 0, {}};
  step(publish, [&]() -> Status {
    released = reconstruct(network, settings, curator.publicKey());
    if (!released) return released.error();
    return network.checkDrained();
  });

  if (!failure) {
    const std::string reason = "the Paillier aggregation protocol aborted: " + failure.error().message +
                               "; every participant stopped and discarded its secrets, nothing was released";
    curator.abort(reason);
    outcome.aborted.push_back("Charlie");
    for (int j = 1; j <= K; ++j) {
      parties[static_cast<std::size_t>(j - 1)]->abort(reason);
      outcome.aborted.push_back("P" + std::to_string(j));
    }
    outcome.transcript->setOutcome("aborted: " + failure.error().message);
    Error error = failure.error();
    error.message = reason;
    outcome.error = error;
    return outcome;
  }
  outcome.released = std::move(released).value();
  const std::size_t position = curator.selectedPosition();
  for (int j = 1; j <= K; ++j)
    if (parties[static_cast<std::size_t>(j - 1)]->position() == position) {
      const ProtocolParty& selected = *parties[static_cast<std::size_t>(j - 1)];
      outcome.selectedParty = j;
      outcome.calibration = selected.calibration();
      outcome.noiseNorm = selected.noiseNorm();
      outcome.selectedNoise = selected.noiseDrawn();
    }
  outcome.transcript->setOutcome("released");
  return outcome;
}

}  // namespace dpstudio::multiparty::paillier
