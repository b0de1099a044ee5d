// The autofuse pipeline, top to bottom (see pipeline.h). Each stage is one call followed by the
// dump hook; the stages' decisions live in their results, which the CompileReport carries.
#include "autofuse/pipeline/pipeline.h"

#include <chrono>
#include <map>

#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"

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

  // ---- per kernel: schedule -> tiling -> codegen -> compile
  KernelStageTimes times;
  for (auto& k : r.kernels)
    CompileKernel(k, options, settings, &times);
  r.timings.push_back({"schedule", times.schedule});
  r.timings.push_back({"tiling", times.tiling});
  r.timings.push_back({"codegen", times.codegen});
  r.timings.push_back({"compile", times.compile});
  return r;
}

}  // namespace af::pipeline
