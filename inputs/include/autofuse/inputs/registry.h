// The input registry: the one place that knows every input format afc, the viewer and `afc
// estimate` accept. Each format is one entry (registry.cc): its name, how to recognise it, how
// to import it for the pipeline (a model graph for the front end, or hint graphs that are
// kernels already), how to estimate it and what `afc inspect` prints about it. The pipeline
// (libautofuse) never reads files: this layer sits above it and links the importers.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/inputs/probe.h"
#include "autofuse/ir/graph.h"
#include "autofuse/pipeline/estimate.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/pipeline/run_case.h"

namespace af::report {
class CompileReport;
}

namespace af::inputs {

struct Format {
  std::string name;         // "ascgraph", "fx_graph", "torch_compile_debug", ...
  std::string description;  // one line for docs and `afc inspect`
  std::function<bool(const Probe&)> recognise;
  // Reads the input for the pipeline. Formats that hold no kernels (output_code.py, logs) throw
  // af::InputError saying what to give instead.
  std::function<pipeline::Input(const Probe&)> import;
  // `afc inspect`: prints what the input holds on stdout (JSON with `json`); afc's exit code.
  std::function<int(const Probe&, bool json)> inspect;
  // `afc estimate`; empty when the format has no unfused form to compare with.
  std::function<pipeline::GraphEstimate(const Probe&, const pipeline::Options&)> estimate;
};

// Every format, in recognition order (the first that recognises an input reads it).
const std::vector<Format>& Formats();
// The format of `path`. A path that does not exist goes to the last entry (AscGraph files),
// whose reader names the file it cannot open.
const Format& Recognise(const Probe& probe);

// ---- what afc and the viewer call

pipeline::Input Import(const std::string& path);
// Import + pipeline::Compile.
pipeline::CompileResult CompileFile(const std::string& path, const pipeline::Options& options);
// pipeline::FillReport, plus what the input's folder adds: Inductor's grouping beside ours
// (framework_groupings) where the input or its folder holds ir_post_fusion.txt.
void FillReport(const pipeline::CompileResult& r, const pipeline::Options& options,
                report::CompileReport* out);
std::string ReportJson(const pipeline::CompileResult& r, const pipeline::Options& options);
// The sources, report.json (FillReport) and fusion.json of a compile, into dir.
void WriteOutputs(const pipeline::CompileResult& r, const pipeline::Options& options,
                  const std::string& dir, bool overwrite);
// `afc inspect`.
int Inspect(const std::string& path, bool json);
// `afc estimate`: model graphs (sizes bound from a case folder's inputs too) and Inductor dumps.
pipeline::GraphEstimate Estimate(const std::string& path, pipeline::Options options);
// `afc run` on a case folder.
pipeline::CaseRun RunCase(const std::string& path, const pipeline::Options& options,
                          std::optional<double> atol, std::optional<double> rtol);
// `afc convert`: the one AscGraph a file holds (AscGraphDef text, GE graph, readable text, or
// AutoFuse's ascgraph_*.txt). Throws af::InputError when it holds none or several.
ir::Graph ReadOneHintGraph(const std::string& path);

}  // namespace af::inputs
