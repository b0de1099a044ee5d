// The schedule stage: normalise the hint graph, group its axes (Y: kept, R: reduced), enumerate
// templates and their tiling cases, and for each case build the impl graph (TileSplit zT/zt, fuse
// the outer axes, BlockSplit into B/b, vectorised axes with 32-byte aligned UB strides, loop axis
// per node) and the UB buffers shared by all cases (TQue for MTE2->VEC and VEC->MTE3 hand-offs,
// double-buffered; TBuf for intermediates, reused by lifetime; at most the profile's number of
// concurrent queues, with UB-to-UB copies when more are needed).
//
// Templates (docs/schedule.md has a loop-nest diagram of each):
//   elementwise  graphs without reductions: one case per loop dim;
//   all_load     reductions with every reduced dim resident in UB: one case per kept dim before
//                the first reduced dim (AutoFuse's AllLoad; norm-like graphs compute in one sweep);
//   common       the reduced dims tiled or looped: partial results accumulate across R
//                iterations on a core; norm-like graphs sweep the R loop once per reduction level,
//                re-reading their inputs (where AutoFuse goes through a workspace);
//   brc_inline   elementwise graphs whose Broadcast results feed binary ops only: the ops read
//                the broadcast operand directly, row by row (a scalar API such as Adds for a
//                column broadcast), and the Broadcast is not materialised (AutoFuse's
//                BrcInlineTemplate, `<case>_inline`);
//   unaligned    elementwise graphs with broadcasts: full tensors live in UB without the 32-byte
//                row padding (one contiguous copy per tile, vector ops over the compact
//                elements); a broadcast is expanded in an aligned scratch block and compacted
//                with Gather (AutoFuse's UnalignedTemplate with RemovePad, `<case>_unaligned`);
//   r_core       the R iterations split across cores: each core reduces its share into a GM
//                workspace, all cores sync (SyncAll), then each A iteration combines the
//                partials and finishes (AutoFuse's RCore; single-level graphs only).
//
// Strided loads (a Load whose innermost dim is not contiguous in GM: transposed or permuted
// reads, slices with a step) work in every template: the block is copied in GM order into a
// staging queue, with rows along the dim that is contiguous in GM when the block holds it, else
// one element per 32-byte row, and a Gather puts it into loop order (AutoFuse folds such
// transposes into Load strides; V2 gathers them).
//
// Transposes and splits of values computed from loads by elementwise ops fold into those loads
// during normalisation (strided loads; one narrowed copy of the loads and ops per split piece).
// Split pieces, like a Concat's inputs, are parts: tensors with an extent of their own along one
// dim, which stays whole in UB with the dims after it.
//
// A Gather (params and indices read from Data) becomes a load of params rows at its indices,
// with a Load of the indices block; the kernel checks every index.
//
// Concat (one Concat node whose concat dim is not the outermost): the concat dim and the dims
// after it stay whole in UB, so its cases tile a dim before it; each input's values live in UB
// with their own extent along the concat dim, and the Concat copies their rows into the output
// block. Two templates (AutoFuse's UB concat and its small-tail alternative):
//   concat         DataCopy of each input's rows straight to its columns; needs every input but
//                  the last to end on a 32-byte boundary when the concat dim is the innermost
//                  (checked at run time: the case is infeasible otherwise; score 1 when it runs);
//   concat_gather  innermost concat dims only: the rows go side by side into a staging block, and
//                  one Gather (offsets built once per core) puts every output row together.
//
// Every choice is recorded as a Decision with a reason code, so reports can say why a case exists
// or was pruned. Graphs this stage cannot schedule yet raise ScheduleError with a reason code.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/graph.h"

namespace af_tiling {
struct CaseParams;
}

namespace af::schedule {

// A graph the schedule cannot handle (yet): `code` is a stable reason code such as
// "UNSUPPORTED_OP", "TOO_MANY_STRIDED_LOADS", "MIXED_LOOP_NESTS".
class ScheduleError : public std::runtime_error {
 public:
  ScheduleError(std::string code, const std::string& message)
      : std::runtime_error(message), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

struct Decision {
  std::string stage;    // "normalize", "cases", "buffers"
  std::string code;     // reason code, e.g. "MERGE_CONTIGUOUS", "PRUNE_SIZE1_AXIS"
  std::string message;  // human-readable, names nodes/axes
};

enum class BufKind : std::uint8_t { kQueueIn, kQueueOut, kTBuf };
std::string_view BufKindName(BufKind k);  // "TQue<VECIN>", "TQue<VECOUT>", "TBuf<VECCALC>"

struct Buffer {
  int id = 0;  // q<id> for queues, b<id> for TBufs (separate numbering per kind family)
  BufKind kind = BufKind::kTBuf;
  int buf_num = 1;             // 2 = double-buffered queue
  int esize = 4;               // element bytes of the tensors it holds (largest)
  std::vector<int> nodes;      // nodes whose output lives here, in order
  std::uint32_t one_mask = 0;  // bit j: every block held here has extent 1 along dims[j]
  bool all_full = true;        // no tenant has an extent-1 dim (compact in unaligned cases)
  // "" (node results), "reduce_partial", "reduce_scratch", "unaligned_scratch",
  // "unaligned_offsets" (the last two exist for, and are sized in, unaligned cases only),
  // "gather_staging" (a strided load's GM-order block), "gather_offsets" (its Gather offsets),
  // "gather_row" (an innermost-dim Gather's params row), "gather_row_offsets" (its offsets)
  std::string role;
  // "concat_staging" (the gather concat's side-by-side rows), "concat_offsets" (its Gather
  // offsets).
  // gather_staging: the dim (index into ScheduleResult::dims) that is contiguous in GM, whose
  // rows the staging block holds when the tile dim is at or before it; none: one element per
  // row. See BufferRun.
  std::optional<int> gather_dim;
  // The extent of its blocks along the concat dim (af_tiling::kPartFull, kPartInput(k): concat
  // input k's, kPartStaging), the same for every tenant (else full).
  int part = 0;
  // Elements of a block of fixed size, whatever the tile (an innermost-dim Gather's params row,
  // role "gather_row"); none: the layout above sizes it.
  std::optional<sym::Expr> fixed_elems;
  std::string Name() const;  // "q0", "b1"
};

enum class CaseKind : std::uint8_t {
  kElementwise,
  kAllLoad,
  kCommon,
  kRCore,
  kBrcInline,
  kUnaligned,
  kConcat,
  kConcatGather
};
// "elementwise", "all_load", "common", "r_core", "brc_inline", "unaligned", "concat",
// "concat_gather"
std::string_view CaseKindName(CaseKind k);
// Whether cases of `kind` synchronise all cores themselves (r_core: a hard SyncAll over the GM
// workspace between its two phases). Such a case cannot run inside a launch shared with other
// work (a super kernel, a multi-group kernel): cores past its block_dim never reach the barrier.
bool SyncsAllCores(CaseKind kind);

// Whether cases of `kind` use buffer `b` (the unaligned template's scratch and offsets exist only
// for its cases; every other buffer is shared by all cases).
bool BufferUsedBy(const Buffer& b, CaseKind kind);
// Whether buffer `b` holds its blocks without row padding in cases of `kind`.
bool BufferCompact(const Buffer& b, CaseKind kind);
// The row layout of buffer `b` in a case tiling dims[tile_dim] (af_tiling::kRunInner for every
// buffer but a strided load's staging block: kRunAt(gather_dim) when the block holds that dim,
// else kRunElements).
std::int32_t BufferRun(const Buffer& b, int tile_dim);

// One ScheduledResult alternative (AutoFuse's template): a list of tiling cases.
struct Template {
  std::string name;  // "elementwise", "all_load", "common"
  CaseKind kind = CaseKind::kElementwise;
  std::vector<int> cases;  // indices into ScheduleResult::cases
};

struct ImplCase {
  std::string name;          // AutoFuse style: <graph>_B0Y<k> / <graph>_B0R<k>
  std::string indexed_name;  // unique across templates: <graph>_S<template>G0C<case>
  CaseKind kind = CaseKind::kElementwise;
  int templ = 0;          // index into ScheduleResult::templates
  int tile_dim = 0;       // index into ScheduleResult::dims of the tiled axis
  ir::Graph graph;        // the impl graph (for dumps and reports)
  std::string tile_var;   // tiling variable of the tile size, e.g. "z1t_size"
  std::string block_var;  // tiles per block, e.g. "z0z1Tb_size"
};

// Axis groups (AutoFuse's Y and R groups) and reduction levels of the normalised graph.
struct AxisGroups {
  std::vector<bool> r_dim;        // per dim: reduced by the graph's reductions (R group)
  std::vector<int> avail;         // per node: reductions on its longest input path (norm level)
  std::vector<bool> r_invariant;  // per node: its tensor does not vary along any R dim
  int passes = 0;                 // R-loop sweeps of the common template (0: no reductions)
};

// Where one node's values live in UB (the buffer plan, per node of ScheduleResult::graph).
struct NodeBuffers {
  std::optional<int> buffer;       // the buffer of its output (none: GM, or no output)
  bool staged = false;             // a Load staged through the shared queue and a UB copy
  std::optional<int> store_queue;  // a Store: the VECOUT queue it writes from
  // A strided load: its GM-order staging queue and its Gather-offsets TBuf.
  std::optional<int> gather_queue;
  std::optional<int> gather_offsets;
  // An innermost-dim Gather: the TBuf of its params row and of its uint32 Gather offsets.
  std::optional<int> gather_row;
  std::optional<int> gather_row_offsets;
};

// The buffers (indices into ScheduleResult::buffers) that hold no node's result: work buffers of
// some graphs and templates.
struct WorkBuffers {
  std::optional<int> reduce_partial;     // per-iteration partial reductions
  std::optional<int> reduce_scratch;     // two-step reductions (two R dims in UB)
  std::optional<int> unaligned_scratch;  // padded block a broadcast expands into before Gather
  std::optional<int> unaligned_offsets;  // uint32 byte offsets of the Gather that drops padding
  // Comparisons and Where: the bit mask of AscendC Compare and an fp16 staging tensor; every UB
  // buffer is then sized to a multiple of ScheduleResult::vec_align_bytes.
  std::optional<int> cmp_mask;
  std::optional<int> cmp_half;
  std::optional<int> staging_queue;   // the shared VECIN queue of staged loads
  std::optional<int> concat_staging;  // the gather concat's side-by-side rows
  std::optional<int> concat_offsets;  // its Gather offsets
  std::optional<int> math_tmp;        // the math set's work tensor (ir/math_lowering.h)
  std::optional<int> argmax_tmp;      // ArgMax: ReduceMax's sharedTmpBuffer (one input block)
};

// Parts: the dim (index into ScheduleResult::dims) along which some tensors have an extent of
// their own (a Concat's inputs, split pieces, slices), and those extents: the Concat's inputs
// first (one entry each), then every other distinct extent.
// Along the outermost dim (dim 0) the parts are pieces instead: groups of connected nodes, one
// `lens` entry each, run one after another by the outer loop (node_piece: per node, its piece,
// none for nodes of extent 1 along it, run for every piece).
struct Parts {
  std::optional<int> dim;
  std::vector<sym::Expr> lens;
  std::vector<std::optional<int>> node_piece;
  int cat_inputs = 0;
  std::optional<int> concat;  // the Concat node
};

struct ScheduleResult {
  ir::Graph graph;                 // normalised hint graph (precision casts, merged axes)
  std::vector<std::int64_t> dims;  // its loop axes (ids), outer -> inner
  std::vector<ImplCase> cases;     // all templates' cases; the tiling key is the index
  std::vector<Template> templates;
  AxisGroups groups;
  std::vector<bool> inlined;  // per node: a Broadcast the brc_inline cases do not materialise
  Parts parts;
  std::vector<Buffer> buffers;      // shared by all cases
  std::vector<NodeBuffers> placed;  // per node of `graph`
  WorkBuffers work;
  // Every UB buffer is sized to a multiple of this (512 with comparisons: whole repeats of
  // Compare and Select for any element size, since those APIs work on whole 256-byte repeats).
  int vec_align_bytes = 32;
  // UB rows (the innermost dim) are padded to this many elements in every buffer: 32 bytes of
  // the narrowest UB dtype, so tensors of different dtypes share one element layout.
  std::int64_t row_align = 8;
  std::vector<Decision> decisions;
};

struct ScheduleOptions {
  bool upcast_half = true;  // compute fp16/bf16 in fp32 inside the kernel (AutoFuse's rule)
  // AscIR op types that keep fp16/bf16 (--autofuse_enhance_precision_blacklist).
  std::set<std::string> keep_precision;
};

// A hook that receives the text of a stage's result (ir::DumpText of the graph), named
// "normalize.<pass>" for each normalisation pass (NormalizePassNames()). Empty: no dumps.
using StageDump = std::function<void(const std::string& stage, const std::string& text)>;

ScheduleResult Schedule(const ir::Graph& hint, const hw::Profile& profile,
                        const ScheduleOptions& options = {}, const StageDump& dump = {});
// The same with the default options.
ScheduleResult Schedule(const ir::Graph& hint, const hw::Profile& profile, const StageDump& dump);

// The hint graph after only the normalisation passes that change the numbers a kernel computes:
// logical reductions in fp32, fp16/bf16 computed in fp32 with the casts the schedule inserts
// (ROUND_BEFORE_CAST, ROUND_BEFORE_INT_CAST), cast chains and casts to bool as x != 0. Views, node
// order and the names of the graph's nodes are kept, so the reference interpreter runs it on the
// hint graph's inputs and its outputs are what the generated kernel computes (pipeline/run.cc
// checks the kernel against it). Throws ScheduleError where Schedule would (UNSUPPORTED_CAST).
ir::Graph PrecisionGraph(const ir::Graph& hint, const ScheduleOptions& options = {});

// Dims along which a tensor's block has extent 1 (repeat 1: broadcast operands, reduce results),
// bit j for the tensor's j-th repeat (the schedule's dims).
std::uint32_t OneMask(const ir::Tensor& t);

// The nodes sweep `p` of the common (and r_core) template computes: the reductions of level p,
// the stores of R-varying values of level p, and the R-varying nodes they read (recomputed in
// later sweeps). Shared by the kernel generator and the cost model.
std::vector<bool> SweepNodes(const ScheduleResult& s, int p);

// The part of a tensor: af_tiling::kPartInput(k) when its extent along the part dim is
// parts.lens[k] (the first match), else kPartFull.
int PartOf(const ScheduleResult& s, const ir::Tensor& t);
// The part of node i's work for the cost model: its piece along the outermost dim (kPartInput(p),
// kPartFull for nodes every piece runs), else PartOf its output.
int NodePart(const ScheduleResult& s, int i);

// The layout parameters of case `case_index` (dims, buffers, concat extents) for concrete
// `values`: the dims' sizes, then each part's extent (Parts::lens); missing
// values count as 1. Shared by the static UB filter and the tiling stage.
void FillCaseLayout(const ScheduleResult& s, int case_index,
                    const std::vector<std::int64_t>& values, af_tiling::CaseParams* p);

// Readable dump: the normalised graph, the buffers, the case list, then every impl graph.
std::string DumpSchedule(const ScheduleResult& s);

// The normalisation alone (for golden tests): after validation, the passes of
// NormalizePassNames() in order (dangling nodes dropped, transposes and splits folded into the
// loads they read, gathers rewritten, the loop nest found, fp16/bf16 compute moved to fp32 with
// casts, implicit broadcasts made explicit, size-1 axes dropped, contiguous axes merged, axes
// renumbered, concats turned into stores where possible). `dump`, when set, receives
// ("normalize.<pass>", ir::DumpText(graph)) after each pass.
ir::Graph Normalize(const ir::Graph& hint, const ScheduleOptions& options,
                    std::vector<Decision>* decisions, const StageDump& dump = {});

// The normalisation passes in the order Normalize runs them: "drop_dangling", "sort_topo",
// "fold_transposes", "fold_splits", "rewrite_gathers", "loop_nest",
// "logical_reductions_as_float", "upcast", "split_casts", "explicit_broadcasts", "drop_axes",
// "merge_axes", "compact_axes", "concats_to_stores".
std::vector<std::string_view> NormalizePassNames();

}  // namespace af::schedule
