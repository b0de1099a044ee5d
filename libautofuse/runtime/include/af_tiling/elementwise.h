// The tiling solver for elementwise, broadcast and reduce schedules, shared word for word by the
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
// (broadcast operands, reduce results). The solver is UB-first (largest tile that fits, by binary
// search), then splits the A loop over as many cores as there is work, and gives tiles back to
// cores when the UB choice would leave cores idle. C++17, no dependencies: it compiles inside
// generated code.
#ifndef AF_TILING_ELEMENTWISE_H_
#define AF_TILING_ELEMENTWISE_H_

#include <cstdint>

namespace af_tiling {

inline constexpr int kMaxDims = 8;
inline constexpr int kMaxBuffers = 24;
inline constexpr int64_t kUbAlignBytes = 32;  // UB block size (AscendC: 32-byte DataCopy unit)

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
  int32_t vec_align = 32;  // buffer sizes round up to this many bytes (512 with Compare/Select)
  uint32_t r_mask = 0;     // bit j: d[j] is a reduce (R) dimension
  int32_t passes = 1;      // sweeps over the R loop per A iteration (norm-like common templates)
  // r_core template: the R iterations are split across cores; each core writes one partial
  // block per reduction (the partial buffer's layout) to the workspace.
  int32_t r_core = 0;
  int32_t templ = 0;  // template index (ScheduledResult), for --force_schedule_result
  int32_t partial_buffer = -1;
  int32_t n_reduces = 0;
  // Simple cost model inputs: bytes moved GM<->UB per element of the full iteration space, and
  // vector instructions per element.
  double io_bytes_per_elem = 0;
  double vec_ops_per_elem = 0;
  // API calls issued per UB row (brc_inline: one per inlined operand use), each with a fixed
  // issue cost on top of the per-element work.
  int32_t row_ops = 0;
  // unaligned template: vector work over the compact elements; the Gather offsets are written
  // once per core by scalar code (one cycle per element).
  int32_t compact = 0;
};

struct CaseSolution {
  bool ok = false;
  int64_t tile = 0;             // elements of d[tile_dim] per tile
  int64_t tiles_per_block = 0;  // outer iterations per core
  int64_t outer = 0;            // A iterations in all (fused A outer dims x tiles), over cores
  int64_t r_iters = 0;          // R iterations per A iteration (1 when all R dims are in UB)
  uint32_t block_dim = 0;
  int64_t r_split = 1;          // r_core: cores sharing one A iteration's R iterations
  int64_t r_per_block = 0;      // r_core: R iterations per core
  int64_t workspace_bytes = 0;  // r_core: GM workspace for the partial results
  int64_t ub_bytes = 0;
  int64_t buf_bytes[kMaxBuffers] = {};
  double cost = 0;  // modelled cycles (see Cost)
};

inline int64_t AlignUp(int64_t v, int64_t a) {
  return (v + a - 1) / a * a;
}
inline int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

inline bool Bit(uint32_t mask, int j) {
  return ((mask >> j) & 1u) != 0;
}

// UB elements a block needs for a tile of `tile` elements along tile_dim: inner dims whole (or 1
// where `one_mask` says so), the innermost row padded to row_align elements.
inline int64_t BufferElems(const CaseParams& p, int64_t tile, uint32_t one_mask = 0) {
  const int last = p.n_dims - 1;
  int64_t e = 1;
  for (int j = p.tile_dim; j <= last; ++j) {
    int64_t ext = Bit(one_mask, j) ? 1 : (j == p.tile_dim ? tile : p.dims[j]);
    if (j == last) ext = AlignUp(ext, p.row_align);
    e *= ext;
  }
  return e;
}

// Elements of a full block without row padding (the unaligned template), rounded up to whole
// 32-byte rows of the narrowest type so vector ops can cover it.
inline int64_t CompactElems(const CaseParams& p, int64_t tile) {
  int64_t e = tile;
  for (int j = p.tile_dim + 1; j < p.n_dims; ++j)
    e *= p.dims[j];
  return AlignUp(e, p.row_align);
}

inline int64_t UbBytes(const CaseParams& p, int64_t tile, int64_t* per_buffer) {
  int64_t total = 0;
  for (int b = 0; b < p.n_buffers; ++b) {
    const int64_t elems =
        p.buf_compact[b] != 0 ? CompactElems(p, tile) : BufferElems(p, tile, p.buf_one_mask[b]);
    const int64_t bytes =
        AlignUp(elems * p.buf_esize[b], p.vec_align > kUbAlignBytes ? p.vec_align : kUbAlignBytes);
    if (per_buffer != nullptr) per_buffer[b] = bytes;
    total += bytes * p.buf_num[b];
  }
  return total;
}

// Modelled cycles of one core's share: per tile a fixed overhead plus data movement at 32 B per
// cycle per core and vector work at 256 B per repeat (padded elements cost like real ones). A
// first, simple model; the ATT model (per-pipe, per-API) replaces it.
inline double Cost(const CaseParams& p, const CaseSolution& s) {
  // Elements per tile the vector work covers: padded rows, or compact ones (unaligned).
  const int64_t inner = p.compact != 0 ? CompactElems(p, s.tile) : BufferElems(p, s.tile);
  double per_tile = 200.0 + static_cast<double>(inner) *
                                (p.io_bytes_per_elem / 32.0 + p.vec_ops_per_elem * 4.0 / 256.0);
  if (p.row_ops > 0 && p.n_dims > 0) {
    const int last = p.n_dims - 1;
    const int64_t rows = p.tile_dim == last ? 1 : inner / AlignUp(p.dims[last], p.row_align);
    per_tile = per_tile + static_cast<double>(rows) * static_cast<double>(p.row_ops) * 16.0;
  }
  const double r = s.r_iters > 0 ? static_cast<double>(s.r_iters) : 1.0;
  const double passes = p.passes > 0 ? static_cast<double>(p.passes) : 1.0;
  const double init = p.compact != 0 ? static_cast<double>(inner) : 0.0;
  return static_cast<double>(s.tiles_per_block) * r * passes * per_tile + 300.0 + init;
}

// Solves one case for `cores` cores and `ub_bytes` of UB. Sizes must be >= 0; a zero-sized
// iteration space gives a solution with block_dim 1 and nothing to do.
inline CaseSolution SolveCase(const CaseParams& p, uint32_t cores, int64_t ub_bytes) {
  CaseSolution s;
  if (p.n_dims <= 0 || p.n_dims > kMaxDims || p.tile_dim < 0 || p.tile_dim >= p.n_dims ||
      p.n_buffers < 0 || p.n_buffers > kMaxBuffers || cores == 0 || p.row_align <= 0) {
    return s;
  }
  int64_t before = 1;    // product of the A dims before the tile dim (split over cores)
  int64_t r_before = 1;  // product of the R dims before the tile dim (sequential)
  for (int j = 0; j < p.tile_dim; ++j)
    (Bit(p.r_mask, j) ? r_before : before) *= p.dims[j];
  const bool tile_is_r = Bit(p.r_mask, p.tile_dim);
  const int64_t d = p.dims[p.tile_dim];
  for (int j = 0; j < p.n_dims; ++j) {
    if (p.dims[j] == 0) {
      s.ok = true;
      s.tile = 1;
      s.block_dim = 1;
      s.r_iters = 1;
      s.r_per_block = 1;
      s.ub_bytes = UbBytes(p, 1, s.buf_bytes);
      s.cost = 0;
      return s;
    }
  }
  // Tile granularity: a whole 32-byte block of the narrowest buffer when tiling the innermost
  // dim (so full tiles need no padding), else 1.
  const int64_t step = p.tile_dim == p.n_dims - 1 ? p.row_align : 1;
  if (UbBytes(p, 1, nullptr) > ub_bytes) return s;  // not even one row fits
  // Largest tile that fits: binary search over multiples of `step` (or the whole dim).
  int64_t tile = 1;
  if (UbBytes(p, d, nullptr) <= ub_bytes) {
    tile = d;
  } else {
    int64_t lo = 0;  // in units of step; 0 means "fall back to 1"
    int64_t hi = d / step;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo + 1) / 2;
      if (UbBytes(p, mid * step, nullptr) <= ub_bytes) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    tile = lo > 0 ? lo * step : 1;
  }
  // Give tiles back to cores: when the outer loop has fewer iterations than cores, shrink the
  // tile (keeping it a multiple of `step`) until every core has work or the tile is one step.
  if (!tile_is_r && before * CeilDiv(d, tile) < static_cast<int64_t>(cores)) {
    const int64_t want_tiles = CeilDiv(static_cast<int64_t>(cores), before);
    int64_t t = CeilDiv(d, want_tiles);
    t = AlignUp(t, step);
    if (t < tile) tile = t;
    if (tile < 1) tile = 1;
  }
  s.tile = tile;
  s.outer = tile_is_r ? before : before * CeilDiv(d, tile);
  s.r_iters = tile_is_r ? r_before * CeilDiv(d, tile) : r_before;
  const int64_t used = s.outer < static_cast<int64_t>(cores) ? s.outer : cores;
  s.tiles_per_block = CeilDiv(s.outer, used);
  s.block_dim = static_cast<uint32_t>(CeilDiv(s.outer, s.tiles_per_block));
  s.ub_bytes = UbBytes(p, tile, s.buf_bytes);
  s.ok = true;
  s.cost = Cost(p, s);
  if (p.r_core != 0) {
    // Worth it only when the A iterations leave cores idle and there are R iterations to share.
    if (s.outer >= static_cast<int64_t>(cores) || s.r_iters < 2 || p.partial_buffer < 0 ||
        p.partial_buffer >= p.n_buffers) {
      s.ok = false;
      return s;
    }
    int64_t split = static_cast<int64_t>(cores) / s.outer;
    if (split > s.r_iters) split = s.r_iters;
    s.r_per_block = CeilDiv(s.r_iters, split);
    s.r_split = CeilDiv(s.r_iters, s.r_per_block);
    s.tiles_per_block = 1;
    s.block_dim = static_cast<uint32_t>(s.outer * s.r_split);
    const int64_t slot =
        AlignUp(BufferElems(p, tile, p.buf_one_mask[p.partial_buffer]) * 4, kUbAlignBytes);
    s.workspace_bytes = static_cast<int64_t>(p.n_reduces) * s.outer * s.r_split * slot;
    // One share of the R loop, then the combine (a partial load per share) and the core-wide
    // sync between the phases.
    const int64_t inner = BufferElems(p, s.tile);
    const double per_tile = 200.0 + static_cast<double>(inner) * (p.io_bytes_per_elem / 32.0 +
                                                                  p.vec_ops_per_elem * 4.0 / 256.0);
    s.cost = static_cast<double>(s.r_per_block) * per_tile +
             static_cast<double>(s.r_split) * 100.0 + 2000.0 + 300.0;
  }
  return s;
}

// Solves every case and returns the index of the cheapest feasible one (ties: the lower index),
// or -1 when none fits. `forced` >= 0 solves only that case; `forced_template` >= 0 only the
// cases of that template.
inline int SelectCase(const CaseParams* cases, int n, uint32_t cores, int64_t ub_bytes, int forced,
                      CaseSolution* best, int forced_template = -1) {
  int chosen = -1;
  for (int i = 0; i < n; ++i) {
    if (forced >= 0 && i != forced) continue;
    if (forced_template >= 0 && cases[i].templ != forced_template) continue;
    const CaseSolution s = SolveCase(cases[i], cores, ub_bytes);
    if (!s.ok) continue;
    if (chosen < 0 || s.cost < best->cost) {
      chosen = i;
      *best = s;
    }
  }
  return chosen;
}

}  // namespace af_tiling

#endif  // AF_TILING_ELEMENTWISE_H_
