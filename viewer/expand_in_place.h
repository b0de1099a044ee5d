// Expanding one collapsed kernel of a laid-out model graph without laying out the rest again: the
// kernel's ops are laid out alone, their frame takes the place of the box, the nodes below move
// down and the nodes beside it move aside by what the frame needs, and every edge keeps its route
// (re-aimed at the op it joins inside the frame). On a 10,000-op model the user's picture stays
// where it was, and the cost is the kernel's own layout plus one pass over the graph.
#pragma once

#include <optional>

#include "graph_layout.h"

namespace af::viewer {

// `before` and `layout` are the drawn graph, `after` the same graph with group `group` expanded
// (its ops in a cluster of that group instead of one collapsed box). Empty when the two do not
// correspond node for node, or when another frame straddles the box's row: then the caller lays
// `after` out whole. The bounds may start left of 0 (nodes pushed aside keep their side).
std::optional<GraphLayout> ExpandInPlace(const GraphSpec& before, const GraphLayout& layout,
                                         const GraphSpec& after, int group);

}  // namespace af::viewer
