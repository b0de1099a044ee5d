// AutoFuse DFX dump folders: a bounded walk that groups ascgraph_*.txt files by folder and graph
// name, orders the stages by their sequence number and pairs each with the ge_onnx file of the
// same dump call. See dfx_dump.h.
#include "autofuse/importers/dfx_dump.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <system_error>

#include "../common/folder_walk.h"
#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"

namespace af::importers::dfx {
namespace {

namespace fs = std::filesystem;

constexpr WalkLimits kWalkLimits{.max_depth = 8, .max_entries = 200000};
constexpr WalkLimits kSniffLimits{.max_depth = 4, .max_entries = 20000};  // IsDfxDumpInput
constexpr std::size_t kHeadBytes = 8192;

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string Head(const fs::path& p, std::size_t bytes) {
  std::ifstream in(p, std::ios::binary);
  std::string s(bytes, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return s;
}

// The `Graph: <name>` line of a dump's head (the three-view header or the legacy first line).
std::string GraphNameOf(const fs::path& p) {
  const std::string head = Head(p, kHeadBytes);
  std::size_t pos = 0;
  while (pos < head.size()) {
    std::size_t end = head.find('\n', pos);
    if (end == std::string::npos) end = head.size();
    const std::string_view l = TrimSpace(std::string_view(head).substr(pos, end - pos));
    if (StartsWith(l, "Graph:")) return std::string(TrimSpace(l.substr(6)));
    pos = end + 1;
  }
  return {};
}

// Stage names AutoFuse uses (reference §4.6), longest first, to split `<graph>_<stage>` when the
// file's graph name is unknown.
const std::vector<std::string>& KnownStages() {
  static const std::vector<std::string> kStages = [] {
    std::vector<std::string> v = {"AfterDeserialize",
                                  "AfterPreProcess",
                                  "AfterDtypeConsistency",
                                  "AfterGraphPass",
                                  "AfterMergeAxis",
                                  "AutoFuseBeforeRemoveDanglingNodes",
                                  "AutoFuseBeforeOptimize",
                                  "BaseFusedGraph",
                                  "BeforeUnfoldAscBackend",
                                  "AfterUnfoldAscBackend",
                                  "FusedGraphAfterUnfold",
                                  "AfterDoSameLoadCse",
                                  "AfterRemoveRedundantLoads",
                                  "BeforeAutoSchedule",
                                  "BeforeGroupPartition",
                                  "AfterConvertTranspose",
                                  "AfterConvertSplitToLoad",
                                  "AfterConvertConcatToStore",
                                  "AfterSplitConcat",
                                  "AfterConcatInputUnificationPass",
                                  "before_partition",
                                  "after_partition",
                                  "phase2graph_construct",
                                  "AfterDoTiling",
                                  "AutoFuseAfterOptimize",
                                  "_Subgraph_"};
    std::sort(v.begin(), v.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return v;
  }();
  return kStages;
}

// `<graph>_<stage>_<id>` → graph, stage, id, using the graph name from the file when known.
void SplitRest(std::string_view rest, const std::string& graph_hint, std::string* graph,
               std::string* stage, std::string* id) {
  // the trailing _<digits> is the graph id
  if (const std::size_t us = rest.rfind('_');
      us != std::string_view::npos && us + 1 < rest.size() &&
      std::all_of(rest.begin() + static_cast<long>(us) + 1, rest.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    *id = std::string(rest.substr(us + 1));
    rest = rest.substr(0, us);
  }
  if (!graph_hint.empty() && StartsWith(rest, graph_hint + "_")) {
    *graph = graph_hint;
    *stage = std::string(rest.substr(graph_hint.size() + 1));
    return;
  }
  for (const auto& s : KnownStages()) {
    if (!EndsWith(rest, s) || rest.size() <= s.size()) continue;
    std::string_view g = rest.substr(0, rest.size() - s.size());
    // impl graphs are dumped as <i>_<stage>
    std::size_t cut = g.size();
    if (!g.empty() && g.back() == '_') --cut;
    std::size_t k = cut;
    while (k > 0 && g[k - 1] >= '0' && g[k - 1] <= '9')
      --k;
    std::string st = s;
    if (k < cut && k > 0 && g[k - 1] == '_') {
      st = std::string(g.substr(k, cut - k)) + "_" + s;
      cut = k - 1;
    }
    *graph = graph_hint.empty() ? std::string(g.substr(0, cut)) : graph_hint;
    *stage = st;
    return;
  }
  *graph = graph_hint.empty() ? std::string(rest) : graph_hint;
  *stage = graph_hint.empty() ? std::string() : std::string(rest);
}

}  // namespace

std::string DfxGraph::Label() const {
  return folder.empty() || folder == "." ? name : folder + "/" + name;
}

std::optional<DumpFileName> ParseDumpFileName(std::string_view file_name, std::string_view prefix,
                                              std::string_view ext) {
  if (!StartsWith(file_name, prefix) || !EndsWith(file_name, ext)) return std::nullopt;
  std::string_view s =
      file_name.substr(prefix.size(), file_name.size() - prefix.size() - ext.size());
  std::size_t k = 0;
  while (k < s.size() && s[k] >= '0' && s[k] <= '9')
    ++k;
  if (k == 0 || k > 18 || k >= s.size() || s[k] != '_') return std::nullopt;
  DumpFileName out;
  (void)std::from_chars(s.data(), s.data() + k, out.seq);
  out.rest = std::string(s.substr(k + 1));
  if (out.rest.empty()) return std::nullopt;
  return out;
}

bool IsDfxDumpInput(const std::string& path) {
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_regular_file(p, ec)) {
    const std::string name = p.filename().string();
    if (ParseDumpFileName(name, "ascgraph_", ".txt")) return true;
    if (p.extension() != ".txt") return false;
    return LooksLikeAscGraphText(Head(p, 4096));
  }
  if (!fs::is_directory(p, ec)) return false;
  // A quick look: any ascgraph dump near the top (the walk stops at the first one).
  return WalkFiles(p, kSniffLimits, [](const fs::path& f) {
           return !ParseDumpFileName(f.filename().string(), "ascgraph_", ".txt");
         }) == WalkEnd::kStopped;
}

DfxDump DiscoverDfxDump(const fs::path& input) {
  DfxDump d;
  d.input = input;
  std::error_code ec;
  std::vector<fs::path> asc;
  std::vector<fs::path> onnx;
  if (fs::is_regular_file(input, ec)) {
    asc.push_back(input);
  } else if (fs::is_directory(input, ec)) {
    WalkFilesOrThrow(input, kWalkLimits, [&](const fs::path& f) {
      const std::string name = f.filename().string();
      if (ParseDumpFileName(name, "ascgraph_", ".txt")) {
        asc.push_back(f);
      } else if (ParseDumpFileName(name, "ge_onnx_", ".pbtxt")) {
        onnx.push_back(f);
      } else if (StartsWith(name, "py_code_") && EndsWith(name, ".py")) {
        d.py_code.push_back(f);
      }
    });
  } else {
    throw InputError(SourceLoc{input.string(), 0, 0}, "no such file or folder");
  }
  if (asc.empty()) {
    throw InputError(SourceLoc{input.string(), 0, 0},
                     "expected ascgraph_<NNNNN>_<graph>_<stage>_<id>.txt files (an AutoFuse DFX "
                     "dump), found none");
  }
  std::sort(d.py_code.begin(), d.py_code.end());
  // ge_onnx files by (folder, sequence number)
  std::map<std::pair<fs::path, std::uint64_t>, fs::path> onnx_by_seq;
  for (const auto& p : onnx) {
    const auto n = ParseDumpFileName(p.filename().string(), "ge_onnx_", ".pbtxt");
    onnx_by_seq.emplace(std::make_pair(p.parent_path(), n->seq), p);
  }
  std::map<std::pair<fs::path, std::uint64_t>, bool> onnx_used;
  std::map<std::pair<std::string, std::string>, DfxGraph> graphs;
  std::map<std::string, int> folders;
  const bool single = fs::is_regular_file(input, ec);
  for (const auto& p : asc) {
    const auto n = ParseDumpFileName(p.filename().string(), "ascgraph_", ".txt");
    DfxStage st;
    std::string graph;
    const std::string hint = GraphNameOf(p);
    if (n) {
      st.seq = n->seq;
      SplitRest(n->rest, hint, &graph, &st.stage, &st.graph_id);
    } else {
      graph = hint.empty() ? p.stem().string() : hint;
    }
    st.subgraph = st.stage.find("_Subgraph_") != std::string::npos;
    st.ascgraph = p;
    // The ge_onnx file of a dump call is the main graph's (subgraphs are dumped beside it).
    if (const auto it = onnx_by_seq.find({p.parent_path(), st.seq});
        it != onnx_by_seq.end() && n && !st.subgraph) {
      st.ge_onnx = it->second;
      onnx_used[it->first] = true;
    }
    std::string folder = ".";
    if (!single) {
      folder = fs::relative(p.parent_path(), input, ec).generic_string();
      if (ec || folder.empty()) folder = ".";
    }
    folders[folder] = 1;
    DfxGraph& g = graphs[{folder, graph}];
    g.folder = folder;
    g.name = graph;
    g.stages.push_back(std::move(st));
  }
  for (const auto& [k, p] : onnx_by_seq) {
    if (!onnx_used.contains(k)) d.ge_onnx_unpaired.push_back(p);
  }
  for (auto& [k, g] : graphs) {
    std::sort(g.stages.begin(), g.stages.end(), [](const DfxStage& a, const DfxStage& b) {
      return a.seq != b.seq ? a.seq < b.seq : a.ascgraph < b.ascgraph;
    });
    d.graphs.push_back(std::move(g));
  }
  std::stable_sort(d.graphs.begin(), d.graphs.end(), [](const DfxGraph& a, const DfxGraph& b) {
    if (a.folder != b.folder) return a.folder < b.folder;
    return a.stages.front().seq < b.stages.front().seq;
  });
  d.folders = folders.size();
  return d;
}

HintPick PickHintStage(const DfxGraph& g) {
  HintPick out;
  bool any = false;
  // Newest first. (An index loop: clang 14 cannot use libstdc++ 12's ranges::reverse_view.)
  for (std::size_t i = g.stages.size(); i-- > 0;) {
    const DfxStage& st = g.stages[i];
    if (st.subgraph) continue;
    any = true;
    AscGraphText t = LoadAscGraphTextFile(st.ascgraph);
    if (t.graph.type != ir::GraphType::kHint) continue;
    out.stage = &st;
    out.text = std::move(t);
    return out;
  }
  out.reason = any ? "every stage is an impl graph (tile/block axes): nothing to schedule"
                   : "only subgraph dumps";
  return out;
}

}  // namespace af::importers::dfx
