// Graphviz DOT text of the graphs the viewer shows, made from a CompileReport: the model graph
// with one cluster per fused kernel (fallbacks marked), each kernel's hint graph, or the impl
// graph of each kernel's chosen tiling case. Names from the input are quoted and escaped.
#pragma once

#include <string>

namespace af::report {
class CompileReport;
}

namespace af::exporters {

enum class DotGraph { kModel, kHint, kImpl };

// kModel needs a report with model nodes (a model-graph input); throws af::InputError otherwise.
std::string ReportDot(const report::CompileReport& r, DotGraph which);

}  // namespace af::exporters
