#include "autofuse/toolchain/source_key.h"

namespace af::toolchain {
namespace {

// Copies a quoted literal starting at text[i] (the quote) to out; returns the index past it. An
// unterminated literal runs to the end of the line (the compiler will say what is wrong).
std::size_t CopyQuoted(std::string_view text, std::size_t i, std::string* out) {
  const char quote = text[i];
  std::size_t j = i + 1;
  while (j < text.size() && text[j] != quote && text[j] != '\n') {
    j += text[j] == '\\' && j + 1 < text.size() ? 2 : 1;
  }
  if (j < text.size() && text[j] == quote) ++j;
  if (j > text.size()) j = text.size();
  out->append(text.substr(i, j - i));
  return j;
}

// A raw string R"delim( … )delim" starting at text[i] (the R); returns the index past it, or i
// when it is not one.
std::size_t CopyRaw(std::string_view text, std::size_t i, std::string* out) {
  const std::size_t open = text.find('(', i + 2);
  if (open == std::string_view::npos || open - (i + 2) > 16) return i;
  const std::string close = ")" + std::string(text.substr(i + 2, open - (i + 2))) + "\"";
  const std::size_t end = text.find(close, open + 1);
  const std::size_t past = end == std::string_view::npos ? text.size() : end + close.size();
  out->append(text.substr(i, past - i));
  return past;
}

bool IdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// One space where whitespace or a comment was, none at the start or end of a line.
void Space(std::string* out) {
  if (!out->empty() && out->back() != ' ' && out->back() != '\n') out->push_back(' ');
}

}  // namespace

std::string StripComments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '/' && next == '/') {
      // A line comment ends at a newline that is not escaped by a trailing backslash.
      std::size_t j = i + 2;
      while (j < text.size() && !(text[j] == '\n' && text[j - 1] != '\\'))
        ++j;
      Space(&out);
      i = j;  // the newline itself is kept
    } else if (c == '/' && next == '*') {
      const std::size_t end = text.find("*/", i + 2);
      Space(&out);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else if (c == 'R' && next == '"' &&
               (i == 0 || !IdentChar(text[i - 1]) || text[i - 1] == 'u' || text[i - 1] == 'U' ||
                text[i - 1] == 'L' || text[i - 1] == '8')) {
      const std::size_t past = CopyRaw(text, i, &out);
      if (past == i) {
        out.push_back(c);
        ++i;
      } else {
        i = past;
      }
    } else if (c == '"' || (c == '\'' && (i == 0 || !IdentChar(text[i - 1])))) {
      // A ' after an identifier character is a digit separator (1'000), not a literal.
      i = CopyQuoted(text, i, &out);
    } else if (c == ' ' || c == '\t' || c == '\r') {
      Space(&out);
      ++i;
    } else if (c == '\n') {
      if (!out.empty() && out.back() == ' ') out.pop_back();
      out.push_back('\n');
      ++i;
    } else {
      out.push_back(c);
      ++i;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace af::toolchain
