// The traffic figure of a tiling: the GM→UB bytes the cost model counts for the chosen case
// against the kernel's compulsory bytes (every byte its loads address, read once), per load, and
// the reason (a reason code) for every load the case reads more than once. A performance engineer
// reads the ratio to see whether a kernel re-reads its inputs, and the reasons to see why; the
// figure is priced by the same model (af_tiling::Price) that the CPU runtime's counters check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "af_tiling/elementwise.h"
#include "autofuse/schedule/schedule.h"

namespace af::att {

// One Load (or Gather) of the case.
struct LoadTraffic {
  std::string load;                   // the Load node
  std::string input;                  // the Data node it reads
  std::int64_t model_bytes = 0;       // the model's MTE2 bytes of this load, all cores
  std::int64_t compulsory_bytes = 0;  // the distinct bytes it addresses
};

struct Traffic {
  std::int64_t model_bytes = 0;       // all MTE2 bytes of the case (CaseSolution::mte2_bytes)
  std::int64_t compulsory_bytes = 0;  // Σ over the inputs' distinct views of their bytes
  double ratio = 1.0;                 // model_bytes / compulsory_bytes (1 when nothing is read)
  std::vector<LoadTraffic> loads;
  // Why the case reads more than the compulsory bytes, one decision (stage "tiling") per load
  // read more than once or per extra source of traffic. Codes:
  //   REREAD_BROADCAST_LOOP  the load does not vary along a loop outside its block and is read
  //                          again in every iteration of that loop (the block holds only the
  //                          dims from the tile dim inward, so it cannot be kept across it)
  //   REREAD_NORM_SWEEPS     the common template reads the input once per sweep of a norm-like
  //                          graph (re-reads instead of a GM workspace, docs/schedule.md)
  //   REREAD_R_CORE_PHASES   an R-invariant input of r_core, read in phase 1 per share and again
  //                          in phase 2
  //   R_CORE_WORKSPACE       r_core's partial results read back from the GM workspace
  //   REREAD_DUPLICATE_LOAD  two loads of the same view of one input
  //   REREAD_UNEXPLAINED     a load reads more than it addresses for none of the above reasons
  //                          (a defect: the traffic test fails on it)
  std::vector<schedule::Decision> reasons;
};

// The compulsory bytes of a kernel for the case parameters `p` (only their dims and parts are
// used, which every case of the kernel shares).
std::int64_t CompulsoryBytes(const schedule::ScheduleResult& s, int case_index,
                             const af_tiling::CaseParams& p);

// The traffic of `sol`, a solved case of `p` (CaseParamsFor of `case_index`), priced with the
// cost table `perf_version`.
Traffic TrafficOf(const schedule::ScheduleResult& s, int case_index, const af_tiling::CaseParams& p,
                  const af_tiling::CaseSolution& sol, int perf_version);

// The ratio shown for a case: model / compulsory bytes (1 when both are 0).
double TrafficRatio(std::int64_t model_bytes, std::int64_t compulsory_bytes);

}  // namespace af::att
