// The ATT tiling model and solvers for every schedule template, shared word for word by the
// compiler (the in-process solver behind `afc tile` and static shapes) and by the generated tiling
// functions (which include this header), so both make exactly the same decisions by construction.
//
// A tiling case tiles one loop dimension `tile_dim` of the normalised loop nest d[0..n) (outer ->
// inner): the tile and every dimension after it are held in the Unified Buffer, the innermost one
// padded to 32 bytes per row. Dimensions before it are outer loops: the non-reduce (A) ones and,
// when the tile dim is an A dim, the tile-outer loop are fused and split across cores; the reduce
// (R) ones and, when the tile dim is an R dim, the tile-outer loop run in sequence on each core
// with partial results accumulated (the "common" reduce template), `passes` times for norm-like
// graphs. A buffer holds its tensors' block with the dims in its `buf_one_mask` of extent 1
// (broadcast operands, reduce results).
//
// The tiling variables of a case are the tile size (UB-related, aligned to one 32-byte row block
// when the tile dim is innermost) and the tiles per core (core-related); the constraints are the
// UB occupancy (Σ buffers aligned size × buffer count ≤ UB), used cores ≤ core count and tile ≤
// dim. The cost of a tiling is AutoFuse's: per pipe (MTE2, MTE3, VEC, SCALAR) the sum over the
// kernel's API calls of executions × per-call cycles (af_tiling/perf_model.h) plus the pipe head,
// for the busiest core; the total is the slowest pipe plus the op head cost per core used.
//
// Solvers (SolverOptions::algorithm): kAxesReorder (AutoFuse's default: UB-first greedy with
// binary search, multicore split, workload balance, UB/core trade-off, core-count gears),
// kHeuristic (AutoFuse's HighPerf: locate/fine-tune local search from a feasible start, keeping
// the best few) and kExhaustive (every feasible tile × core count, with a size guard). C++17, no
// dependencies: it compiles inside generated code.
#ifndef AF_TILING_ELEMENTWISE_H_
#define AF_TILING_ELEMENTWISE_H_

#include <cstdint>

#include "af_tiling/perf_model.h"

namespace af_tiling {

inline constexpr int kMaxDims = 8;
// UB buffers of one kernel (a double-buffered queue is one entry): the CPU runtime allows 64
// InitBuffer slots, and with at most 4 queues (8 slots) 48 entries stay within them.
inline constexpr int kMaxBuffers = 48;
inline constexpr int kMaxPerfNodes = 256;  // a concat of many inputs as stores: ~5 each
// Parts along one dim (a concat's inputs, then split pieces' and slices' extents): at most
// AutoFuse's kMaxInputNum for the UB-concat template (48 in the concat_schedule_case_generator.cpp
// we read, docs/ir.md).
inline constexpr int kMaxParts = 48;
inline constexpr int64_t kUbAlignBytes = 32;  // UB block size (AscendC: 32-byte DataCopy unit)

// One API call site of the kernel as the cost model sees it.
enum NodeKind : int32_t {
  kNodeLoad = 0,     // GM -> UB (DataCopyPad of the block's rows): MTE2
  kNodeStore = 1,    // UB -> GM: MTE3
  kNodeVec = 2,      // vector calls over the block (or per slice of it, see `split`)
  kNodeWsStore = 3,  // r_core: a reduction's partial block to the GM workspace (DataCopy)
  kNodeWsLoad = 4,   // r_core: one partial block back from the workspace, per share
  kNodeScalar = 5,   // scalar work per element of the block, once per core (Gather offsets)
};
// When a node runs, per A iteration.
enum NodeWhen : int32_t {
  kWhenVarying = 0,  // every R iteration of `sweeps` sweeps (once per A iteration: no R loop)
  kWhenBefore = 1,   // once, before the R loop (R-invariant inputs); r_core: in both phases
  kWhenAfter = 2,    // once, after a reduction finished
  kWhenCombine = 3,  // r_core phase 2: once per share but the first (combining partials)
};

struct PerfNode {
  int32_t kind = kNodeVec;
  int32_t api = kApiNone;
  int32_t esize = 4;      // element bytes moved or computed
  uint32_t one_mask = 0;  // bit j: the block has extent 1 along d[j]
  int32_t compact = 0;    // the block is held without row padding (unaligned template)
  int32_t when = kWhenVarying;
  int32_t sweeps = 1;     // kWhenVarying: R sweeps that execute it
  int64_t gap_bytes = 0;  // GM gap between consecutive rows of a block (strided views)
  // kNodeVec: one call per slice of dims [split, n) (rows when split is the innermost dim;
  // -1: one call over the whole block); the element count rounded up to `align_elems`.
  int32_t split = -1;
  int32_t align_elems = 0;
  int32_t skip_first = 0;  // not run on the first R iteration of a sweep (or of an r_core share)
  int32_t max_tile = 0;    // covers the full tile's layout even in a tail iteration
  // Row layout of the block (kRunInner, kRunElements, or kRunAt(j)): a strided load copies its
  // block in GM order into a staging block whose rows run along a dim other than the innermost
  // (or hold one element each), then gathers it into loop order.
  int32_t run = 0;
  // The GM distance between consecutive rows of the block, in elements: row_stride_const x the
  // product of the dims in row_stride_mask (0: rows are as far apart as gap_bytes says).
  uint32_t row_stride_mask = 0;
  int64_t row_stride_const = 0;
  // 1: runs once per core, before the tiles (a strided load's Gather offsets); kNodeScalar nodes
  // do so at 0 too, and run with every block at -1 (an innermost-dim Gather's offsets).
  int32_t once = 0;
  // > 0: doubling calls along one dim of extent E (the calls `split` would count) over blocks of
  // the dims after it: for h = doubling, 2 x doubling, ... < E, one call over min(h, E - h)
  // blocks (building a linear index table by copies that add h x weight).
  int32_t doubling = 0;
  // The block's extent along CaseParams::part_dim (kPartFull, kPartInput(k), kPartStaging).
  int32_t part = 0;
  // >= 0 (a load): each element of the block stands for a run of CaseParams::buf_fixed[len_buffer]
  // elements (an innermost-dim Gather's params rows, one per row of the block).
  int32_t len_buffer = -1;
};

// Extents along a concat dim (PerfNode::part, CaseParams::buf_part): the full dim, concat input
// k's extent, or the gather concat's staging rows (every input's row padded, side by side).
inline constexpr int32_t kPartFull = 0;
inline constexpr int32_t kPartStaging = -1;
inline constexpr int32_t kPartInput(int32_t k) {
  return k + 1;
}

// Row layouts (PerfNode::run, CaseParams::buf_run).
inline constexpr int32_t kRunInner = 0;      // rows along the innermost dim (the usual layout)
inline constexpr int32_t kRunElements = -1;  // one element per row (each in its own 32 bytes)
inline constexpr int32_t kRunAt(int32_t dim) {
  return dim + 1;  // rows along dims[dim]
}

struct CaseParams {
  int32_t n_dims = 0;
  int32_t tile_dim = 0;
  int64_t dims[kMaxDims] = {};
  // Every UB row (innermost dim) is padded to this many elements, the same for all buffers so
  // tensors of different dtypes share one element layout (= 32 bytes of the narrowest dtype).
  int64_t row_align = 8;
  int32_t n_buffers = 0;
  int32_t buf_esize[kMaxBuffers] = {};      // element bytes of the tensors in each buffer
  int32_t buf_num[kMaxBuffers] = {};        // 2 for double-buffered queues, 1 for TBuf
  uint32_t buf_one_mask[kMaxBuffers] = {};  // bit j: the buffer's block has extent 1 along d[j]
  uint8_t buf_compact[kMaxBuffers] = {};    // 1: the block is held without row padding
  int8_t buf_run[kMaxBuffers] = {};         // row layout (kRunInner, kRunElements, kRunAt(j))
  int8_t buf_part[kMaxBuffers] = {};        // extent along part_dim (kPartFull, kPartInput(k), ...)
  // > 0: the buffer holds that many elements whatever the tile (an innermost-dim Gather's params
  // row), rounded up like the others.
  int64_t buf_fixed[kMaxBuffers] = {};
  int32_t vec_align = 32;  // buffer sizes round up to this many bytes (512 with Compare/Select)
  uint32_t r_mask = 0;     // bit j: d[j] is a reduce (R) dimension
  int32_t passes = 1;      // sweeps over the R loop per A iteration (norm-like common templates)
  // r_core template: the R iterations are split across cores; each core writes one partial
  // block per reduction (the partial buffer's layout) to the workspace.
  int32_t r_core = 0;
  int32_t templ = 0;  // template index (ScheduledResult), for --force_schedule_result
  int32_t partial_buffer = -1;
  int32_t n_reduces = 0;
  int32_t compact = 0;  // unaligned template: full tensors without row padding
  // Parts: the dim (-1: none) along which some tensors have their own extent (a concat's inputs,
  // split pieces), and those extents; the first cat_inputs are the concat's inputs, of
  // cat_esize-byte elements. cat_aligned_only: the case copies concat rows straight to their
  // columns, which needs every concat input but the last to end on a 32-byte boundary when the
  // part dim is the innermost.
  int32_t part_dim = -1;
  int32_t n_parts = 0;
  int32_t cat_inputs = 0;
  int32_t cat_esize = 4;
  int32_t cat_aligned_only = 0;
  int64_t part_len[kMaxParts] = {};
  // The kernel's API call sites (not owned; static data in generated code).
  int32_t n_nodes = 0;
  const PerfNode* nodes = nullptr;
};

enum Binding : int32_t {
  kBindNone = 0,
  kBindUb = 1,        // the tile is as large as the UB allows
  kBindDim = 2,       // the tile holds the whole dim
  kBindCores = 3,     // the work was split to use every core
  kBindTradeoff = 4,  // the tile was shrunk to give idle cores work
  kBindSearch = 5,    // chosen by the search (heuristic / exhaustive / gears)
};
inline const char* BindingName(int32_t b) {
  switch (b) {
    case kBindUb:
      return "UB";
    case kBindDim:
      return "DIM";
    case kBindCores:
      return "CORES";
    case kBindTradeoff:
      return "UB_CORE_TRADEOFF";
    case kBindSearch:
      return "SEARCH";
    default:
      return "NONE";
  }
}

struct CaseSolution {
  bool ok = false;
  int64_t tile = 0;             // elements of d[tile_dim] per tile
  int64_t tiles_per_block = 0;  // outer iterations per core
  int64_t outer = 0;            // A iterations in all (fused A outer dims x tiles), over cores
  int64_t r_iters = 0;          // R iterations per A iteration (1 when all R dims are in UB)
  uint32_t block_dim = 0;
  int64_t r_split = 1;           // r_core: cores sharing one A iteration's R iterations
  int64_t r_per_block = 0;       // r_core: R iterations per core
  int64_t workspace_bytes = 0;   // r_core: GM workspace for the partial results
  int64_t ub_bytes = 0;          // per buffer: UbBytes(case, tile, per_buffer)
  double pipes[kNumPipes] = {};  // modelled cycles of the busiest core per pipe, heads included
  double head = 0;               // op head cost: block_dim x OpHeadCost
  double cost = 0;               // max(pipes) + head: modelled cycles
  // Model totals over all cores, for the cross-check with the CPU runtime's counters.
  int64_t mte2_bytes = 0;
  int64_t mte3_bytes = 0;
  int64_t vec_repeats = 0;
  int32_t binding = kBindNone;
  bool guard_hit = false;  // exhaustive: the space was larger than the guard
};

enum Algorithm : int32_t { kAxesReorder = 0, kHeuristic = 1, kExhaustive = 2 };

struct SolverOptions {
  int32_t algorithm = kAxesReorder;
  int32_t perf_version = 1;  // PerfTable (1: A2/A3, 2: 950)
  // UB/core trade-off (--att_enable_multicore_ub_tradeoff, --att_ub_threshold,
  // --att_corenum_threshold): when fewer than corenum_threshold x cores would be used, shrink
  // the tile to give cores work, but keep each tile at least ub_threshold x UB.
  // Defaults: AutoFuse's V1 (A2/A3) configuration; att::SolverOptionsFrom sets V2's.
  int32_t tradeoff = 0;
  double ub_threshold = 0.2;
  double corenum_threshold = 0.4;
  // --att_accuracy_level=1: compare the solution with neighbouring core-count "gears".
  int32_t accuracy_level = 1;
  int64_t exhaustive_guard = 1000000;  // most (tile, cores) points the exhaustive solver visits
  int32_t heuristic_iterations = 100;
};

inline int64_t AlignUp(int64_t v, int64_t a) {
  // Alignments are almost always powers of two (32-byte blocks of 1-, 2- or 4-byte elements): a
  // mask gives the same result for v >= 0 without the division the solvers would pay per buffer
  // and per node at every priced point.
  if (v >= 0 && a > 0 && (a & (a - 1)) == 0) return (v + a - 1) & ~(a - 1);
  return (v + a - 1) / a * a;
}
inline int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

inline bool Bit(uint32_t mask, int j) {
  return ((mask >> j) & 1u) != 0;
}

// ---- the cost model --------------------------------------------------------------------------

// What one execution of a node costs (cycles on its pipe) and counts (bytes or repeats) for a
// block whose tile-dim extent is `ext`.
// No default member initializers: the pricing keeps one per node class in uninitialised arrays
// (CostOfNode sets every field).
struct NodeCost {
  double cycles;
  int64_t bytes;
  int64_t repeats;
  int32_t pipe;
};

// The tile-independent part of a block's layout (a mask over the dims), so that element, row and
// byte counts for any tile extent cost a few multiplications: the solvers price thousands of
// points.
struct BlockShape {
  // No default member initializers: a Model's arrays stay uninitialised until Prepare fills the
  // entries it uses (ShapeOf sets every field).
  bool tile_one;          // extent 1 along the tile dim
  bool tile_run;          // the rows run along the tile dim (it is the padded one)
  int64_t inner_real;     // Π real extents after the tile dim
  int64_t rows_inner;     // rows per tile-dim index (Π real extents after the tile dim, but the
                          // run dim's); with tile_run, the rows of the whole block
  int64_t inner_pad;      // Π extents after the tile dim, the run dim padded
  int64_t compact_inner;  // Π dims after the tile dim (compact blocks)
  int64_t calls_inner;    // vector calls per slice: Π extents strictly between tile and split
  int64_t per_split;      // elements per call when split > tile dim (0: whole block)
  int64_t row_align;

  int64_t ExtK(int64_t ext) const { return tile_one ? 1 : ext; }
  int64_t Real(int64_t ext) const { return ExtK(ext) * inner_real; }
  int64_t Rows(int64_t ext) const { return tile_run ? rows_inner : ExtK(ext) * rows_inner; }
  int64_t Padded(int64_t ext) const {
    return tile_run ? AlignUp(ExtK(ext), row_align) * inner_pad : ExtK(ext) * inner_pad;
  }
  int64_t Compact(int64_t ext) const { return AlignUp(ext * compact_inner, row_align); }
};

// `run`: the row layout (kRunInner, kRunElements, kRunAt(j) with j >= tile_dim); `esize`: the
// element bytes, for kRunElements (each element takes 32 bytes).
// The extent of dims[j] for a block of concat part `part` (PerfNode::part).
inline int64_t PartExtent(const CaseParams& p, int j, int32_t part) {
  if (part == kPartFull || j != p.part_dim) return p.dims[j];
  if (part > 0) return part <= p.n_parts ? p.part_len[part - 1] : p.dims[j];
  int64_t rows = 0;  // kPartStaging: the concat inputs' padded rows side by side
  for (int k = 0; k < p.cat_inputs && k < kMaxParts; ++k)
    rows += AlignUp(p.part_len[k], p.row_align);
  return rows;
}

// Whether a case can run with these extents: a concat case that copies rows straight to their
// columns needs each input but the last to end on a 32-byte boundary when the concat dim is the
// innermost (the next one's DataCopy starts there); the gather concat has no such rule.
inline bool CatFeasible(const CaseParams& p) {
  if (p.cat_aligned_only == 0 || p.part_dim != p.n_dims - 1) return true;
  for (int k = 0; k + 1 < p.cat_inputs && k < kMaxParts; ++k) {
    if ((p.part_len[k] * p.cat_esize) % kUbAlignBytes != 0) return false;
  }
  return true;
}

inline BlockShape ShapeOf(const CaseParams& p, uint32_t one_mask, int32_t split = -1,
                          int32_t run = kRunInner, int32_t esize = 4, int32_t part = kPartFull) {
  BlockShape b{false, false, 1, 1, 1, 1, 1, 0, 8};
  const int k = p.tile_dim;
  const int last = p.n_dims - 1;
  b.row_align = p.row_align;
  if (k < 0 || k > last || last >= kMaxDims) return b;
  // The padded dim: the innermost, the run dim, or none (one element per 32-byte row; also when
  // the run dim lies outside the block).
  int pad = run == kRunInner ? last : (run == kRunElements ? -1 : run - 1);
  if (pad < k || pad > last) pad = -1;
  b.tile_one = Bit(one_mask, k);
  b.tile_run = k == pad;
  for (int j = k + 1; j <= last; ++j) {
    const int64_t e = Bit(one_mask, j) ? 1 : PartExtent(p, j, part);
    b.inner_real *= e;
    if (j != pad) b.rows_inner *= e;
    b.inner_pad *= j == pad ? AlignUp(e, p.row_align) : e;
    b.compact_inner *= p.dims[j];
  }
  if (pad < 0) b.inner_pad *= esize > 0 && esize < kUbAlignBytes ? kUbAlignBytes / esize : 1;
  if (split > k && split <= last + 1) {
    b.per_split = 1;
    for (int j = k + 1; j < split; ++j)
      b.calls_inner *= Bit(one_mask, j) ? 1 : PartExtent(p, j, part);
    for (int j = split; j <= last; ++j) {
      const int64_t e = Bit(one_mask, j) ? 1 : PartExtent(p, j, part);
      b.per_split *= j == last ? AlignUp(e, p.row_align) : e;
    }
  }
  return b;
}

// UB elements a block needs for a tile of `tile` elements along tile_dim: inner dims whole (or 1
// where `one_mask` says so), the innermost row padded to row_align elements.
inline int64_t BufferElems(const CaseParams& p, int64_t tile, uint32_t one_mask = 0,
                           int32_t run = kRunInner, int32_t esize = 4, int32_t part = kPartFull) {
  return ShapeOf(p, one_mask, -1, run, esize, part).Padded(tile);
}

// Elements of a full block without row padding (the unaligned template), rounded up to whole
// 32-byte rows of the narrowest type so vector ops can cover it.
inline int64_t CompactElems(const CaseParams& p, int64_t tile) {
  return ShapeOf(p, 0).Compact(tile);
}

// UB bytes of a case for a tile, without a prepared Model (the schedule's static UB filter).
inline int64_t UbBytes(const CaseParams& p, int64_t tile, int64_t* per_buffer) {
  int64_t total = 0;
  for (int b = 0; b < p.n_buffers; ++b) {
    const int64_t elems =
        p.buf_fixed[b] > 0 ? p.buf_fixed[b]
        : p.buf_compact[b] != 0
            ? CompactElems(p, tile)
            : BufferElems(p, tile, p.buf_one_mask[b], p.buf_run[b], p.buf_esize[b], p.buf_part[b]);
    const int64_t bytes =
        AlignUp(elems * p.buf_esize[b], p.vec_align > kUbAlignBytes ? p.vec_align : kUbAlignBytes);
    if (per_buffer != nullptr) per_buffer[b] = bytes;
    total += bytes * p.buf_num[b];
  }
  return total;
}

// Loop structure of a solution: A iterations before the tile dim, R iterations before it, the
// tile count and the tail extent.
struct Loops {
  int64_t a_before = 1;
  int64_t r_before = 1;
  int64_t tiles = 1;
  int64_t tail = 0;
  bool tile_is_r = false;
};

// Buffers with the same layout and element size occupy the same bytes for every tile: the solvers
// price their occupancy once per group (count: their buffer counts summed).
struct BufferGroup {
  int32_t first = 0;  // a buffer of the group
  int64_t count = 0;
};

// How the nodes of a class are priced (NodeClass::op).
enum ClassOp : int32_t {
  kOpDma = 0,     // a load or store: DmaCyclesAt over the block's bytes and rows
  kOpVec = 1,     // vector calls over the block or its slices: calls x VecCycles
  kOpScalar = 2,  // scalar work per element of the block
  kOpOther = 3,   // workspace moves and doubling calls
};

// Nodes that CostOfNode prices alike for every extent and rate (the same kind, API, element size
// and layout) form a class: the cost model's per-node terms that do not depend on the tile or the
// core count are resolved once per case here, and the search prices each class once per point.
// No default member initializers: a Model's array of them stays uninitialised until Prepare fills
// the entries it uses.
struct NodeClass {
  BlockShape shape;
  int64_t row_stride;  // GM elements between the block's rows (0: not modelled)
  int64_t gap_bytes;
  int32_t node;  // the class's first node
  int32_t op;    // ClassOp
  int32_t pipe;
  int32_t kind;
  int32_t esize;
  int32_t compact;
  int32_t align_elems;
  bool vec_ok;  // kOpVec: the API has a cost entry
  bool copy;    // kOpVec: a UB -> UB copy (no vector repeats)
  bool v2;      // kOpVec: the V2 MicroAPI form
  // kOpVec: one call's cycles are b + k x elements (V1) or b + k x 256-byte repeats (V2, b the VF
  // head plus the latency), as VecCycles computes them.
  double k;
  double b;
};

// A case prepared for solving: its parameters, cost table, its nodes' classes and the block
// shapes of its buffers.
struct Model {
  const CaseParams* p = nullptr;
  const PerfTable* t = nullptr;
  NodeClass cls[kMaxPerfNodes];
  BlockShape buf[kMaxBuffers];
  BufferGroup group[kMaxBuffers];
  int n_groups = 0;
  int64_t buf_align = kUbAlignBytes;
  Loops loops;  // the tile-independent part (a_before, r_before, tile_is_r)
  int n_classes = 0;
  int16_t node_class[kMaxPerfNodes];  // each node's class
  bool node_once[kMaxPerfNodes];      // runs once per core (scalar work, Gather offsets)
  // The search path's executions per A iteration (Price's m_full: tile-independent there).
  double node_times[kMaxPerfNodes];
  // For the looped templates (R tiles, r_core): when each node runs (NodeRole), its sweeps and
  // whether it skips the first R iteration.
  uint8_t node_role[kMaxPerfNodes];
  bool node_skip[kMaxPerfNodes];
  int32_t node_sweeps[kMaxPerfNodes];
  bool dma_once = false;  // a load or store runs once per core (PartsOf does not apply)
};

// When a node runs, as Price's busiest-core count distinguishes it (Model::node_role).
enum NodeRole : uint8_t {
  kRoleVarying = 0,  // every R iteration of its sweeps (kWhenVarying)
  kRoleBefore = 1,
  kRoleAfter = 2,
  kRoleCombine = 3,
  kRoleWsStore = 4,
  kRoleWsLoad = 5,
};

// Whether CostOfNode prices nodes a and b alike: it reads these fields and the node's block
// shape, which the same one_mask, split, run, part and esize give.
inline bool SameCost(const PerfNode& a, const PerfNode& b) {
  return a.kind == b.kind && a.api == b.api && a.esize == b.esize && a.one_mask == b.one_mask &&
         a.split == b.split && a.run == b.run && a.part == b.part && a.compact == b.compact &&
         a.align_elems == b.align_elems && a.doubling == b.doubling && a.gap_bytes == b.gap_bytes &&
         a.row_stride_mask == b.row_stride_mask && a.row_stride_const == b.row_stride_const &&
         a.len_buffer == b.len_buffer;
}

// A new class for node i (its block shape `shape`).
inline void MakeClass(const CaseParams& p, const PerfTable& t, int i, const BlockShape& shape,
                      NodeClass* c) {
  const PerfNode& n = p.nodes[i];
  c->shape = shape;
  c->row_stride = 0;
  if (n.row_stride_const != 0) {
    c->row_stride = n.row_stride_const;
    for (int j = 0; j < p.n_dims && j < kMaxDims; ++j)
      c->row_stride *= Bit(n.row_stride_mask, j) ? p.dims[j] : 1;
  }
  c->gap_bytes = n.gap_bytes;
  c->node = i;
  c->kind = n.kind;
  c->esize = n.esize;
  if (n.len_buffer >= 0 && n.len_buffer < p.n_buffers && n.len_buffer < kMaxBuffers) {
    c->esize = static_cast<int32_t>(n.esize * p.buf_fixed[n.len_buffer]);
  }
  c->compact = n.compact;
  c->align_elems = n.align_elems;
  c->vec_ok = n.api > kApiNone && n.api < kNumApis;
  c->copy = n.api == kApiCopy;
  c->v2 = t.version == 2;
  c->k = 0;
  c->b = 0;
  if (c->vec_ok && c->v2) {
    c->k = t.micro[n.api].throughput;
    c->b = t.vec_head + t.micro[n.api].latency;
  } else if (c->vec_ok) {
    const Linear& l = t.linear[n.api];
    c->k = n.esize <= 2 ? l.k16 : l.k32;
    c->b = n.esize <= 2 ? l.b16 : l.b32;
  }
  switch (n.kind) {
    case kNodeLoad:
    case kNodeStore:
      c->op = kOpDma;
      c->pipe = n.kind == kNodeLoad ? kPipeMte2 : kPipeMte3;
      break;
    case kNodeWsLoad:
    case kNodeWsStore:
      c->op = kOpOther;
      c->pipe = n.kind == kNodeWsLoad ? kPipeMte2 : kPipeMte3;
      break;
    case kNodeScalar:
      c->op = kOpScalar;
      c->pipe = kPipeScalar;
      break;
    default:
      c->op = n.doubling > 0 ? kOpOther : kOpVec;
      c->pipe = kPipeVec;
      break;
  }
}

// The nodes' classes and the search path's per-node executions.
inline void PrepareNodes(const CaseParams& p, const PerfTable& t, Model* m) {
  // A class is looked for among the last kWindow classes, so kernels of many nodes (a concat's
  // inputs) stay linear; a missed match only prices a class twice.
  constexpr int kWindow = 16;
  // Classes mostly share a handful of layouts: each distinct (one_mask, split, run, part) is
  // shaped once (the first kDistinct of them are looked up).
  constexpr int kDistinct = 8;
  int first_of[kDistinct];
  int n_distinct = 0;
  m->n_classes = 0;
  m->dma_once = false;
  for (int i = 0; i < p.n_nodes && i < kMaxPerfNodes; ++i) {
    const PerfNode& n = p.nodes[i];
    int c = m->n_classes - 1;
    const int stop = m->n_classes > kWindow ? m->n_classes - kWindow : 0;
    while (c >= stop && !SameCost(p.nodes[m->cls[c].node], n))
      --c;
    if (c < stop) {
      c = m->n_classes++;
      int d = 0;
      while (d < n_distinct) {
        const PerfNode& f = p.nodes[m->cls[first_of[d]].node];
        if (f.one_mask == n.one_mask && f.split == n.split && f.run == n.run && f.part == n.part &&
            (n.run != kRunElements || f.esize == n.esize)) {
          break;
        }
        ++d;
      }
      if (d < n_distinct) {
        MakeClass(p, t, i, m->cls[first_of[d]].shape, &m->cls[c]);
      } else {
        MakeClass(p, t, i, ShapeOf(p, n.one_mask, n.split, n.run, n.esize, n.part), &m->cls[c]);
        if (n_distinct < kDistinct) first_of[n_distinct++] = c;
      }
    }
    m->node_class[i] = static_cast<int16_t>(c);
    m->node_once[i] = n.once > 0 || (n.kind == kNodeScalar && n.once == 0);
    if (m->node_once[i] && (n.kind == kNodeLoad || n.kind == kNodeStore)) m->dma_once = true;
    int64_t m_full = 1;
    if (n.when == kWhenVarying && n.kind != kNodeWsStore && n.kind != kNodeWsLoad) {
      const int64_t sweeps = n.sweeps > 0 ? n.sweeps : 1;
      m_full = sweeps * m->loops.r_before;
      if (n.skip_first != 0) m_full -= sweeps;
      if (m_full < 0) m_full = 0;
    }
    m->node_times[i] = static_cast<double>(m_full);
    m->node_skip[i] = n.skip_first != 0;
    m->node_sweeps[i] = n.sweeps > 0 ? n.sweeps : 1;
    if (n.kind == kNodeWsStore || n.kind == kNodeWsLoad) {
      m->node_role[i] = n.kind == kNodeWsStore ? kRoleWsStore : kRoleWsLoad;
    } else {
      m->node_role[i] = n.when == kWhenBefore    ? kRoleBefore
                        : n.when == kWhenAfter   ? kRoleAfter
                        : n.when == kWhenCombine ? kRoleCombine
                                                 : kRoleVarying;
    }
  }
}

inline void Prepare(const CaseParams& p, const PerfTable& t, Model* m) {
  m->p = &p;
  m->t = &t;
  m->n_groups = 0;
  for (int b = 0; b < p.n_buffers && b < kMaxBuffers; ++b) {
    int same = 0;  // an earlier buffer with the same layout
    while (same < b && (p.buf_one_mask[same] != p.buf_one_mask[b] ||
                        p.buf_run[same] != p.buf_run[b] || p.buf_part[same] != p.buf_part[b] ||
                        (p.buf_run[b] == kRunElements && p.buf_esize[same] != p.buf_esize[b]))) {
      ++same;
    }
    m->buf[b] =
        same < b ? m->buf[same]
                 : ShapeOf(p, p.buf_one_mask[b], -1, p.buf_run[b], p.buf_esize[b], p.buf_part[b]);
    int g = 0;
    while (g < m->n_groups) {
      const int f = m->group[g].first;
      if (p.buf_one_mask[f] == p.buf_one_mask[b] && p.buf_compact[f] == p.buf_compact[b] &&
          p.buf_esize[f] == p.buf_esize[b] && p.buf_run[f] == p.buf_run[b] &&
          p.buf_part[f] == p.buf_part[b] && p.buf_fixed[f] == p.buf_fixed[b]) {
        break;
      }
      ++g;
    }
    if (g == m->n_groups) m->group[m->n_groups++] = BufferGroup{b, 0};
    m->group[g].count += p.buf_num[b];
  }
  m->buf_align = p.vec_align > kUbAlignBytes ? p.vec_align : kUbAlignBytes;
  m->loops = Loops{};
  for (int j = 0; j < p.tile_dim && j < kMaxDims; ++j)
    (Bit(p.r_mask, j) ? m->loops.r_before : m->loops.a_before) *= p.dims[j];
  m->loops.tile_is_r = Bit(p.r_mask, p.tile_dim);
  PrepareNodes(p, t, m);
}

// Pieces: parts along the outermost dim (part_dim 0) are groups of nodes that the outer loop
// runs one after another, each over its own extent part_len[k]; dims[0] is their sum. A node of
// piece k (PerfNode::part kPartInput(k)) runs in that piece's iterations only.
inline bool HasPieces(const CaseParams& p) {
  return p.part_dim == 0 && p.n_parts > 0;
}

// The extent a tile can usefully span: the tile dim's size, or with pieces and the outermost dim
// tiled, the largest piece's extent.
inline int64_t TileExtent(const CaseParams& p) {
  if (!HasPieces(p) || p.tile_dim != 0) return p.dims[p.tile_dim];
  int64_t e = 0;
  for (int k = 0; k < p.n_parts && k < kMaxParts; ++k)
    e = p.part_len[k] > e ? p.part_len[k] : e;
  return e;
}

// The loops of a prepared case for a tile. With pieces and the outermost dim tiled, every piece
// has its own tiles (and tail).
inline Loops LoopsOf(const Model& m, int64_t tile) {
  Loops l = m.loops;
  const CaseParams& p = *m.p;
  const int64_t d = p.dims[p.tile_dim];
  l.tiles = CeilDiv(d, tile);
  l.tail = d - (l.tiles - 1) * tile;
  if (HasPieces(p) && p.tile_dim == 0) {
    l.tiles = 0;
    for (int k = 0; k < p.n_parts && k < kMaxParts; ++k)
      l.tiles += CeilDiv(p.part_len[k], tile);
  }
  return l;
}

// A node's executions for the totals over all cores when the graph has pieces (HasPieces): `full`
// at the tile extent and `tail` at `tail_ext`, over its piece's iterations (or every piece's, for
// nodes all pieces run; those have extent 1 along the outermost dim).
struct PieceRuns {
  int64_t full = 0;
  int64_t tail = 0;
  int64_t tail_ext = 0;
};
inline PieceRuns PieceRunsOf(const CaseParams& p, const Loops& l, int64_t tile, int32_t part) {
  PieceRuns r;
  if (part <= 0 || part > p.n_parts) {
    if (p.tile_dim == 0) {
      r.full = l.tiles;  // every piece's tiles; such a node has extent 1 along the tile dim
      return r;
    }
    r.full = l.a_before * (l.tiles - 1);
    r.tail = l.a_before;
    r.tail_ext = l.tail;
    return r;
  }
  const int64_t len = p.part_len[part - 1];
  if (p.tile_dim == 0) {
    const int64_t tiles = CeilDiv(len, tile);
    if (tiles == 0) return r;
    r.full = tiles - 1;
    r.tail = 1;
    r.tail_ext = len - (tiles - 1) * tile;
    return r;
  }
  int64_t a = len;  // the piece's A iterations: its rows times the dims between
  for (int j = 1; j < p.tile_dim && j < kMaxDims; ++j)
    a *= p.dims[j];
  r.full = a * (l.tiles - 1);
  r.tail = a;
  r.tail_ext = l.tail;
  return r;
}

// The share of the outer iterations that run a node of part `part` (1 without pieces): the
// busiest core's tiles are priced at this average mix of the pieces.
inline double PieceShare(const CaseParams& p, const Loops& l, int64_t tile, int32_t part) {
  if (!HasPieces(p) || part <= 0 || part > p.n_parts || p.dims[0] <= 0 || l.tiles <= 0) {
    return 1.0;
  }
  const int64_t len = p.part_len[part - 1];
  if (p.tile_dim == 0) {
    return static_cast<double>(CeilDiv(len, tile)) / static_cast<double>(l.tiles);
  }
  return static_cast<double>(len) / static_cast<double>(p.dims[0]);
}

// UbBytes on a prepared case (the same numbers, fewer operations).
inline int64_t UbBytes(const Model& m, int64_t tile, int64_t* per_buffer) {
  const CaseParams& p = *m.p;
  int64_t total = 0;
  if (per_buffer == nullptr) {
    for (int g = 0; g < m.n_groups; ++g) {
      const int b = m.group[g].first;
      const int64_t elems = p.buf_fixed[b] > 0      ? p.buf_fixed[b]
                            : p.buf_compact[b] != 0 ? m.buf[b].Compact(tile)
                                                    : m.buf[b].Padded(tile);
      total += AlignUp(elems * p.buf_esize[b], m.buf_align) * m.group[g].count;
    }
    return total;
  }
  for (int b = 0; b < p.n_buffers; ++b) {
    const int64_t elems = p.buf_fixed[b] > 0      ? p.buf_fixed[b]
                          : p.buf_compact[b] != 0 ? m.buf[b].Compact(tile)
                                                  : m.buf[b].Padded(tile);
    const int64_t bytes = AlignUp(elems * p.buf_esize[b], m.buf_align);
    if (per_buffer != nullptr) per_buffer[b] = bytes;
    total += bytes * p.buf_num[b];
  }
  return total;
}

// Load and store rates for one block_dim.
struct Rates {
  DmaRate load, store;
};
inline Rates RatesOf(const PerfTable& t, double block_dim) {
  return Rates{RateOf(t.load, block_dim), RateOf(t.store, block_dim)};
}

// The search prices every node class at every point it visits: the class's cycles are computed
// inline there (GCC and Clang; other compilers decide for themselves).
#if defined(__GNUC__)
#define AF_TILING_HOT inline __attribute__((always_inline))
#else
#define AF_TILING_HOT inline
#endif

// Workspace moves and doubling calls (kOpOther): cycles, bytes and (with `counts`) repeats.
inline NodeCost OtherClassCost(const Model& m, int c, int64_t ext, const Rates& rates,
                               bool counts) {
  const NodeClass& k = m.cls[c];
  const BlockShape& b = k.shape;
  const PerfTable& t = *m.t;
  const PerfNode& n = m.p->nodes[k.node];
  NodeCost r{0, 0, 0, k.pipe};
  if (n.kind == kNodeWsStore || n.kind == kNodeWsLoad) {
    r.bytes = b.Padded(ext) * n.esize;
    const bool load = n.kind == kNodeWsLoad;
    r.cycles = DmaCyclesAt(load ? t.load : t.store, load ? rates.load : rates.store,
                           static_cast<double>(r.bytes), 1, 0);
    return r;
  }
  // Doubling calls.
  const int64_t e = b.ExtK(ext) * b.calls_inner;
  const int64_t len = b.per_split > 0 ? b.per_split : 1;
  for (int64_t h = n.doubling; h < e; h *= 2) {
    const int64_t cnt = (h < e - h ? h : e - h) * len;
    r.cycles += VecCycles(t, n.api, static_cast<double>(cnt), n.esize);
    if (counts) r.repeats += CeilDiv(cnt * n.esize, 256);
  }
  return r;
}

// A kOpVec class's vector calls and elements per call at extent `ext`.
AF_TILING_HOT int64_t VecCalls(const NodeClass& k, int64_t ext, int64_t* per_out) {
  const BlockShape& b = k.shape;
  int64_t calls = 1;
  int64_t per = 0;
  if (b.per_split > 0) {
    calls = b.ExtK(ext) * b.calls_inner;
    per = b.per_split;
  } else {
    per = k.compact != 0 ? b.Compact(ext) : b.Padded(ext);
  }
  if (k.align_elems > 0) per = AlignUp(per, k.align_elems);
  *per_out = per;
  return calls;
}

// The cycles of one execution of a node of class `c` for a block whose tile-dim extent is `ext`;
// `bytes`: the bytes a load or store moves (else 0).
AF_TILING_HOT double ClassCycles(const Model& m, int c, int64_t ext, const Rates& rates,
                                 int64_t* bytes) {
  const NodeClass& k = m.cls[c];
  const BlockShape& b = k.shape;
  *bytes = 0;
  switch (k.op) {
    case kOpDma: {
      const PerfTable& t = *m.t;
      const int64_t moved = b.Real(ext) * k.esize;
      *bytes = moved;
      const bool load = k.kind == kNodeLoad;
      // A compact block is one contiguous run; padded rows are one DataCopyPad with rows.
      const int64_t rows = k.compact != 0 ? 1 : b.Rows(ext);
      int64_t gap = k.gap_bytes;
      if (k.row_stride > 0 && rows > 0) {
        // Strided rows: the GM gap after each row is the row stride less the row's bytes.
        gap = k.row_stride * k.esize - moved / rows;
        if (gap < 0) gap = 0;
      }
      return DmaCyclesAt(load ? t.load : t.store, load ? rates.load : rates.store,
                         static_cast<double>(moved), static_cast<double>(rows),
                         static_cast<double>(gap));
    }
    case kOpVec: {
      int64_t per = 0;
      const int64_t calls = VecCalls(k, ext, &per);
      // VecCycles with the class's coefficients.
      double one = 0;
      if (k.vec_ok && per > 0) {
        const int64_t repeats = (per * k.esize + 255) / 256;  // whole 256-byte repeats (V2)
        one =
            k.v2 ? k.b + k.k * static_cast<double>(repeats) : k.k * static_cast<double>(per) + k.b;
      }
      return static_cast<double>(calls) * one;
    }
    case kOpScalar:
      return static_cast<double>(k.compact != 0 ? b.Compact(ext) : b.Padded(ext));
    default: {
      const NodeCost o = OtherClassCost(m, c, ext, rates, false);
      *bytes = o.bytes;
      return o.cycles;
    }
  }
}

// What one execution of a node of class `c` costs for a block whose tile-dim extent is `ext`.
// `counts`: also the vector repeats (only the totals need them; the cycles are the same).
inline NodeCost ClassCost(const Model& m, int c, int64_t ext, const Rates& rates,
                          bool counts = true) {
  const NodeClass& k = m.cls[c];
  if (k.op == kOpOther) return OtherClassCost(m, c, ext, rates, counts);
  NodeCost r{0, 0, 0, k.pipe};
  r.cycles = ClassCycles(m, c, ext, rates, &r.bytes);
  if (counts && k.op == kOpVec && !k.copy) {
    // UB -> UB DataCopy is not a vector instruction: no repeats, but it takes VEC time.
    int64_t per = 0;
    const int64_t calls = VecCalls(k, ext, &per);
    r.repeats = calls * CeilDiv(per * k.esize, 256);
  }
  return r;
}

// What one execution of node i costs (its class's cost).
inline NodeCost CostOfNode(const Model& m, int i, int64_t ext, const Rates& rates,
                           bool counts = true) {
  return ClassCost(m, m.node_class[i], ext, rates, counts);
}

// The load size the MTE2 pipe head depends on: V1 the whole block a load moves
// (perf_param_v1.cpp: product of the load's repeats), V2 one row of it (perf_param_v2.cpp: the
// innermost repeat).
inline int64_t HeadBlockBytes(const Model& m, int c, int64_t tile, int64_t block_bytes) {
  if (m.t->version != 2) return block_bytes;
  const int64_t rows = m.cls[c].shape.Rows(tile);
  return rows > 0 ? block_bytes / rows : block_bytes;
}

struct Accum {
  double pipes[kNumPipes] = {};
  int64_t mte2 = 0, mte3 = 0, repeats = 0;
  void Add(const NodeCost& c, double times, int64_t count) {
    pipes[c.pipe] += c.cycles * times;
    if (c.pipe == kPipeMte2) mte2 += c.bytes * count;
    if (c.pipe == kPipeMte3) mte3 += c.bytes * count;
    if (c.pipe == kPipeVec) repeats += c.repeats * count;
  }
};

// Each node class's cost at the tile extent (`full`) and, when `need_tail`, at the tail extent
// (else the full one); returns the largest load block (the MTE2 head's size).
inline int64_t ClassCosts(const Model& m, int64_t tile, int64_t tail_ext, bool need_tail,
                          const Rates& rates, bool counts, NodeCost* full, NodeCost* tail) {
  int64_t max_load_bytes = 0;
  for (int c = 0; c < m.n_classes; ++c) {
    full[c] = ClassCost(m, c, tile, rates, counts);
    if (tail != nullptr) tail[c] = need_tail ? ClassCost(m, c, tail_ext, rates, counts) : full[c];
    if (m.cls[c].kind == kNodeLoad) {
      const int64_t b = HeadBlockBytes(m, c, tile, full[c].bytes);
      if (b > max_load_bytes) max_load_bytes = b;
    }
  }
  return max_load_bytes;
}

// Price's search path (cycles only, the tile dim an A dim, no r_core): every node runs at the
// full extent, tiles_per_block times its executions per A iteration; each node class is priced
// once and its nodes add its cycles in node order, so the sums are the per-node loop's, bit for
// bit. Returns the largest load block.
inline int64_t PriceSearch(const Model& m, const CaseSolution& s, const Loops& l,
                           const Rates& rates, double* pipes) {
  const CaseParams& p = *m.p;
  double cycles[kMaxPerfNodes];
  int64_t max_load_bytes = 0;
  for (int c = 0; c < m.n_classes; ++c) {
    int64_t bytes = 0;
    cycles[c] = ClassCycles(m, c, s.tile, rates, &bytes);
    if (m.cls[c].kind == kNodeLoad) {
      const int64_t b = HeadBlockBytes(m, c, s.tile, bytes);
      if (b > max_load_bytes) max_load_bytes = b;
    }
  }
  const auto tpb = static_cast<double>(s.tiles_per_block);
  const bool pieces = HasPieces(p);
  for (int i = 0; i < p.n_nodes; ++i) {
    const int c = m.node_class[i];
    if (m.node_once[i]) {
      pipes[m.cls[c].pipe] += cycles[c];
      continue;
    }
    const double share = pieces ? PieceShare(p, l, s.tile, p.nodes[i].part) : 1.0;
    pipes[m.cls[c].pipe] += cycles[c] * (tpb * m.node_times[i] * share);
  }
  return max_load_bytes;
}

// Price's cycles-only path for the looped templates (R tiles, r_core): the busiest core's
// cycles per pipe, as the per-node loop of Price computes them (the same operations in the same
// order), with each class priced once at the full and the tail extent. Returns the largest load
// block.
inline int64_t PriceLooped(const Model& m, const CaseSolution& s, const Loops& l,
                           const Rates& rates, double* pipes) {
  const CaseParams& p = *m.p;
  double full[kMaxPerfNodes];
  double tail[kMaxPerfNodes];
  int64_t max_load_bytes = 0;
  const bool need_tail = l.tile_is_r && l.tail != s.tile;
  for (int c = 0; c < m.n_classes; ++c) {
    int64_t bytes = 0;
    int64_t tail_bytes = 0;
    full[c] = ClassCycles(m, c, s.tile, rates, &bytes);
    tail[c] = need_tail ? ClassCycles(m, c, l.tail, rates, &tail_bytes) : full[c];
    if (m.cls[c].kind == kNodeLoad) {
      const int64_t b = HeadBlockBytes(m, c, s.tile, bytes);
      if (b > max_load_bytes) max_load_bytes = b;
    }
  }
  if (p.r_core != 0) {
    // Executions on the busiest core by role (Price's r_core branch).
    const auto per_core_a = static_cast<double>(CeilDiv(s.outer, s.block_dim));
    double times[6];
    times[kRoleWsStore] = 1;
    times[kRoleWsLoad] = per_core_a * static_cast<double>(s.r_split);
    times[kRoleBefore] = 1 + per_core_a;
    times[kRoleAfter] = per_core_a;
    times[kRoleCombine] = per_core_a * static_cast<double>(s.r_split - 1);
    const auto varying = static_cast<double>(s.r_per_block);
    const auto varying_skip = static_cast<double>(s.r_per_block - 1);
    for (int i = 0; i < p.n_nodes; ++i) {
      const int c = m.node_class[i];
      const int role = m.node_role[i];
      const double x = m.node_once[i]         ? 1
                       : role != kRoleVarying ? times[role]
                       : m.node_skip[i]       ? varying_skip
                                              : varying;
      pipes[m.cls[c].pipe] += full[c] * x;
    }
    return max_load_bytes;
  }
  // R tiles without r_core: executions per A iteration at the full and the tail extent.
  const bool pieces = HasPieces(p);
  for (int i = 0; i < p.n_nodes; ++i) {
    const int c = m.node_class[i];
    const int pipe = m.cls[c].pipe;
    if (m.node_once[i]) {
      pipes[pipe] += full[c] * 1;
      continue;
    }
    const int role = m.node_role[i];
    int64_t m_full = 1;
    int64_t m_tail = 0;
    if (role == kRoleVarying) {
      const int64_t sweeps = m.node_sweeps[i];
      m_full = sweeps * l.r_before * (l.tile_is_r ? l.tiles - 1 : 1);
      m_tail = l.tile_is_r ? sweeps * l.r_before : 0;
      if (m.node_skip[i]) {
        if (l.tile_is_r && l.tiles == 1) {
          m_tail -= sweeps;
        } else {
          m_full -= sweeps;
        }
      }
    } else if (role == kRoleWsStore || role == kRoleWsLoad) {
      m_full = s.r_split;
    } else if (role == kRoleCombine) {
      m_full = s.r_split - 1;
    }
    if (m_full < 0) m_full = 0;
    if (m_tail < 0) m_tail = 0;
    const double tpb = static_cast<double>(s.tiles_per_block) *
                       (pieces ? PieceShare(p, l, s.tile, p.nodes[i].part) : 1.0);
    pipes[pipe] += full[c] * (tpb * static_cast<double>(m_full));
    if (m_tail > 0) pipes[pipe] += tail[c] * (tpb * static_cast<double>(m_tail));
  }
  return max_load_bytes;
}

// Prices a solution whose tile, outer, r_iters, tiles_per_block, block_dim (and r_core's split)
// are set: fills pipes, head, cost and the model totals.
// `totals`: also count the model's bytes and repeats over all cores (the search prices cycles
// only; the chosen solution is priced again with totals).
inline void Price(const Model& m, CaseSolution* s, bool totals) {
  const CaseParams& p = *m.p;
  const PerfTable& t = *m.t;
  for (double& x : s->pipes)
    x = 0;
  const Loops l = LoopsOf(m, s->tile);
  const auto bd = static_cast<double>(s->block_dim);
  const Rates rates = RatesOf(t, bd);
  Accum core;   // the busiest core
  Accum total;  // all cores (counts only)
  int64_t max_load_bytes = 0;
  // The search's common case (cycles only, A tiles, no r_core): PriceSearch, the same arithmetic
  // as the loop below.
  const bool fast = !totals;
  NodeCost full_of[kMaxPerfNodes];
  NodeCost tail_of[kMaxPerfNodes];
  if (fast && p.r_core == 0 && !l.tile_is_r) {
    max_load_bytes = PriceSearch(m, *s, l, rates, core.pipes);
  } else if (fast) {
    max_load_bytes = PriceLooped(m, *s, l, rates, core.pipes);
  } else {
    // The tail extent matters for the busiest core only when R tiles are looped over.
    const bool need_tail = (totals || l.tile_is_r) && l.tail != s->tile;
    max_load_bytes = ClassCosts(m, s->tile, l.tail, need_tail, rates, totals, full_of, tail_of);
  }
  for (int i = 0; !fast && i < p.n_nodes; ++i) {
    const PerfNode& n = p.nodes[i];
    const NodeCost& full = full_of[m.node_class[i]];
    const NodeCost& tail = tail_of[m.node_class[i]];
    if (m.node_once[i]) {
      core.Add(full, 1, 0);
      if (totals) total.Add(full, 0, s->block_dim);  // every core runs it
      continue;
    }
    const int64_t sweeps = n.sweeps > 0 ? n.sweeps : 1;
    const bool ws = n.kind == kNodeWsStore || n.kind == kNodeWsLoad;
    const bool varying = n.when == kWhenVarying && !ws;
    // Executions per A iteration: at the full tile extent (m_full) and at the tail extent
    // (m_tail, only for R-varying nodes when the tile dim is an R dim).
    int64_t m_full = 1;
    int64_t m_tail = 0;
    if (varying) {
      m_full = sweeps * l.r_before * (l.tile_is_r ? l.tiles - 1 : 1);
      m_tail = l.tile_is_r ? sweeps * l.r_before : 0;
      if (n.skip_first != 0) {
        if (p.r_core != 0) {
          // Each share starts at R iteration chunk * r_per_block; count the starts that are
          // R tail tiles.
          int64_t tails = 0;
          if (l.tile_is_r) {
            for (int64_t c = 0; c < s->r_split; ++c)
              tails += (c * s->r_per_block) % l.tiles == l.tiles - 1 ? 1 : 0;
          }
          m_full -= s->r_split - tails;
          m_tail -= tails;
        } else if (l.tile_is_r && l.tiles == 1) {
          m_tail -= sweeps;
        } else {
          m_full -= sweeps;
        }
      }
    } else if (ws) {
      m_full = s->r_split;
    } else if (n.when == kWhenCombine) {
      m_full = s->r_split - 1;
    } else if (n.when == kWhenBefore && p.r_core != 0) {
      m_full = s->r_split + 1;  // phase 1 per share and phase 2 per A iteration
    }
    if (m_full < 0) m_full = 0;
    if (m_tail < 0) m_tail = 0;
    // Totals over all cores: when the tile dim is an A dim, a_before of the A iterations are
    // tails (every node of such an iteration runs at the tail extent, except full-layout ones).
    const NodeCost& tail_a = ws || n.max_tile != 0 ? full : tail;
    if (totals && l.tile_is_r) {
      total.Add(full, 0, s->outer * m_full);
      total.Add(n.max_tile != 0 ? full : tail, 0, s->outer * m_tail);
    } else if (totals && HasPieces(p)) {
      const PieceRuns pr = PieceRunsOf(p, l, s->tile, n.part);
      total.Add(full, 0, pr.full * m_full);
      if (pr.tail > 0) {
        const NodeCost pt = ws || n.max_tile != 0 ? full : CostOfNode(m, i, pr.tail_ext, rates);
        total.Add(pt, 0, pr.tail * m_full);
      }
    } else if (totals) {
      total.Add(full, 0, l.a_before * (l.tiles - 1) * m_full);
      total.Add(tail_a, 0, l.a_before * m_full);
    }
    // The busiest core, all at the full tile extent except the R tail tiles.
    if (p.r_core != 0) {
      const auto per_core_a = static_cast<double>(CeilDiv(s->outer, s->block_dim));
      double times = 0;
      if (n.kind == kNodeWsStore) {
        times = 1;
      } else if (n.kind == kNodeWsLoad) {
        times = per_core_a * static_cast<double>(s->r_split);
      } else if (n.when == kWhenBefore) {
        times = 1 + per_core_a;
      } else if (n.when == kWhenAfter) {
        times = per_core_a;
      } else if (n.when == kWhenCombine) {
        times = per_core_a * static_cast<double>(s->r_split - 1);
      } else {
        times = static_cast<double>(s->r_per_block - (n.skip_first != 0 ? 1 : 0));
      }
      core.Add(full, times, 0);
    } else {
      const double tpb =
          static_cast<double>(s->tiles_per_block) * PieceShare(p, l, s->tile, n.part);
      core.Add(full, tpb * static_cast<double>(m_full), 0);
      if (m_tail > 0) core.Add(tail, tpb * static_cast<double>(m_tail), 0);
    }
  }
  // Pipe heads (perf_param_v1.cpp GetMTE2PipeHead etc.) and the op head per core used.
  const bool small = static_cast<double>(max_load_bytes) < t.mte2_head_threshold;
  core.pipes[kPipeMte2] +=
      small ? t.mte2_head_small_k * bd + t.mte2_head_small_b : t.mte2_head_k * bd + t.mte2_head_b;
  core.pipes[kPipeMte3] += t.mte3_head;
  if (t.version == 1) core.pipes[kPipeVec] += t.vec_head;
  double worst = 0;
  for (int k = 0; k < kNumPipes; ++k) {
    s->pipes[k] = core.pipes[k];
    if (core.pipes[k] > worst) worst = core.pipes[k];
  }
  s->head = t.op_head * bd;
  s->cost = worst + s->head;
  s->mte2_bytes = total.mte2;
  s->mte3_bytes = total.mte3;
  s->vec_repeats = total.repeats;
}

// The busiest core's cycles for one tile, split by what depends on the core count: per pipe, the
// cycles of one outer iteration that do not depend on it (`per_iter`), its DMA bytes moved at
// the small and the large rate (RateOf depends on block_dim), and the cycles run once per core
// (`once`). Price's search path (no r_core, the tile dim an A dim) is then, for any tiles per
// core k and block_dim: max over pipes of k x (per_iter + bytes / rate) + once + pipe head, plus
// the op head. `ok` is false outside that path.
struct TileParts {
  bool ok = false;
  double per_iter[kNumPipes] = {};
  double small_bytes[kNumPipes] = {};  // MTE2 (loads) and MTE3 (stores) only
  double large_bytes[kNumPipes] = {};
  double once[kNumPipes] = {};
  bool small_head = false;  // the largest load is below mte2_head_threshold
};

inline TileParts PartsOf(const Model& m, int64_t tile) {
  const CaseParams& p = *m.p;
  const PerfTable& t = *m.t;
  TileParts r;
  const Loops l = LoopsOf(m, tile);
  if (p.r_core != 0 || l.tile_is_r || m.dma_once) return r;  // a DMA once per core: not this form
  r.ok = true;
  const Rates unit{DmaRate{1, 1}, DmaRate{1, 1}};
  int64_t max_load_bytes = 0;
  // Per node class (see PriceSearch): the cycles at unit rates, and for loads and stores that
  // move bytes, the bytes (the rate-dependent part) and the rate-free rest.
  double cycles[kMaxPerfNodes];
  double rest[kMaxPerfNodes];
  double bytes[kMaxPerfNodes];
  bool small[kMaxPerfNodes];
  for (int c = 0; c < m.n_classes; ++c) {
    const NodeClass& n = m.cls[c];
    int64_t moved = 0;
    cycles[c] = ClassCycles(m, c, tile, unit, &moved);
    if (n.kind == kNodeLoad) {
      const int64_t b = HeadBlockBytes(m, c, tile, moved);
      if (b > max_load_bytes) max_load_bytes = b;
    }
    rest[c] = cycles[c];
    bytes[c] = 0;
    small[c] = false;
    if ((n.kind == kNodeLoad || n.kind == kNodeStore) && moved > 0) {
      // At unit rates the cycles are the bytes plus the rate-free rest.
      const Dma& d = n.kind == kNodeLoad ? t.load : t.store;
      bytes[c] = static_cast<double>(moved);
      small[c] = bytes[c] < d.small_bytes;
      rest[c] -= bytes[c];
    }
  }
  const bool pieces = HasPieces(p);
  for (int i = 0; i < p.n_nodes; ++i) {
    const int c = m.node_class[i];
    const int pipe = m.cls[c].pipe;
    if (m.node_once[i]) {
      r.once[pipe] += cycles[c];
      continue;
    }
    const double times = m.node_times[i] * (pieces ? PieceShare(p, l, tile, p.nodes[i].part) : 1.0);
    r.per_iter[pipe] += rest[c] * times;
    // Nodes that move no bytes would add 0 here.
    if (bytes[c] != 0) (small[c] ? r.small_bytes : r.large_bytes)[pipe] += bytes[c] * times;
  }
  r.small_head = static_cast<double>(max_load_bytes) < t.mte2_head_threshold;
  return r;
}

// The modelled cycles of TileParts at `tpb` tiles per core on `block_dim` cores (Price's search
// path, up to rounding).
inline double PartsCost(const PerfTable& t, const TileParts& r, int64_t tpb, int64_t block_dim) {
  const auto bd = static_cast<double>(block_dim);
  const DmaRate rl = RateOf(t.load, bd);
  const DmaRate rs = RateOf(t.store, bd);
  double worst = 0;
  for (int k = 0; k < kNumPipes; ++k) {
    double c = r.per_iter[k];
    if (k == kPipeMte2) c += r.small_bytes[k] / rl.small + r.large_bytes[k] / rl.large;
    if (k == kPipeMte3) c += r.small_bytes[k] / rs.small + r.large_bytes[k] / rs.large;
    c = c * static_cast<double>(tpb) + r.once[k];
    if (k == kPipeMte2) {
      c += r.small_head ? t.mte2_head_small_k * bd + t.mte2_head_small_b
                        : t.mte2_head_k * bd + t.mte2_head_b;
    }
    if (k == kPipeMte3) c += t.mte3_head;
    if (k == kPipeVec && t.version == 1) c += t.vec_head;
    if (c > worst) worst = c;
  }
  return worst + t.op_head * bd;
}

// ---- one point of the space ------------------------------------------------------------------

inline bool EmptySpace(const CaseParams& p) {
  for (int j = 0; j < p.n_dims; ++j) {
    if (p.dims[j] == 0) return true;
  }
  return false;
}

inline bool ValidParams(const CaseParams& p, uint32_t cores) {
  return p.n_dims > 0 && p.n_dims <= kMaxDims && p.tile_dim >= 0 && p.tile_dim < p.n_dims &&
         p.n_buffers >= 0 && p.n_buffers <= kMaxBuffers && cores > 0 && p.row_align > 0 &&
         p.n_nodes >= 0 && p.n_nodes <= kMaxPerfNodes && (p.n_nodes == 0 || p.nodes != nullptr);
}

// Tile granularity: a whole 32-byte block of the narrowest buffer when tiling the innermost dim
// (so full tiles need no padding: AutoFuse's prompt_align), else 1.
inline int64_t TileStep(const CaseParams& p) {
  return p.tile_dim == p.n_dims - 1 ? p.row_align : 1;
}

// The solution for a tile and a number of cores to use (at most `use` cores; fewer when there is
// less work). ok is false when the tile does not fit the UB or r_core does not apply.
inline CaseSolution Evaluate(const Model& m, int64_t tile, int64_t use, int64_t ub_limit) {
  const CaseParams& p = *m.p;
  CaseSolution s;
  const int64_t d = TileExtent(p);
  if (tile < 1 || tile > d || use < 1) return s;
  s.ub_bytes = UbBytes(m, tile, nullptr);
  if (s.ub_bytes > ub_limit) return s;
  const Loops l = LoopsOf(m, tile);
  s.tile = tile;
  s.outer = l.tile_is_r ? l.a_before : l.a_before * l.tiles;
  s.r_iters = l.tile_is_r ? l.r_before * l.tiles : l.r_before;
  if (p.r_core != 0) {
    // Worth it only when the A iterations leave cores idle and there are R iterations to share.
    if (s.outer >= use || s.r_iters < 2 || p.partial_buffer < 0 ||
        p.partial_buffer >= p.n_buffers) {
      return s;
    }
    int64_t split = use / s.outer;
    if (split > s.r_iters) split = s.r_iters;
    s.r_per_block = CeilDiv(s.r_iters, split);
    s.r_split = CeilDiv(s.r_iters, s.r_per_block);
    s.tiles_per_block = 1;
    s.block_dim = static_cast<uint32_t>(s.outer * s.r_split);
    const int64_t slot =
        AlignUp(BufferElems(p, tile, p.buf_one_mask[p.partial_buffer]) * 4, kUbAlignBytes);
    s.workspace_bytes = static_cast<int64_t>(p.n_reduces) * s.outer * s.r_split * slot;
  } else {
    const int64_t used = s.outer < use ? s.outer : use;
    s.tiles_per_block = CeilDiv(s.outer, used);
    s.block_dim = static_cast<uint32_t>(CeilDiv(s.outer, s.tiles_per_block));
    s.r_per_block = s.r_iters;
  }
  s.ok = true;
  Price(m, &s, false);
  return s;
}

// Largest tile (a multiple of `step`, or the whole dim) whose UB occupancy fits `limit`; 0 when
// not even the smallest tile fits. Binary search (AutoFuse's
// BinaryFindUpperBoundSatisfiedUBLimit).
inline int64_t LargestTile(const Model& m, int64_t limit) {
  const CaseParams& p = *m.p;
  const int64_t d = TileExtent(p);
  const int64_t step = TileStep(p);
  if (UbBytes(m, d, nullptr) <= limit) return d;
  if (UbBytes(m, 1, nullptr) > limit) return 0;
  int64_t lo = 0;  // in units of step; 0 means "fall back to 1"
  int64_t hi = d / step;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (UbBytes(m, mid * step, nullptr) <= limit) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo > 0 ? lo * step : 1;
}

// Smallest tile (multiple of step) whose UB occupancy is at least `bytes`.
inline int64_t SmallestTileWithUb(const Model& m, int64_t bytes, int64_t max_tile) {
  const CaseParams& p = *m.p;
  const int64_t step = TileStep(p);
  int64_t lo = 1;
  int64_t hi = max_tile / step;
  if (hi < 1) return max_tile;
  if (UbBytes(m, hi * step, nullptr) < bytes) return max_tile;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (UbBytes(m, mid * step, nullptr) >= bytes) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo * step;
}

// Better of two solutions within one template (GenSelectBetterTilingBasedOnObjAndUbRatio): a
// clear cycle difference wins; within PerfEffectVal the one at or above the UB-ratio threshold,
// else the higher UB ratio, else the lower cost.
inline bool Better(const PerfTable& t, const CaseSolution& a, const CaseSolution& b,
                   int64_t ub_limit) {
  if (!b.ok) return a.ok;
  if (!a.ok) return false;
  const double diff = a.cost - b.cost;
  if (diff < -t.perf_effect_val) return true;
  if (diff > t.perf_effect_val) return false;
  const double ra = static_cast<double>(a.ub_bytes) / static_cast<double>(ub_limit);
  const double rb = static_cast<double>(b.ub_bytes) / static_cast<double>(ub_limit);
  const bool ha = ra >= t.ub_ratio_threshold;
  const bool hb = rb >= t.ub_ratio_threshold;
  if (ha != hb) return ha;
  if (!ha && ra != rb) return ra > rb;
  return a.cost < b.cost;
}

// ---- solvers ---------------------------------------------------------------------------------

// AxesReorder for one core budget: UB-first tile, trade-off, multicore split, workload balance.
// One AxesReorder pass for a core budget: the UB-first tile (largest that fits), the UB/core
// trade-off (fewer A iterations than `corenum_threshold` x cores: shrink the tile, not below
// `ub_threshold` x UB, so more cores get work; for r_core the R tile is sized so the R
// iterations can be shared by the cores), the multicore split (Evaluate), and workload balance
// (the smallest tile with the same tile count, evening out the tail).
inline int64_t ISqrt(int64_t v) {
  int64_t r = 0;
  while ((r + 1) * (r + 1) <= v)
    ++r;
  return r;
}

// The tile one AxesReorder pass picks for a core budget (see AxesReorderOnce); 0: none fits.
inline int64_t AxesReorderTile(const Model& m, int64_t cores, int64_t ub_limit,
                               const SolverOptions& o, bool tradeoff, int64_t max_tile,
                               int32_t* binding_out) {
  const CaseParams& p = *m.p;
  const int64_t d = TileExtent(p);
  const int64_t step = TileStep(p);
  int64_t tile = max_tile;
  if (tile == 0) return 0;
  int32_t binding = tile == d ? kBindDim : kBindUb;
  const Loops l0 = LoopsOf(m, tile);
  const int64_t work = l0.tile_is_r ? l0.a_before : l0.a_before * l0.tiles;
  if (tradeoff && static_cast<double>(work) < o.corenum_threshold * static_cast<double>(cores)) {
    int64_t want_tiles = 0;
    if (!l0.tile_is_r && p.r_core == 0) {
      want_tiles = CeilDiv(cores, l0.a_before);
    } else if (l0.tile_is_r && p.r_core != 0) {
      // Shares of the R loop per A iteration, one R tile each.
      const int64_t shares = cores / (l0.a_before > 0 ? l0.a_before : 1);
      want_tiles = shares >= 2 ? CeilDiv(shares, l0.r_before) : 0;
    } else if (p.r_core != 0) {
      // r_core with a kept tile dim: A tiles x R shares ~ cores; about sqrt(cores) A tiles keeps
      // both the per-share R loop and the combine (r_split partial loads) short.
      want_tiles = CeilDiv(ISqrt(cores), l0.a_before);
    }
    if (want_tiles > 0) {
      int64_t t2 = AlignUp(CeilDiv(d, want_tiles), step);
      const auto floor_bytes = static_cast<int64_t>(o.ub_threshold * static_cast<double>(ub_limit));
      const int64_t min_tile = floor_bytes > 0 ? SmallestTileWithUb(m, floor_bytes, tile) : 1;
      if (t2 < min_tile) t2 = min_tile;
      if (t2 < 1) t2 = 1;
      if (t2 < tile) {
        tile = t2;
        binding = kBindTradeoff;
      }
    }
  }
  const Loops l1 = LoopsOf(m, tile);
  if (l1.tiles > 1) {
    // The same tile count (the largest piece's, with pieces) with tiles as even as the step
    // allows.
    const int64_t even = AlignUp(CeilDiv(d, CeilDiv(d, tile)), step);
    if (even < tile && even >= 1 && LoopsOf(m, even).tiles == l1.tiles) tile = even;
  }
  *binding_out = binding;
  return tile;
}

inline CaseSolution AxesReorderOnce(const Model& m, int64_t cores, int64_t ub_limit,
                                    const SolverOptions& o, bool tradeoff, int64_t max_tile) {
  int32_t binding = kBindNone;
  const int64_t tile = AxesReorderTile(m, cores, ub_limit, o, tradeoff, max_tile, &binding);
  if (tile == 0) return CaseSolution{};
  CaseSolution s = Evaluate(m, tile, cores, ub_limit);
  if (s.ok && binding != kBindTradeoff && s.block_dim == static_cast<uint32_t>(cores) &&
      s.outer >= cores) {
    binding = kBindCores;
  }
  s.binding = binding;
  return s;
}

// Tile refinement (ours; AutoFuse's AxesReorder stops at the steps above). The modelled cycles
// are not monotone in the tile: strided rows' GM gaps (priced by gap mod 256), the DMA rate and
// MTE2 head that step at a block size, the tail tile and the tiles per core all step with it, and
// for a given tile the op head per core makes fewer cores with more tiles each the cheaper
// choice. So the tile the steps above settle on can sit next to a much cheaper point
// (transpose_sum 1030 x 1413: tile 2 on 47 cores at 48 860 cycles, tile 6 on 43 cores at
// 29 189). From the best point a ladder of tiles is priced: the tile counts n - 1, n + 1, n / 2
// and 2n around its own count n (each tile as even as the step allows), and the tiles where the
// model itself steps: for each strided load or store the nearest tiles above and below whose GM
// gap is a multiple of 256 bytes, for each load or store below the DMA's small-transfer size the
// smallest tile that reaches it. Each candidate is priced once (PartsOf) and gets its best core
// count (BestTpb); the search moves to the cheapest and repeats while that improves, at most
// kRefineRounds times. Only the search path (no r_core, the tile dim an A dim) is refined.
inline constexpr int kRefineRounds = 3;

inline double SqrtOf(double v) {
  if (v <= 0) return 0;
  double x = v < 1 ? 1 : v;
  for (int i = 0; i < 40; ++i) {
    const double nx = 0.5 * (x + v / x);
    if (nx >= x) break;
    x = nx;
  }
  return x;
}

// The tiles per core (and so the core count) for `outer` outer iterations on at most `cores`
// cores that PartsCost prices lowest, among the full spread and the counts around the optimum of
// k x (cycles per tile) + op_head x outer / k. Returns the cost; `tpb_out`, `bd_out` the point.
inline double BestTpb(const PerfTable& t, const TileParts& r, int64_t outer, int64_t cores,
                      int64_t* tpb_out, int64_t* bd_out) {
  const int64_t used = outer < cores ? outer : cores;
  const int64_t k_full = CeilDiv(outer, used);
  const int64_t bd_full = CeilDiv(outer, k_full);
  double best = PartsCost(t, r, k_full, bd_full);
  *tpb_out = k_full;
  *bd_out = bd_full;
  if (outer <= 1) return best;
  const double x = PartsCost(t, r, k_full + 1, bd_full) - best;
  if (x <= 0) return best;
  const auto ks = static_cast<int64_t>(SqrtOf(t.op_head * static_cast<double>(outer) / x));
  const int64_t cand[3] = {ks, ks + 1, 2 * ks + 1};
  for (int64_t k : cand) {
    if (k <= k_full) continue;
    if (k > outer) k = outer;
    const int64_t bd = CeilDiv(outer, k);
    const int64_t tpb = CeilDiv(outer, bd);
    const double c = PartsCost(t, r, tpb, bd);
    if (c < best) {
      best = c;
      *tpb_out = tpb;
      *bd_out = bd;
    }
  }
  return best;
}

// The refinement's candidate tiles around `t0` (see RefineTile), distinct, at most kMax (loads
// and stores mostly share their layouts).
struct TileCands {
  static constexpr int kMax = 16;
  int64_t tile[kMax] = {};
  int n = 0;
  void Add(int64_t t) {
    if (t == 0 || n == kMax) return;
    for (int k = 0; k < n; ++k) {
      if (tile[k] == t) return;
    }
    tile[n++] = t;
  }
};

inline void RefineCandidates(const Model& m, int64_t cores, int64_t max_tile, int64_t t0,
                             bool with_t0, TileCands* out) {
  const CaseParams& p = *m.p;
  const PerfTable& t = *m.t;
  TileCands& cand = *out;
  const int64_t d = TileExtent(p);
  const int64_t step = TileStep(p);
  auto fit = [&](int64_t tile) -> int64_t {
    if (tile < 1) return 0;
    if (tile % step != 0) tile = AlignUp(tile, step);
    if (tile > d) tile = d;
    return tile <= max_tile ? tile : 0;
  };
  const int64_t n = CeilDiv(d, t0);
  if (with_t0) cand.Add(t0);  // its own best core count (round 0 only)
  const Loops l0 = LoopsOf(m, t0);
  const int64_t a = l0.a_before > 0 ? l0.a_before : 1;
  const int64_t tpb = CeilDiv(a * l0.tiles, cores);
  // n -/+ 1, n / 2, 2n, and the counts that give every core tpb, tpb + 1, tpb - 1 or one
  // tile. Where the op head is small (V2: none), the cycles are a sawtooth in the tile whose
  // teeth end where every core gets a whole number of tiles, and fewer, larger tiles per core
  // are cheaper (each DMA call has a fixed head): bcast_middle 1 x 7 x 12289 on the 950, tile
  // 456 on 48 cores (4 tiles each) at 3 674 cycles, tile 2 056 on 42 cores (one each) at 2 866.
  const int64_t counts[8] = {n - 1,
                             n + 1,
                             CeilDiv(n, 2),
                             2 * n,
                             tpb * cores / a,
                             (tpb + 1) * cores / a,
                             (tpb - 1) * cores / a,
                             cores / a};
  // With pieces along the tiled outermost dim every piece has its own tiles: a count meant for
  // the largest piece leaves room for the others' (concat_rows_fp16 7 x 8191 on the 950: one
  // tile per core needs 47 tiles of the long piece, not 48), so the tile for the count less the
  // other pieces' tiles is a candidate too.
  const bool pieces = HasPieces(p) && p.tile_dim == 0;
  auto add_count = [&](int64_t c) {
    if (c < 1) return;
    const int64_t tile = fit(CeilDiv(d, c));
    cand.Add(tile);
    if (pieces && tile > 0) {
      const int64_t extra = LoopsOf(m, tile).tiles - c;
      if (extra > 0 && c - extra >= 1) cand.Add(fit(CeilDiv(d, c - extra)));
    }
  };
  for (const int64_t c : counts)
    add_count(c);
  if (p.r_core != 0 && a <= cores) {
    // r_core uses outer x r_split cores: the tile counts next to n that divide cores / a fill
    // every core (sum_rara 60 x 31 x 31 x 8 on the 950: 6 tiles at 7 430 cycles, 8 at 6 709).
    const int64_t q = cores / a;
    for (int64_t c = n + 1; c <= q && c <= 2 * n; ++c) {
      if (q % c == 0) {
        add_count(c);
        break;
      }
    }
    for (int64_t c = n - 1; c >= 1 && 2 * c >= n; --c) {
      if (q % c == 0) {
        add_count(c);
        break;
      }
    }
  }
  // Per node class (in node order: the nodes of a class add the same candidates).
  for (int c = 0; c < m.n_classes && cand.n < TileCands::kMax; ++c) {
    const NodeClass& nd = m.cls[c];
    if (nd.op != kOpDma || nd.shape.tile_one) continue;
    const int64_t unit = nd.shape.Real(1) * nd.esize;  // block bytes per tile element
    if (unit <= 0) continue;
    const Dma& dma = nd.kind == kNodeLoad ? t.load : t.store;
    const auto small = static_cast<int64_t>(dma.small_bytes);
    if (unit * t0 < small) cand.Add(fit(CeilDiv(small, unit)));
    if (nd.row_stride > 0 && nd.shape.tile_run) {
      // The row runs along the tile dim: gap = stride - tile x esize.
      const int64_t gap = nd.row_stride * nd.esize - t0 * nd.esize;
      const int64_t g = gap > 0 ? gap % 256 : 0;
      if (g > 0 && g % nd.esize == 0) {
        cand.Add(fit(t0 + g / nd.esize));
        if ((256 - g) % nd.esize == 0) cand.Add(fit(t0 - (256 - g) / nd.esize));
      }
    }
  }
}

inline void RefineTile(const Model& m, int64_t cores, int64_t ub_limit, int64_t max_tile,
                       CaseSolution* best) {
  const CaseParams& p = *m.p;
  if (!best->ok || max_tile < 1) return;
  const PerfTable& t = *m.t;
  // The search path prices a tile once for every core count (PartsOf); r_core and R tiles are
  // priced by Evaluate on the full budget and on the best point's core count.
  const bool parts_path = p.r_core == 0 && !m.loops.tile_is_r;
  auto price_once = [&](int64_t tile, int64_t* bd_out) -> double {
    if (parts_path) {
      const TileParts parts = PartsOf(m, tile);
      const Loops l = LoopsOf(m, tile);
      int64_t tpb = 0;
      return BestTpb(t, parts, l.a_before * l.tiles, cores, &tpb, bd_out);
    }
    double c = -1;
    const int64_t budgets[2] = {cores, static_cast<int64_t>(best->block_dim)};
    for (int b = 0; b < 2; ++b) {
      if (b == 1 && budgets[1] == budgets[0]) break;
      const CaseSolution s = Evaluate(m, tile, budgets[b], ub_limit);
      if (s.ok && (c < 0 || s.cost < c)) {
        c = s.cost;
        *bd_out = budgets[b];
      }
    }
    return c;
  };
  // The rounds' ladders overlap (the count n + 1 of one round is n - 1 of the next): each tile
  // is priced once (price_once depends on the tile only).
  constexpr int kMemo = 40;
  int64_t memo_tile[kMemo];
  int64_t memo_bd[kMemo];
  double memo_cost[kMemo];
  int n_memo = 0;
  auto price = [&](int64_t tile, int64_t* bd_out) -> double {
    for (int k = 0; k < n_memo; ++k) {
      if (memo_tile[k] != tile) continue;
      if (memo_cost[k] >= 0) *bd_out = memo_bd[k];
      return memo_cost[k];
    }
    int64_t bd = 0;
    const double c = price_once(tile, &bd);
    if (c >= 0) *bd_out = bd;
    if (n_memo < kMemo) {
      memo_tile[n_memo] = tile;
      memo_bd[n_memo] = bd;
      memo_cost[n_memo] = c;
      ++n_memo;
    }
    return c;
  };
  double best_cost = best->cost;
  int64_t best_tile = best->tile;
  int64_t best_bd = best->block_dim;
  for (int round = 0; round < kRefineRounds; ++round) {
    const int64_t t0 = best_tile;
    TileCands cand;
    RefineCandidates(m, cores, max_tile, t0, parts_path, &cand);
    int64_t next_tile = 0;
    int64_t next_bd = 0;
    for (int k = 0; k < cand.n; ++k) {
      const int64_t tile = cand.tile[k];
      if (tile == 0 || (tile == t0 && round > 0) || UbBytes(m, tile, nullptr) > ub_limit) continue;
      int64_t bd = 0;
      const double c = price(tile, &bd);
      if (c >= 0 && c < best_cost) {
        best_cost = c;
        next_tile = tile;
        next_bd = bd;
      }
    }
    if (next_tile == 0) break;
    best_tile = next_tile;
    best_bd = next_bd;
  }
  if (best_tile == best->tile && best_bd == best->block_dim) return;
  CaseSolution s = Evaluate(m, best_tile, best_bd, ub_limit);
  if (s.ok && s.cost < best->cost) {
    s.binding = kBindSearch;
    *best = s;
  }
}

// Core-count refinement at the chosen tile for the looped templates (R tiles, r_core), which the
// tile refinement prices on two budgets only: the cycles are close to unimodal in the core count
// at a given tile, so the next core counts that change the split are tried in each direction
// while they improve. With r_core the cores come in steps of the A iterations (each A iteration
// gets one more share of its R loop): mean_ra 570 x 1021 on A2, tile 256 on 24 cores at 23 789
// cycles, on 32 cores at 23 223; that gap alone put the case within PerfEffectVal of another
// case, which the selection rule then preferred for its UB ratio (28 739 cycles).
inline void RefineCores(const Model& m, int64_t cores, int64_t ub_limit, CaseSolution* best) {
  const CaseParams& p = *m.p;
  if (!best->ok || (p.r_core == 0 && !m.loops.tile_is_r) || best->outer < 1) return;
  for (int dir = 1; dir >= -1; dir -= 2) {
    for (int round = 0; round < 8; ++round) {
      const int64_t bd = best->block_dim;
      int64_t use = 0;
      if (p.r_core != 0) {
        use = bd + dir * best->outer;
      } else {
        const int64_t tpb = best->tiles_per_block + (dir > 0 ? -1 : 1);
        use = tpb >= 1 ? CeilDiv(best->outer, tpb) : 0;
      }
      if (use < 1 || use > cores || use == bd) break;
      CaseSolution s = Evaluate(m, best->tile, use, ub_limit);
      if (!s.ok || s.cost >= best->cost) break;
      s.binding = kBindSearch;
      *best = s;
    }
  }
}

// AxesReorder: one pass with the configured trade-off; with --att_accuracy_level=1 the core-count
// "gears" auto-tuning (AutoFuse's AutoTuning) re-solves with the trade-off on and thresholds
// (0, 1) for a geometric ladder of core budgets (cores, cores/2, ... 1) and then refines around
// the best by gear steps (1 up to 4 cores, 2 below 16, else 4) while that improves; finally the
// best solution's tiles are spread over every core that keeps its tiles per core (workload
// balance across cores). The lowest modelled cycles win.
inline CaseSolution SolveAxesReorder(const Model& m, int64_t cores, int64_t ub_limit,
                                     const SolverOptions& o) {
  const CaseParams& p = *m.p;
  const int64_t max_tile = LargestTile(m, ub_limit);
  CaseSolution best = AxesReorderOnce(m, cores, ub_limit, o, o.tradeoff != 0, max_tile);
  if (!best.ok) {
    // r_core needs idle cores: the trade-off may not apply; retry the plain split.
    best = AxesReorderOnce(m, cores, ub_limit, o, false, max_tile);
  }
  if (o.accuracy_level != 1) return best;
  SolverOptions g = o;
  g.ub_threshold = 0;
  g.corenum_threshold = 1;
  // (tile, cores used) points already priced: gears often land on the same one.
  int64_t seen_tile[24];
  int64_t seen_used[24];
  int n_seen = 0;
  const double first_cost = best.cost;
  if (best.ok) {  // the first pass's point: priced already, its cost is known
    seen_tile[0] = best.tile;
    seen_used[0] = p.r_core != 0 ? cores : static_cast<int64_t>(best.block_dim);
    n_seen = 1;
  }
  // 1: a better solution; -1: a worse one; 0: out of range, no fit, or already priced.
  auto consider = [&](int64_t c, double* cost) {
    if (c < 1 || c > cores) return 0;
    int32_t binding = kBindNone;
    const int64_t tile = AxesReorderTile(m, c, ub_limit, g, true, max_tile, &binding);
    if (tile == 0) return 0;
    const Loops lt = LoopsOf(m, tile);
    const int64_t outer = lt.tile_is_r ? lt.a_before : lt.a_before * lt.tiles;
    const int64_t use = outer < c ? outer : c;
    const int64_t used = p.r_core != 0 ? c : CeilDiv(outer, CeilDiv(outer, use));
    for (int i = 0; i < n_seen; ++i) {
      if (seen_tile[i] != tile || seen_used[i] != used) continue;
      if (i == 0 && best.ok && cost != nullptr) *cost = first_cost;
      return 0;
    }
    if (n_seen < 24) {
      seen_tile[n_seen] = tile;
      seen_used[n_seen] = used;
      ++n_seen;
    }
    CaseSolution s = Evaluate(m, tile, c, ub_limit);
    if (s.ok && cost != nullptr) *cost = s.cost;
    if (s.ok && (!best.ok || s.cost < best.cost)) {
      s.binding = kBindSearch;
      best = s;
      return 1;
    }
    return -1;
  };
  // Down the ladder while halving the budget still pays. The descent stops once two consecutive
  // rungs cost more than the one before them: the modelled cycles are close to unimodal in the
  // core count (more cores shorten each core's share but add head costs).
  // The refinement starts from the best core count seen: the first pass's when no rung beats it
  // (starting from the full budget then would never try the counts next to a small first pass,
  // e.g. 2 cores after a 1-core solution).
  int64_t at = n_seen > 0 ? seen_used[0] : cores;
  int rising = 0;
  double last = -1;
  for (int64_t c = cores; c >= 1 && rising < 2; c = c / 2) {
    double cost = -1;
    if (consider(c, &cost) > 0) at = c;
    if (cost >= 0) {
      rising = last >= 0 && cost > last ? rising + 1 : 0;
      last = cost;
    }
    if (c == 1) break;
  }
  if (!best.ok) return best;
  for (int dir = -1; dir <= 1; dir += 2) {
    int64_t c = at;
    for (int round = 0; round < 4; ++round) {
      const int64_t gear = c <= 4 ? 1 : (c < 16 ? 2 : 4);
      if (consider(c + dir * gear, nullptr) <= 0) break;
      c += dir * gear;
    }
  }
  // V2's MTE2 head is cheaper when every load row is below mte2_head_threshold bytes: with the
  // tile dim innermost, the largest tile whose rows stay below it is a candidate on all cores.
  if (m.t->version == 2 && p.tile_dim == p.n_dims - 1) {
    int64_t es = 0;
    for (int c = 0; c < m.n_classes; ++c) {
      if (m.cls[c].kind == kNodeLoad && !m.cls[c].shape.tile_one && m.cls[c].esize > es)
        es = m.cls[c].esize;
    }
    const auto limit = static_cast<int64_t>(m.t->mte2_head_threshold);
    const int64_t step = TileStep(p);
    const int64_t th = es > 0 ? (limit - 1) / es / step * step : 0;
    if (th >= 1 && th < best.tile) {
      for (int64_t c = cores; c >= 1; c /= 2) {
        CaseSolution s = Evaluate(m, th, c, ub_limit);
        if (!s.ok) break;
        if (s.cost < best.cost) {
          s.binding = kBindSearch;
          best = s;
        } else {
          break;
        }
      }
    }
  }
  // Workload balance across cores: for k = the current tiles per core and the next 8, the
  // largest tile count T with ceil(A x T / cores) = k, and of those the tile whose busiest core
  // handles the fewest elements, k x tile (a smaller tile can fill idle cores or even out the
  // last round).
  const Loops l = LoopsOf(m, best.tile);
  if (p.r_core == 0 && !l.tile_is_r && l.a_before > 0) {
    const int64_t d = TileExtent(p);
    const int64_t step = TileStep(p);
    auto work = [&](int64_t tile) {
      return CeilDiv(l.a_before * LoopsOf(m, tile).tiles, cores) * tile;
    };
    int64_t pick = best.tile;
    int64_t pick_work = work(best.tile);
    const int64_t k0 = CeilDiv(l.a_before * l.tiles, cores);
    for (int64_t k = k0; k <= k0 + 8; ++k) {
      const int64_t tc = k * cores / l.a_before;
      if (tc <= l.tiles) continue;
      const int64_t t2 = AlignUp(CeilDiv(d, tc), step);
      if (t2 < 1 || t2 >= best.tile) continue;
      const int64_t w = work(t2);
      if (w < pick_work) {
        pick = t2;
        pick_work = w;
      }
    }
    if (pick != best.tile) {
      CaseSolution s = Evaluate(m, pick, cores, ub_limit);
      if (s.ok && s.cost < best.cost) {
        s.binding = kBindSearch;
        best = s;
      }
    }
  }
  RefineTile(m, cores, ub_limit, max_tile, &best);
  RefineCores(m, cores, ub_limit, &best);
  return best;
}

// Candidate tiles in index space: index i in [1, n] is tile i * step, index n + 1 the whole dim
// when it is not a multiple of step.
struct TileSpace {
  int64_t step = 1;
  int64_t n = 0;
  int64_t d = 0;
  int64_t Count() const { return n + ((d % step) != 0 ? 1 : 0); }
  int64_t Tile(int64_t i) const { return i <= n ? i * step : d; }
};

inline TileSpace SpaceOf(const CaseParams& p) {
  TileSpace s;
  s.step = TileStep(p);
  s.d = TileExtent(p);
  s.n = s.d / s.step;
  if (s.n == 0) {
    s.step = 1;
    s.n = s.d;
  }
  return s;
}

// HighPerf-style search: from a feasible start (AxesReorder's solution), fine-tune by
// neighbouring moves (tile ±1 step, x2, /2; cores ±1, ± one gear), moving to the best improving
// neighbour and keeping the best five visited points, up to `heuristic_iterations` steps; stops
// when no neighbour improves or the best one was seen before.
inline CaseSolution SolveHeuristic(const Model& m, int64_t cores, int64_t ub_limit,
                                   const SolverOptions& o) {
  const TileSpace sp = SpaceOf(*m.p);
  const int64_t max_tile = LargestTile(m, ub_limit);
  if (max_tile == 0) return CaseSolution{};
  // Locate: the feasible start is AxesReorder's solution (else the largest tile that fits on
  // all cores, halved until it fits).
  const CaseSolution start = SolveAxesReorder(m, cores, ub_limit, o);
  int64_t ti = 0;
  int64_t cu = cores;
  if (start.ok) {
    ti = start.tile >= sp.d ? sp.Count() : start.tile / sp.step;
    cu = start.block_dim;
  } else {
    ti = max_tile >= sp.d ? sp.Count() : max_tile / sp.step;
  }
  if (ti < 1) ti = 1;
  CaseSolution cur = Evaluate(m, sp.Tile(ti), cu, ub_limit);
  while (!cur.ok && ti > 1) {
    ti = ti / 2;
    cur = Evaluate(m, sp.Tile(ti), cu, ub_limit);
  }
  if (!cur.ok) return start;
  if (start.ok && start.cost < cur.cost) cur = start;
  CaseSolution top[5];
  int n_top = 0;
  auto remember = [&](const CaseSolution& s) {
    for (int i = 0; i < n_top; ++i) {
      if (top[i].tile == s.tile && top[i].block_dim == s.block_dim) return false;
    }
    if (n_top < 5) {
      top[n_top++] = s;
    } else {
      int worst = 0;
      for (int i = 1; i < 5; ++i) {
        if (top[i].cost > top[worst].cost) worst = i;
      }
      if (s.cost < top[worst].cost) top[worst] = s;
    }
    return true;
  };
  remember(cur);
  int64_t seen_t[128];
  int64_t seen_c[128];
  int n_seen = 0;
  for (int it = 0; it < o.heuristic_iterations; ++it) {
    const int64_t gear = cu <= 4 ? 1 : (cu < 16 ? 2 : 4);
    const int64_t moves_t[9] = {ti, ti + 1, ti - 1, ti * 2, ti / 2, ti, ti, ti, ti};
    const int64_t moves_c[9] = {cu, cu, cu, cu, cu, cu + 1, cu - 1, cu + gear, cu - gear};
    CaseSolution nb;
    int64_t nb_t = 0;
    int64_t nb_c = 0;
    for (int mv = 1; mv < 9; ++mv) {
      const int64_t a = moves_t[mv];
      const int64_t c = moves_c[mv];
      if (a < 1 || a > sp.Count() || c < 1 || c > cores) continue;
      const CaseSolution s = Evaluate(m, sp.Tile(a), c, ub_limit);
      if (!s.ok) continue;
      if (!nb.ok || s.cost < nb.cost) {
        nb = s;
        nb_t = a;
        nb_c = c;
      }
    }
    if (!nb.ok) break;
    bool revisit = false;
    for (int i = 0; i < n_seen; ++i) {
      if (seen_t[i] == nb_t && seen_c[i] == nb_c) revisit = true;
    }
    if (revisit || nb.cost >= cur.cost) break;
    if (n_seen < 128) {
      seen_t[n_seen] = nb_t;
      seen_c[n_seen] = nb_c;
      ++n_seen;
    }
    ti = nb_t;
    cu = nb_c;
    cur = nb;
    remember(cur);
  }
  CaseSolution best = top[0];
  for (int i = 1; i < n_top; ++i) {
    if (top[i].cost < best.cost) best = top[i];
  }
  best.binding = kBindSearch;
  return best;
}

// Every feasible (tile, core budget) point; guard_hit when the space exceeds the guard.
inline CaseSolution SolveExhaustive(const Model& m, int64_t cores, int64_t ub_limit,
                                    const SolverOptions& o) {
  const TileSpace sp = SpaceOf(*m.p);
  CaseSolution best;
  const int64_t max_tile = LargestTile(m, ub_limit);
  if (max_tile == 0) return best;
  const int64_t count = max_tile >= sp.d ? sp.Count() : max_tile / sp.step;
  if (count > 0 && cores > o.exhaustive_guard / count) {
    best.guard_hit = true;
    return best;
  }
  for (int64_t i = 1; i <= count; ++i) {
    const int64_t tile = sp.Tile(i);
    int64_t last_bd = -1;
    for (int64_t c = cores; c >= 1; --c) {
      const CaseSolution s = Evaluate(m, tile, c, ub_limit);
      if (!s.ok) continue;
      if (static_cast<int64_t>(s.block_dim) == last_bd) continue;
      last_bd = s.block_dim;
      if (!best.ok || s.cost < best.cost) best = s;
    }
  }
  best.binding = kBindSearch;
  return best;
}

// Solves one case for `cores` cores and `ub_bytes` of UB. Sizes must be >= 0; a zero-sized
// iteration space gives a solution with block_dim 1 and nothing to do.
// `totals`: also price the model's byte and repeat totals of the chosen solution (the compiler's
// report and the cross-check with the runtime's counters need them; a generated tiling function
// does not, and its decisions and cycles are the same either way).
inline CaseSolution SolveCase(const CaseParams& p, uint32_t cores, int64_t ub_bytes,
                              const SolverOptions& o = SolverOptions{}, bool totals = true) {
  CaseSolution s;
  if (!ValidParams(p, cores) || !CatFeasible(p)) return s;
  if (EmptySpace(p)) {
    s.ok = true;
    s.tile = 1;
    s.block_dim = 1;
    s.r_iters = 1;
    s.r_per_block = 1;
    s.ub_bytes = UbBytes(p, 1, nullptr);
    return s;
  }
  Model m;
  Prepare(p, PerfTableFor(o.perf_version), &m);
  switch (o.algorithm) {
    case kHeuristic:
      s = SolveHeuristic(m, cores, ub_bytes, o);
      break;
    case kExhaustive:
      s = SolveExhaustive(m, cores, ub_bytes, o);
      break;
    default:
      s = SolveAxesReorder(m, cores, ub_bytes, o);
      break;
  }
  if (s.ok && totals) Price(m, &s, true);
  return s;
}

// Template score (AutoFuse's CalcScore), higher tried first. The unaligned template only pays off
// when rows need padding: with 32-byte-aligned rows it scores -1, so the aligned templates are
// preferred whenever one of them fits.
inline int32_t TemplateScore(const CaseParams& p) {
  // UB concat: the direct row copies beat the staging copies and Gather whenever they apply
  // (AutoFuse's ConcatScoreFunctionGenerator: 1 when the rows are 32-byte aligned).
  if (p.cat_aligned_only != 0) return 1;
  if (p.compact != 0 && p.n_dims > 0 && p.dims[p.n_dims - 1] % p.row_align == 0) return -1;
  return 0;
}

// Runtime selection (AutoFuse's generated selection code): templates are taken in descending
// score order; within a template the better case by Better(); across templates of the first
// score bucket with a feasible case, the lowest modelled cycles (ties: the lower index).
// `forced` >= 0 considers only that case; `forced_template` >= 0 only that template's cases.
// `solution(i)` gives case i's solution (solving it, or looking it up). Returns the chosen case
// index, or -1 when none fits.
template <typename SolutionOf>
inline int ChooseCaseWith(const CaseParams* cases, int n, const PerfTable& t, int64_t ub_bytes,
                          int forced, int forced_template, CaseSolution* best,
                          SolutionOf&& solution) {
  int max_templ = -1;
  int top_score = -1;
  for (int i = 0; i < n; ++i) {
    if (cases[i].templ > max_templ) max_templ = cases[i].templ;
    const int sc = TemplateScore(cases[i]);
    if (sc > top_score) top_score = sc;
  }
  int chosen = -1;
  int chosen_score = 0;
  int chosen_tp = -1;
  // Templates are visited by the best score any of their cases can reach, highest first, so the
  // cases of a template that cannot beat the chosen one's score are never solved (the choice is
  // the same as visiting them all in index order: ties go to the lower template index).
  for (int bucket = top_score; bucket >= -1; --bucket) {
    if (chosen >= 0 && bucket < chosen_score) break;
    for (int tp = 0; tp <= max_templ; ++tp) {
      if (forced_template >= 0 && tp != forced_template) continue;
      int reach = -2;  // the template's best score among the cases the overrides allow
      for (int i = 0; i < n; ++i) {
        if (cases[i].templ != tp || (forced >= 0 && i != forced)) continue;
        const int sc = TemplateScore(cases[i]);
        if (sc > reach) reach = sc;
      }
      if (reach != bucket) continue;
      int in_t = -1;
      CaseSolution bt;
      for (int i = 0; i < n; ++i) {
        if (cases[i].templ != tp || (forced >= 0 && i != forced)) continue;
        const CaseSolution& s = solution(i);
        if (!s.ok) continue;
        if (in_t < 0 || Better(t, s, bt, ub_bytes)) {
          in_t = i;
          bt = s;
        }
      }
      if (in_t < 0) continue;
      const int score = TemplateScore(cases[in_t]);
      if (chosen < 0 || score > chosen_score ||
          (score == chosen_score &&
           (bt.cost < best->cost || (bt.cost == best->cost && tp < chosen_tp)))) {
        chosen = in_t;
        chosen_score = score;
        chosen_tp = tp;
        *best = bt;
      }
    }
  }
  return chosen;
}

// The choice over solutions already computed (`sols[i]` for case i).
inline int ChooseCase(const CaseParams* cases, const CaseSolution* sols, int n, const PerfTable& t,
                      int64_t ub_bytes, int forced, int forced_template, CaseSolution* best) {
  return ChooseCaseWith(cases, n, t, ub_bytes, forced, forced_template, best,
                        [&](int i) -> const CaseSolution& { return sols[i]; });
}

// Solves the cases the overrides allow and chooses (what a generated tiling function runs).
inline int SelectCase(const CaseParams* cases, int n, uint32_t cores, int64_t ub_bytes, int forced,
                      CaseSolution* best, int forced_template = -1,
                      const SolverOptions& o = SolverOptions{}) {
  CaseSolution cur;
  return ChooseCaseWith(cases, n, PerfTableFor(o.perf_version), ub_bytes, forced, forced_template,
                        best, [&](int i) -> const CaseSolution& {
                          cur = SolveCase(cases[i], cores, ub_bytes, o, false);
                          return cur;
                        });
}

}  // namespace af_tiling

#endif  // AF_TILING_ELEMENTWISE_H_
