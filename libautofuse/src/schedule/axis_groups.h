// Axis groups of a normalised graph: which dims its reductions remove (the R group; the rest
// form the Y group), each node's reduction level and R-invariance, and how many sweeps of the
// R loop the common template makes. The other steps (buffers, cases, templates) read them.
#pragma once

#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Fills r_dim, avail, r_invariant and passes from r.graph and r.dims. Throws REDUCE_DTYPE for a
// reduction that does not compute in fp32, REDUCE_AXES_CONFLICT for reductions that remove
// different dims.
void GroupAxes(ScheduleResult& r);

}  // namespace af::schedule
