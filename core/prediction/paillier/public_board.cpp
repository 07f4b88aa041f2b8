#include "core/prediction/paillier/public_board.h"

namespace dpstudio::multiparty::paillier {

Result<Eigen::VectorXd> collectPublishedRelease(ProtocolNetwork& network, const SessionSettings& settings,
                                                const crypto::PaillierPublicKey& curatorKey) {
  const std::uint32_t board = publicBoardId(settings.parties);
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

}  // namespace dpstudio::multiparty::paillier
