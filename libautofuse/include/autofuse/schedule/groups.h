// Multi-group kernels: a hint graph whose reductions remove different sets of axes cannot be one
// loop nest (AutoFuse merges YR axis groups only when their R axes agree, else
// REDUCE_AXES_CONFLICT). AutoFuse partitions such a graph into groups joined through GM
// workspaces, schedules each group with its own template and emits one kernel that runs the
// groups one after another with a SyncAll between them. PartitionGroups is that partition:
//   - every reduction gets a phase: the first phase at or after the phases of the reductions it
//     reads whose reduced axes agree with its own (GROUP_REDUCE_AXES: a new phase, with the
//     reason);
//   - everything else (loads, elementwise, broadcasts) is recomputed in each phase that needs it
//     (GROUP_RECOMPUTE), so only reduction results cross a phase boundary;
//   - a reduction read by a later phase is stored to a GM workspace tensor in its own phase and
//     loaded back in the later one (GROUP_WORKSPACE, with its size);
//   - a kernel output is stored in the phase of the last reduction its value reads;
//   - a Concat, Split or Gather in a graph with reductions gets a group without reductions
//     (GROUP_DATA_MOVEMENT: the reduce templates take none of them), and its results cross to
//     the groups that read them through workspace tensors as reduction results do.
// Each group is an ordinary hint graph (Data 0.. are kernel inputs and workspace tensors, Output
// 0.. kernel outputs and workspace tensors), so the schedule, ATT and codegen take it unchanged.
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/schedule/schedule.h"

namespace af::schedule {

// A GM workspace tensor: a reduction's (or a Concat's, Split's or Gather's) result one group
// writes and later groups read.
struct WorkspaceTensor {
  std::string value;  // the node of the kernel's hint graph (name.yK for a Split's output K)
  ir::DType dtype = ir::DType::kFloat32;
  sym::Expr elements;  // its element count (the product of the reduction's repeats)
  int written_by = 0;  // group index
};

struct GroupGraph {
  ir::Graph graph;
  // Per GM parameter of `graph` (its Data by index, then its Outputs by index): the kernel's
  // parameter it is (inputs by Data index, then outputs by Output index), or, from
  // num_params on, workspace tensor (p - num_params).
  std::vector<int> params;
  bool reads_workspace = false;            // a SyncAll must come before it
  std::vector<std::int64_t> reduced_axes;  // axis ids its reductions remove (empty: none)
  bool moves_data = false;                 // a Concat/Split/Gather group (no reductions)
};

struct GroupPartition {
  std::vector<GroupGraph> groups;  // empty: the graph is one group (nothing to partition)
  std::vector<WorkspaceTensor> workspace;
  std::vector<Decision> decisions;
  int num_params = 0;  // the kernel's inputs + outputs
};

// The partition of `hint` into groups; no groups when all its reductions remove the same axes.
GroupPartition PartitionGroups(const ir::Graph& hint);

// Schedules every group of `p` (schedule::Schedule on its graph), without the cases that
// synchronise all cores (SyncsAllCores: the groups share one launch), recording
// GROUP_NO_CORE_SYNC in the group's decisions. Throws ScheduleError as Schedule does, and
// GROUP_NO_CORE_SYNC when a group has no other case.
std::vector<ScheduleResult> ScheduleGroups(const GroupPartition& p, const hw::Profile& profile,
                                           const ScheduleOptions& options = {},
                                           const StageDump& dump = {});

// The partition as text (the "groups" dump and golden tests): each group's reduced axes,
// parameters and nodes, then the workspace tensors and decisions.
std::string DumpGroups(const GroupPartition& p);

}  // namespace af::schedule
