// The UB buffer plan shared by every tiling case (it depends on the graph, not on the tile):
// VECIN queues for loads and gathers (reused by lifetime in graphs with parts, staged through
// one shared queue and a UB copy beyond the queue budget), staging queues and Gather offsets for
// strided loads, VECOUT queues for stores, TBufs for intermediates reused by lifetime, and the
// work buffers of comparisons and reductions. The templates add their own buffers later
// (unaligned scratch, concat staging).
#pragma once

#include "autofuse/hw/profile.h"
#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Fills buffers, node_buffer, staged, store_queue, staging_queue, gather_queue, gather_offsets,
// the work buffers and row_align/vec_align_bytes of `r` (after GroupAxes and FindParts). Throws
// TOO_MANY_STRIDED_LOADS or TOO_MANY_GATHERS when the profile's queue budget cannot hold them.
void PlanBuffers(ScheduleResult& r, const hw::Profile& profile);

}  // namespace af::schedule
