// The static UB filter (AutoFuse's StaticUbTemplateFilter): with static sizes, a case whose
// smallest tile already overflows UB (or, for the aligned concat, whose inputs end inside a
// 32-byte block) can never run, so it is dropped before tiling, with any template it empties.
// It runs once, after every template has added its cases.
#pragma once

#include "autofuse/hw/profile.h"
#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// Drops the cases that cannot run, renumbers the rest (tiling keys, indexed names) and drops
// the templates left without cases. Dynamic sizes keep every case.
void StaticUbFilter(ScheduleResult& r, const hw::Profile& profile);

}  // namespace af::schedule
