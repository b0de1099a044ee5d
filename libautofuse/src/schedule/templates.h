// Templates (AutoFuse's ScheduledResult alternatives) and the cases each enumerates, by graph
// shape: concat and concat_gather for a graph with a Concat; one elementwise template for other
// graphs with parts; elementwise, brc_inline and unaligned for other graphs without reductions;
// all_load, common and r_core for graphs with reductions. Each template records why it exists or
// not as a decision; the cases come from AddCase (cases.h). schedule.h describes each template.
#pragma once

#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Adds the templates of `r` (after PlanBuffers) and their cases, with the buffers only some
// templates use (unaligned scratch and offsets, concat staging and offsets). Throws
// PARTS_WITH_REDUCE for parts in a graph with reductions, NO_TILING_CASE for a reduce graph
// without any case.
void AddTemplates(ScheduleResult& r);

}  // namespace af::schedule
