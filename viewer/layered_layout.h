// A fast layered (Sugiyama-style) layout for graphs too large for Graphviz dot at interactive
// speed. dot's crossing minimisation and network-simplex placement took over 200 s on the ViT
// model graph's 671 nodes with its symbolic-size edges and 0.4 s of CPU without them
// (docs/viewer.md, "Layout engines"); a model of 10,000 ops is beyond it. This engine ranks by
// longest path (sources pulled down next to their first consumer), orders each rank with a
// fixed number of barycenter sweeps (members of a cluster kept together), places nodes by their
// neighbours' mean position with overlap removal, and routes edges as polylines through one
// point per rank crossed. Every step is linear or n log n in nodes + edges, so a 5,000-node
// collapsed model lays out in tens of milliseconds. Hand-written because no Debian package
// offers a layered layout of that speed (OGDF ships only inside Tulip, without headers).
#pragma once

#include "graph_layout.h"

namespace af::viewer {

// How a cluster frame is drawn around its members (expand_in_place.h draws the same frames).
inline constexpr double kClusterPad = 8;   // frame around the members
inline constexpr double kClusterTop = 18;  // room for the frame's label
inline constexpr double kArrowLength = 7;  // an edge ends this far above its arrow tip

// Same contract as LayoutGraph: rectangles in spec order, splines as cubic Beziers (straight
// segments), clusters as the boxes around their members, bounds from (0, 0).
GraphLayout LayeredLayout(const GraphSpec& spec);

}  // namespace af::viewer
