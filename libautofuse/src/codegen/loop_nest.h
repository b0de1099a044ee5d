// The loop nest of one tiling case, read from the case's impl graph (ImplCase::graph, the graph
// the viewer and the golden tests show) so that the kernel runs the loops they display: the
// TileSplit axis, the kept outer loops fused into the block axis, the reduced outer loops fused
// into the reduce loop, and the vectorised dims inside the tile. Dims are named by their index in
// ScheduleResult::dims (D<j>, i<j> in the kernel).
#pragma once

#include <string>
#include <vector>

#include "autofuse/schedule/schedule.h"

namespace af::codegen {

struct LoopNest {
  int tile_dim = 0;           // the dim TileSplit splits into tile-outer and tile-inner
  std::vector<int> a_outer;   // kept outer dims (over cores), outer -> inner; tile dim excluded
  std::vector<int> r_outer;   // reduced outer dims (in sequence), outer -> inner; tile dim excluded
  bool tile_reduced = false;  // the tile-outer loop is one of the reduced outer loops
  std::vector<int> inner;     // dims inside the tile (vectorised), the tile dim first
  // Per node: it runs in the reduce loop (its loop axis is the reduce loop), not once per block
  // iteration before or after it. In r_core cases, whose reduce iterations are part of the block
  // axis, and for unscheduled nodes, from the axis groups (varying along an R dim, or a
  // reduction).
  std::vector<bool> in_reduce_loop;
  std::string tile_var;   // size variable of the tile-inner axis, e.g. "z1t_size"
  std::string block_var;  // size variable of the block-inner axis, e.g. "z0z1Tb_size"
};

// The loop nest of case `c` of `s`. The r_core template fuses kept and reduced outer loops into
// one block axis; their roles there come from the axis groups. Throws CodegenError("INTERNAL")
// when the impl graph does not have the tile/block structure the emitter needs.
LoopNest ReadLoopNest(const schedule::ScheduleResult& s, const schedule::ImplCase& c);

}  // namespace af::codegen
