// Parsing FX type annotations into model value types.
#include "fx_annotation.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "autofuse/model/dtype_code.h"
#include "autofuse/support/strings.h"

namespace af::importers::fx {
namespace {

// The offset just past the bracket that closes text[open] ('['), or npos.
std::size_t CloseBracket(std::string_view text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') {
      if (--depth == 0) return c == ']' ? i + 1 : std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// "[a, b(c, d), e]" at text[open..close) -> sizes; offsets are reported relative to `base`.
std::vector<sym::Expr> SizeList(std::string_view text, std::size_t open, std::size_t close) {
  std::vector<sym::Expr> out;
  const std::string_view inner = text.substr(open + 1, close - open - 2);
  if (TrimSpace(inner).empty()) return out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      const std::string_view part = TrimSpace(inner.substr(start, i - start));
      if (part.empty()) throw AnnotationError{"empty size", open + 1 + start};
      try {
        out.push_back(sym::Parse(part));
      } catch (const sym::Error& e) {
        throw AnnotationError{"bad size '" + std::string(part) + "': " + e.what(),
                              open + 1 + start};
      }
      start = i + 1;
    }
  }
  return out;
}

bool LooksRelational(std::string_view s) {
  static constexpr std::string_view kMarks[] = {"==",   "!=",  "<",    ">",    "Eq(",
                                                "Ne(",  "Lt(", "Le(",  "Gt(",  "Ge(",
                                                "And(", "Or(", "Not(", "True", "False"};
  return std::ranges::any_of(
      kMarks, [s](std::string_view m) { return s.find(m) != std::string_view::npos; });
}

bool LooksFloating(std::string_view s) {
  if (s.find('/') != std::string_view::npos) return true;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i - 1])) != 0 &&
        std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0) {
      return true;
    }
  }
  return s.find("inf") != std::string_view::npos || s.find("nan") != std::string_view::npos;
}

model::ValueType SymAnnotation(std::string_view inner) {
  inner = TrimSpace(inner);
  if (inner.empty()) throw AnnotationError{"empty Sym()", 4};
  try {
    return model::ValueType::SymInt(sym::Parse(inner));
  } catch (const sym::Error&) {
  }
  if (LooksRelational(inner)) return model::ValueType::SymBool(std::string(inner));
  if (LooksFloating(inner)) return model::ValueType::SymFloat(std::string(inner));
  model::ValueType t;
  t.kind = model::ValueKind::kSymInt;
  t.text = std::string(inner);
  return t;
}

}  // namespace

std::optional<model::ValueType> ParseAnnotation(std::string_view text) {
  text = TrimSpace(text);
  if (text.substr(0, 4) == "Sym(") {
    if (text.back() != ')') throw AnnotationError{"Sym( without its closing parenthesis", 3};
    return SymAnnotation(text.substr(4, text.size() - 5));
  }
  const std::size_t open = text.find('[');
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  const std::string_view code = text.substr(0, open);
  if (!model::DTypeFromFxCode(code)) return std::nullopt;
  const std::size_t close = CloseBracket(text, open);
  if (close == std::string_view::npos) throw AnnotationError{"unbalanced '['", open};
  model::ValueType t;
  t.kind = model::ValueKind::kTensor;
  t.dtype = *model::DTypeFromFxCode(code);
  t.dtype_code = std::string(code);
  t.shape = SizeList(text, open, close);
  std::size_t at = close;
  if (at < text.size() && text[at] == '[') {
    const std::size_t sclose = CloseBracket(text, at);
    if (sclose == std::string_view::npos) throw AnnotationError{"unbalanced '['", at};
    t.strides = SizeList(text, at, sclose);
    if (t.strides->size() != t.shape.size()) {
      throw AnnotationError{"the strides do not match the sizes in rank", at};
    }
    at = sclose;
  }
  const std::string_view device = TrimSpace(text.substr(at));
  for (char c : device) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != ':') {
      throw AnnotationError{"unexpected text '" + std::string(device) + "' after the sizes", at};
    }
  }
  t.device = std::string(device);
  return t;
}

}  // namespace af::importers::fx
