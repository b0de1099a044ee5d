// SuperKernel planning for a model graph (`afc run --superkernel`, `afc estimate --superkernel`):
// which compiled kernels run as one launch, each decision with a reason code, and the super
// kernels' code and binaries (codegen/superkernel.h, the same toolchain and kernel cache as every
// kernel).
//
// Segments follow the graph's execution order (units.h): consecutive compiled kernels join one
// segment; a view that moves no data (view_alias.h) does not cut it: a member reading its result
// reads its input's buffer (SUPERKERNEL_VIEW_ALIASED). A view that moves data
// (SUPERKERNEL_VIEW_COPIES) or any other unit that is not ours (an op on the reference
// evaluator, SUPERKERNEL_FALLBACK_BETWEEN) ends it, and a kernel that cannot join runs alone and
// ends it too (SUPERKERNEL_HARD_SYNC: its template synchronises all cores itself;
// SUPERKERNEL_DTYPE: it reads a buffer another member wrote in another dtype, a conversion only the
// separate run makes). A segment of two or more kernels becomes a super kernel; SyncAll() goes
// before a member that reads what an earlier member wrote since the last barrier. When the input
// marks super-kernel scopes (model/scope_markers.h), only kernels of one scope join
// (SUPERKERNEL_SCOPE_BOUNDARY, SUPERKERNEL_OUTSIDE_SCOPE, SUPERKERNEL_SCOPE_MIXED).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "autofuse/codegen/superkernel.h"
#include "autofuse/hw/profile.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/pipeline/units.h"

namespace af::pipeline {

struct SuperDecision {
  std::string code;  // SUPERKERNEL_JOINED, SUPERKERNEL_FALLBACK_BETWEEN, SUPERKERNEL_HARD_SYNC, ...
  std::string message;
};

struct SuperSegment {
  std::vector<int> units;    // indices into SuperPlan::order, consecutive
  std::vector<int> kernels;  // CompileResult::kernels indices, in order
  // The super entry's GM buffers (model value ids): the values read from outside the segment
  // first, then the values its members write, in order.
  std::vector<int> buffers;
  int num_inputs = 0;
  // A value a member reads that is the result of views that move no data (SUPERKERNEL_VIEW_ALIASED)
  // -> the value whose buffer it reads.
  std::map<int, int> alias;
  std::vector<bool> sync_before;  // per member
  int syncs = 0;
  Kernel kernel;  // code and library (hint empty); error/error_code when codegen refused

  // The value whose buffer a member reading `v` reads.
  int BufferOf(int v) const {
    const auto it = alias.find(v);
    return it == alias.end() ? v : it->second;
  }
};

struct SuperPlan {
  std::vector<Unit> order;
  std::vector<int> segment_of_unit;  // per unit of `order`: its segment, or -1
  std::vector<SuperSegment> segments;
  std::vector<SuperDecision> decisions;
  std::vector<std::string> log;  // kernels a later stage refused (ExecutionOrder)
};

// Plans the super kernels of a front-end compile (r.front_end set; every size bound in
// options.bindings, as after RunCase's binding).
SuperPlan PlanSuperKernels(const CompileResult& r, const Options& options);

// Generates each segment's super kernel and, when options.build, builds it.
void BuildSuperKernels(SuperPlan& plan, const CompileResult& r, const Options& options);

// ---- the modelled saving (`afc estimate --superkernel`; docs/cost-model.md, "SuperKernel")
// Member m's time T_m is its modelled kernel time without the launch (estimate.h). Apart, the
// segment costs sum(T_m + launch); as one super kernel, one launch + sum(T_m) + one SyncAll per
// dependent boundary. The terms: launches removed = (n - 1) * launch; barriers = syncs *
// SyncAll; early start = independent boundaries * SyncAll (the barriers the data flow does not
// need, which a super kernel synchronising after every member would pay).
struct SuperMemberEstimate {
  std::string name;
  double kernel_us = 0;  // T_m
  bool sync_before = false;
  int segment = -1;  // the super kernel it joins, or -1
  int kernel = -1;   // index into CompileResult::kernels
};

struct SuperSegmentEstimate {
  std::vector<SuperMemberEstimate> members;
  int syncs = 0;
  int independent = 0;  // boundaries without a SyncAll
  double separate_us = 0;
  double super_us = 0;
  double launches_removed_us = 0;
  double barriers_us = 0;
  double early_start_us = 0;
};

struct SuperEstimate {
  std::vector<SuperMemberEstimate> kernels;  // every compiled kernel, in execution order
  std::vector<SuperSegmentEstimate> segments;
  std::vector<SuperDecision> decisions;
  // The whole graph's kernels: each launched alone, and with the segments as super kernels
  // (kernels outside every segment count the same in both).
  double separate_us = 0;
  double super_us = 0;
  int separate_launches = 0;
  int super_launches = 0;
  double clock_ghz = 0;
  double launch_us = 0;
  double sync_us = 0;
};

// The cost of one hard SyncAll() across the cores: an assumption (hw/profile.h).
using hw::kSyncAllAssumptionUs;

// Needs a front-end compile with every size bound; throws af::InputError naming a kernel the
// model cannot price.
SuperEstimate EstimateSuper(const CompileResult& r, const Options& options);
std::string SuperEstimateJson(const SuperEstimate& e);
// A Chrome / Perfetto trace (trace-event JSON): the graph's kernels launched apart (process 1)
// and with the super kernels (process 2), on the modelled timeline.
std::string SuperTraceJson(const SuperEstimate& e);

}  // namespace af::pipeline
