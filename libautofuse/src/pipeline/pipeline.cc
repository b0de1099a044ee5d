// The autofuse pipeline, top to bottom. Each stage is one call followed by the dump hook; the
// stages' decisions live in their results, which the CompileReport carries.
//
//   Compile:  import (AscGraphs from the input file)
//             schedule (normalise, tiling cases, impl graphs, buffers)    per kernel
//             tiling   (solve every case when all sizes are bound)        per kernel
//             codegen  (kernel, tiling data, tiling function, infer-shape) per kernel
//             compile  (host compiler against the CPU AscendC runtime)    per kernel
//   Run:      inputs -> generated tiling function (== in-process solver) -> kernel on the CPU
//             runtime -> compare with expectations (given .npy or the reference interpreter)
#include "autofuse/pipeline/pipeline.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "af_cpu/launch_abi.h"
#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/importers/debug_dir.h"
#include "autofuse/importers/dfx_dump.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/load.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/text.h"
#include "autofuse/pipeline/graph_driver.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "autofuse/support/strings.h"
#include "report.pb.h"

namespace af::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void Dump(const Options& o, const std::string& stage, const std::string& text) {
  if (o.dump) o.dump(stage, text);
}

std::string Trim(const std::string& s) {
  return std::string(TrimSpace(s));
}

// A non-negative index flag (`--force_tiling_case`, `--force_schedule_result`); -1 when unset.
int IndexFlag(const Options& o, const char* name, const char* what) {
  const auto it = o.flags.find(name);
  if (it == o.flags.end() || it->second.empty()) return -1;
  try {
    std::size_t used = 0;
    const int v = std::stoi(it->second, &used);
    if (used != it->second.size() || v < 0) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw InputError({},
                     std::string("--") + name + " must be " + what + ", not '" + it->second + "'");
  }
}

int ForcedCase(const Options& o) {
  return IndexFlag(o, "force_tiling_case", "a case index");
}

int ForcedTemplate(const Options& o) {
  return IndexFlag(o, "force_schedule_result", "a template index");
}

// A folder (torch_compile_debug at any level) or an Inductor post-fusion IR file.
bool IsInductorInput(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return true;
  importers::inductor::DumpFileKind kind{};
  return std::filesystem::is_regular_file(path, ec) &&
         importers::inductor::ClassifyDumpFile(path, &kind) &&
         kind == importers::inductor::DumpFileKind::kIrPostFusion;
}

bool AllBound(const std::vector<std::string>& symbols, const sym::Bindings& b) {
  return std::ranges::all_of(symbols, [&](const std::string& s) { return b.contains(s); });
}

// Inductor's grouping beside ours for every model folder of an Inductor input that holds
// ir_post_fusion.txt and an FX graph (graph_driver.h). An FX graph we cannot read is a note.
void AddInductorGroupings(const std::string& input, const Options& options,
                          report::CompileReport* out) {
  const auto tree = importers::inductor::DiscoverDebugDump(input);
  for (const auto& m : tree.models) {
    if (m.Find(importers::inductor::DumpFileKind::kIrPostFusion) == nullptr) continue;
    report::GroupingComparisonReport cmp;
    try {
      if (!CompareWithInductor(m.dir.string(), options, &cmp)) continue;
    } catch (const InputError& e) {
      cmp.Clear();
      cmp.set_model(m.dir.string());
      cmp.add_notes(std::string("not compared: ") + e.what());
    }
    *out->add_framework_groupings() = std::move(cmp);
  }
}

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

}  // namespace

codegen::TilingOptions TilingOptionsFrom(const Options& o, const hw::Profile& profile) {
  codegen::TilingOptions t;
  t.solver = att::SolverOptionsFrom(o.flags, profile);
  if (const auto it = o.flags.find("autofuse_enable_tiling_cache"); it != o.flags.end()) {
    const std::string& v = it->second;
    if (v == "1" || v == "true") {
      t.cache = true;
    } else if (v != "0" && v != "false" && !v.empty()) {
      throw InputError({}, "--autofuse_enable_tiling_cache must be 0 or 1, not '" + v + "'");
    }
  }
  return t;
}

void ParseFlags(const std::string& text, std::map<std::string, std::string>* flags) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ';')) {
    item = Trim(item);
    if (item.empty()) continue;
    if (item.rfind("--", 0) == 0) item = item.substr(2);
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      throw InputError({}, "flag '" + item + "' is not --key=value");
    }
    const std::string key = Trim(item.substr(0, eq));
    if (key.empty()) throw InputError({}, "flag '" + item + "' has no key");
    (*flags)[key] = Trim(item.substr(eq + 1));
  }
}

void ParseBindings(const std::string& text, sym::Bindings* b) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = Trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError({}, "--bind entry '" + item + "' is not name=value");
    const std::string name = Trim(item.substr(0, eq));
    const std::string value = Trim(item.substr(eq + 1));
    try {
      std::size_t used = 0;
      const long long v = std::stoll(value, &used);
      if (used != value.size() || v < 0) throw std::invalid_argument("");
      (*b)[name] = v;
    } catch (const std::exception&) {
      throw InputError({}, "--bind " + name + " needs a non-negative integer, not '" + value + "'");
    }
  }
}

CompileResult Compile(const std::string& input_path, const Options& options) {
  CompileResult r;
  r.input = input_path;
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const int forced = ForcedCase(options);
  const int forced_template = ForcedTemplate(options);
  const codegen::TilingOptions tiling_options = TilingOptionsFrom(options, profile);

  // ---- import
  auto t0 = Clock::now();
  if (importers::dfx::IsDfxDumpInput(input_path)) {
    // AutoFuse DFX dumps: each graph's last hint-graph stage (what AutoFuse scheduled). A folder
    // holds AutoFuse's own fused graphs, so one we cannot schedule falls back; a single file is the
    // user's kernel.
    r.framework_groups = !std::filesystem::is_regular_file(input_path);
    for (const auto& g : importers::dfx::DiscoverDfxDump(input_path).graphs) {
      auto pick = importers::dfx::PickHintStage(g);
      if (!pick.text) {
        if (!r.framework_groups) throw InputError({input_path, 0, 0}, pick.reason);
        continue;  // impl-graph and subgraph dumps: nothing to schedule (afc inspect lists them)
      }
      Kernel k;
      k.hint = std::move(pick.text->graph);
      k.origin = pick.stage->ascgraph.string();
      Dump(options, "import", ir::DumpText(k.hint));
      r.kernels.push_back(std::move(k));
    }
    if (r.kernels.empty()) {
      throw InputError({input_path, 0, 0},
                       "no hint-graph stage to compile (only impl-graph or subgraph dumps)");
    }
    r.timings.push_back({"import", Ms(t0, Clock::now())});
    r.timings.push_back({"frontend", 0.0});  // AutoFuse decided the groups
  } else if (IsInductorInput(input_path)) {
    // torch_compile_debug folders and ir_post_fusion.txt: Inductor's own fused groups, lowered
    // to hint graphs the way inductor_npu_ext does; the others are fallbacks with a reason.
    r.framework_groups = true;
    const auto tree = importers::inductor::DiscoverDebugDump(input_path);
    for (const auto& m : tree.models) {
      const auto* post = m.Find(importers::inductor::DumpFileKind::kIrPostFusion);
      if (post == nullptr) continue;
      const auto ir_file = importers::inductor::LoadInductorIrFile(post->path);
      for (auto& g : importers::inductor::BuildHintGraphs(ir_file)) {
        if (!g.graph) {
          r.fallbacks.push_back({g.name, post->path.string(), g.reason});
          continue;
        }
        Kernel k;
        k.hint = std::move(*g.graph);
        k.origin = post->path.string() + ": " + g.name;
        Dump(options, "import", ir::DumpText(k.hint));
        r.kernels.push_back(std::move(k));
      }
    }
    if (r.kernels.empty() && r.fallbacks.empty()) {
      throw InputError({input_path, 0, 0}, "no ir_post_fusion.txt (Inductor's fused groups) found");
    }
    r.timings.push_back({"import", Ms(t0, Clock::now())});
    r.timings.push_back({"frontend", 0.0});  // Inductor decided the groups
  } else {
    const ir::LoadedFile file = ir::LoadGraphFile(input_path);
    r.timings.push_back({"import", Ms(t0, Clock::now())});
    r.timings.push_back({"frontend", 0.0});  // AscGraph inputs are already fused kernels
    for (const auto& lg : file.graphs) {
      Kernel k;
      k.hint = lg.graph;
      k.origin = lg.origin;
      r.kernels.push_back(std::move(k));
      Dump(options, "import", ir::DumpText(lg.graph));
    }
  }
  auto t1 = Clock::now();

  double schedule_ms = 0;
  double tiling_ms = 0;
  double codegen_ms = 0;
  double compile_ms = 0;
  for (auto& k : r.kernels) {
    try {
      // ---- schedule
      t0 = Clock::now();
      k.schedule = schedule::Schedule(k.hint, profile);
      t1 = Clock::now();
      schedule_ms += Ms(t0, t1);
      Dump(options, "schedule", schedule::DumpSchedule(k.schedule));

      // ---- tiling (static when every size is bound)
      t0 = Clock::now();
      if (AllBound(att::KernelSymbols(k.schedule), options.bindings)) {
        k.tiling = att::Solve(k.schedule, options.bindings, profile, forced, forced_template,
                              tiling_options.solver);
      }
      t1 = Clock::now();
      tiling_ms += Ms(t0, t1);

      // ---- codegen
      t0 = Clock::now();
      k.code = codegen::Generate(k.hint, k.schedule, tiling_options);
      t1 = Clock::now();
      codegen_ms += Ms(t0, t1);
      for (const auto& f : k.code.files)
        Dump(options, "codegen", "// ---- " + f.name + "\n" + f.text);

      // ---- compile
      if (options.build) {
        t0 = Clock::now();
        std::vector<toolchain::SourceFile> src;
        for (const auto& f : k.code.files)
          src.push_back({f.name, f.text});
        k.library = toolchain::CompileKernel(src, k.code.main_file, options.compile);
        t1 = Clock::now();
        compile_ms += Ms(t0, t1);
      }
    } catch (const schedule::ScheduleError& e) {
      k.error_code = e.code();
      k.error = e.what();
    } catch (const codegen::CodegenError& e) {
      k.error_code = e.code();
      k.error = e.what();
    }
  }
  r.timings.push_back({"schedule", schedule_ms});
  r.timings.push_back({"tiling", tiling_ms});
  r.timings.push_back({"codegen", codegen_ms});
  r.timings.push_back({"compile", compile_ms});
  return r;
}

void FillReport(const CompileResult& r, const Options& options, report::CompileReport* out) {
  out->Clear();
  out->set_tool_version(AF_VERSION_STRING);
  out->set_input(r.input);
  out->set_soc(options.soc);
  for (const auto& [k, v] : options.flags)
    (*out->mutable_flags())[k] = v;
  for (const auto& t : r.timings) {
    auto* st = out->add_timings();
    st->set_stage(t.stage);
    st->set_ms(t.ms);
  }
  for (const auto& f : r.fallbacks) {
    auto* fr = out->add_fallbacks();
    fr->set_name(f.name);
    fr->set_origin(f.origin);
    fr->set_reason(f.reason);
  }
  if (r.framework_groups && !importers::dfx::IsDfxDumpInput(r.input) && IsInductorInput(r.input))
    AddInductorGroupings(r.input, options, out);
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const auto solver = att::SolverOptionsFrom(options.flags, profile);
  const int perf_version = solver.perf_version;
  for (const auto& k : r.kernels) {
    auto* kr = out->add_kernels();
    kr->set_name(k.code.kernel_name.empty() ? codegen::KernelName(k.hint) : k.code.kernel_name);
    ir::ToProto(k.hint, kr->mutable_hint_graph());
    kr->set_origin(k.origin);
    kr->set_error_code(k.error_code);
    kr->set_error(k.error);
    if (!k.error.empty() && k.schedule.cases.empty()) continue;
    kr->set_normalized_graph_text(ir::DumpText(k.schedule.graph));
    for (const auto& s : att::KernelSymbols(k.schedule))
      kr->add_symbols(s);
    for (const auto& d : k.schedule.decisions) {
      auto* dr = kr->add_decisions();
      dr->set_stage(d.stage);
      dr->set_code(d.code);
      dr->set_message(d.message);
    }
    for (const auto& b : k.schedule.buffers) {
      auto* br = kr->add_buffers();
      br->set_name(b.Name());
      br->set_kind(std::string(schedule::BufKindName(b.kind)));
      br->set_buf_num(b.buf_num);
      br->set_esize(b.esize);
      for (int n : b.nodes)
        br->add_tensors(k.schedule.graph.nodes[n].name);
      for (std::size_t j = 0; j < k.schedule.dims.size(); ++j) {
        if (((b.one_mask >> j) & 1u) != 0)
          br->add_one_axes(k.schedule.graph.FindAxis(k.schedule.dims[j])->name);
      }
      br->set_role(b.role);
    }
    for (std::size_t c = 0; c < k.schedule.cases.size(); ++c) {
      const auto& ic = k.schedule.cases[c];
      auto* cr = kr->add_cases();
      cr->set_name(ic.name);
      cr->set_template_name(std::string(schedule::CaseKindName(ic.kind)));
      cr->set_indexed_name(ic.indexed_name);
      cr->set_tile_dim(ic.tile_dim);
      cr->set_tile_var(ic.tile_var);
      cr->set_block_var(ic.block_var);
      cr->set_ub_bytes_expr(att::UbBytesExpr(k.schedule, static_cast<int>(c)).ToString());
      for (const auto& f : att::PipeFormulas(k.schedule, static_cast<int>(c), perf_version))
        cr->add_pipe_formulas(f);
      ir::ToProto(ic.graph, cr->mutable_impl_graph());
      cr->set_impl_graph_text(ir::DumpText(ic.graph));
      if (k.tiling) {
        const auto& sol = k.tiling->cases[c].solution;
        cr->set_feasible(sol.ok);
        cr->set_tile(sol.tile);
        cr->set_tiles_per_block(sol.tiles_per_block);
        cr->set_r_iters(sol.r_iters);
        cr->set_block_dim(sol.block_dim);
        cr->set_ub_bytes(sol.ub_bytes);
        cr->set_modeled_cycles(sol.cost);
        cr->set_mte2_cycles(sol.pipes[af_tiling::kPipeMte2]);
        cr->set_mte3_cycles(sol.pipes[af_tiling::kPipeMte3]);
        cr->set_vec_cycles(sol.pipes[af_tiling::kPipeVec]);
        cr->set_scalar_cycles(sol.pipes[af_tiling::kPipeScalar]);
        cr->set_head_cycles(sol.head);
        cr->set_binding(af_tiling::BindingName(sol.binding));
        cr->set_model_mte2_bytes(sol.mte2_bytes);
        cr->set_model_mte3_bytes(sol.mte3_bytes);
        cr->set_model_vec_repeats(sol.vec_repeats);
      }
    }
    if (k.tiling) {
      auto* tr = kr->mutable_tiling();
      for (const auto& [n, v] : options.bindings)
        (*tr->mutable_bindings())[n] = v;
      tr->set_soc(profile.name);
      tr->set_cores(profile.vector_cores);
      tr->set_ub_capacity(profile.ub_bytes);
      tr->set_chosen_case(k.tiling->chosen);
      tr->set_chosen_name(k.schedule.cases[k.tiling->chosen].name);
      tr->set_block_dim(k.tiling->solution.block_dim);
      tr->set_ub_bytes(k.tiling->solution.ub_bytes);
      tr->set_modeled_cycles(k.tiling->solution.cost);
      tr->set_solve_ns(k.tiling->solve_ns);
      tr->set_solver(att::AlgorithmName(solver.algorithm));
      tr->set_perf_table(perf_version);
    }
    for (const auto& f : k.code.files)
      kr->add_source_files(kr->name() + "/" + f.name);
  }
}

std::string ReportJson(const CompileResult& r, const Options& options) {
  report::CompileReport rep;
  FillReport(r, options, &rep);
  return ReportToJson(rep);
}

std::string ReportToJson(const report::CompileReport& rep) {
  std::string json;
  google::protobuf::util::JsonPrintOptions jo;
  jo.add_whitespace = true;
  jo.preserve_proto_field_names = true;
  const auto st = google::protobuf::util::MessageToJsonString(rep, &json, jo);
  if (!st.ok()) throw std::runtime_error("report to JSON: " + st.ToString());
  return json;
}

void WriteOutputs(const CompileResult& r, const Options& options, const std::string& dir,
                  bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw InputError({dir, 0, 0}, "exists and is not a directory");
  }
  if (fs::is_directory(dir, ec) && !fs::is_empty(dir, ec) && !overwrite) {
    // Only our own previous outputs may be replaced silently.
    if (!fs::exists(fs::path(dir) / "report.json")) {
      throw InputError({dir, 0, 0},
                       "is a non-empty directory without a report.json; not writing "
                       "into it (use --force)");
    }
  }
  fs::create_directories(dir, ec);
  if (ec) throw InputError({dir, 0, 0}, "cannot create the directory: " + ec.message());
  auto write = [](const fs::path& p, const std::string& text) {
    WriteFileReplacing(p.string(), text);
  };
  for (const auto& k : r.kernels) {
    if (k.code.files.empty()) continue;
    const fs::path kd = fs::path(dir) / k.code.kernel_name;
    fs::create_directories(kd, ec);
    for (const auto& f : k.code.files)
      write(kd / f.name, f.text);
    write(kd / "schedule.txt", schedule::DumpSchedule(k.schedule));
  }
  write(fs::path(dir) / "report.json", ReportJson(r, options));
}

RunResult Run(const Kernel& k, const Options& options, const RunOptions& run) {
  if (!k.error.empty()) throw InputError({}, k.error_code + ": " + k.error);
  if (!k.library) throw InputError({}, "kernel " + k.code.kernel_name + " was not built");
  const hw::Profile& profile = hw::GetProfile(options.soc);
  const auto& symbols = k.code.symbols;
  for (const auto& s : symbols) {
    if (options.bindings.find(s) == options.bindings.end()) {
      throw InputError({}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
    }
  }
  RunResult res;
  // ---- inputs
  const auto in_specs = interp::InputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> inputs = run.inputs;
  if (inputs.empty()) {
    for (const auto& spec : in_specs) {
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
  if (inputs.size() != in_specs.size()) {
    throw InputError({}, "kernel takes " + std::to_string(in_specs.size()) + " inputs, got " +
                             std::to_string(inputs.size()));
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].shape != in_specs[i].shape || inputs[i].dtype != in_specs[i].dtype) {
      throw InputError({}, "input " + std::to_string(i) + " (" + in_specs[i].name + ") must be " +
                               std::string(ir::DTypeName(in_specs[i].dtype)) +
                               data::ShapeToString(in_specs[i].shape) + ", got " +
                               std::string(ir::DTypeName(inputs[i].dtype)) +
                               data::ShapeToString(inputs[i].shape));
    }
  }
  // ---- tiling: the generated function, checked against the in-process solver
  using TilingFn = int (*)(const std::int64_t*, std::uint32_t, std::uint32_t, std::uint64_t,
                           std::int32_t, std::int32_t, void*, std::uint64_t);
  using SizeFn = std::uint64_t (*)();
  auto* tiling_fn = reinterpret_cast<TilingFn>(k.library->Symbol("af_compute_tiling_t"));
  auto* size_fn = reinterpret_cast<SizeFn>(k.library->Symbol("af_tiling_data_size"));
  if (tiling_fn == nullptr || size_fn == nullptr)
    throw std::runtime_error("kernel has no af_compute_tiling");
  std::vector<std::int64_t> syms;
  syms.reserve(symbols.size());
  for (const auto& s : symbols)
    syms.push_back(options.bindings.at(s));
  std::vector<std::uint8_t> tiling(size_fn(), 0);
  const int forced = ForcedCase(options);
  const int forced_template = ForcedTemplate(options);
  const int rc = tiling_fn(syms.data(), static_cast<std::uint32_t>(syms.size()),
                           profile.vector_cores, static_cast<std::uint64_t>(profile.ub_bytes),
                           forced, forced_template, tiling.data(), tiling.size());
  if (rc != 0) {
    throw InputError({}, "the tiling function found no tiling (code " + std::to_string(rc) + ")");
  }
  std::uint32_t block_dim = 0;
  std::uint32_t key = 0;
  std::memcpy(&block_dim, tiling.data(), 4);
  std::memcpy(&key, tiling.data() + 4, 4);
  const att::TilingDecision in_process =
      att::Solve(k.schedule, options.bindings, profile, forced, forced_template,
                 att::SolverOptionsFrom(options.flags, profile));
  if (static_cast<int>(key) != in_process.chosen || block_dim != in_process.solution.block_dim) {
    throw std::runtime_error("generated tiling (case " + std::to_string(key) + ", block_dim " +
                             std::to_string(block_dim) + ") disagrees with the compiler (case " +
                             std::to_string(in_process.chosen) + ", block_dim " +
                             std::to_string(in_process.solution.block_dim) + ")");
  }
  res.block_dim = block_dim;
  res.tiling_key = static_cast<int>(key);
  res.model_mte2_bytes = in_process.solution.mte2_bytes;
  res.model_mte3_bytes = in_process.solution.mte3_bytes;
  res.model_vec_repeats = in_process.solution.vec_repeats;
  // ---- outputs and launch
  const auto out_specs = interp::OutputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> outputs;
  outputs.reserve(out_specs.size());
  for (const auto& spec : out_specs)
    outputs.push_back(data::Zeros(spec.dtype, spec.shape));
  std::vector<std::uint8_t*> ptrs;
  std::vector<std::uint64_t> sizes;
  for (auto& a : inputs) {
    ptrs.push_back(a.bytes.empty() ? nullptr : a.bytes.data());
    sizes.push_back(a.bytes.size());
  }
  for (auto& a : outputs) {
    ptrs.push_back(a.bytes.empty() ? nullptr : a.bytes.data());
    sizes.push_back(a.bytes.size());
  }
  AfLaunchArgs args{};
  args.abi_version = AF_LAUNCH_ABI_VERSION;
  args.block_dim = std::max<std::uint32_t>(1, block_dim);
  args.ub_bytes = static_cast<std::uint64_t>(profile.ub_bytes);
  args.num_gm = static_cast<std::uint32_t>(ptrs.size());
  args.gm_ptrs = ptrs.data();
  args.gm_sizes = sizes.data();
  args.tiling = tiling.data();
  args.tiling_size = tiling.size();
  // The GM workspace the tiling asks for (the r_core template's per-core partials).
  std::vector<std::uint8_t> workspace;
  using WorkspaceFn = std::uint64_t (*)(const void*);
  if (auto* ws_fn = reinterpret_cast<WorkspaceFn>(k.library->Symbol("af_workspace_bytes"))) {
    workspace.assign(static_cast<std::size_t>(ws_fn(tiling.data())), 0);
  }
  args.workspace = workspace.empty() ? nullptr : workspace.data();
  args.workspace_size = workspace.size();
  args.kernel_name = k.code.kernel_name.c_str();
  const int status = k.library->Launch(&args);
  if (status != AF_STATUS_OK) {
    const std::string error(args.error);
    if (error.find(": trap: ") != std::string::npos) {
      // The kernel stopped itself on its data (a Gather index out of range): bad input, named.
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
    throw std::runtime_error("kernel " + k.code.kernel_name +
                             " failed on the CPU runtime: " + error);
  }
  res.mte2_bytes = args.mte2_bytes;
  res.mte3_bytes = args.mte3_bytes;
  res.vec_repeats = args.vec_repeats;
  res.ub_peak_bytes = args.ub_peak_bytes;
  // ---- expectations and comparison
  std::vector<data::HostArray> expected;
  if (!run.expect_dir.empty()) {
    for (const auto& spec : out_specs) {
      const auto p =
          std::filesystem::path(run.expect_dir) / ("out" + std::to_string(spec.index) + ".npy");
      expected.push_back(data::ReadNpy(p.string(), spec.dtype));
    }
  } else {
    expected = interp::Interpret(k.hint, options.bindings, inputs);
  }
  res.ok = true;
  // Reductions sum in a different order from the reference: the looser reduction tolerance.
  const bool reduces = std::any_of(k.hint.nodes.begin(), k.hint.nodes.end(),
                                   [](const ir::Node& n) { return ir::IsReduceOp(n.type); });
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    OutputCheck c;
    c.name = out_specs[i].name;
    const auto tol = data::DefaultTolerance(out_specs[i].dtype, reduces);
    c.atol = run.atol.value_or(tol.atol);
    c.rtol = run.rtol.value_or(tol.rtol);
    const auto cmp = data::CompareArrays(expected.at(i), outputs[i], c.atol, c.rtol);
    c.ok = cmp.ok;
    c.max_abs = cmp.max_abs;
    c.max_rel = cmp.max_rel;
    c.message = cmp.message;
    res.ok = res.ok && c.ok;
    res.outputs.push_back(c);
  }
  res.actual = std::move(outputs);
  res.expected = std::move(expected);
  return res;
}

}  // namespace af::pipeline
