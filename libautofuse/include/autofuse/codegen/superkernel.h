// SuperKernel code generation: one AscendC launch for a sequence of generated kernels (CANN's
// SuperKernel compiles a marked region's kernels into one entry, removing the per-kernel launch
// and the gaps between kernels). The source holds each member's case functions and tiling struct
// in a namespace of its own (af_m<i>) and one entry
//   extern "C" __global__ __aicore__ void autofused_super_<hash>(GM_ADDR b0..., GM_ADDR workspace,
//                                                               GM_ADDR tiling)
// that reads each member's tiling struct at its offset in the combined tiling data
// (GET_TILING_DATA_WITH_STRUCT), dispatches on the member's own tiling key, and runs SyncAll()
// before a member that reads what an earlier member wrote since the last barrier (none between
// independent members: each core goes on with the next member as soon as it is done). The
// combined tiling function calls every member's solver; the launch's block_dim is the largest of
// the members', its workspace the members' workspaces one after another.
//
// A member case whose template synchronises all cores itself (r_core's SyncAll) cannot run in a
// super kernel: the cores past its own block_dim return early and would never reach its barrier.
// Such cases are compiled in but not dispatched, and the combined tiling function returns -4 when
// a member's solver picks one; the planner keeps a kernel whose chosen case is one out
// (SUPERKERNEL_HARD_SYNC). Nothing from input files reaches the text unsanitised: member code is
// the ordinary kernel emitters' output, names appear only through SafeComment.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "autofuse/codegen/codegen.h"
#include "autofuse/schedule/groups.h"

namespace af::codegen {

struct SuperMember {
  const ir::Graph* hint = nullptr;
  const schedule::ScheduleResult* schedule = nullptr;
  // Per GM parameter of the member's own entry (inputs by Data index, then outputs by Output
  // index): the super entry's GM parameter it reads or writes.
  std::vector<int> params;
  // SyncAll() before this member: it reads a buffer an earlier member wrote since the last one.
  bool sync_before = false;
  // The cube group of a cube + vector kernel (then hint and schedule are unused): its AIC
  // function, tiling struct and solver come from the group (cube_member.h). A kernel with one is
  // KERNEL_TYPE_MIX_AIC_1_2: vector members run on the AIVs, the cube member on the AICs, and the
  // barriers are SyncAll<false>(); a member whose index is the cube group's epilogue_group runs
  // only under kCommon.
  const schedule::CubeGroup* cube = nullptr;
};

struct SuperKernelSpec {
  std::vector<SuperMember> members;
  int num_buffers = 0;  // GM parameters of the super entry
  // GM tensors inside the launch's workspace (a multi-group kernel's reductions that later groups
  // read): a member parameter num_buffers + j is tensor j, of bytes[j] bytes (over the members'
  // size symbols). They sit first in the workspace, 8-byte aligned; the members' own workspaces
  // follow.
  std::vector<sym::Expr> workspace_tensor_bytes;
  // The entry's name: `name` when set (a C identifier), else autofused_super_ and a hash of the
  // members and their wiring.
  std::string name;
};

// The combined tiling data's header, as the generated header declares it (AfTilingHeader first);
// member i's struct starts member_offset[i] bytes into the tiling data.
inline constexpr const char* kSuperTilingStruct = "AutofuseSuperTilingData";
// Where member_offset[0] sits in it (after block_dim, tiling_key, n_members, reserved, ub_bytes,
// workspace_bytes); member_offset[i] is a uint64_t at kSuperMemberOffsetsAt + 8 * i.
inline constexpr std::size_t kSuperMemberOffsetsAt = 32;

// Generates the super kernel of `spec` (>= 2 members). GeneratedKernel::symbols is the union of
// the members' size symbols (first appearance order); mixed is set when the entry synchronises.
// Throws CodegenError SUPERKERNEL_PARAMS (fewer than two members, or a parameter map that does
// not fit a member).
GeneratedKernel GenerateSuper(const SuperKernelSpec& spec, const TilingOptions& tiling);

// One group of a multi-group kernel and its schedule (schedule/groups.h).
struct GroupMember {
  const schedule::GroupGraph* group = nullptr;  // its cube, if any, makes it a cube member
  const schedule::ScheduleResult* schedule = nullptr;
};

// The multi-group kernel of `hint`: GenerateSuper over the groups in order (a SyncAll before each
// group that reads the workspace), the partition's workspace tensors first in the launch's
// workspace; the entry takes the hint graph's inputs and outputs (input_nodes/output_nodes are
// its Data and Output nodes by index) and is named as a one-group kernel would be (KernelName).
GeneratedKernel GenerateGroups(const ir::Graph& hint, const schedule::GroupPartition& partition,
                               const std::vector<GroupMember>& groups, const TilingOptions& tiling);

// Whether one tiling case's template synchronises all cores (r_core's hard SyncAll over the GM
// workspace): such a case cannot run inside a super kernel or a multi-group kernel.
bool CaseSyncsAllCores(const schedule::ImplCase& c);

// Whether the kernel can join a super kernel: "" or the reason code (SUPERKERNEL_HARD_SYNC when
// its chosen case, or with chosen_case < 0 (sizes unbound) any case, synchronises all cores).
std::string SuperMemberRefusal(const ir::Graph& hint, const schedule::ScheduleResult& s,
                               int chosen_case);

}  // namespace af::codegen
