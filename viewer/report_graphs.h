// The graphs a CompileReport carries, turned back into IR graphs for the panels: a kernel's hint
// graph (AscGraphDef), its normalised graph (readable text) and each tiling case's impl graph
// (AscGraphDef). Conversion errors come back as text, never as exceptions.
#pragma once

#include <QString>
#include <optional>

#include "autofuse/ir/graph.h"

namespace af::report {
class KernelReport;
}

namespace af::viewer {

// kModel: the run's framework-level model graph (front-end runs), drawn by the graph panel from
// the report's model_nodes; KernelGraph has no graph for it.
enum class GraphKind { kHint = 0, kNormalized = 1, kImpl = 2, kModel = 3 };
// "hint graph", "normalised graph", "impl graph", "model graph"
QString GraphKindName(GraphKind kind);

struct GraphResult {
  std::optional<ir::Graph> graph;
  QString error;  // why there is no graph
};

// `tcase` is used for impl graphs only.
GraphResult KernelGraph(const report::KernelReport& k, GraphKind kind, int tcase);

}  // namespace af::viewer
