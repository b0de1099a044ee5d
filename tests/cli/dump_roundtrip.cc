// The dump round trip over whole inputs: every input given is compiled without host builds, its
// --codegen_compile_debug tree written (pipeline/debug_dump.h) and read back by our DFX importer
// (importers/dfx_dump.h). For every kernel, the tree must hold one folder graph with the stages
// DebugStages lists, in order, each reading back as the graph that was dumped (in everything the
// VIEW 2 text carries, see Comparable), the ge_onnx file of the first stage and a py_code script
// that our asc_graph.py reader turns back into the kernel's hint graph.
//
//   af_dump_roundtrip [--work DIR] [--cases DIR] INPUT...
//
// INPUT is anything afc compiles; --cases DIR takes every folder in DIR. A case folder holding a
// file `afc_flags` ("--k=v;--k2=v2") is compiled with those flags.
//
// Prints one line per input and every mismatch; exits 1 when any input fails.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/dfx_dump.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/ir/text.h"
#include "autofuse/pipeline/debug_dump.h"
#include "autofuse/pipeline/options.h"

namespace {

namespace fs = std::filesystem;
namespace dfx = af::importers::dfx;

// What AutoFuse's VIEW 2 text does not carry, reset on both sides: the IR port names (ir_def),
// the API numbers, the deprecated execution order, the tiling key, names of memory, queues and
// buffers, merge/reuse options, and the axis flags (align, block binding, split pairing).
af::ir::Graph Comparable(af::ir::Graph g) {
  g.tiling_key = -1;
  g.type = af::ir::GraphType::kHint;
  for (auto& a : g.axes) {
    a.align = af::sym::Expr(1);
    a.split_pair_other_id = -1;
    a.bind_block = false;
    a.allow_oversize_axis = false;
    a.allow_unaligned_tail = true;
  }
  for (auto& n : g.nodes) {
    n.input_names.clear();
    n.output_names.clear();
    n.api = {};
    n.sched.exec_order = -1;
    for (auto& tb : n.tmp_buffers)
      tb.mem = {};
    for (auto& t : n.outputs) {
      // A queue or buffer of a tensor not allocated in one is not shown (VIEW 2 names the
      // queue or buffer of the allocation only).
      if (t.mem.alloc_type != af::ir::AllocType::kQueue) t.que = {};
      if (t.mem.alloc_type != af::ir::AllocType::kBuffer) t.buf = {};
      t.mem.buf_ids.clear();
      t.mem.name.clear();
      t.que.name.clear();
      t.buf.name.clear();
      t.opt = {};
    }
  }
  return g;
}

// The first line where the two texts differ, both sides.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a);
  std::istringstream sb(b);
  std::string la;
  std::string lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "texts equal, graphs differ in a field the text does not show";
    if (la != lb || ga != gb)
      return "line " + std::to_string(line) + ": dumped `" + (ga ? la : "<end>") + "`, read `" +
             (gb ? lb : "<end>") + "`";
  }
}

const dfx::DfxGraph* FindGraph(const dfx::DfxDump& d, const std::string& name) {
  for (const auto& g : d.graphs) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

struct Tally {
  int kernels = 0;
  int stages = 0;
  std::vector<std::string> errors;
};

void CheckStages(const af::pipeline::Kernel& k, const af::pipeline::Options& o,
                 const dfx::DfxGraph& got, Tally& t) {
  const auto want = af::pipeline::DebugStages(k, o);
  if (want.size() != got.stages.size()) {
    t.errors.push_back(k.hint.name + ": " + std::to_string(want.size()) + " stages dumped, " +
                       std::to_string(got.stages.size()) + " read back");
    return;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const dfx::DfxStage& s = got.stages[i];
    const std::string where = k.hint.name + " stage " + want[i].first;
    if (s.stage != want[i].first) {
      t.errors.push_back(where + ": read back as stage " + s.stage);
      continue;
    }
    if (i == 0 && s.ge_onnx.empty()) t.errors.push_back(where + ": no ge_onnx file");
    try {
      const auto back = dfx::LoadAscGraphTextFile(s.ascgraph);
      const auto a = Comparable(want[i].second);
      const auto b = Comparable(back.graph);
      if (!(a == b))
        t.errors.push_back(where + ": " +
                           FirstDifference(af::ir::DumpText(a), af::ir::DumpText(b)));
    } catch (const std::exception& e) {
      t.errors.push_back(where + ": " + e.what());
    }
    ++t.stages;
  }
}

// What the pyautofuse script does not carry either: memory placement, temporary buffers,
// execution conditions and vectorized views (a hint graph's are defaults), and whether an offset
// was an integer or an expression.
af::ir::Graph PyComparable(af::ir::Graph g) {
  g = Comparable(std::move(g));
  for (auto& n : g.nodes) {
    // The script writes an offset as an expression, whether it was an integer or not.
    if (const auto it = n.attrs.find("offset"); it != n.attrs.end()) {
      if (const auto* i = std::get_if<std::int64_t>(&it->second)) it->second = af::sym::Expr(*i);
    }
    n.tmp_buffers.clear();
    n.sched.exec_condition = 0;
    for (auto& t : n.outputs) {
      t.mem = {};
      t.que = {};
      t.buf = {};
      t.vectorized_axis.clear();
      t.vectorized_strides.clear();
    }
  }
  return g;
}

void CheckPyCode(const af::pipeline::Kernel& k, const fs::path& folder, Tally& t) {
  const fs::path py = folder / ("py_code_" + af::pipeline::DumpFileStem(k.hint.name) + ".py");
  try {
    const auto file = af::importers::inductor::LoadAscGraphPyFile(py);
    if (file.graphs.empty()) throw std::runtime_error("no graph in the script");
    const auto hint = af::importers::inductor::ToHintGraph(file.graphs.front());
    if (!hint.graph) throw std::runtime_error(hint.reason);
    const auto a = PyComparable(k.hint);
    const auto b = PyComparable(*hint.graph);
    if (!(a == b))
      t.errors.push_back(py.filename().string() + ": " +
                         FirstDifference(af::ir::DumpText(a), af::ir::DumpText(b)));
  } catch (const std::exception& e) {
    t.errors.push_back(py.string() + ": " + e.what());
  }
}

bool RoundTrip(const fs::path& input, const fs::path& work) {
  af::pipeline::Options o;
  o.build = false;
  std::error_code ec;
  fs::remove_all(work, ec);
  // A case folder may name the flags it is compiled with (the oracle's FLAGS entries).
  if (std::ifstream f(input / "afc_flags"); f) {
    std::string text;
    std::getline(f, text);
    af::pipeline::ParseFlags(text, &o.flags);
  }
  o.flags["codegen_compile_debug"] = "true";
  o.flags["debug_dir"] = work.string();
  Tally t;
  try {
    const auto r = af::inputs::CompileFile(input.string(), o);
    const fs::path pid = af::pipeline::WriteDebugTree(r, o);
    if (r.kernels.empty()) t.errors.emplace_back("no kernel compiled");
    const auto dump = r.kernels.empty() ? dfx::DfxDump{} : dfx::DiscoverDfxDump(pid);
    for (const auto& k : r.kernels) {
      ++t.kernels;
      const dfx::DfxGraph* g = FindGraph(dump, k.hint.name);
      if (g == nullptr) {
        t.errors.push_back(k.hint.name + ": no graph of that name in the dump");
        continue;
      }
      CheckStages(k, o, *g, t);
      CheckPyCode(k, pid / g->folder, t);
    }
  } catch (const std::exception& e) {
    t.errors.emplace_back(e.what());
  }
  std::cout << (t.errors.empty() ? "same  " : "DIFF  ") << input.string() << ": " << t.kernels
            << " kernel(s), " << t.stages << " stage(s)\n";
  for (const auto& e : t.errors)
    std::cout << "  " << e << "\n";
  return t.errors.empty();
}

}  // namespace

int main(int argc, char** argv) {
  fs::path work = "dump_roundtrip";
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--work" && i + 1 < argc) {
      work = argv[++i];
    } else if (a == "--cases" && i + 1 < argc) {
      std::vector<fs::path> cases;
      for (const auto& e : fs::directory_iterator(argv[++i]))
        if (e.is_directory()) cases.push_back(e.path());
      std::sort(cases.begin(), cases.end());
      inputs.insert(inputs.end(), cases.begin(), cases.end());
    } else {
      inputs.emplace_back(a);
    }
  }
  if (inputs.empty()) {
    std::cerr << "usage: af_dump_roundtrip [--work DIR] [--cases DIR] INPUT...\n";
    return 2;
  }
  int failed = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    failed += RoundTrip(inputs[i], work / std::to_string(i)) ? 0 : 1;
  std::cout << inputs.size() - static_cast<std::size_t>(failed) << " of " << inputs.size()
            << " inputs read back the same\n";
  return failed == 0 ? 0 : 1;
}
