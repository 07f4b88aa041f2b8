#include "core/privacy/accountant_kind.h"

namespace dpstudio::privacy {

std::string adjacencyName(Adjacency adjacency) {
  return adjacency == Adjacency::Substitution ? "substitution" : "add-remove";
}

std::optional<Adjacency> parseAdjacency(const std::string& name) {
  if (name == "add-remove") return Adjacency::AddRemove;
  if (name == "substitution") return Adjacency::Substitution;
  return std::nullopt;
}

std::string accountantName(AccountantKind kind) { return kind == AccountantKind::Rdp ? "rdp" : "pld"; }

std::optional<AccountantKind> parseAccountant(const std::string& name) {
  if (name == "pld") return AccountantKind::Pld;
  if (name == "rdp") return AccountantKind::Rdp;
  return std::nullopt;
}

}  // namespace dpstudio::privacy
