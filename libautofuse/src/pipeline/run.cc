// Running one built kernel (see run.h):
//   inputs -> generated tiling function (== in-process solver) -> kernel on the CPU runtime
//   -> compare with expectations (given .npy or the reference interpreter)
#include "autofuse/pipeline/run.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "af_cpu/launch_abi.h"
#include "autofuse/att/pgo.h"
#include "autofuse/codegen/superkernel.h"
#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/pipeline/reference.h"
#include "autofuse/support/error.h"
#include "autofuse/support/stage_trace.h"

namespace af::pipeline {
namespace {

// The range random inputs are drawn from: [-2, 2], except Gather indices, which stay inside the
// gathered dim ([-n, n) with negative_index_support, else [0, n)) so a random run does not trap.
std::pair<double, double> RandomRange(const ir::Graph& hint, const std::string& data,
                                      const sym::Bindings& b) {
  const int d = hint.FindNode(data);
  for (const auto& n : hint.nodes) {
    if (n.type != "Gather" || n.inputs.size() < 2 || n.inputs[1].node != d) continue;
    const ir::Tensor* params = ir::InputTensor(hint, n, 0);
    const auto axis = params != nullptr ? ir::GatherAxis(n, params->repeats.size()) : std::nullopt;
    if (!axis) break;
    try {
      const auto extent = static_cast<double>(params->repeats[*axis].Eval(b));
      if (extent < 1) break;
      return {ir::NegativeIndexSupport(n) ? -extent : 0.0, extent - 1};
    } catch (const sym::Error&) {
      break;
    }
  }
  return {-2.0, 2.0};
}

void RequireBound(const Kernel& k, const Options& options) {
  if (!k.error.empty()) throw InputError({}, k.error_code + ": " + k.error);
  if (!k.library) throw InputError({}, "kernel " + k.code.kernel_name + " was not built");
  for (const auto& s : k.code.symbols) {
    if (!options.bindings.contains(s)) {
      throw InputError({}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
    }
  }
}

// ---- inputs: given arrays, in<i>.npy by Data index, or seeded random values
std::vector<data::HostArray> Inputs(const Kernel& k, const Options& options,
                                    const RunOptions& run) {
  const auto specs = interp::InputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> inputs = run.inputs;
  if (inputs.empty()) {
    for (const auto& spec : specs) {
      if (!run.inputs_dir.empty()) {
        const auto p =
            std::filesystem::path(run.inputs_dir) / ("in" + std::to_string(spec.index) + ".npy");
        inputs.push_back(data::ReadNpy(p.string(), spec.dtype));
      } else {
        const auto [lo, hi] = RandomRange(k.hint, spec.name, options.bindings);
        inputs.push_back(
            data::RandomArray(spec.dtype, spec.shape, run.seed * 7919 + spec.index, lo, hi));
      }
    }
  }
  if (inputs.size() != specs.size()) {
    throw InputError({}, "kernel takes " + std::to_string(specs.size()) + " inputs, got " +
                             std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].shape != specs[i].shape || inputs[i].dtype != specs[i].dtype) {
      throw InputError({}, "input " + std::to_string(i) + " (" + specs[i].name + ") must be " +
                               std::string(ir::DTypeName(specs[i].dtype)) +
                               data::ShapeToString(specs[i].shape) + ", got " +
                               std::string(ir::DTypeName(inputs[i].dtype)) +
                               data::ShapeToString(inputs[i].shape));
    }
  }
  return inputs;
}

// A multi-group kernel's tiling data holds each group's struct at member_offset[i]: each group's
// key and block_dim must be the in-process solver's for that group.
void CheckGroupTilings(const Kernel& k, const Options& options,
                       const std::vector<std::uint8_t>& tiling, const std::vector<int>& forced,
                       int forced_template, RunResult* res) {
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const auto solver = att::SolverOptionsFrom(options.flags, profile);
  res->group_keys.clear();
  int fixpipe_skips = -1;
  for (std::size_t i = 0; i < k.groups.size(); ++i) {
    std::uint64_t off = 0;
    const std::size_t at = codegen::kSuperMemberOffsetsAt + 8 * i;
    if (at + sizeof off > tiling.size()) throw std::runtime_error("tiling data too short");
    std::memcpy(&off, tiling.data() + at, sizeof off);
    AfTilingHeader h{};
    if (off + sizeof h > tiling.size()) throw std::runtime_error("tiling data too short");
    std::memcpy(&h, tiling.data() + off, sizeof h);
    if (k.groups[i].group.cube) {
      const att::CubeDecision c = att::SolveCubeGroup(*k.groups[i].group.cube, options.bindings,
                                                      profile, forced.empty() ? -1 : forced.at(i));
      if (static_cast<int>(h.tiling_key) != c.chosen || h.block_dim != c.tiling.block_dim) {
        throw std::runtime_error(
            "cube group " + std::to_string(i) + ": generated tiling (template " +
            std::to_string(h.tiling_key) + ", block_dim " + std::to_string(h.block_dim) +
            ") disagrees with the compiler (" + att::CubeTemplateName(c.chosen) + ", block_dim " +
            std::to_string(c.tiling.block_dim) + ")");
      }
      res->group_keys.push_back(c.chosen);
      res->cube = true;
      res->model_mte2_bytes += static_cast<std::int64_t>(c.tiling.total.mte2_bytes);
      res->model_cube_mte1_fractals += c.tiling.total.mte1_fractals;
      res->model_cube_steps += c.tiling.total.cube_steps;
      res->model_cube_fix_fractals += c.tiling.total.fix_fractals;
      fixpipe_skips = c.chosen == att::kCubeFixpip ? k.groups[i].group.cube->epilogue_group : -1;
      continue;
    }
    if (static_cast<int>(i) == fixpipe_skips) {
      res->group_keys.push_back(-1);  // the epilogue kFixpip did: not run
      continue;
    }
    const att::TilingDecision d =
        att::Solve(k.groups[i].schedule, options.bindings, profile,
                   forced.empty() ? -1 : forced.at(i), forced_template, solver);
    if (static_cast<int>(h.tiling_key) != d.chosen || h.block_dim != d.solution.block_dim) {
      throw std::runtime_error("group " + std::to_string(i) + ": generated tiling (case " +
                               std::to_string(h.tiling_key) + ", block_dim " +
                               std::to_string(h.block_dim) +
                               ") disagrees with the compiler (case " + std::to_string(d.chosen) +
                               ", block_dim " + std::to_string(d.solution.block_dim) + ")");
    }
    res->group_keys.push_back(d.chosen);
    res->model_mte2_bytes += d.solution.mte2_bytes;
    res->model_mte3_bytes += d.solution.mte3_bytes;
    res->model_vec_repeats += d.solution.vec_repeats;
  }
}

// ---- tiling: the generated function, checked against the in-process solver
std::vector<std::uint8_t> Tiling(const Kernel& k, const Options& options, RunResult* res) {
  const hw::Profile& profile = hw::GetProfile(options.soc);
  auto* tiling_fn =
      reinterpret_cast<AfComputeTilingFn>(k.library->Symbol(AF_COMPUTE_TILING_SYMBOL));
  auto* size_fn = reinterpret_cast<AfTilingDataSizeFn>(k.library->Symbol(AF_TILING_SIZE_SYMBOL));
  if (tiling_fn == nullptr || size_fn == nullptr)
    throw std::runtime_error("kernel has no " AF_COMPUTE_TILING_SYMBOL);
  std::vector<std::int64_t> syms;
  syms.reserve(k.code.symbols.size());
  for (const auto& s : k.code.symbols)
    syms.push_back(options.bindings.at(s));
  std::vector<std::uint8_t> tiling(size_fn(), 0);
  const int forced_template = IndexFlag(options, "force_schedule_result", "a template index");
  // A multi-group kernel takes a forced case per group (--force_tiling_case=gG_N,...).
  const std::vector<int> group_forced =
      k.MultiGroup() ? ForcedGroupCases(options, k.groups.size()) : std::vector<int>{};
  const int forced = k.MultiGroup() ? -1 : IndexFlag(options, "force_tiling_case", "a case index");
  int rc = 0;
  if (k.MultiGroup()) {
    auto* group_fn =
        reinterpret_cast<AfComputeGroupTilingFn>(k.library->Symbol(AF_COMPUTE_GROUP_TILING_SYMBOL));
    if (group_fn == nullptr)
      throw std::runtime_error("multi-group kernel has no " AF_COMPUTE_GROUP_TILING_SYMBOL);
    std::vector<std::int32_t> cases(group_forced.begin(), group_forced.end());
    rc = group_fn(syms.data(), static_cast<std::uint32_t>(syms.size()), profile.vector_cores,
                  static_cast<std::uint64_t>(profile.ub_bytes), cases.data(),
                  static_cast<std::uint32_t>(cases.size()), forced_template, tiling.data(),
                  tiling.size());
  } else {
    rc = tiling_fn(syms.data(), static_cast<std::uint32_t>(syms.size()), profile.vector_cores,
                   static_cast<std::uint64_t>(profile.ub_bytes), forced, forced_template,
                   tiling.data(), tiling.size());
  }
  if (rc != 0) {
    throw InputError({}, "the tiling function found no tiling (code " + std::to_string(rc) + ")");
  }
  AfTilingHeader header{};
  std::memcpy(&header, tiling.data(), sizeof header);
  const auto solver = att::SolverOptionsFrom(options.flags, profile);
  if (k.MultiGroup()) {
    CheckGroupTilings(k, options, tiling, group_forced, forced_template, res);
    res->block_dim = header.block_dim;
    return tiling;
  }
  att::TilingDecision in_process =
      att::Solve(k.schedule, options.bindings, profile, forced, forced_template, solver);
  // A kernel built with --autofuse_enable_pgo reads its PGO result file ($AF_PGO_FILE overrides):
  // the in-process decision reads the same entry.
  if (!k.pgo_file.empty() && forced < 0 && forced_template < 0) {
    att::ApplyPgo(af_tiling::PgoPath(k.pgo_file.c_str()), k.schedule, options.bindings, profile,
                  solver, &in_process);
  }
  if (static_cast<int>(header.tiling_key) != in_process.chosen ||
      header.block_dim != in_process.solution.block_dim) {
    throw std::runtime_error("generated tiling (case " + std::to_string(header.tiling_key) +
                             ", block_dim " + std::to_string(header.block_dim) +
                             ") disagrees with the compiler (case " +
                             std::to_string(in_process.chosen) + ", block_dim " +
                             std::to_string(in_process.solution.block_dim) + ")");
  }
  res->block_dim = header.block_dim;
  res->tiling_key = static_cast<int>(header.tiling_key);
  res->model_mte2_bytes = in_process.solution.mte2_bytes;
  res->model_mte3_bytes = in_process.solution.mte3_bytes;
  res->model_vec_repeats = in_process.solution.vec_repeats;
  return tiling;
}

// A kernel that stopped itself on its data (a Gather index out of range) is bad input, named.
[[noreturn]] void LaunchFailed(const Kernel& k, const RunOptions& run, const std::string& error) {
  if (error.find(": Trap: ") != std::string::npos) {
    std::string indices;
    for (const auto& n : k.hint.nodes) {
      if (n.type != "Gather" || n.inputs.size() < 2) continue;
      indices += (indices.empty() ? "'" : ", '") +
                 k.hint.nodes[static_cast<std::size_t>(n.inputs[1].node)].name + "'";
    }
    throw InputError(SourceLoc{run.inputs_dir, 0, 0},
                     "kernel " + k.code.kernel_name + " stopped on its input data: " + error +
                         (indices.empty() ? "" : " (index input(s) " + indices + ")"));
  }
  throw std::runtime_error("kernel " + k.code.kernel_name + " failed on the CPU runtime: " + error);
}

// ---- launch on the CPU runtime; returns the outputs and fills the runtime's counters
std::vector<data::HostArray> Launch(const Kernel& k, const Options& options, const RunOptions& run,
                                    std::vector<data::HostArray>& inputs,
                                    std::vector<std::uint8_t>& tiling, RunResult* res) {
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const auto out_specs = interp::OutputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> outputs;
  outputs.reserve(out_specs.size());
  for (const auto& spec : out_specs)
    outputs.push_back(data::Zeros(spec.dtype, spec.shape));
  std::vector<std::uint8_t*> ptrs;
  std::vector<std::uint64_t> sizes;
  for (auto* arrays : {&inputs, &outputs}) {
    for (auto& a : *arrays) {
      ptrs.push_back(a.bytes.empty() ? nullptr : a.bytes.data());
      sizes.push_back(a.bytes.size());
    }
  }
  AfLaunchArgs args{};
  args.abi_version = AF_LAUNCH_ABI_VERSION;
  args.block_dim = std::max<std::uint32_t>(1, res->block_dim);
  args.ub_bytes = static_cast<std::uint64_t>(profile.ub_bytes);
  args.num_gm = static_cast<std::uint32_t>(ptrs.size());
  args.gm_ptrs = ptrs.data();
  args.gm_sizes = sizes.data();
  args.tiling = tiling.data();
  args.tiling_size = tiling.size();
  // The GM workspace the tiling asks for (the r_core template's per-core partials).
  std::vector<std::uint8_t> workspace;
  if (auto* ws_fn =
          reinterpret_cast<AfWorkspaceBytesFn>(k.library->Symbol(AF_WORKSPACE_BYTES_SYMBOL))) {
    workspace.assign(static_cast<std::size_t>(ws_fn(tiling.data())), 0);
  }
  args.workspace = workspace.empty() ? nullptr : workspace.data();
  args.workspace_size = workspace.size();
  args.kernel_name = k.code.kernel_name.c_str();
  std::vector<AfApiCount> counts(64);
  args.api_counts = counts.data();
  args.api_counts_cap = static_cast<std::uint32_t>(counts.size());
  if (k.library->Launch(&args) != AF_STATUS_OK) LaunchFailed(k, run, std::string(args.error));
  for (std::uint32_t i = 0; i < std::min<std::uint32_t>(args.api_counts_len, 64); ++i) {
    const std::string name = counts[i].name;
    if (name == "LoadData") res->cube_mte1_fractals = counts[i].repeats;
    if (name == "Mmad") res->cube_steps = counts[i].repeats;
    if (name == "Fixpipe") res->cube_fix_fractals = counts[i].repeats;
  }
  res->mte2_bytes = args.mte2_bytes;
  res->mte3_bytes = args.mte3_bytes;
  res->vec_repeats = args.vec_repeats;
  res->ub_peak_bytes = args.ub_peak_bytes;
  return outputs;
}

// ---- expectations (out<i>.npy by Output index, or the reference interpreter) and comparison
// The dtype whose tolerance an output of dtype `out` is compared with: a float output is as
// precise as the least precise float the graph computes in, because the reference rounds every
// intermediate to its fp16/bf16 dtype while the kernel computes halves in fp32 (normalize's
// upcast). Found by the soak: fp16 Erf -> Mean -> Exp cast to an fp32 output.
ir::DType ComparePrecision(const ir::Graph& g, ir::DType out) {
  if (!ir::IsFloat(out)) return out;
  ir::DType p = out;
  for (const auto& n : g.nodes) {
    for (const auto& t : n.outputs) {
      if (t.dtype == ir::DType::kBFloat16) p = ir::DType::kBFloat16;
      if (t.dtype == ir::DType::kFloat16 && p != ir::DType::kBFloat16) p = ir::DType::kFloat16;
    }
  }
  return p;
}

// The first edge (consumer, dtype read) in the cone of Output `output` for which `hit` holds.
template <typename Hit>
std::optional<ir::DType> FindInCone(const ir::Graph& g, const std::string& output, Hit hit) {
  const int out = g.FindNode(output);
  if (out < 0) return std::nullopt;
  std::vector<bool> seen(g.nodes.size(), false);
  std::vector<int> todo = {out};
  while (!todo.empty()) {
    const int i = todo.back();
    todo.pop_back();
    if (seen[static_cast<std::size_t>(i)]) continue;
    seen[static_cast<std::size_t>(i)] = true;
    const ir::Node& n = g.nodes[static_cast<std::size_t>(i)];
    for (const auto& in : n.inputs) {
      const ir::DType from = g.nodes[in.node].outputs.at(in.output).dtype;
      if (hit(n, from)) return from;
      todo.push_back(in.node);
    }
  }
  return std::nullopt;
}

bool IsHalf(ir::DType t) {
  return t == ir::DType::kFloat16 || t == ir::DType::kBFloat16;
}

// The half dtype (fp16/bf16) an integer output is truncated from, if the output's cone converts a
// half value to an integer: the reference rounds each step of a half chain to the half, the kernel
// computes it in fp32 (normalize's upcast) and rounds once before the conversion
// (ROUND_BEFORE_INT_CAST), so the two floats agree within the half's tolerance, yet truncate to
// neighbouring integers when they straddle one (found by the soak, seed 238: 11.99 and 12.0).
// Such an output compares within 1 + the half's rtol * |expected| instead of exactly; so does a
// float output that is such an integer converted back (soak seed 539: bf16 Ln -> int64 -> fp16,
// expected 1, got 0).
std::optional<ir::DType> TruncatedFromHalf(const ir::Graph& g, const std::string& output) {
  const int out = g.FindNode(output);
  if (out < 0 || g.nodes[out].outputs.at(0).dtype == ir::DType::kBool) return std::nullopt;
  return FindInCone(g, output, [](const ir::Node& n, ir::DType from) {
    return n.type == "Cast" && !ir::IsFloat(n.outputs.at(0).dtype) && IsHalf(from);
  });
}

// Whether the output's cone reduces fp16/bf16 values. The per-step reference rounds every summand
// to the half, the kernel sums fp32 values: where the sum cancels, the two differ by far more than
// the half's tolerance of the result (soak seed 1650: 37 bf16 terms of magnitude 1 summing to
// 0.25 differ by 0.02), so such an output is checked against the normalized reference only.
bool ReducesHalves(const ir::Graph& g, const std::string& output) {
  return FindInCone(g, output,
                    [](const ir::Node& n, ir::DType from) {
                      return ir::IsReduceOp(n.type) && IsHalf(from);
                    })
      .has_value();
}

// Whether the output's cone applies a step function (Sign, Floor, Ceil, Round, Trunc, a floor
// division or a remainder) to float values. Upstream of it the per-step reference rounds each
// half step and the kernel does not; where a value lies within that rounding of a step, the two
// land on either side of it and differ by the whole step (soak seed 9507: Sign(Ln(|x| + 1)) in
// bf16 with |x| < 2^-8: 1 + |x| rounds to 1 in bf16, so Ln gives 0 and Sign 0, while the
// kernel's fp32 gives Sign 1, as does the normalized reference). Such an output is checked
// against the normalized reference only, as ReducesHalves' are.
bool StepsOnFloats(const ir::Graph& g, const std::string& output) {
  return FindInCone(g, output,
                    [](const ir::Node& n, ir::DType from) {
                      static const std::set<std::string, std::less<>> kSteps = {
                          "Sign",     "Floor",     "Ceil", "Round", "Trunc",
                          "FloorDiv", "Remainder", "Fmod", "Mod"};
                      return ir::IsFloat(from) && kSteps.contains(n.type);
                    })
      .has_value();
}

// The most fp16/bf16 roundings on one path into Output `output`: compute nodes (not Load, Store,
// Broadcast, Data or Output, which move values) whose result is a half. Each rounds the per-step
// reference's value to the half once more, and the nodes after it carry that error on, while the
// kernel rounds once (normalize's upcast): the two drift apart by up to about one half tolerance
// per rounding (soak seed 1983: bf16 Cast, Sub, Mul, Exp, 4 roundings, 3.3906 against 3.3125 at
// bf16's 0.016).
int HalfRoundings(const ir::Graph& g, const std::string& output) {
  const int out = g.FindNode(output);
  if (out < 0) return 0;
  std::vector<int> depth(g.nodes.size(), -1);
  const auto moves = [](const std::string& t) {
    return t == "Load" || t == "Store" || t == "Broadcast" || t == "Data" || t == "Output";
  };
  // Iterative post-order over the cone (the graph may be deep).
  std::vector<std::pair<int, bool>> todo = {{out, false}};
  while (!todo.empty()) {
    const auto [i, expanded] = todo.back();
    todo.pop_back();
    const auto u = static_cast<std::size_t>(i);
    if (depth[u] >= 0) continue;
    const ir::Node& n = g.nodes[u];
    if (!expanded) {
      todo.emplace_back(i, true);
      for (const auto& in : n.inputs)
        if (depth[static_cast<std::size_t>(in.node)] < 0) todo.emplace_back(in.node, false);
      continue;
    }
    int d = 0;
    for (const auto& in : n.inputs)
      d = std::max(d, depth[static_cast<std::size_t>(in.node)]);
    const bool rounds = !moves(n.type) && !n.outputs.empty() && IsHalf(n.outputs[0].dtype);
    depth[u] = d + (rounds ? 1 : 0);
  }
  return depth[static_cast<std::size_t>(out)];
}

// One output against the normalized reference and, for a float output of a graph the precision
// passes change whose cone reduces no halves and applies no step function, against the per-step
// reference (ties settled) at the
// same tolerance times the output's HalfRoundings.
OutputCheck CheckOutput(const Kernel& k, const RunOptions& run, const interp::TensorSpec& spec,
                        bool reduces, const data::HostArray& expected,
                        const data::HostArray* per_step, const data::HostArray& actual) {
  OutputCheck c;
  c.name = spec.name;
  auto tol = data::DefaultTolerance(ComparePrecision(k.hint, spec.dtype), reduces);
  const std::optional<ir::DType> half = TruncatedFromHalf(k.hint, spec.name);
  if (half) tol = {1.0, data::DefaultTolerance(*half, reduces).rtol};
  c.atol = run.atol.value_or(tol.atol);
  c.rtol = run.rtol.value_or(tol.rtol);
  const auto cmp = data::CompareArrays(expected, actual, c.atol, c.rtol, half.has_value());
  c.ok = cmp.ok;
  c.max_abs = cmp.max_abs;
  c.max_rel = cmp.max_rel;
  c.message = cmp.message;
  if (per_step != nullptr && ir::IsFloat(spec.dtype) && !ReducesHalves(k.hint, spec.name) &&
      !StepsOnFloats(k.hint, spec.name)) {
    // The per-step reference's own rounding grows with the half steps it rounds (HalfRoundings).
    const double steps = std::max(1, HalfRoundings(k.hint, spec.name));
    const auto second =
        data::CompareArrays(*per_step, actual, c.atol * steps, c.rtol * steps, half.has_value());
    c.per_step_checked = true;
    c.per_step_ok = second.ok;
    c.per_step_max_abs = second.max_abs;
    if (!second.ok) {
      c.ok = false;
      c.message +=
          std::string(c.message.empty() ? "" : "; ") +
          "against the per-step reference (every fp16/bf16 step rounded): " + second.message;
    }
  }
  return c;
}

// The expectations are out<i>.npy when given, else the reference interpreter (reference.h): the
// kernel must match the precision graph's run (what it computes: halves in fp32 with the
// schedule's rounding casts) and, for float outputs, the per-step run of the hint graph with
// comparison ties settled. Soak seeds 607, 991 and 1585: a comparison of upcast halves near a tie
// flipped a Where against the per-step run alone.
void Compare(const Kernel& k, const Options& options, const RunOptions& run,
             const std::vector<data::HostArray>& inputs, std::vector<data::HostArray> outputs,
             RunResult* res) {
  const auto out_specs = interp::OutputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> expected;
  if (!run.expect_dir.empty()) {
    for (const auto& spec : out_specs) {
      const auto p =
          std::filesystem::path(run.expect_dir) / ("out" + std::to_string(spec.index) + ".npy");
      expected.push_back(data::ReadNpy(p.string(), spec.dtype));
    }
  } else {
    const auto settings = KernelStageSettingsFrom(options, NoTiling::kRefuse);
    References refs = ComputeReferences(k.hint, settings.schedule, options.bindings, inputs);
    expected = std::move(refs.normalized);
    res->per_step = std::move(refs.per_step);
    res->settled_ties = refs.settled_ties;
  }
  res->ok = true;
  // Reductions sum in a different order from the reference: the looser reduction tolerance.
  const bool reduces = std::any_of(k.hint.nodes.begin(), k.hint.nodes.end(),
                                   [](const ir::Node& n) { return ir::IsReduceOp(n.type); });
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const data::HostArray* per_step = res->per_step.empty() ? nullptr : &res->per_step.at(i);
    OutputCheck c =
        CheckOutput(k, run, out_specs[i], reduces, expected.at(i), per_step, outputs[i]);
    res->ok = res->ok && c.ok;
    res->outputs.push_back(std::move(c));
  }
  res->actual = std::move(outputs);
  res->expected = std::move(expected);
}

}  // namespace

std::string ChosenCases(const Kernel& k, const RunResult& res) {
  if (!k.MultiGroup()) {
    if (res.tiling_key < 0 || static_cast<std::size_t>(res.tiling_key) >= k.schedule.cases.size())
      return "case " + std::to_string(res.tiling_key);
    return "case " + std::to_string(res.tiling_key) + " (" +
           k.schedule.cases[static_cast<std::size_t>(res.tiling_key)].name + ")";
  }
  std::string s = std::to_string(k.groups.size()) + " groups:";
  for (std::size_t i = 0; i < res.group_keys.size() && i < k.groups.size(); ++i) {
    s += i != 0U ? " |" : "";
    if (res.group_keys[i] < 0) {
      s += " skipped (kFixpip did the epilogue)";
      continue;
    }
    const auto c = static_cast<std::size_t>(res.group_keys[i]);
    if (k.groups[i].group.cube) {
      s += " cube " + std::string(att::CubeTemplateName(res.group_keys[i]));
      continue;
    }
    s += std::string(" case ") + std::to_string(c) + " (" + k.groups[i].schedule.cases.at(c).name +
         ")";
  }
  return s;
}

RunResult Run(const Kernel& k, const Options& options, const RunOptions& run) {
  RequireBound(k, options);
  RunResult res;
  TraceStage("inputs of " + k.code.kernel_name);
  std::vector<data::HostArray> inputs = Inputs(k, options, run);
  TraceStage("tiling function");
  std::vector<std::uint8_t> tiling = Tiling(k, options, &res);
  TraceStage("kernel launch");
  std::vector<data::HostArray> outputs = Launch(k, options, run, inputs, tiling, &res);
  TraceStage("reference interpreter and comparison");
  Compare(k, options, run, inputs, std::move(outputs), &res);
  return res;
}

}  // namespace af::pipeline
