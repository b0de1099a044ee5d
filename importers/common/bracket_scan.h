// Bracket-depth scanning shared by the importers' line readers (FX graphs, Inductor dumps): the
// change of bracket depth over one line, ( [ { +1 and ) ] } -1, ignoring brackets inside '…' and
// "…" strings (backslash escapes honoured). Private to the importers.
#pragma once

#include <cstddef>
#include <string_view>

namespace af::importers {

enum class HashComments {
  kStop,     // `#` outside a string starts a comment: the rest of the line is not scanned (Python)
  kInclude,  // `#` is an ordinary character (dump values, where it does not start a comment)
};

inline int BracketDelta(std::string_view line, HashComments hash) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '#' && hash == HashComments::kStop) break;
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
  }
  return depth;
}

}  // namespace af::importers
