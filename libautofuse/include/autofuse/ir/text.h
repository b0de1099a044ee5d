// The human-readable text form of a graph, in AutoFuse's "Graph: / Sizes: / Axis: / Nodes:"
// shape. It is what --dump writes and what golden tests compare against, and it parses back, so
// tests can also write their input graphs in it:
//
//   Graph: add_relu
//   Sizes:
//     s0: VAR
//   Axis:
//     z0(0) : ORIGINAL, size:s0
//   Nodes:
//     [0] x : Data
//       .attr.index = 0
//       .axis = {z0}
//       .y0 : fp32 axis={z0} repeats=(s0) strides=(1)
//     [1] load : Load(x.y0)
//     ...
//
// Names that are not plain identifiers are written in double quotes with C escapes.
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::ir {

std::string DumpText(const Graph& g);

// Parses the text form; throws af::InputError naming `file`, the line and the cause.
// `node_lines`, when given, receives the 1-based line of each node header.
Graph ParseText(const std::string& text, const std::string& file = "",
                std::vector<int>* node_lines = nullptr);

}  // namespace af::ir
