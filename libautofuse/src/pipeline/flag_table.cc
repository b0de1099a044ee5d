// The flag table and what is made from it (see flag_table.h). Names, defaults and ranges of the
// AutoFuse flags follow ../shared/reference/autofuse-reference.md § 7 (AUTOFUSE_FLAGS,
// AUTOFUSE_DFX_FLAGS, internal configs); the "ours" rows are this project's.
#include "autofuse/pipeline/flag_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <sstream>

#include "autofuse/support/strings.h"

namespace af::pipeline {
namespace {

using K = FlagKind;

constexpr char kFusion[] = "fusion (model graphs)";
constexpr char kTiling[] = "tiling solver";

// clang-format off
constexpr std::array kTable = {
  // ---- AUTOFUSE_FLAGS
  FlagSpec{"enable_autofuse", K::kBool, "true", 0, 0, "", "AUTOFUSE_FLAGS", kFusion,
           "false: nothing is fused; every op of a model graph falls back with reason "
           "AUTOFUSE_DISABLED (hint graphs are kernels already and compile as given)", "", false},
  FlagSpec{"autofuse_enable_pass", K::kList, "reduce,slice,transpose", 0, 0,
           "elemwise|broadcast|reduce|concat|slice|gather|transpose|pad|matmul", "AUTOFUSE_FLAGS",
           kFusion,
           "fusion kinds beyond elementwise/broadcast (always on); the list replaces the default; "
           "matmul: mm, bmm and addmm fuse with their neighbours into cube + vector kernels",
           "", false},
  FlagSpec{"autofuse_disable_pass", K::kList, "", 0, 0,
           "reduce|concat|slice|gather|transpose|pad|matmul", "AUTOFUSE_FLAGS", kFusion,
           "fusion kinds to turn off (applied after autofuse_enable_pass)", "", false},
  FlagSpec{"autofuse_enable_pgo", K::kBool, "false", 0, 0, "", "AUTOFUSE_FLAGS", kTiling,
           "profile-guided tiling: search candidate tilings (against the cost model: we have no "
           "device) for the bound sizes and keep the best in the kernel's PGO result file, which "
           "its tiling function reads", "", true},
  FlagSpec{"autofuse_enhance_precision_blacklist", K::kList, "", 0, 0, "", "AUTOFUSE_FLAGS",
           "schedule (normalize)",
           "AscIR op types (e.g. Exp,Add) that keep fp16/bf16 instead of the fp32 upcast of "
           "normalize (hint graphs; our front end's lowering of model graphs upcasts "
           "regardless)", "",
           false},
  // auto_fuse_config.h reads it from AUTOFUSE_FLAGS; we have no recomputation to bound.
  FlagSpec{"recomputation_threshold", K::kInt, "1", 0, 255, "", "AUTOFUSE_FLAGS", kFusion,
           "AutoFuse's lowering keeps a node's output in memory once more than N consumers "
           "read it and recomputes it inside each consumer otherwise (default 1)",
           "has no effect here: our decider never recomputes a node in several kernels; an "
           "output read by two kernels is written once and read twice, which is AutoFuse's "
           "behaviour at the default 1", false},
  // ---- AUTOFUSE_DFX_FLAGS
  FlagSpec{"codegen_compile_debug", K::kBool, "false", 0, 0, "", "AUTOFUSE_DFX_FLAGS",
           "dumps (debug_dir)",
           "write AutoFuse's tree under DEBUG_DIR/autofuse_compile_debug/: every stage's graph "
           "of every kernel, ge_onnx, py_code (runs with numpy), API parameter dumps, sources",
           "", false},
  FlagSpec{"debug_dir", K::kPath, "./", 0, 0, "", "AUTOFUSE_DFX_FLAGS", "dumps (debug_dir)",
           "root of the codegen_compile_debug tree", "", false},
  FlagSpec{"autofuse_att_algorithm", K::kChoice, "AxesReorder", 0, 0,
           "AxesReorder|HighPerf|Exhaustive", "AUTOFUSE_DFX_FLAGS", kTiling,
           "tiling solver: AxesReorder (UB-first greedy), HighPerf (local search), Exhaustive "
           "(ours: every tile x core count)", "", true},
  FlagSpec{"att_accuracy_level", K::kInt, "1", 0, 1, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "1: compare the solution with neighbouring core-count gears and keep the cheapest", "",
           true},
  FlagSpec{"att_ub_threshold", K::kPercent, "20", 0, 100, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "UB share in percent a UB/core trade-off tile keeps (default 20; 1 on ascend950)", "",
           true},
  FlagSpec{"att_corenum_threshold", K::kPercent, "40", 0, 100, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "trade UB for cores when fewer than this percent of the cores get work (default 40; "
           "100 on ascend950)", "", true},
  FlagSpec{"att_enable_multicore_ub_tradeoff", K::kBool, "false", 0, 0, "",
           "AUTOFUSE_DFX_FLAGS", kTiling,
           "shrink the tile so idle cores get work, within the two thresholds (default false; "
           "true on ascend950)", "", true},
  FlagSpec{"att_enable_small_shape_strategy", K::kBool, "false", 0, 0, "", "AUTOFUSE_DFX_FLAGS",
           kTiling, "AutoFuse's separate search for small shapes",
           "our solvers search small shapes the same way as large ones (AxesReorder's binary "
           "search is exact there), so there is no second strategy to turn on", false},
  FlagSpec{"att_profiling", K::kBool, "false", 0, 0, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "print each kernel's tiling solve time and the cases it tried", "", false},
  FlagSpec{"autofuse_enable_tiling_cache", K::kBool, "false", 0, 0, "", "AUTOFUSE_DFX_FLAGS",
           "generated tiling function",
           "the tiling function keeps its last decisions per thread and reuses them for the same "
           "shapes", "", true},
  FlagSpec{"autofuse_pgo_algo", K::kChoice, "core_select", 0, 0, "core_select|pruning",
           "AUTOFUSE_DFX_FLAGS", kTiling,
           "PGO search: core_select varies the core budget around the solver's choice, pruning "
           "keeps the top-n points and prices their neighbours", "", false},
  FlagSpec{"autofuse_pgo_step_max", K::kInt, "16", 1, 1024, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "PGO search steps (core_select: budgets within this many cores of the solver's "
           "block_dim; pruning: rounds)", "", false},
  FlagSpec{"autofuse_pgo_topn", K::kInt, "5", 1, 1024, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "PGO candidates kept (pruning's beam; the report lists them)", "", false},
  FlagSpec{"force_schedule_result", K::kInt, "", 0, 100, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "use this template (schedule result) index", "", false},
  FlagSpec{"force_tiling_case", K::kCase, "", 0, 0, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "use this tiling case: N (every group), N_R, or gG_N[_R],... per group of a "
           "multi-group kernel",
           "", false},
  FlagSpec{"force_template_op_name", K::kText, "", 0, 0, "", "AUTOFUSE_DFX_FLAGS", kTiling,
           "AutoFuse's template forcing by operator name",
           "our templates are indexed per kernel, not named by operator: use "
           "--force_schedule_result=N with the index afc tile lists", false},
  FlagSpec{"replace_kernel", K::kPath, "", 0, 0, "", "AUTOFUSE_DFX_FLAGS", "codegen",
           "take DIR/KERNEL/FILE (hand-edited sources) instead of what codegen wrote",
           "", false},
  // auto_fuse_config.h reads these two from AUTOFUSE_DFX_FLAGS.
  FlagSpec{"disable_lifting", K::kBool, "false", 0, 0, "", "AUTOFUSE_DFX_FLAGS", kFusion,
           "AutoFuse's lifting turns a fused op holding a single original op, or one of poor "
           "modelled performance, back into its original op; true skips that step",
           "has no effect here: our decider has no lifting step: a one-op group stays a kernel "
           "(AutoFuse's disable_lifting=true) and a poor fusion is refused before it is made "
           "(autofuse_fusion_gain_check)", false},
  FlagSpec{"skip_node_names_cfg", K::kPath, "", 0, 0, "", "AUTOFUSE_DFX_FLAGS", kFusion,
           "an .ini file whose [ByNodeName] / [ByNodeType] sections list, one a line, the model "
           "nodes (by name) and op types (aten.add.Tensor or add) kept out of every "
           "kernel (fallback code SKIP_NODE_CFG); an unreadable file is a warning and has no "
           "effect", "", false},
  // ---- AutoFuse internal configs (not read from the environment by AutoFuse)
  FlagSpec{"max_fusion_size", K::kInt, "64", 1, 100000, "", "internal", kFusion,
           "AscIR nodes per kernel (same as autofuse_max_fusion_size)", "", false},
  FlagSpec{"max_fuse_rounds", K::kInt, "10", 0, 1000, "", "internal", kFusion,
           "fusion rounds (same as autofuse_max_fuse_rounds)", "", false},
  FlagSpec{"max_proximity", K::kInt, "", 0, 9e18, "", "internal", kFusion,
           "a fused kernel's ops may span at most N positions of the graph order (last minus "
           "first); AutoFuse's FusionStrategySolverConfig, unlimited by default because a long "
           "span can raise the memory peak; refused merges get code PROXIMITY", "", false},
  // ---- ours
  FlagSpec{"autofuse_max_fusion_size", K::kInt, "64", 1, 100000, "", "ours", kFusion,
           "AscIR nodes per kernel", "", false},
  FlagSpec{"autofuse_max_input_nums", K::kInt, "8", 1, 1000, "", "ours", kFusion,
           "inputs per kernel (8 on A2/A3, 14 on ascend950)", "", false},
  FlagSpec{"autofuse_max_fuse_rounds", K::kInt, "10", 0, 1000, "", "ours", kFusion,
           "fusion rounds", "", false},
  FlagSpec{"autofuse_peak_memory_limit", K::kInt, "-1", -1, 9e18, "", "ours", kFusion,
           "refuse a fusion that raises the modelled peak of live bytes above this (-1: device "
           "HBM, 0: off)", "", false},
  FlagSpec{"autofuse_max_output_memory", K::kInt, "13958643712", 0, 9e18, "", "ours", kFusion,
           "bytes one fused kernel may write (13 GiB)", "", false},
  FlagSpec{"autofuse_fusion_gain_check", K::kBool, "false", 0, 0, "", "ours", kFusion,
           "fuse only when the modelled time of the fused kernel beats its parts", "", false},
  FlagSpec{"autofuse_fusion_min_gain", K::kNumber, "1", 1e-9, 1e9, "", "ours", kFusion,
           "with the gain check: the speed-up a fusion must reach", "", false},
};
// clang-format on

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) {
    item = std::string(TrimSpace(item));
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool ParseNumber(const std::string& v, double* out) {
  try {
    std::size_t used = 0;
    *out = std::stod(v, &used);
    return used == v.size() && std::isfinite(*out);
  } catch (const std::exception&) {
    return false;
  }
}

bool IsIndex(const std::string& s) {
  return !s.empty() && s.size() < 10 &&
         std::ranges::all_of(s, [](char c) { return c >= '0' && c <= '9'; });
}

// One force_tiling_case item: N, N_R, gG_N or gG_N_R.
bool ValidCaseItem(std::string s) {
  if (s.size() > 2 && s.ends_with("_R")) s.resize(s.size() - 2);
  if (!s.empty() && s[0] == 'g') {
    const auto us = s.find('_');
    if (us == std::string::npos || !IsIndex(s.substr(1, us - 1))) return false;
    s = s.substr(us + 1);
  }
  return IsIndex(s);
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1);
  std::vector<std::size_t> cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string Range(double lo, double hi) {
  std::ostringstream os;
  os << lo << ".." << hi;
  return os.str();
}

std::string DefaultText(const FlagSpec& f) {
  return *f.def != 0 ? std::string(f.def) : std::string("(unset)");
}

}  // namespace

std::span<const FlagSpec> FlagTable() {
  return kTable;
}

const FlagSpec* FindFlag(const std::string& name) {
  for (const auto& f : kTable) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::vector<std::string> ClosestFlags(const std::string& name, std::size_t n) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& f : kTable) {
    std::size_t d = EditDistance(name, f.name);
    // A name that contains the typed one (or the other way round) is a strong hint.
    const std::string fn = f.name;
    if (name.size() >= 4 &&
        (fn.find(name) != std::string::npos || name.find(fn) != std::string::npos))
      d = std::min<std::size_t>(d, 2);
    scored.emplace_back(d, fn);
  }
  std::ranges::stable_sort(scored, {}, &std::pair<std::size_t, std::string>::first);
  const std::size_t limit = std::max<std::size_t>(3, name.size() / 2);
  std::vector<std::string> out;
  for (const auto& [d, fn] : scored) {
    if (out.size() == n || d > limit) break;
    out.push_back(fn);
  }
  return out;
}

std::string FlagSyntax(const FlagSpec& f) {
  switch (f.kind) {
    case K::kBool:
      return "true|false";
    case K::kInt:
      return "integer " + Range(f.lo, f.hi);
    case K::kNumber:
      return "number " + Range(f.lo, f.hi);
    case K::kPercent:
      return "percent " + Range(f.lo, f.hi);
    case K::kChoice:
      return f.choices;
    case K::kList:
      return *f.choices != 0 ? std::string("list of ") + f.choices : "list of names";
    case K::kText:
      return "text";
    case K::kPath:
      return "path";
    case K::kCase:
      return "N | N_R | gG_N[_R],...";
  }
  return "";
}

std::string FlagValueError(const FlagSpec& f, const std::string& value) {
  std::string want = "expects " + FlagSyntax(f);
  switch (f.kind) {
    case K::kBool:
      if (value == "true" || value == "false" || value == "1" || value == "0") return "";
      return want;
    case K::kInt:
    case K::kNumber:
    case K::kPercent: {
      double v = 0;
      if (!ParseNumber(value, &v) || v < f.lo || v > f.hi) return want;
      if (f.kind == K::kInt && v != std::floor(v)) return want;
      return "";
    }
    case K::kChoice:
      for (const auto& c : Split(f.choices, '|')) {
        if (c == value) return "";
      }
      return want;
    case K::kList: {
      if (*f.choices == 0) return "";
      const auto allowed = Split(f.choices, '|');
      for (const auto& m : Split(value, ',')) {
        if (std::ranges::find(allowed, m) == allowed.end())
          return "'" + m + "' is not one of " + f.choices;
      }
      return "";
    }
    case K::kText:
      return "";
    case K::kPath:
      if (value.empty()) return "expects a path";
      // AutoFuse warns and ignores a skip list it cannot open (auto_fuse_config.h).
      if (std::string_view(f.name) == "skip_node_names_cfg" && !std::ifstream(value))
        return "cannot read the file";
      return "";
    case K::kCase:
      for (const auto& item : Split(value, ',')) {
        if (!ValidCaseItem(item)) return want;
      }
      return value.empty() ? want : "";
  }
  return "";
}

std::vector<FlagDiagnostic> CheckFlags(std::map<std::string, std::string>* flags) {
  std::vector<FlagDiagnostic> out;
  for (auto it = flags->begin(); it != flags->end();) {
    const FlagSpec* f = FindFlag(it->first);
    if (f == nullptr) {
      std::string msg = "unknown flag --" + it->first + " (ignored)";
      const auto near = ClosestFlags(it->first);
      for (std::size_t i = 0; i < near.size(); ++i)
        msg += (i == 0 ? "; did you mean --" : ", --") + near[i];
      if (!near.empty()) msg += "?";
      out.push_back({FlagDiagnostic::Kind::kUnknown, it->first, "UNKNOWN_FLAG", msg});
      it = flags->erase(it);
      continue;
    }
    if (const std::string err = FlagValueError(*f, it->second); !err.empty()) {
      out.push_back({FlagDiagnostic::Kind::kBadValue, it->first, "BAD_FLAG_VALUE",
                     "--" + it->first + "=" + it->second + ": " + err + "; using the default " +
                         DefaultText(*f)});
      it = flags->erase(it);
      continue;
    }
    if (*f->note != 0) {
      out.push_back({FlagDiagnostic::Kind::kNote, it->first, "FLAG_NOT_ACTING",
                     "--" + it->first + " is accepted but " + f->note});
    }
    ++it;
  }
  return out;
}

std::string FlagHelpText() {
  std::ostringstream os;
  os << "Flags, as --key=value in --flags, AUTOFUSE_FLAGS or AUTOFUSE_DFX_FLAGS "
        "(\"--k=v;--k2=v2\").\nA bad value warns and keeps the default (--strict: exit 2); an "
        "unknown name warns.\n";
  const char* source = "";
  for (const auto& f : kTable) {
    if (std::string(source) != f.source) {
      source = f.source;
      os << "\n[" << source << "]\n";
    }
    os << "  --" << f.name << "=" << FlagSyntax(f) << "  (default " << DefaultText(f) << ")\n";
    os << "      " << f.doc << " [acts on: " << f.acts_on << "]\n";
    if (*f.note != 0) os << "      note: accepted, but " << f.note << "\n";
  }
  return os.str();
}

std::string FlagMarkdown() {
  std::ostringstream os;
  os << "| flag | values | default | from | acts on | what it does |\n";
  os << "|---|---|---|---|---|---|\n";
  for (const auto& f : kTable) {
    std::string syntax = FlagSyntax(f);
    std::ranges::replace(syntax, '|', '/');
    std::string doc = f.doc;
    if (*f.note != 0) doc += ". *Accepted, but " + std::string(f.note) + ".*";
    os << "| `--" << f.name << "` | " << syntax << " | " << DefaultText(f) << " | " << f.source
       << " | " << f.acts_on << " | " << doc << " |\n";
  }
  return os.str();
}

bool FlagBool(const std::map<std::string, std::string>& flags, const char* name, bool def) {
  const auto it = flags.find(name);
  if (it == flags.end() || it->second.empty()) return def;
  if (it->second == "true" || it->second == "1") return true;
  if (it->second == "false" || it->second == "0") return false;
  return def;
}

}  // namespace af::pipeline
