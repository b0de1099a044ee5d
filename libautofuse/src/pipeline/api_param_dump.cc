// api_param_<NNNNN>_<impl graph>.txt (see api_param_dump.h). File layout after AutoFuse's
// CodegenApiParam::DumpGraphApiParams: a banner with `Graph: <name>`, `ApiParams:`, one
// `  [i] <name> : <Type>` entry per node (with a `{ … }` block when codegen wrote calls for it),
// and the `End of Dump` banner.
#include "autofuse/pipeline/api_param_dump.h"

#include <cctype>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace af::pipeline {
namespace {

constexpr std::string_view kImplMark = "// Impl graph ";
constexpr std::string_view kSync[] = {"PipeBarrier", "SetFlag", "WaitFlag", "SyncAll"};

struct NodeCalls {
  std::string header;  // "[3] load_x_to_fp32 : Cast"
  std::vector<std::string> calls;
  std::string output;  // the LocalTensor the block declares
};

struct ImplGraph {
  std::string name;
  std::vector<NodeCalls> nodes;
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0)
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0)
    s.remove_suffix(1);
  return s;
}

// The API name of a statement that is a call of an AscendC API (CamelCase, optional template
// arguments, then '('), else "".
std::string CallName(std::string_view t) {
  std::size_t i = 0;
  if (t.empty() || std::isupper(static_cast<unsigned char>(t[0])) == 0) return {};
  while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) != 0 || t[i] == '_'))
    ++i;
  std::size_t j = i;
  if (j < t.size() && t[j] == '<') {
    int depth = 0;
    for (; j < t.size(); ++j) {
      depth += t[j] == '<' ? 1 : t[j] == '>' ? -1 : 0;
      if (depth == 0) break;
    }
    ++j;
  }
  if (j >= t.size() || t[j] != '(') return {};
  return std::string(t.substr(0, i));
}

std::string Templates(std::string_view call) {
  const std::size_t lt = call.find('<');
  const std::size_t paren = call.find('(');
  if (lt == std::string_view::npos || lt > paren) return {};
  const std::size_t gt = call.rfind('>', paren);
  return gt == std::string_view::npos ? std::string()
                                      : std::string(call.substr(lt + 1, gt - lt - 1));
}

std::vector<ImplGraph> ReadKernel(const std::string& text) {
  std::vector<ImplGraph> out;
  std::istringstream in(text);
  std::string raw;
  while (std::getline(in, raw)) {
    const std::string_view t = Trim(raw);
    if (t.substr(0, kImplMark.size()) == kImplMark) {
      std::string_view rest = t.substr(kImplMark.size());
      rest = rest.substr(0, rest.find(' '));
      out.push_back({std::string(rest), {}});
      continue;
    }
    if (out.empty()) continue;
    auto& nodes = out.back().nodes;
    if (t.size() > 4 && t.substr(0, 4) == "// [") {
      nodes.push_back({std::string(t.substr(3)), {}, {}});
      continue;
    }
    if (nodes.empty()) continue;
    if (t.substr(0, 12) == "LocalTensor<" && nodes.back().output.empty()) {
      const std::size_t sp = t.find("> ");
      const std::size_t eq = t.find(" =");
      if (sp != std::string_view::npos && eq != std::string_view::npos && eq > sp + 2)
        nodes.back().output = std::string(t.substr(sp + 2, eq - sp - 2));
      continue;
    }
    if (!CallName(t).empty()) nodes.back().calls.emplace_back(t);
  }
  return out;
}

std::string Text(const ImplGraph& g) {
  const std::string rule(80, '=');
  std::ostringstream o;
  o << rule << "\nGraph: " << g.name << "\n" << rule << "\n\nApiParams:\n";
  for (const auto& n : g.nodes) {
    o << "  " << n.header;
    if (n.calls.empty()) {
      o << "\n";
      continue;
    }
    std::string api;
    std::string templ;
    for (const auto& c : n.calls) {
      const std::string name = CallName(c);
      bool sync = false;
      for (auto s : kSync)
        sync = sync || name == s;
      if (!sync && api.empty()) {
        api = name;
        templ = Templates(c);
      }
    }
    o << " {\n";
    if (!api.empty()) o << "    .api_name = " << api << "\n";
    if (!templ.empty()) o << "    .template_params = {" << templ << "}\n";
    if (!n.output.empty()) o << "    .output_params = {\n      [0] " << n.output << "\n    }\n";
    o << "    .api_calls = {\n";
    for (const auto& c : n.calls)
      o << "      " << c << "\n";
    o << "    }\n  }\n";
  }
  o << rule << "\nEnd of Dump\n" << rule << "\n";
  return o.str();
}

// AutoFuse's file-name sanitising: letters, digits, '_', '-', '.' kept.
std::string SafeName(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.')
               ? c
               : '_';
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> ApiParamDumps(const codegen::GeneratedKernel& k,
                                                               int first) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : k.files) {
    if (!f.name.ends_with("_kernel.cc")) continue;
    for (const auto& g : ReadKernel(f.text)) {
      char num[16];
      std::snprintf(num, sizeof num, "%05d", first++);
      out.emplace_back(SafeName("api_param_" + std::string(num) + "_" + g.name + ".txt"), Text(g));
    }
  }
  return out;
}

}  // namespace af::pipeline
