// Running a model graph's case folder (see run_case.h):
//   inputs -> bind sizes -> compile -> run units in dependency order (fused kernels on the CPU
//   runtime, other ops on the reference evaluator) -> compare returned values with expected/
#include "autofuse/pipeline/run_case.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "af_cpu/launch_abi.h"
#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/frontend/evaluator.h"
#include "autofuse/frontend/op_registry.h"
#include "autofuse/hw/profile.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/pipeline/units.h"
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

class UnitRunner {
 public:
  UnitRunner(const CompileResult& compiled, const Options& o, frontend::Evaluator& ev, CaseRun& res,
             const SuperPlan* plan = nullptr)
      : g_(compiled.front_end->graph),
        fr_(compiled.front_end->fusion),
        compiled_(compiled),
        o_(o),
        ev_(ev),
        res_(res),
        plan_(plan) {}

  // Runs every unit in execution order (a super kernel in place of its segment's kernels when a
  // plan is given); false when a kernel differed from the interpreter.
  bool RunAll() {
    std::vector<std::string> scratch;
    const std::vector<Unit> order =
        plan_ != nullptr ? plan_->order : ExecutionOrder(compiled_, &res_.log);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const int s = plan_ != nullptr ? plan_->segment_of_unit[i] : -1;
      if (s >= 0 && plan_->segments[static_cast<std::size_t>(s)].kernel.library) {
        const SuperSegment& seg = plan_->segments[static_cast<std::size_t>(s)];
        if (seg.units.front() == static_cast<int>(i)) RunSuper(seg);
        continue;
      }
      RunUnit(order[i]);
    }
    return kernels_ok_;
  }

 private:
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
                       " ops): " + ChosenCases(k, rr) + ", block_dim " +
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

  void RunSuper(const SuperSegment& seg);

  const model::Graph& g_;
  const frontend::FusionResult& fr_;
  const CompileResult& compiled_;
  const Options& o_;
  frontend::Evaluator& ev_;
  CaseRun& res_;
  const SuperPlan* plan_;
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

// One launch of a segment's super kernel: its GM buffers in the dtype and shape the members'
// parameters declare, the combined tiling function (each member's part checked against the
// compiler's decision), the launch on the CPU runtime, then every value it wrote.
std::uint32_t LaunchSuper(const CompileResult& compiled, const Options& o, const SuperSegment& seg,
                          const std::function<data::HostArray(int)>& input_of,
                          std::vector<data::HostArray>* out) {
  std::vector<data::HostArray>& bufs = *out;
  const Kernel& sk = seg.kernel;
  const hw::Profile& profile = hw::GetProfile(o.soc);
  // ---- GM buffers
  std::vector<std::optional<interp::TensorSpec>> spec(seg.buffers.size());
  auto note = [&](int v, const interp::TensorSpec& t) {
    const auto b =
        static_cast<std::size_t>(std::ranges::find(seg.buffers, v) - seg.buffers.begin());
    if (!spec.at(b)) spec[b] = t;
  };
  for (const int ki : seg.kernels) {
    const Kernel& k = compiled.kernels[static_cast<std::size_t>(ki)];
    const auto& fk = compiled.front_end->fusion.kernels[static_cast<std::size_t>(ki)];
    const auto ins = interp::InputShapes(k.hint, o.bindings);
    const auto outs = interp::OutputShapes(k.hint, o.bindings);
    for (std::size_t j = 0; j < fk.lowered.inputs.size(); ++j)
      note(seg.BufferOf(fk.lowered.inputs[j]), ins.at(j));
    for (std::size_t j = 0; j < fk.lowered.outputs.size(); ++j)
      note(fk.lowered.outputs[j], outs.at(j));
  }
  for (std::size_t b = 0; b < seg.buffers.size(); ++b) {
    bufs.push_back(static_cast<int>(b) < seg.num_inputs
                       ? Reshaped(input_of(seg.buffers[b]), spec[b]->shape, spec[b]->dtype)
                       : data::Zeros(spec[b]->dtype, spec[b]->shape));
  }
  // ---- tiling
  auto* tiling_fn =
      reinterpret_cast<AfComputeTilingFn>(sk.library->Symbol(AF_COMPUTE_TILING_SYMBOL));
  auto* size_fn = reinterpret_cast<AfTilingDataSizeFn>(sk.library->Symbol(AF_TILING_SIZE_SYMBOL));
  auto* ws_fn = reinterpret_cast<AfWorkspaceBytesFn>(sk.library->Symbol(AF_WORKSPACE_BYTES_SYMBOL));
  if (tiling_fn == nullptr || size_fn == nullptr || ws_fn == nullptr)
    throw std::runtime_error("super kernel " + sk.code.kernel_name + " lacks a tiling entry");
  std::vector<std::int64_t> syms;
  for (const auto& s : sk.code.symbols)
    syms.push_back(o.bindings.at(s));
  std::vector<std::uint8_t> tiling(size_fn(), 0);
  const int rc = tiling_fn(syms.data(), static_cast<std::uint32_t>(syms.size()),
                           profile.vector_cores, static_cast<std::uint64_t>(profile.ub_bytes),
                           IndexFlag(o, "force_tiling_case", "a case index"),
                           IndexFlag(o, "force_schedule_result", "a template index"), tiling.data(),
                           tiling.size());
  if (rc != 0) {
    throw std::runtime_error(
        "super kernel " + sk.code.kernel_name + ": no tiling (code " + std::to_string(rc) +
        (rc == -4 ? ": a member chose a case that synchronises all cores)" : ")"));
  }
  AfTilingHeader header{};
  std::memcpy(&header, tiling.data(), sizeof header);
  for (std::size_t m = 0; m < seg.kernels.size(); ++m) {
    const Kernel& k = compiled.kernels[static_cast<std::size_t>(seg.kernels[m])];
    std::uint64_t off = 0;
    std::memcpy(&off, tiling.data() + codegen::kSuperMemberOffsetsAt + 8 * m, sizeof off);
    AfTilingHeader mh{};
    std::memcpy(&mh, tiling.data() + off, sizeof mh);
    if (k.tiling && (static_cast<int>(mh.tiling_key) != k.tiling->chosen ||
                     mh.block_dim != k.tiling->solution.block_dim)) {
      throw std::runtime_error("super kernel " + sk.code.kernel_name + ": member " +
                               k.code.kernel_name + "'s tiling disagrees with the compiler's");
    }
  }
  // ---- launch
  std::vector<std::uint8_t*> ptrs;
  std::vector<std::uint64_t> sizes;
  for (auto& a : bufs) {
    ptrs.push_back(a.bytes.empty() ? nullptr : a.bytes.data());
    sizes.push_back(a.bytes.size());
  }
  std::vector<std::uint8_t> workspace(static_cast<std::size_t>(ws_fn(tiling.data())), 0);
  AfLaunchArgs args{};
  args.abi_version = AF_LAUNCH_ABI_VERSION;
  args.block_dim = std::max<std::uint32_t>(1, header.block_dim);
  args.ub_bytes = static_cast<std::uint64_t>(profile.ub_bytes);
  args.num_gm = static_cast<std::uint32_t>(ptrs.size());
  args.gm_ptrs = ptrs.data();
  args.gm_sizes = sizes.data();
  args.workspace = workspace.empty() ? nullptr : workspace.data();
  args.workspace_size = workspace.size();
  args.tiling = tiling.data();
  args.tiling_size = tiling.size();
  args.kernel_name = sk.code.kernel_name.c_str();
  if (sk.library->Launch(&args) != AF_STATUS_OK) {
    throw std::runtime_error("super kernel " + sk.code.kernel_name +
                             " failed on the CPU runtime: " + std::string(args.error));
  }
  return header.block_dim;
}

void UnitRunner::RunSuper(const SuperSegment& seg) {
  std::vector<data::HostArray> bufs;
  const std::uint32_t block_dim = LaunchSuper(
      compiled_, o_, seg, [this](int v) { return ev_.Get(v); }, &bufs);
  for (std::size_t b = static_cast<std::size_t>(seg.num_inputs); b < seg.buffers.size(); ++b) {
    const int v = seg.buffers[b];
    ev_.Set(v, Reshaped(std::move(bufs[b]), ev_.ShapeOf(v), g_.value(v).type.dtype));
  }
  res_.log.push_back("super kernel " + seg.kernel.code.kernel_name + " (" +
                     std::to_string(seg.kernels.size()) + " kernels, " + std::to_string(seg.syncs) +
                     " SyncAll): block_dim " + std::to_string(block_dim));
}

// The case's input arrays (from in_dir), or seeded random ones when `random` (the sizes from
// options.bindings); the placeholders they feed in *tensor_inputs.
std::vector<data::HostArray> CaseInputs(const model::Graph& g, const fs::path& in_dir, bool random,
                                        const Options& options, std::uint64_t seed,
                                        std::vector<int>* tensor_inputs) {
  std::vector<data::HostArray> inputs;
  for (int v : g.inputs) {
    const auto& val = g.value(v);
    if (!val.type.IsTensor()) continue;
    if (random) {
      std::vector<std::int64_t> shape;
      for (const auto& d : val.type.shape) {
        for (const auto& s : d.FreeSymbols()) {
          if (!options.bindings.contains(s)) {
            throw InputError({}, "size symbol '" + s + "' of input " + val.name +
                                     " is unbound: pass --bind " + s + "=N");
          }
        }
        shape.push_back(d.Eval(options.bindings));
      }
      inputs.push_back(
          data::RandomArray(val.type.dtype, shape, seed * 7919 + tensor_inputs->size(), -2.0, 2.0));
    } else {
      inputs.push_back(data::ReadNpy(InputArray(in_dir, val.name, tensor_inputs->size()).string(),
                                     val.type.dtype));
    }
    tensor_inputs->push_back(v);
  }
  return inputs;
}

frontend::Evaluator MakeEvaluator(const Input& input, const Options& o,
                                  const std::vector<data::HostArray>& inputs,
                                  const std::vector<int>& tensor_inputs) {
  frontend::Evaluator ev(*input.model, o.bindings);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    ev.Set(tensor_inputs[i], inputs[i]);
  for (const auto& [v, a] : input.constants)
    ev.Set(v, a);
  return ev;
}

// The graph again with super kernels: every value a kernel wrote must be byte for byte what the
// separate kernels wrote (the same member code on the same inputs).
void RunWithSuperKernels(const Input& input, const Options& o, const frontend::Evaluator& separate,
                         frontend::Evaluator& ev, CaseRun& res) {
  res.super_plan = PlanSuperKernels(res.compiled, o);
  BuildSuperKernels(*res.super_plan, res.compiled, o);
  CaseRun scratch;
  UnitRunner(res.compiled, o, ev, scratch, &*res.super_plan).RunAll();
  res.super_log = std::move(scratch.log);
  for (const Unit& u : res.super_plan->order) {
    if (u.kernel < 0) continue;
    for (const int v : UnitWrites(res.compiled, u)) {
      ++res.super_values_checked;
      if (separate.Get(v).bytes != ev.Get(v).bytes) {
        ++res.super_values_differ;
        res.super_log.push_back("value " + input.model->value(v).name +
                                " differs between the separate kernels and the super kernel");
      }
    }
  }
  res.ok = res.ok && res.super_values_differ == 0;
}

// Without a case folder the graph is not evaluated as a whole (an op the reference evaluator
// lacks, such as convolution, would stop it): each super kernel runs on drawn values for what it
// reads from outside, against its kernels run one after another on the same values (each kernel
// also against the reference interpreter, as `afc run` checks a kernel).
void CheckSegmentsOnDrawnInputs(const Options& o, std::uint64_t seed, CaseRun& res) {
  const CompileResult& r = res.compiled;
  res.super_plan = PlanSuperKernels(r, o);
  BuildSuperKernels(*res.super_plan, r, o);
  const auto& kernels = r.front_end->fusion.kernels;
  for (const SuperSegment& seg : res.super_plan->segments) {
    if (!seg.kernel.library) continue;
    std::map<int, data::HostArray> vals;
    for (std::size_t m = 0; m < seg.kernels.size(); ++m) {
      const Kernel& k = r.kernels[static_cast<std::size_t>(seg.kernels[m])];
      const auto& fk = kernels[static_cast<std::size_t>(seg.kernels[m])];
      const auto specs = interp::InputShapes(k.hint, o.bindings);
      RunOptions ro;
      for (std::size_t j = 0; j < fk.lowered.inputs.size(); ++j) {
        const int v = seg.BufferOf(fk.lowered.inputs[j]);  // a view's result reads its source
        if (!vals.contains(v)) {
          vals.emplace(v,
                       data::RandomArray(specs.at(j).dtype, specs.at(j).shape,
                                         seed * 7919 + static_cast<std::uint64_t>(v), -2.0, 2.0));
        }
        ro.inputs.push_back(Reshaped(vals.at(v), specs.at(j).shape, specs.at(j).dtype));
      }
      const RunResult rr = Run(k, o, ro);
      res.log.push_back("kernel " + k.code.kernel_name + ": " + ChosenCases(k, rr) +
                        ", block_dim " + std::to_string(rr.block_dim) +
                        (rr.ok ? "" : ", DIFFERS from the interpreter"));
      for (const OutputCheck& c : rr.outputs)
        if (!c.ok) res.log.push_back("    " + c.name + ": " + c.message);
      res.ok = res.ok && rr.ok;
      for (std::size_t j = 0; j < fk.lowered.outputs.size(); ++j)
        vals.insert_or_assign(fk.lowered.outputs[j], rr.actual.at(j));
    }
    std::vector<data::HostArray> bufs;
    const std::uint32_t block_dim = LaunchSuper(
        r, o, seg, [&vals](int v) { return vals.at(v); }, &bufs);
    res.super_log.push_back("super kernel " + seg.kernel.code.kernel_name + " (" +
                            std::to_string(seg.kernels.size()) + " kernels, " +
                            std::to_string(seg.syncs) + " SyncAll): block_dim " +
                            std::to_string(block_dim));
    for (std::size_t b = static_cast<std::size_t>(seg.num_inputs); b < seg.buffers.size(); ++b) {
      ++res.super_values_checked;
      if (bufs[b].bytes != vals.at(seg.buffers[b]).bytes) {
        ++res.super_values_differ;
        res.super_log.push_back("value " + r.front_end->graph.value(seg.buffers[b]).name +
                                " differs between the separate kernels and the super kernel");
      }
    }
  }
  res.ok = res.ok && res.super_values_differ == 0;
}

}  // namespace

CaseRun RunCase(const Input& input, const Options& options, std::optional<double> atol,
                std::optional<double> rtol, const CaseDirs& dirs, const SuperCaseOptions& super) {
  CaseRun res;
  std::error_code ec;
  const fs::path dir =
      fs::is_directory(input.path, ec) ? fs::path(input.path) : fs::path(input.path).parent_path();
  const fs::path in_dir = dirs.inputs.empty() ? dir / "inputs" : fs::path(dirs.inputs);
  const fs::path out_dir = dirs.expected.empty() ? dir / "expected" : fs::path(dirs.expected);
  if (!input.model || !fs::is_directory(in_dir, ec)) {
    if (!input.model || !super.enabled) {
      throw InputError({input.path},
                       "running a model graph needs a case directory "
                       "(fx_graph_readable.py or a GE dump, inputs/, expected/; or --inputs and "
                       "--expect); samples/torch/make_case.py and scripts/gen_ge_dump.py write "
                       "them");
    }
    res.random_inputs = true;  // --superkernel compares separate with super on drawn inputs
  }
  // ---- inputs: one array per tensor placeholder, named by placeholder
  const model::Graph& g = *input.model;
  std::vector<int> tensor_inputs;
  const std::vector<data::HostArray> inputs =
      CaseInputs(g, in_dir, res.random_inputs, options, super.seed, &tensor_inputs);
  // ---- bind the sizes from the inputs, compile
  Options o = options;
  for (const auto& [k, v] : frontend::BindFromInputs(g, inputs))
    o.bindings[k] = v;
  res.compiled = Compile(input, o);
  if (res.random_inputs) {
    res.ok = true;
    CheckSegmentsOnDrawnInputs(o, super.seed, res);
    return res;
  }
  // ---- run the units
  frontend::Evaluator ev = MakeEvaluator(input, o, inputs, tensor_inputs);
  res.ok = UnitRunner(res.compiled, o, ev, res).RunAll();
  if (!res.random_inputs) CompareOutputs(g, out_dir, ev, atol, rtol, res);
  if (super.enabled) {
    frontend::Evaluator ev2 = MakeEvaluator(input, o, inputs, tensor_inputs);
    RunWithSuperKernels(input, o, ev, ev2, res);
    if (!res.random_inputs) {
      CaseRun against;
      against.ok = true;
      CompareOutputs(g, out_dir, ev2, atol, rtol, against);
      res.super_outputs = std::move(against.outputs);
      res.ok = res.ok && against.ok;
    }
  }
  return res;
}

}  // namespace af::pipeline
