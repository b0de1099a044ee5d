// Axis algebra on a graph: split one axis into outer/inner (tile `T/t`, block `B/b`), merge
// adjacent axes, reorder loop nests. Each operation rewrites every node schedule and tensor view
// that uses the axes, consistently, or changes nothing and reports why it cannot.
//
// Naming follows AutoFuse: TileSplit(z0) -> z0T (TILE_OUT) / z0t (TILE_IN); BlockSplit(z0T) ->
// z0TB (BLOCK_OUT) / z0Tb (BLOCK_IN). The inner size is a new size symbol `<inner>_size`
// (z0t_size) unless a size is given; the outer size is CeilDiv(size, inner). Merging z0 and z1
// gives MERGED axis z0z1 of size z0*z1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::ir {

struct SplitResult {
  std::int64_t outer = -1;
  std::int64_t inner = -1;
};

// Tile split of axis `id`. `inner_size` defaults to the new symbol `<name>t_size`.
SplitResult TileSplit(Graph& g, std::int64_t id, std::optional<Expr> inner_size = std::nullopt);
// Block split of axis `id` (usually a tile-outer or fused axis), bound to cores.
SplitResult BlockSplit(Graph& g, std::int64_t id, std::optional<Expr> inner_size = std::nullopt);

// Merges axes `ids` (outer -> inner) into one MERGED axis. Every schedule that uses any of them
// must hold all of them adjacently in this order, and every tensor view must hold them adjacent
// and contiguous (stride[i] == repeat[i+1] * stride[i+1]) or all broadcast. On success returns the
// new axis id; otherwise std::nullopt and, when `why` is given, the reason.
std::optional<std::int64_t> MergeAxes(Graph& g, const std::vector<std::int64_t>& ids,
                                      std::string* why = nullptr);

// Reorders loop nests: every schedule and view that holds exactly the axes in `order` (in any
// order, as a contiguous or scattered subset) gets them permuted into this order; other axes stay
// where they are. Views permute their repeats and strides with the axes (same data, new order).
void ReorderAxes(Graph& g, const std::vector<std::int64_t>& order);

}  // namespace af::ir
