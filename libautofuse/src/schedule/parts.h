// Parts: tensors with an extent of their own along one dim (a Concat's inputs, folded split
// pieces, slices), and pieces (parts along the outermost dim: connected groups of nodes that the
// outer loop runs one after another). Found before the buffers are planned, since buffers are
// sized per part.
#pragma once

#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Finds the graph's Concat (at most one) and the part dim and extents (ScheduleResult::part_dim,
// part_lens, cat_inputs, concat). Refuses what the templates cannot run.
void FindParts(ScheduleResult& r);

// For parts along the outermost dim: groups the nodes into pieces (node_piece, one part_lens
// entry each), orders each piece's nodes in one run, and makes the outermost axis the sum of the
// pieces' extents.
void FindPieces(ScheduleResult& r);

}  // namespace af::schedule
