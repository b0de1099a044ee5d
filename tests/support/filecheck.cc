// FileCheck-style matching: compiles each directive's pattern to a regex and walks the input.
#include "filecheck.h"

#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace af::test {
namespace {

enum class Dir { kCheck, kNext, kSame, kNot, kLabel, kEmpty };

struct Directive {
  Dir kind;
  std::string pattern;
  int line;  // line in the check text, 1-based
};

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<Directive> ParseChecks(const std::string& checks) {
  static const std::vector<std::pair<std::string, Dir>> kPrefixes = {
      {"CHECK-NEXT:", Dir::kNext},   {"CHECK-SAME:", Dir::kSame},   {"CHECK-NOT:", Dir::kNot},
      {"CHECK-LABEL:", Dir::kLabel}, {"CHECK-EMPTY:", Dir::kEmpty}, {"CHECK:", Dir::kCheck}};
  std::vector<Directive> out;
  std::istringstream in(checks);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    for (const auto& [prefix, kind] : kPrefixes) {
      const auto pos = line.find(prefix);
      if (pos != std::string::npos) {
        out.push_back({kind, Trim(line.substr(pos + prefix.size())), n});
        break;
      }
    }
  }
  return out;
}

std::string EscapeRegex(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (out.size() < 3 || out.substr(out.size() - 3) != "[ \\t]+") {
        out += "[ \\t]+";
      }
      continue;
    }
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

// Builds a regex for a pattern, with captures substituted. Returns the regex and the capture
// group index of each new variable definition.
std::string BuildRegex(const std::string& pattern, const std::map<std::string, std::string>& vars,
                       std::vector<std::pair<std::string, int>>* defs, std::string* error) {
  std::string re;
  int group = 0;
  size_t i = 0;
  while (i < pattern.size()) {
    if (pattern.compare(i, 2, "{{") == 0) {
      const auto end = pattern.find("}}", i + 2);
      if (end == std::string::npos) {
        *error = "unterminated {{";
        return "";
      }
      const std::string inner = pattern.substr(i + 2, end - i - 2);
      re += "(?:" + inner + ")";
      group += static_cast<int>(std::regex(inner).mark_count());
      i = end + 2;
    } else if (pattern.compare(i, 2, "[[") == 0) {
      const auto end = pattern.find("]]", i + 2);
      if (end == std::string::npos) {
        *error = "unterminated [[";
        return "";
      }
      const std::string inner = pattern.substr(i + 2, end - i - 2);
      const auto colon = inner.find(':');
      if (colon == std::string::npos) {
        const auto it = vars.find(inner);
        if (it == vars.end()) {
          *error = "undefined variable [[" + inner + "]]";
          return "";
        }
        re += EscapeRegex(it->second);
      } else {
        const std::string sub = inner.substr(colon + 1);
        ++group;
        defs->push_back({inner.substr(0, colon), group});
        re += "(" + sub + ")";
        group += static_cast<int>(std::regex(sub).mark_count());
      }
      i = end + 2;
    } else {
      size_t next = pattern.size();
      for (const char* tok : {"{{", "[["}) {
        const auto p = pattern.find(tok, i);
        if (p != std::string::npos && p < next) next = p;
      }
      re += EscapeRegex(pattern.substr(i, next - i));
      i = next;
    }
  }
  return re;
}

struct Lines {
  std::vector<std::string> text;
  explicit Lines(const std::string& s) {
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line))
      text.push_back(line);
  }
};

struct Pos {
  size_t line = 0;
  size_t col = 0;
};

}  // namespace

FileCheckResult FileCheck(const std::string& input, const std::string& checks) {
  const auto dirs = ParseChecks(checks);
  if (dirs.empty()) return {false, "no CHECK directives in the check text"};
  const Lines lines(input);
  std::map<std::string, std::string> vars;
  Pos cur;                          // where the next search starts
  std::optional<size_t> last_line;  // line of the previous positive match
  std::vector<const Directive*> pending_not;

  auto fail = [&](const Directive& d, const std::string& why) {
    std::ostringstream ss;
    ss << "check line " << d.line << " (" << d.pattern << "): " << why;
    if (last_line) ss << " [previous match on input line " << (*last_line + 1) << "]";
    return FileCheckResult{false, ss.str()};
  };

  // Searches line l from column c; on a match returns the match end column and records captures.
  auto match_in_line = [&](const Directive& d, size_t l, size_t c, size_t* begin_col,
                           size_t* end_col, std::string* error) -> bool {
    std::vector<std::pair<std::string, int>> defs;
    const std::string re_text = BuildRegex(d.pattern, vars, &defs, error);
    if (!error->empty()) return false;
    std::regex re;
    try {
      re = std::regex(re_text);
    } catch (const std::regex_error& e) {
      *error = std::string("bad regex: ") + e.what();
      return false;
    }
    std::smatch m;
    const std::string& s = lines.text[l];
    if (c > s.size()) return false;
    const std::string tail = s.substr(c);
    if (!std::regex_search(tail, m, re)) return false;
    for (const auto& [name, g] : defs)
      vars[name] = m[g].str();
    *begin_col = c + static_cast<size_t>(m.position(0));
    *end_col = c + static_cast<size_t>(m.position(0) + m.length(0));
    return true;
  };

  auto check_nots = [&](size_t from_line, size_t from_col, size_t to_line,
                        size_t to_col) -> std::optional<FileCheckResult> {
    for (const Directive* d : pending_not) {
      for (size_t l = from_line; l <= to_line && l < lines.text.size(); ++l) {
        std::string err;
        size_t b = 0;
        size_t e = 0;
        const size_t c = l == from_line ? from_col : 0;
        if (match_in_line(*d, l, c, &b, &e, &err) && (l < to_line || b < to_col)) {
          return fail(*d, "CHECK-NOT pattern found on input line " + std::to_string(l + 1) + ": " +
                              lines.text[l]);
        }
        if (!err.empty()) return fail(*d, err);
      }
    }
    pending_not.clear();
    return std::nullopt;
  };

  for (const Directive& d : dirs) {
    std::string err;
    size_t b = 0;
    size_t e = 0;
    switch (d.kind) {
      case Dir::kNot:
        pending_not.push_back(&d);
        break;
      case Dir::kCheck:
      case Dir::kLabel: {
        bool found = false;
        for (size_t l = cur.line; l < lines.text.size(); ++l) {
          if (match_in_line(d, l, l == cur.line ? cur.col : 0, &b, &e, &err)) {
            if (auto r = check_nots(cur.line, cur.col, l, b)) return *r;
            cur = {l, e};
            last_line = l;
            found = true;
            break;
          }
          if (!err.empty()) return fail(d, err);
        }
        if (!found) return fail(d, "pattern not found");
        break;
      }
      case Dir::kNext:
      case Dir::kEmpty: {
        if (!last_line) return fail(d, "CHECK-NEXT/EMPTY needs a previous match");
        const size_t l = *last_line + 1;
        if (l >= lines.text.size()) return fail(d, "no next line");
        if (d.kind == Dir::kEmpty) {
          if (!Trim(lines.text[l]).empty()) {
            return fail(d, "next line is not empty: " + lines.text[l]);
          }
          e = 0;
        } else if (!match_in_line(d, l, 0, &b, &e, &err)) {
          if (!err.empty()) return fail(d, err);
          return fail(d, "not on the next line, which is: " + lines.text[l]);
        }
        if (auto r = check_nots(cur.line, cur.col, l, b)) return *r;
        cur = {l, e};
        last_line = l;
        break;
      }
      case Dir::kSame: {
        if (!last_line) return fail(d, "CHECK-SAME needs a previous match");
        if (!match_in_line(d, *last_line, cur.col, &b, &e, &err)) {
          if (!err.empty()) return fail(d, err);
          return fail(d, "not on the same line: " + lines.text[*last_line]);
        }
        cur.col = e;
        break;
      }
    }
  }
  if (!pending_not.empty()) {
    if (auto r = check_nots(cur.line, cur.col, lines.text.size(), 0)) return *r;
  }
  return {true, ""};
}

}  // namespace af::test
