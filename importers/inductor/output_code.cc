// The output_code.py reader: one pass over the lines that tracks triple-quoted strings (kernel
// sources are skipped, artifacts kept), the comment block above each kernel definition, and the
// body of `def call(args):`.
#include "autofuse/importers/output_code.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "dump_lines.h"

namespace af::importers::inductor {
namespace {

std::vector<std::string> SplitList(std::string_view s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) comma = s.size();
    const std::string_view part = TrimSpace(s.substr(start, comma - start));
    if (!part.empty()) out.emplace_back(part);
    start = comma + 1;
  }
  return out;
}

// "[a, b], Original ATen: [aten.x]" style comment → source nodes and aten ops.
void ReadProvenance(std::string_view c, OutputKernel& k) {
  const std::size_t sn = c.find("Source Nodes: [");
  if (sn != std::string_view::npos) {
    const std::size_t open = sn + 14;
    const std::size_t close = c.find(']', open);
    if (close != std::string_view::npos)
      k.source_nodes = SplitList(c.substr(open + 1, close - open - 1));
  }
  const std::size_t at = c.find("Original ATen: ");
  if (at != std::string_view::npos) {
    std::string_view rest = TrimSpace(c.substr(at + 15));
    if (!rest.empty() && rest.front() == '[') {
      const std::size_t close = rest.find(']');
      rest = rest.substr(1, close == std::string_view::npos ? rest.size() - 1 : close - 1);
    }
    k.aten_ops = SplitList(rest);
  }
}

// Occurrences of a triple quote in `s` (outside of nothing: good enough for generated code).
int CountTriple(std::string_view s, std::string_view q) {
  int c = 0;
  for (std::size_t p = s.find(q); p != std::string_view::npos; p = s.find(q, p + 3))
    ++c;
  return c;
}

// A Python identifier at s[pos...]; its length (0 when none).
std::size_t IdentAt(std::string_view s, std::size_t pos) {
  std::size_t e = pos;
  while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) != 0 || s[e] == '_'))
    ++e;
  if (e == pos || std::isdigit(static_cast<unsigned char>(s[pos])) != 0) return 0;
  return e - pos;
}

// `name = async_compile.method(` / `name = async_compile_ascendc(` at column 0.
bool MatchKernelDef(std::string_view s, std::string* name, std::string* method) {
  const std::size_t n = IdentAt(s, 0);
  if (n == 0) return false;
  std::string_view rest = s.substr(n);
  if (StartsWith(rest, " = async_compile_ascendc(")) {
    *name = std::string(s.substr(0, n));
    *method = "ascendc";
    return true;
  }
  if (!StartsWith(rest, " = async_compile.")) return false;
  rest.remove_prefix(17);
  const std::size_t m = IdentAt(rest, 0);
  if (m == 0 || m >= rest.size() || rest[m] != '(') return false;
  *name = std::string(s.substr(0, n));
  *method = std::string(rest.substr(0, m));
  return true;
}

// `<kernel>_artifacts['key'] = r\'\'\'rest` → kernel, key, quote, rest.
bool MatchArtifact(std::string_view s, std::string* kernel, std::string* key, std::string* quote,
                   std::string* rest) {
  const std::size_t n = IdentAt(s, 0);
  if (n <= 10 || !EndsWith(s.substr(0, n), "_artifacts")) return false;
  std::string_view r = s.substr(n);
  if (!StartsWith(r, "['")) return false;
  const std::size_t k = r.find("'] = ");
  if (k == std::string_view::npos) return false;
  *kernel = std::string(s.substr(0, n - 10));
  *key = std::string(r.substr(2, k - 2));
  r.remove_prefix(k + 5);
  if (StartsWith(r, "r")) r.remove_prefix(1);
  if (StartsWith(r, "\'\'\'") || StartsWith(r, "\"\"\"")) {
    *quote = std::string(r.substr(0, 3));
    *rest = std::string(r.substr(3));
    return true;
  }
  return false;
}

}  // namespace

bool LooksLikeOutputCode(std::string_view text) {
  const std::string_view head = text.substr(0, 1 << 20);
  return (head.find("AsyncCompile") != std::string_view::npos ||
          head.find("async_compile") != std::string_view::npos) &&
         text.find("def call(args)") != std::string_view::npos;
}

OutputCode ParseOutputCode(const std::string& text, const std::string& file) {
  OutputCode oc;
  oc.file = file;
  const std::vector<DumpLine> lines = SplitDumpLines(text);
  std::vector<std::string> comments;  // the comment block above the next definition
  std::map<std::string, std::map<std::string, std::string>> artifacts;
  std::map<std::string, std::vector<std::string>> artifact_comments;  // above `<k>_artifacts = {}`
  std::string quote;               // the open triple quote, when inside a string
  int string_line = 0;             // where it opened
  OutputKernel* owner = nullptr;   // the kernel whose source the string is
  std::string* capture = nullptr;  // the artifact being read
  bool in_call = false;
  for (const DumpLine& l : lines) {
    const std::string& s = l.text;
    if (!quote.empty()) {
      const std::size_t close = s.find(quote);
      const std::string_view part =
          close == std::string::npos ? std::string_view(s) : std::string_view(s).substr(0, close);
      if (owner != nullptr) owner->source_bytes += part.size() + 1;
      if (capture != nullptr) {
        *capture += part;
        if (close == std::string::npos) *capture += "\n";
      }
      if (close != std::string::npos) {
        // a second triple quote on the closing line would open another string
        if (CountTriple(std::string_view(s).substr(close + 3), quote) % 2 == 0) {
          quote.clear();
          owner = nullptr;
          capture = nullptr;
        }
      }
      continue;
    }
    const std::string_view t = TrimSpace(s);
    std::string kname;
    std::string method;
    std::string akey;
    std::string aquote;
    std::string arest;
    if (StartsWith(t, "#")) {
      if (StartsWith(t, "# AOT ID:")) oc.aot_id = std::string(TrimSpace(t.substr(9)));
      if (!in_call) comments.emplace_back(t);
      continue;
    }
    if (l.blank) continue;
    if (l.indent == 0) in_call = StartsWith(t, "def call(");
    OutputKernel* defined = nullptr;
    if (l.indent == 0 && MatchKernelDef(s, &kname, &method)) {
      OutputKernel k;
      k.name = kname;
      k.backend = method;
      k.line = l.no;
      if (auto it = artifact_comments.find(k.name); it != artifact_comments.end())
        comments.insert(comments.begin(), it->second.begin(), it->second.end());
      bool fragment = false;
      for (const auto& c : comments) {
        if (StartsWith(c, "# kernel path:")) k.kernel_path = TrimSpace(c.substr(14));
        if (c.find("Original ATen") != std::string::npos) ReadProvenance(c, k);
        if (StartsWith(c, "# Graph fragment:")) {
          fragment = true;
          continue;
        }
        if (fragment && StartsWith(c, "#   ")) k.graph_fragment.push_back(c.substr(4));
      }
      oc.kernels.push_back(std::move(k));
      defined = &oc.kernels.back();
    } else if (l.indent == 0 && MatchArtifact(s, &kname, &akey, &aquote, &arest)) {
      std::string& slot = artifacts[kname][akey];
      const std::string q = aquote;
      const std::string rest = arest;
      const std::size_t close = rest.find(q);
      if (close != std::string::npos) {
        slot = rest.substr(0, close);
      } else {
        slot = rest.empty() ? "" : rest + "\n";
        quote = q;
        string_line = l.no;
        capture = &slot;
      }
      comments.clear();
      continue;
    } else if (l.indent == 0 && EndsWith(t, "_artifacts = {}")) {
      artifact_comments[std::string(t.substr(0, t.size() - 15))] = comments;
    } else if (in_call && l.indent > 0) {
      for (std::size_t p = s.find("extern_kernels."); p != std::string::npos;
           p = s.find("extern_kernels.", p + 1)) {
        const std::size_t n = IdentAt(s, p + 15);
        if (n != 0 && p + 15 + n < s.size() && s[p + 15 + n] == '(')
          ++oc.extern_calls[s.substr(p + 15, n)];
      }
      // `kernel.run(` or `[x = ]kernel(`
      std::string_view callee = t;
      const std::size_t eq = callee.find(" = ");
      if (eq != std::string_view::npos && callee.find('(') > eq) callee.remove_prefix(eq + 3);
      const std::string callee_name(callee.substr(0, IdentAt(callee, 0)));
      if (!callee_name.empty()) {
        for (const auto& k : oc.kernels) {
          if (k.name == callee_name) {
            ++oc.kernel_launches;
            break;
          }
        }
      }
    }
    comments.clear();
    for (const char* q : {"'''", "\"\"\""}) {
      if (CountTriple(s, q) % 2 == 1) {
        quote = q;
        string_line = l.no;
        owner = defined;
        const std::size_t open = s.find(q);
        if (owner != nullptr) owner->source_bytes += s.size() - open - 3;
        break;
      }
    }
  }
  if (!quote.empty()) {
    throw InputError(SourceLoc{file, string_line, 0},
                     "a string opened with " + quote + " never closes (truncated file?)");
  }
  for (auto& k : oc.kernels) {
    auto it = artifacts.find(k.name);
    if (it != artifacts.end()) k.artifacts = it->second;
  }
  return oc;
}

OutputCode LoadOutputCodeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path.string(), 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ParseOutputCode(ss.str(), path.string());
}

}  // namespace af::importers::inductor
