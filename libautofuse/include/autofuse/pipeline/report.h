// The CompileReport (report.proto) of a compile: what the viewer, the exporters and `afc diff`
// read. Kernels with their schedule decisions, buffers, tiling cases, impl graphs and the chosen
// tiling; for model-graph inputs also the front end's fusion decisions and the model graph.
// Writing a compile's outputs (sources per kernel, report.json, fusion.json) lives here too.
#pragma once

#include <string>
#include <vector>

#include "autofuse/pipeline/pipeline.h"

namespace af::report {
class CompileReport;
class ModelNodeReport;
}  // namespace af::report
namespace google::protobuf {
template <typename T>
class RepeatedPtrField;
}  // namespace google::protobuf

namespace af::pipeline {

void FillReport(const CompileResult& r, const Options& options, report::CompileReport* out);
// The model graph as report nodes: the tensor placeholders, every op node with the kernel that
// holds it (names[i], groups[i] for fusion.kernels[i]) or its fallback code, and the output.
void FillModelNodes(const model::Graph& g, const frontend::FusionResult& fusion,
                    const std::vector<std::string>& names, const std::vector<std::string>& groups,
                    google::protobuf::RepeatedPtrField<report::ModelNodeReport>* out);
// A filled CompileReport as report.json text (indented, proto field names).
std::string ReportToJson(const report::CompileReport& rep);

// Writes the generated sources of every kernel under dir/<kernel>/ (with schedule.txt),
// `report` as report.json and, for model-graph inputs, fusion.json into dir. Refuses to write
// into an existing non-empty directory that holds no report.json unless `overwrite`.
void WriteOutputs(const CompileResult& r, const report::CompileReport& report,
                  const std::string& dir, bool overwrite);

}  // namespace af::pipeline
