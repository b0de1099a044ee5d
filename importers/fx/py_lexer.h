// Tokens of the Python subset FX graph files use on one statement: names, numbers, strings,
// operators and brackets. A `#` outside a string ends the statement (a trailing comment).
// Private to the FX importer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace af::importers::fx {

struct Token {
  enum class Kind { kName, kInt, kFloat, kString, kOp, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;       // name, number text, decoded string contents, operator
  std::size_t begin = 0;  // byte offsets in the statement text
  std::size_t end = 0;
};

// Thrown on bad input; the caller turns it into an InputError with file and line.
struct LexError {
  std::string message;
  std::size_t offset = 0;
};

// Tokenizes `text`; the last token is kEnd (its begin is where a comment starts, or the end).
std::vector<Token> Tokenize(std::string_view text);

}  // namespace af::importers::fx
