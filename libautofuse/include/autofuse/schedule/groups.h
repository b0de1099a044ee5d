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

#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/cube.h"
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

// The cube group of a cube + vector kernel (PartitionCube): the matrix product the AIC cores
// compute. Its GM parameters are x1, x2, the fp32 product's workspace tensor and, when the
// fixpipe can do the whole epilogue (kFixpip), the kernel output it writes directly.
struct CubeGroup {
  std::string node;  // the cube node of the kernel's hint graph
  ir::MatMulInfo mm;
  ir::DType in_dtype = ir::DType::kFloat16;  // x1 and x2 (T1)
  std::vector<sym::Expr> batch;              // the product's batch extents, outer first
  // Elements between consecutive batch entries of x1 / x2 along each batch dim (0: broadcast).
  std::vector<sym::Expr> x1_batch_stride;
  std::vector<sym::Expr> x2_batch_stride;
  sym::Expr m;
  sym::Expr n;
  sym::Expr k;
  // kFixpip: the epilogue is at most a ReLU and a cast to fix_dtype, which the fixpipe applies
  // on the way out of L0C; the kernel then skips epilogue_group.
  bool fixpipe = false;
  bool fix_relu = false;
  ir::DType fix_dtype = ir::DType::kFloat32;
  int epilogue_group = -1;
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
  std::optional<CubeGroup> cube;           // the cube group of a cube + vector kernel
};

struct GroupPartition {
  std::vector<GroupGraph> groups;  // empty: the graph is one group (nothing to partition)
  std::vector<WorkspaceTensor> workspace;
  std::vector<Decision> decisions;
  int num_params = 0;  // the kernel's inputs + outputs
};

// The partition of `hint` into groups; no groups when all its reductions remove the same axes.
// A hint graph with a cube op is a cube + vector kernel (PartitionCube).
GroupPartition PartitionGroups(const ir::Graph& hint);

// A cube + vector kernel (AutoFuse's CV templates, docs/schedule.md "CV templates"): the graph's
// one MatMul / BatchMatMul and the elementwise work around it, as up to three groups in one
// KERNEL_TYPE_MIX_AIC_1_2 launch:
//   - a prologue (vector, AIV) when an operand is computed: it stores the operand to a GM
//     workspace tensor (CUBE_PROLOGUE), then a SyncAll<false>;
//   - the cube group (AIC): base M/N/K tiles through L1/L0A/L0B into L0C, the fp32 product
//     written to a GM workspace tensor by the fixpipe (kCommon, always offered), or, when the
//     epilogue is no more than a ReLU and a cast, straight to the output with the fixpipe doing
//     both (kFixpip, CUBE_FIXPIPE); the tiling picks the template at run time;
//   - the epilogue (vector, AIV) after a SyncAll<false>: the bias, has_relu and the rounding to
//     the product's dtype, then every node the outputs need; skipped under kFixpip.
// Throws ScheduleError with the refusal's code: a convolution (CUBE_CONV_UNSUPPORTED or its
// variant's), an op variant (ir::CubeRefusal), two cube ops (CUBE_MULTIPLE), work other than
// elementwise and broadcast around the product (CUBE_WITH_REDUCE), a computed bias
// (CUBE_BIAS_COMPUTED), an operand whose GM layout is not dense (CUBE_OPERAND_LAYOUT), fp32
// operands (CUBE_FP32_UNSUPPORTED: the runtime's LoadData has no fp32 transpose).
GroupPartition PartitionCube(const ir::Graph& hint);

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
