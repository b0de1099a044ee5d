// The tokenizer for FX statements.
#include "py_lexer.h"

#include <cctype>

namespace af::importers::fx {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool IsDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A quoted string starting at text[i] (the quote); returns the offset past the closing quote.
std::size_t ReadString(std::string_view text, std::size_t i, std::string& out) {
  const char q = text[i];
  const std::size_t start = i;
  ++i;
  while (i < text.size()) {
    const char c = text[i];
    if (c == q) return i + 1;
    if (c == '\\') {
      if (i + 1 >= text.size()) break;
      const char e = text[i + 1];
      i += 2;
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case '0':
          out += '\0';
          break;
        case 'x': {
          const int hi = i < text.size() ? HexValue(text[i]) : -1;
          const int lo = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
          if (hi < 0 || lo < 0) throw LexError{"bad \\x escape in a string", i};
          out += static_cast<char>(hi * 16 + lo);
          i += 2;
          break;
        }
        default:
          out += e;  // \\, \', \" and anything else taken literally
      }
      continue;
    }
    out += c;
    ++i;
  }
  throw LexError{"unterminated string", start};
}

}  // namespace

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> toks;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '#') break;
    Token t;
    t.begin = i;
    // String prefixes (b'', r'', f'') are read as plain strings.
    if ((c == 'b' || c == 'r' || c == 'f' || c == 'u' || c == 'B' || c == 'R') &&
        i + 1 < text.size() && (text[i + 1] == '\'' || text[i + 1] == '"')) {
      ++i;
    }
    if (text[i] == '\'' || text[i] == '"') {
      t.kind = Token::Kind::kString;
      i = ReadString(text, i, t.text);
    } else if (IsIdentStart(c)) {
      t.kind = Token::Kind::kName;
      while (i < text.size() && IsIdentChar(text[i]))
        ++i;
      t.text = std::string(text.substr(t.begin, i - t.begin));
    } else if (IsDigit(c) || (c == '.' && i + 1 < text.size() && IsDigit(text[i + 1]))) {
      bool is_float = false;
      while (i < text.size() && IsDigit(text[i]))
        ++i;
      if (i < text.size() && text[i] == '.') {
        is_float = true;
        ++i;
        while (i < text.size() && IsDigit(text[i]))
          ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && IsDigit(text[j])) {
          is_float = true;
          i = j;
          while (i < text.size() && IsDigit(text[i]))
            ++i;
        }
      }
      if (i < text.size() && IsIdentChar(text[i])) throw LexError{"malformed number", t.begin};
      t.kind = is_float ? Token::Kind::kFloat : Token::Kind::kInt;
      t.text = std::string(text.substr(t.begin, i - t.begin));
    } else {
      static constexpr std::string_view kTwo[] = {
          "**", "//", "==", "!=", "<=", ">=", "->", "<<", ">>"};
      t.kind = Token::Kind::kOp;
      bool matched = false;
      for (auto op : kTwo) {
        if (text.substr(i, 2) == op) {
          t.text = std::string(op);
          i += 2;
          matched = true;
          break;
        }
      }
      if (!matched) {
        static constexpr std::string_view kOne = "()[]{},:=.+-*/%<>@~&|^;";
        if (kOne.find(c) == std::string_view::npos) {
          throw LexError{std::string("unexpected character '") +
                             (std::isprint(static_cast<unsigned char>(c)) != 0
                                  ? std::string(1, c)
                                  : "\\x" + std::to_string(static_cast<unsigned char>(c))) +
                             "'",
                         i};
        }
        t.text = std::string(1, c);
        ++i;
      }
    }
    t.end = i;
    toks.push_back(std::move(t));
  }
  Token end;
  end.kind = Token::Kind::kEnd;
  end.begin = end.end = i;
  toks.push_back(end);
  return toks;
}

}  // namespace af::importers::fx
