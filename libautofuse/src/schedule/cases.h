// Tiling cases: for a template and the dim it tiles, the impl graph of the case (TileSplit of
// that dim into zT/zt, the kept outer loops fused and block-split over cores into B/b, the
// reduced outer loops fused into one sequential reduce loop, the vectorised dims with 32-byte
// aligned UB strides, each tensor's memory from the buffer plan), and the checks that prune a
// case before it is built (a size-1 tile dim, more than two reduce steps in one UB block).
#pragma once

#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Adds the case of template `t` (not yet in r.templates) that tiles dims[k], or records why it
// is pruned. The case's tiling key is its index in r.cases.
void AddCase(ScheduleResult& r, Template& t, int k);

}  // namespace af::schedule
