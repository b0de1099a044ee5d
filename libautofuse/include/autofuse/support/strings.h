// Small string helpers shared by the parsers of text inputs (flags, bindings, FX graphs), so each
// does not carry its own copy.
#pragma once

#include <cctype>
#include <string_view>

namespace af {

// `s` without leading and trailing white space (std::isspace).
inline std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0)
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0)
    s.remove_suffix(1);
  return s;
}

}  // namespace af
