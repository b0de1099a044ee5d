// afc opt: one pipeline stage (or several) by hand, text in and text out (pipeline/stages.h).
// Without --stage it applies the input's own `# RUN:` lines, so `afc opt tests/golden/x.test`
// prints what the golden test matches its CHECK lines against.
#include <iostream>
#include <stdexcept>

#include "autofuse/inputs/registry.h"
#include "autofuse/ir/load.h"
#include "autofuse/pipeline/stages.h"
#include "autofuse/support/error.h"
#include "commands.h"

namespace af::cli {

int RunOpt(const OptOptions& opts) {
  std::vector<pipeline::StageRun> runs;
  for (const auto& s : opts.stages) {
    auto words = pipeline::RunLines("# RUN: " + s);
    if (!words.empty() && !words[0].empty()) runs.push_back(words[0]);
  }
  if (runs.empty()) runs = pipeline::RunLines(ir::ReadTextFile(opts.input));
  if (runs.empty())
    throw InputError({opts.input, 0, 0}, "no --stage given and the file has no '# RUN:' line");
  const bool model = pipeline::IsModelStage(runs[0][0]);
  for (const auto& r : runs) {
    if (model ? !pipeline::IsModelStage(r[0]) : !pipeline::IsHintStage(r[0]))
      throw InputError(
          {}, "unknown stage '" + r[0] + "' for a " + (model ? "model graph" : "hint graph") +
                  " (hint graphs: dump, normalize, schedule, groups, tile, codegen, ...; "
                  "model graphs: lower, check, fuse)");
  }
  pipeline::Input in = inputs::Import(opts.input);
  try {
    if (model) {
      if (!in.model) throw InputError({opts.input, 0, 0}, "is not a model graph (aten FX graph)");
      for (const auto& r : runs)
        std::cout << pipeline::RunModelStage(*in.model, r);
      return 0;
    }
    if (in.hints.empty())
      throw InputError({opts.input, 0, 0}, "holds no hint graph for hint-graph stages");
    for (auto& h : in.hints) {
      if (in.hints.size() > 1) std::cout << "// ==== " << h.graph.name << "\n";
      std::cout << pipeline::RunHintStages(std::move(h.graph), runs);
    }
  } catch (const std::invalid_argument& e) {
    throw InputError({opts.input, 0, 0}, e.what());
  }
  return 0;
}

}  // namespace af::cli
