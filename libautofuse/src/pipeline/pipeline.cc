// The autofuse pipeline, top to bottom (see pipeline.h). Each stage is one call followed by the
// dump hook; the stages' decisions live in their results, which the CompileReport carries.
#include "autofuse/pipeline/pipeline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <thread>
#include <unordered_map>

#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"
#include "autofuse/support/stage_trace.h"

namespace af::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void Dump(const Options& o, const std::string& stage, const std::string& text) {
  if (o.dump) o.dump(stage, text);
}

// Hint-graph inputs: every graph is a kernel already.
void TakeHints(Input& in, const Options& options, CompileResult* r) {
  for (auto& h : in.hints) {
    Kernel k;
    k.hint = std::move(h.graph);
    k.origin = std::move(h.origin);
    Dump(options, "import", ir::DumpText(k.hint));
    r->kernels.push_back(std::move(k));
  }
}

// Identical kernels once: a kernel whose hint graph equals an earlier one's but for the name (the
// layers of a model) points at that kernel (Kernel::same_as) instead of being compiled again.
void MarkSameKernels(std::vector<Kernel>& kernels) {
  std::unordered_map<std::string, std::vector<int>> by_text;  // text without the name -> kernels
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    ir::Graph unnamed = kernels[i].hint;
    unnamed.name.clear();
    auto& seen = by_text[ir::DumpText(unnamed)];
    for (int j : seen)
      if (SameKernel(kernels[i].hint, kernels[static_cast<std::size_t>(j)].hint)) {
        kernels[i].same_as = j;
        break;
      }
    if (kernels[i].same_as < 0) seen.push_back(static_cast<int>(i));
  }
}

// The host compiles of the distinct kernels, one thread per core (the compiler runs in a process
// of its own; toolchain::CompileKernel is thread-safe). The "compile" dumps follow in kernel order;
// a kernel that does not compile throws after every other build finished (the first in order).
void BuildKernels(std::vector<Kernel>& kernels, const Options& options, KernelCounts* counts) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i].same_as < 0 && kernels[i].error.empty() && !kernels[i].code.files.empty())
      todo.push_back(i);
  std::vector<std::exception_ptr> errors(todo.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t t = next++; t < todo.size(); t = next++) {
      Kernel& k = kernels[todo[t]];
      try {
        std::vector<toolchain::SourceFile> src;
        src.reserve(k.code.files.size());
        for (const auto& f : k.code.files)
          src.push_back({f.name, f.text});
        k.library =
            toolchain::CompileKernel(src, k.code.main_file, KernelCompileOptions(k.code, options));
      } catch (...) {
        errors[t] = std::current_exception();
      }
    }
  };
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < std::min(cores, todo.size()); ++w)
    pool.emplace_back(work);
  work();
  for (auto& t : pool)
    t.join();
  for (std::size_t t = 0; t < todo.size(); ++t) {
    if (errors[t]) std::rethrow_exception(errors[t]);
    const Kernel& k = kernels[todo[t]];
    ++(k.library->cache_hit() ? counts->cached : counts->built);
    Dump(options, "compile", k.code.kernel_name + ": built");
  }
}

// Model graphs: the fusion decider groups the ops into kernels, each lowered to a hint graph;
// the ops left outside every kernel are fallbacks with their reason code.
FrontEnd RunFrontEnd(Input& in, const Options& options, CompileResult* r) {
  FrontEnd fe;
  fe.graph = std::move(*in.model);
  fe.file = in.model_file;
  try {
    fe.options = frontend::FusionOptionsFromFlags(options.flags, options.soc);
    fe.options.bindings = options.bindings;  // --bind sizes for the memory and gain checks
  } catch (const frontend::LowerError& e) {
    throw InputError({}, e.what());
  }
  fe.fusion = frontend::DecideFusion(fe.graph, fe.options);
  // An op the importer already refused is listed once, with the importer's reason ("[CODE] why":
  // the more precise one, e.g. a GE op's format) also in the front end's decisions.
  std::map<std::string, std::string> refused;
  for (const auto& f : r->fallbacks)
    refused[f.name] = f.reason;
  for (auto& f : fe.fusion.fallbacks) {
    const std::string& name = fe.graph.node(f.node).name;
    if (auto it = refused.find(name); it != refused.end()) {
      const std::string& why = it->second;
      const std::size_t close = why.find("] ");
      if (!why.empty() && why[0] == '[' && close != std::string::npos) {
        f.code = why.substr(1, close - 1);
        f.message = why.substr(close + 2);
        f.stage = "import";
      }
      continue;
    }
    r->fallbacks.push_back({name, fe.file, "[" + f.code + "] " + f.message});
  }
  for (std::size_t i = 0; i < fe.fusion.kernels.size(); ++i) {
    Kernel k;
    k.hint = fe.fusion.kernels[i].lowered.graph;
    k.hint.name = "fused_" + std::to_string(i);
    k.origin = fe.file;
    Dump(options, "frontend", ir::DumpText(k.hint));
    r->kernels.push_back(std::move(k));
  }
  return fe;
}

}  // namespace

CompileResult Compile(Input in, const Options& options) {
  CompileResult r;
  r.input = in.path;
  r.format = in.format;
  r.framework_groups = in.framework_groups;
  r.fallbacks = std::move(in.fallbacks);
  // ---- import: the input registry read the file before this call
  r.timings.push_back({"import", in.import_ms});
  // A kernel the user wrote must tile; one a front end or framework decided may fall back.
  const bool user_kernels = !in.model && !in.framework_groups;
  const KernelStageSettings settings =
      KernelStageSettingsFrom(options, user_kernels ? NoTiling::kAbort : NoTiling::kRefuse);

  // ---- front end: fusion decisions and lowering (model graphs only)
  const auto t0 = Clock::now();
  if (in.model) {
    r.front_end = RunFrontEnd(in, options, &r);
  } else {
    TakeHints(in, options, &r);
  }
  r.timings.push_back({"frontend", in.model ? MsSince(t0) : 0.0});

  // ---- per kernel: schedule -> tiling -> codegen, once per distinct kernel; then the host
  // compiles, in parallel
  KernelStageTimes times;
  MarkSameKernels(r.kernels);
  Options staged = options;
  staged.build = false;
  for (auto& k : r.kernels) {
    TraceStage("schedule, tiling, codegen of " + k.hint.name);
    if (k.same_as < 0) CompileKernel(k, staged, settings, &times);
  }
  if (options.build) {
    TraceStage("host compile");
    const auto t1 = Clock::now();
    BuildKernels(r.kernels, options, &r.counts);
    times.compile = MsSince(t1);
  }
  r.counts.groups = static_cast<int>(r.kernels.size());
  for (auto& k : r.kernels) {
    if (k.same_as < 0) {
      ++r.counts.distinct;
      continue;
    }
    ++r.counts.reused;
    const Kernel& first = r.kernels[static_cast<std::size_t>(k.same_as)];
    k.schedule = first.schedule;
    k.tiling = first.tiling;
    k.groups = first.groups;
    k.workspace = first.workspace;
    k.code = first.code;
    k.library = first.library;
    k.error_code = first.error_code;
    k.error = first.error;
  }
  r.timings.push_back({"schedule", times.schedule});
  r.timings.push_back({"tiling", times.tiling});
  r.timings.push_back({"codegen", times.codegen});
  r.timings.push_back({"compile", times.compile});
  return r;
}

}  // namespace af::pipeline
