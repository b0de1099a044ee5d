// Running a model graph's case folder (see run_case.h):
//   inputs -> bind sizes -> compile -> run units in dependency order (fused kernels on the CPU
//   runtime, other ops on the reference evaluator) -> compare returned values with expected/
#include "autofuse/pipeline/run_case.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <set>
#include <stdexcept>

#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/frontend/op_registry.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

namespace fs = std::filesystem;

data::HostArray Reshaped(data::HostArray a, std::vector<std::int64_t> shape, ir::DType dt) {
  if (a.dtype != dt) a = data::Convert(a, dt);
  if (data::ShapeNumel(shape) != a.numel())
    throw std::runtime_error("array of " + std::to_string(a.numel()) + " elements where " +
                             std::to_string(data::ShapeNumel(shape)) + " are expected");
  a.shape = std::move(shape);
  return a;
}

// A fused kernel, or one op node outside every kernel, in order of its first node.
struct Unit {
  int first = 0;
  int kernel = -1;  // index into the kernels, or -1 for a single node
  int node = -1;
};

class UnitRunner {
 public:
  UnitRunner(const model::Graph& g, const CompileResult& compiled, const Options& o,
             frontend::Evaluator& ev, CaseRun& res)
      : g_(g), fr_(compiled.front_end->fusion), compiled_(compiled), o_(o), ev_(ev), res_(res) {}

  // Runs every unit once its inputs are there; false when a kernel differed from the
  // interpreter.
  bool RunAll() {
    std::vector<Unit> units = Units();
    std::vector<bool> done(units.size(), false);
    for (std::size_t left = units.size(); left > 0;) {
      bool progress = false;
      for (std::size_t i = 0; i < units.size(); ++i) {
        if (done[i] || !Ready(units[i])) continue;
        RunUnit(units[i]);
        done[i] = true;
        --left;
        progress = true;
      }
      if (!progress) throw std::runtime_error("the graph's units have a cyclic dependency");
    }
    return kernels_ok_;
  }

 private:
  std::vector<Unit> Units() {
    std::vector<Unit> units;
    std::set<int> in_kernel;
    for (std::size_t i = 0; i < fr_.kernels.size(); ++i) {
      const Kernel& k = compiled_.kernels[i];
      if (!k.error.empty()) {  // a later stage refused it: its ops run on the reference evaluator
        res_.log.push_back("kernel " + k.hint.name + " not compiled [" + k.error_code +
                           "]: " + k.error + "; its ops run on the reference evaluator");
        continue;
      }
      units.push_back({fr_.kernels[i].nodes.front(), static_cast<int>(i), -1});
      in_kernel.insert(fr_.kernels[i].nodes.begin(), fr_.kernels[i].nodes.end());
    }
    for (const auto& n : g_.nodes)
      if (n.kind == model::NodeKind::kOp && !in_kernel.contains(n.id))
        units.push_back({n.id, -1, n.id});
    std::sort(units.begin(), units.end(),
              [](const Unit& x, const Unit& y) { return x.first < y.first; });
    return units;
  }

  std::vector<int> Reads(const Unit& u) const {
    if (u.kernel >= 0) return fr_.kernels[static_cast<std::size_t>(u.kernel)].lowered.inputs;
    std::vector<int> vals;
    std::function<void(const model::Arg&)> scan = [&](const model::Arg& a) {
      if (a.IsValue() && g_.value(a.value).type.IsTensor()) vals.push_back(a.value);
      for (const auto& it : a.items)
        scan(it);
    };
    for (const auto& a : g_.node(u.node).args)
      scan(a);
    for (const auto& [key, a] : g_.node(u.node).kwargs)
      scan(a);
    return vals;
  }

  bool Ready(const Unit& u) const {
    return std::ranges::all_of(Reads(u), [&](int v) { return ev_.Has(v); });
  }

  void RunUnit(const Unit& u) {
    if (u.kernel < 0) {
      ev_.EvalNode(u.node);
      res_.log.push_back("reference " + g_.node(u.node).op.ToString() + " " + g_.node(u.node).name);
      return;
    }
    const auto& fk = fr_.kernels[static_cast<std::size_t>(u.kernel)];
    const Kernel& k = compiled_.kernels[static_cast<std::size_t>(u.kernel)];
    const auto specs = interp::InputShapes(k.hint, o_.bindings);
    RunOptions ro;
    for (std::size_t j = 0; j < fk.lowered.inputs.size(); ++j)
      ro.inputs.push_back(
          Reshaped(ev_.Get(fk.lowered.inputs[j]), specs.at(j).shape, specs.at(j).dtype));
    const RunResult rr = Run(k, o_, ro);
    std::string line = "kernel " + k.code.kernel_name + " (" + std::to_string(fk.nodes.size()) +
                       " ops): case " + std::to_string(rr.tiling_key) + ", block_dim " +
                       std::to_string(rr.block_dim);
    if (!rr.ok) {
      line += ", DIFFERS from the interpreter";
      kernels_ok_ = false;
    }
    res_.log.push_back(line);
    for (std::size_t j = 0; j < fk.lowered.outputs.size(); ++j) {
      const int v = fk.lowered.outputs[j];
      ev_.Set(v, Reshaped(rr.actual.at(j), ev_.ShapeOf(v), g_.value(v).type.dtype));
    }
  }

  const model::Graph& g_;
  const frontend::FusionResult& fr_;
  const CompileResult& compiled_;
  const Options& o_;
  frontend::Evaluator& ev_;
  CaseRun& res_;
  bool kernels_ok_ = true;
};

// ---- compare the returned values with expected/out<K>.npy
void CompareOutputs(const model::Graph& g, const fs::path& dir, const frontend::Evaluator& ev,
                    std::optional<double> atol, std::optional<double> rtol, CaseRun& res) {
  // Ops that accumulate (reductions, matmuls, softmax) sum in another order than PyTorch: the
  // looser reduction tolerance (the op registry says which).
  const bool has_reduce = std::ranges::any_of(
      g.nodes, [](const model::Node& n) { return frontend::Accumulates(n.op); });
  for (std::size_t k = 0; k < g.outputs.size(); ++k) {
    const auto& a = g.outputs[k];
    if (!a.IsValue() || !g.value(a.value).type.IsTensor()) continue;
    const auto& val = g.value(a.value);
    const fs::path p = dir / ("out" + std::to_string(k) + ".npy");
    data::HostArray expected = data::ReadNpy(p.string(), val.type.dtype);
    data::HostArray actual = ev.Get(a.value);
    if (expected.shape != actual.shape && expected.numel() == actual.numel())
      expected.shape = actual.shape;
    OutputCheck c;
    c.name = "out" + std::to_string(k) + " (" + val.name + ")";
    const auto tol = data::DefaultTolerance(val.type.dtype, has_reduce);
    c.atol = atol.value_or(tol.atol);
    c.rtol = rtol.value_or(tol.rtol);
    const auto cmp = data::CompareArrays(expected, actual, c.atol, c.rtol);
    c.ok = cmp.ok;
    c.max_abs = cmp.max_abs;
    c.max_rel = cmp.max_rel;
    c.message = cmp.message;
    res.ok = res.ok && c.ok;
    res.outputs.push_back(c);
  }
}

// The array of input `name` (position k among the tensor inputs) in `dir`.
fs::path InputArray(const fs::path& dir, const std::string& name, std::size_t k) {
  std::string safe = name;
  for (char& c : safe)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '.' && c != '-')
      c = '_';
  for (const std::string& f : {name, safe, "in" + std::to_string(k)}) {
    if (f.find('/') != std::string::npos) continue;
    fs::path p = dir / (f + ".npy");
    if (fs::exists(p)) return p;
  }
  throw InputError(
      {(dir / (safe + ".npy")).string()},
      "missing input array for " + name + " (also tried in" + std::to_string(k) + ".npy)");
}

}  // namespace

CaseRun RunCase(const Input& input, const Options& options, std::optional<double> atol,
                std::optional<double> rtol, const CaseDirs& dirs) {
  CaseRun res;
  std::error_code ec;
  const fs::path dir =
      fs::is_directory(input.path, ec) ? fs::path(input.path) : fs::path(input.path).parent_path();
  const fs::path in_dir = dirs.inputs.empty() ? dir / "inputs" : fs::path(dirs.inputs);
  const fs::path out_dir = dirs.expected.empty() ? dir / "expected" : fs::path(dirs.expected);
  if (!input.model || !fs::is_directory(in_dir, ec)) {
    throw InputError({input.path},
                     "running a model graph needs a case directory "
                     "(fx_graph_readable.py or a GE dump, inputs/, expected/; or --inputs and "
                     "--expect); samples/torch/make_case.py and scripts/gen_ge_dump.py write them");
  }
  // ---- inputs: one array per tensor placeholder, named by placeholder
  const model::Graph& g = *input.model;
  std::vector<data::HostArray> inputs;
  std::vector<int> tensor_inputs;
  for (int v : g.inputs) {
    const auto& val = g.value(v);
    if (!val.type.IsTensor()) continue;
    inputs.push_back(
        data::ReadNpy(InputArray(in_dir, val.name, tensor_inputs.size()).string(), val.type.dtype));
    tensor_inputs.push_back(v);
  }
  // ---- bind the sizes from the inputs, compile
  Options o = options;
  for (const auto& [k, v] : frontend::BindFromInputs(g, inputs))
    o.bindings[k] = v;
  res.compiled = Compile(input, o);
  // ---- run the units
  frontend::Evaluator ev(g, o.bindings);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    ev.Set(tensor_inputs[i], inputs[i]);
  for (const auto& [v, a] : input.constants)
    ev.Set(v, a);
  res.ok = UnitRunner(g, res.compiled, o, ev, res).RunAll();
  CompareOutputs(g, out_dir, ev, atol, rtol, res);
  return res;
}

}  // namespace af::pipeline
