#pragma once
// The names the accountants are chosen by (the CLI's --accountant and --adjacency, DP-SGD's
// report), apart from the accountants themselves so that a mechanism's options can name one
// without compiling the PLD's machinery.

#include <optional>
#include <string>

namespace dpstudio::privacy {

enum class Adjacency { AddRemove, Substitution };
std::string adjacencyName(Adjacency adjacency);  // "add-remove", "substitution"
std::optional<Adjacency> parseAdjacency(const std::string& name);

// Which accountant produced an ε (the CLI's --accountant, DP-SGD's report).
enum class AccountantKind { Pld, Rdp };
std::string accountantName(AccountantKind kind);  // "pld", "rdp"
std::optional<AccountantKind> parseAccountant(const std::string& name);

}  // namespace dpstudio::privacy
