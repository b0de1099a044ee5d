#include "dump_lines.h"

#include <cctype>

#include "../common/bracket_scan.h"
#include "autofuse/support/strings.h"

namespace af::importers::inductor {
namespace {

// `[2026-03-12 19:26:39] [RANK0] [DEBUG] ` → its length, or 0 when the line has no such prefix.
std::size_t LogPrefixLength(std::string_view l) {
  std::size_t pos = 0;
  int groups = 0;
  while (groups < 3) {
    if (pos >= l.size() || l[pos] != '[') return 0;
    const std::size_t close = l.find(']', pos);
    if (close == std::string_view::npos || close - pos > 40) return 0;
    const std::string_view inner = l.substr(pos + 1, close - pos - 1);
    if (groups == 1 && !StartsWith(inner, "RANK")) return 0;
    pos = close + 1;
    if (pos < l.size() && l[pos] == ' ') ++pos;
    ++groups;
  }
  return pos;
}

}  // namespace

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(s[0])) != 0) return false;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  return true;
}

std::string_view DumpLine::Stripped() const {
  return TrimSpace(text);
}

std::vector<DumpLine> SplitDumpLines(std::string_view text) {
  std::vector<DumpLine> out;
  std::size_t start = 0;
  int no = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view l = text.substr(start, nl - start);
    ++no;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    DumpLine d;
    d.no = no;
    const std::size_t p = LogPrefixLength(l);
    if (p != 0) {
      d.log_start = true;
      l.remove_prefix(p);
      if (StartsWith(l, "Codegen [")) {
        const std::size_t close = l.find("] ");
        if (close != std::string_view::npos) l.remove_prefix(close + 2);
      }
    }
    d.text = std::string(l);
    int width = 0;
    for (char c : d.text) {
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        width = (width / 8 + 1) * 8;
      } else {
        break;
      }
    }
    d.indent = width;
    d.blank = TrimSpace(d.text).empty();
    out.push_back(std::move(d));
    if (nl == text.size()) break;
    start = nl + 1;
  }
  return out;
}

int BracketDepth(std::string_view s) {
  return BracketDelta(s, HashComments::kInclude);
}

}  // namespace af::importers::inductor
