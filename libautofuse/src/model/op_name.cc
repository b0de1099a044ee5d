// OpName: printing and parsing of dotted op names.
#include "autofuse/model/op_name.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace af::model {
namespace {

bool IsIdent(std::string_view s) {
  if (s.empty()) return false;
  if (std::isalpha(static_cast<unsigned char>(s[0])) == 0 && s[0] != '_') return false;
  return std::ranges::all_of(
      s, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

std::optional<std::vector<std::string_view>> SplitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view part =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!IsIdent(part)) return std::nullopt;
    parts.push_back(part);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string Join(const std::vector<std::string_view>& parts, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += '.';
    out += parts[i];
  }
  return out;
}

}  // namespace

std::string OpName::ToString() const {
  std::string s = ns;
  if (!s.empty()) s += '.';
  s += name;
  if (!overload.empty()) s += "." + overload;
  return s;
}

std::optional<OpName> ParseOpName(std::string_view text) {
  constexpr std::string_view kPrefix = "torch.ops.";
  const bool prefixed = text.substr(0, kPrefix.size()) == kPrefix;
  if (prefixed) text.remove_prefix(kPrefix.size());
  const auto parts = SplitDots(text);
  if (!parts) return std::nullopt;
  const auto& p = *parts;
  OpName op;
  if (prefixed) {
    if (p.size() < 2 || p.size() > 3) return std::nullopt;
    op.ns = p[0];
    op.name = p[1];
    if (p.size() == 3) op.overload = p[2];
    return op;
  }
  if (p.size() == 3) {
    op.ns = p[0];
    op.name = p[1];
    op.overload = p[2];
  } else {
    op.ns = Join(p, 0, p.size() - 1);
    op.name = p.back();
  }
  return op;
}

}  // namespace af::model
