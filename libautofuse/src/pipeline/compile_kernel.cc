// The per-kernel stages (see compile_kernel.h).
#include "autofuse/pipeline/compile_kernel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "autofuse/hw/profile.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void Dump(const Options& o, const std::string& stage, const std::string& text) {
  if (o.dump) o.dump(stage, text);
}

bool AllBound(const std::vector<std::string>& symbols, const sym::Bindings& b) {
  return std::ranges::all_of(symbols, [&b](const std::string& s) { return b.contains(s); });
}

std::string Cycles(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// --replace_kernel=DIR: a file DIR/<kernel>/<name> (or DIR/<name>) replaces the generated file
// of that name, as AutoFuse takes hand-edited kernel and host sources.
void ReplaceKernelSources(Kernel& k, const Options& options) {
  const auto it = options.flags.find("replace_kernel");
  if (it == options.flags.end() || it->second.empty()) return;
  namespace fs = std::filesystem;
  const fs::path dir(it->second);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError({it->second, 0, 0}, "--replace_kernel: not a directory");
  }
  for (auto& f : k.code.files) {
    for (const fs::path& p : {dir / k.code.kernel_name / f.name, dir / f.name}) {
      if (!fs::is_regular_file(p, ec)) continue;
      std::ifstream in(p, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      if (!in) throw InputError({p.string(), 0, 0}, "--replace_kernel: cannot read the file");
      f.text = text.str();
      k.replaced.push_back(p.string());
      Dump(options, "replace_kernel", k.code.kernel_name + ": " + f.name + " from " + p.string());
      break;
    }
  }
}

// The PGO search for the bound sizes (when there are bound sizes and no forced case or
// template: those are the user's choice), written into the kernel's result file; the decision
// then takes the file's entry, as the generated tiling function will.
void SearchPgo(Kernel& k, const Options& options, const KernelStageSettings& settings) {
  const hw::Profile& profile = *settings.profile;
  const std::filesystem::path cache =
      options.compile.cache_dir.empty() ? toolchain::DefaultCacheDir() : options.compile.cache_dir;
  k.pgo_file = att::PgoFile(cache, codegen::KernelName(k.hint));
  if (!k.tiling || settings.forced_case >= 0 || settings.forced_template >= 0) {
    Dump(options, "pgo",
         k.tiling ? "forced case or template: no search (file " + k.pgo_file.string() + ")"
                  : "sizes not bound: no search; the tiling function reads " + k.pgo_file.string());
    return;
  }
  const auto dims = att::DimValues(k.schedule, options.bindings);
  const att::CaseSet set = att::BuildCases(k.schedule, dims);
  k.pgo = att::SearchTiling(set, profile.vector_cores, profile.ub_bytes, settings.tiling.solver,
                            k.tiling->chosen, k.tiling->solution, settings.pgo);
  if (k.pgo->top.empty()) return;
  std::vector<std::int64_t> syms;
  for (const auto& n : att::KernelSymbols(k.schedule))
    syms.push_back(options.bindings.at(n));
  att::WritePgoEntry(k.pgo_file, att::PgoEntryFor(*k.pgo, settings.tiling.solver.perf_version, syms,
                                                  profile.vector_cores, profile.ub_bytes));
  att::ApplyPgo(k.pgo_file, k.schedule, options.bindings, profile, settings.tiling.solver,
                &*k.tiling);
  std::ostringstream o;
  o << att::PgoAlgoName(settings.pgo) << ": " << k.pgo->evaluated << " points priced; solver case "
    << k.pgo->solver.case_index << " tile " << k.pgo->solver.tile << " block_dim "
    << k.pgo->solver.block_dim << " " << Cycles(k.pgo->solver.cycles) << " cycles; searched case "
    << k.pgo->top[0].case_index << " tile " << k.pgo->top[0].tile << " block_dim "
    << k.pgo->top[0].block_dim << " " << Cycles(k.pgo->top[0].cycles) << " cycles (x"
    << k.pgo->gain() << "); file " << k.pgo_file.string();
  Dump(options, "pgo", o.str());
}

}  // namespace

KernelStageSettings KernelStageSettingsFrom(const Options& options, NoTiling no_tiling) {
  KernelStageSettings s;
  s.profile = &hw::GetProfile(options.soc);
  s.tiling = TilingOptionsFrom(options, *s.profile);
  s.forced_case = IndexFlag(options, "force_tiling_case", "a case index");
  s.forced_template = IndexFlag(options, "force_schedule_result", "a template index");
  s.no_tiling = no_tiling;
  s.pgo = att::PgoOptionsFrom(options.flags);
  if (const auto it = options.flags.find("autofuse_enhance_precision_blacklist");
      it != options.flags.end()) {
    std::stringstream ss(it->second);
    std::string op;
    while (std::getline(ss, op, ','))
      if (!op.empty()) s.schedule.keep_precision.insert(op);
  }
  return s;
}

toolchain::CompileOptions KernelCompileOptions(const codegen::GeneratedKernel& code,
                                               const Options& options) {
  const hw::Profile& profile = hw::GetProfile(options.soc);
  toolchain::CompileOptions compile = options.compile;
  compile.bisheng_arch = toolchain::BishengArch(profile.npu_arch, code.mixed);
  compile.npu_arch = toolchain::NpuArchNumber(profile.npu_arch);
  return compile;
}

void CompileKernel(Kernel& k, const Options& options, const KernelStageSettings& settings,
                   KernelStageTimes* times) {
  const hw::Profile& profile = *settings.profile;
  try {
    // ---- groups: reductions over different axes split the kernel into groups joined through
    // GM workspace tensors; each group then takes the stages below (CompileGroups)
    if (schedule::GroupPartition part = schedule::PartitionGroups(k.hint); !part.groups.empty()) {
      Dump(options, "groups", schedule::DumpGroups(part));
      CompileGroups(k, part, options, settings, times);
      return;
    }

    // ---- schedule: normalise (a dump after each pass), tiling cases, templates, impl graphs,
    // buffers
    auto t0 = Clock::now();
    k.schedule =
        schedule::Schedule(k.hint, profile, settings.schedule, schedule::StageDump(options.dump));
    times->schedule += Ms(t0, Clock::now());
    Dump(options, "schedule", schedule::DumpSchedule(k.schedule));

    // ---- tiling: solve every case when every size is bound
    t0 = Clock::now();
    if (AllBound(att::KernelSymbols(k.schedule), options.bindings)) {
      try {
        k.tiling = att::Solve(k.schedule, options.bindings, profile, settings.forced_case,
                              settings.forced_template, settings.tiling.solver);
      } catch (const InputError& e) {
        times->tiling += Ms(t0, Clock::now());
        if (settings.no_tiling == NoTiling::kAbort) throw;
        k.error_code = "NO_TILING";
        k.error = e.what();
        return;
      }
      times->tiling += Ms(t0, Clock::now());
      Dump(options, "tiling", DumpTiling(k.schedule, *k.tiling));
    }

    // ---- pgo (--autofuse_enable_pgo): search around the solver's choice, keep the best point
    // in the kernel's result file, which the tiling function reads at run time
    codegen::TilingOptions tiling_options = settings.tiling;
    if (settings.pgo.enabled) {
      t0 = Clock::now();
      SearchPgo(k, options, settings);
      tiling_options.pgo_file = k.pgo_file.string();
      times->tiling += Ms(t0, Clock::now());
    }

    // ---- codegen: kernel, tiling data, tiling function, infer-shape
    t0 = Clock::now();
    k.code = codegen::Generate(k.hint, k.schedule, tiling_options);
    times->codegen += Ms(t0, Clock::now());
    for (const auto& f : k.code.files)
      Dump(options, "codegen", "// ---- " + f.name + "\n" + f.text);
    ReplaceKernelSources(k, options);

    // ---- compile: the host compiler against the CPU AscendC runtime
    if (options.build) {
      t0 = Clock::now();
      std::vector<toolchain::SourceFile> src;
      src.reserve(k.code.files.size());
      for (const auto& f : k.code.files)
        src.push_back({f.name, f.text});
      k.library =
          toolchain::CompileKernel(src, k.code.main_file, KernelCompileOptions(k.code, options));
      times->compile += Ms(t0, Clock::now());
      Dump(options, "compile", k.code.kernel_name + ": built");
    }
  } catch (const schedule::ScheduleError& e) {
    k.error_code = e.code();
    k.error = e.what();
  } catch (const codegen::CodegenError& e) {
    k.error_code = e.code();
    k.error = e.what();
  }
}

bool SameKernel(const ir::Graph& a, const ir::Graph& b) {
  if (a.name == b.name) return a == b;
  ir::Graph renamed = a;
  renamed.name = b.name;
  return renamed == b;
}

std::string DumpTiling(const schedule::ScheduleResult& s, const att::TilingDecision& d) {
  std::ostringstream o;
  const auto name = [&](std::size_t c) {
    const auto& ic = s.cases[c];
    return std::to_string(c) + " " + ic.name + " (" + std::string(schedule::CaseKindName(ic.kind)) +
           ")";
  };
  o << "chosen: case " << name(static_cast<std::size_t>(d.chosen)) << "\n";
  for (std::size_t c = 0; c < d.cases.size() && c < s.cases.size(); ++c) {
    const auto& cr = d.cases[c];
    o << "case " << name(c) << ": ";
    if (!cr.feasible) {
      o << "infeasible\n";
      continue;
    }
    const auto& sol = cr.solution;
    o << "tile " << sol.tile << ", tiles_per_block " << sol.tiles_per_block << ", r_iters "
      << sol.r_iters << ", block_dim " << sol.block_dim << ", ub " << sol.ub_bytes << " B, cycles "
      << Cycles(sol.cost) << " (MTE2 " << Cycles(sol.pipes[af_tiling::kPipeMte2]) << ", MTE3 "
      << Cycles(sol.pipes[af_tiling::kPipeMte3]) << ", VEC "
      << Cycles(sol.pipes[af_tiling::kPipeVec]) << ", SCALAR "
      << Cycles(sol.pipes[af_tiling::kPipeScalar]) << ", head " << Cycles(sol.head)
      << "), bound by " << af_tiling::BindingName(sol.binding) << "\n";
  }
  return o.str();
}

}  // namespace af::pipeline
