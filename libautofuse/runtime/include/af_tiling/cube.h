// The cube tiling of a matrix product (batch x M x N x K): base M/N/K tiles that fit the cube
// memories (L1, L0A, L0B, L0C), their spread over the cube cores, and the modelled work of each
// pipe — MTE2 (GM -> L1), MTE1 (L1 -> L0A/L0B), the cube (M pipe) and the fixpipe (L0C -> GM).
// Shared by the compiler and generated tiling functions (C++17, no dependencies), like
// af_tiling/elementwise.h. The counters it predicts are the ones the CPU runtime's cube API counts
// (af_cpu/cube.h) for the kernel shape CubeTileCounters describes; tests check them exactly.
//
// Sources of the numbers:
//  * memories: Atlas A2 L1 512 KB, L0A 64 KB, L0B 64 KB, L0C 128 KB (anchors.md D.1, catlass
//    arch.hpp); 950 L0C 256 KB (anchors.md D.4); 24 cube cores on A2 (anchors.md D.1).
//  * rates per cycle and core: GM -> L1 32 B, L1 -> L0A 512 B, L1 -> L0B 256 B, L0C -> GM 32 B —
//    AutoFuse ATT's nominal rates (anchors.md D.2), as docs/cost-model.md uses its GM <-> UB 32 B.
//  * cube: 4096 fp16 MACs per cycle per core (anchors.md D.1), i.e. one 16 x 16 x 16 step per
//    cycle; fp32 steps are 16 x 16 x 8 (C0 = 32 bytes) at the same one step per cycle
//    (assumption: no public fp32 cube rate in the reference notes).
//  * the pipes of a tile overlap fully except the first K chunk's loads and the last fixpipe
//    (assumption: double-buffered L1/L0, as CANN's matmul kernels do; not measured); each
//    GM -> L1 copy pays the vector model's per-load head (assumed, see CubeHw::mte2_call_head),
//    which is what keeps base_k from shrinking to one fractal.
#ifndef AF_TILING_CUBE_H_
#define AF_TILING_CUBE_H_

#include <cstdint>

namespace af_tiling {

struct CubeHw {
  uint64_t l1_bytes = uint64_t{512} * 1024;
  uint64_t l0a_bytes = uint64_t{64} * 1024;
  uint64_t l0b_bytes = uint64_t{64} * 1024;
  uint64_t l0c_bytes = uint64_t{128} * 1024;
  uint32_t cube_cores = 24;
  double gm_l1_bpc = 32.0;    // MTE2 bytes per cycle, GM -> L1
  double l1_l0a_bpc = 512.0;  // MTE1 bytes per cycle, L1 -> L0A
  double l1_l0b_bpc = 256.0;  // MTE1 bytes per cycle, L1 -> L0B
  double fix_bpc = 32.0;      // FIX bytes per cycle, L0C -> GM
  // Cycles per GM -> L1 DataCopy call (two per K chunk): the V1 Load entry's per-call h of
  // af_tiling/perf_model.h (kPerfV1), assumed for GM -> L1 as no cube figure is published.
  double mte2_call_head = 27.01;
};

// The 950's cube: L0C 256 KB, 32 cube cores (anchors.md D.4); the rest as A2 (assumption).
inline CubeHw CubeHw950() {
  CubeHw h;
  h.l0c_bytes = uint64_t{256} * 1024;
  h.cube_cores = 32;
  return h;
}

struct CubeProblem {
  int64_t batch = 1;
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  uint32_t in_bytes = 2;   // element bytes of x1/x2 (2: fp16/bf16, 4: fp32)
  uint32_t out_bytes = 4;  // element bytes the fixpipe writes (4: the fp32 GM workspace)
};

// Modelled work, summed over the tiles it covers.
struct CubeWork {
  uint64_t mte2_bytes = 0;     // GM -> L1 payload
  uint64_t mte1_fractals = 0;  // 512-byte fractals L1 -> L0A/L0B (LoadData repeats)
  uint64_t l0a_fractals = 0;
  uint64_t cube_steps = 0;    // Mmad repeats: ceil(m/16) * ceil(n/16) * ceil(k/C0) per chunk
  uint64_t fix_fractals = 0;  // Fixpipe repeats: ceil(m/16) * ceil(n/16) per tile
  uint64_t fix_bytes = 0;     // L0C -> GM payload
};

struct CubeTiling {
  bool feasible = false;
  int64_t base_m = 0;
  int64_t base_n = 0;
  int64_t base_k = 0;
  int64_t tiles = 0;           // batch * ceil(M / base_m) * ceil(N / base_n)
  uint32_t block_dim = 0;      // cube cores used
  int64_t tiles_per_core = 0;  // the busiest core's tiles
  double cycles = 0.0;         // the busiest core's modelled cycles
  CubeWork total;              // all tiles
};

inline int64_t CubeCeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}
inline int64_t CubeUp(int64_t a, int64_t b) {
  return CubeCeilDiv(a, b) * b;
}
inline int64_t CubeC0(uint32_t in_bytes) {
  return 32 / static_cast<int64_t>(in_bytes);
}

// The work of one tile of tm x tn over the whole K in chunks of base_k: per chunk, A is loaded as
// ceil(tm/16) * ceil(kc/C0) fractals and B as ceil(kc/C0) * ceil(tn/16); one Mmad per chunk; one
// Fixpipe per tile.
inline CubeWork CubeTileWork(const CubeProblem& p, int64_t tm, int64_t tn, int64_t base_k) {
  CubeWork w;
  const int64_t c0 = CubeC0(p.in_bytes);
  const int64_t mb = CubeCeilDiv(tm, 16);
  const int64_t nb = CubeCeilDiv(tn, 16);
  for (int64_t k0 = 0; k0 < p.k; k0 += base_k) {
    const int64_t kc = p.k - k0 < base_k ? p.k - k0 : base_k;
    const int64_t kb = CubeCeilDiv(kc, c0);
    w.mte2_bytes += static_cast<uint64_t>((tm * kc + kc * tn) * p.in_bytes);
    w.l0a_fractals += static_cast<uint64_t>(mb * kb);
    w.mte1_fractals += static_cast<uint64_t>(mb * kb + kb * nb);
    w.cube_steps += static_cast<uint64_t>(mb * nb * kb);
  }
  w.fix_fractals = static_cast<uint64_t>(mb * nb);
  w.fix_bytes = static_cast<uint64_t>(tm * tn * p.out_bytes);
  return w;
}

inline void CubeAdd(CubeWork& a, const CubeWork& b, int64_t times) {
  const auto t = static_cast<uint64_t>(times);
  a.mte2_bytes += b.mte2_bytes * t;
  a.mte1_fractals += b.mte1_fractals * t;
  a.l0a_fractals += b.l0a_fractals * t;
  a.cube_steps += b.cube_steps * t;
  a.fix_fractals += b.fix_fractals * t;
  a.fix_bytes += b.fix_bytes * t;
}

// Each pipe's cycles for one tile's work: MTE2 (GM -> L1, with the per-call head), MTE1
// (L1 -> L0A / L0B), the cube (M) and the fixpipe (L0C -> GM).
struct CubePipes {
  double mte2 = 0.0;
  double mte1 = 0.0;
  double cube = 0.0;
  double fix = 0.0;
};

inline CubePipes CubeTilePipes(const CubeHw& hw, const CubeWork& w, int64_t chunks) {
  const double c = chunks > 0 ? static_cast<double>(chunks) : 1.0;
  CubePipes p;
  p.mte2 = static_cast<double>(w.mte2_bytes) / hw.gm_l1_bpc + 2.0 * c * hw.mte2_call_head;
  const auto l0b_fr = static_cast<double>(w.mte1_fractals - w.l0a_fractals);
  p.mte1 =
      static_cast<double>(w.l0a_fractals) * 512.0 / hw.l1_l0a_bpc + l0b_fr * 512.0 / hw.l1_l0b_bpc;
  p.cube = static_cast<double>(w.cube_steps);
  p.fix = static_cast<double>(w.fix_bytes) / hw.fix_bpc;
  return p;
}

// Cycles of one tile's work: the slowest pipe, plus the first chunk's loads (before the cube can
// start) and the tile's fixpipe (after it ends).
inline double CubeTileCycles(const CubeHw& hw, const CubeWork& w, int64_t chunks) {
  const double c = chunks > 0 ? static_cast<double>(chunks) : 1.0;
  const CubePipes p = CubeTilePipes(hw, w, chunks);
  double slowest = p.mte2;
  if (p.mte1 > slowest) slowest = p.mte1;
  if (p.cube > slowest) slowest = p.cube;
  return slowest + (p.mte2 + p.mte1) / c + p.fix;
}

// Whether base tiles fit: one K chunk of A and of B in L1, A's chunk in L0A, B's in L0B and the
// fp32 tile in L0C, each single-buffered.
inline bool CubeFits(const CubeProblem& p, const CubeHw& hw, int64_t bm, int64_t bn, int64_t bk) {
  const auto in = static_cast<uint64_t>(p.in_bytes);
  const auto um = static_cast<uint64_t>(bm);
  const auto un = static_cast<uint64_t>(bn);
  const auto uk = static_cast<uint64_t>(bk);
  return (um * uk + uk * un) * in <= hw.l1_bytes && um * uk * in <= hw.l0a_bytes &&
         uk * un * in <= hw.l0b_bytes && um * un * 4 <= hw.l0c_bytes;
}

// The modelled work and cycles of every tile of a tiling (tails included).
inline void CubeEvaluate(const CubeProblem& p, const CubeHw& hw, CubeTiling& t) {
  const int64_t tiles_m = CubeCeilDiv(p.m, t.base_m);
  const int64_t tiles_n = CubeCeilDiv(p.n, t.base_n);
  t.tiles = p.batch * tiles_m * tiles_n;
  t.block_dim = static_cast<uint32_t>(t.tiles < hw.cube_cores ? t.tiles : hw.cube_cores);
  t.tiles_per_core = CubeCeilDiv(t.tiles, t.block_dim);
  t.total = CubeWork{};
  const int64_t tail_m = p.m - (tiles_m - 1) * t.base_m;
  const int64_t tail_n = p.n - (tiles_n - 1) * t.base_n;
  const int64_t chunks = CubeCeilDiv(p.k, t.base_k);
  const CubeWork full = CubeTileWork(p, t.base_m, t.base_n, t.base_k);
  CubeAdd(t.total, full, p.batch * (tiles_m - 1) * (tiles_n - 1));
  CubeAdd(t.total, CubeTileWork(p, tail_m, t.base_n, t.base_k), p.batch * (tiles_n - 1));
  CubeAdd(t.total, CubeTileWork(p, t.base_m, tail_n, t.base_k), p.batch * (tiles_m - 1));
  CubeAdd(t.total, CubeTileWork(p, tail_m, tail_n, t.base_k), p.batch);
  // The busiest core runs tiles_per_core tiles, priced as full tiles (the tails are smaller).
  t.cycles = static_cast<double>(t.tiles_per_core) * CubeTileCycles(hw, full, chunks);
}

// Searches base_m, base_n (multiples of 16 up to 256, not past the padded M/N) and base_k
// (multiples of 16 up to 512, not past the padded K) for the fewest modelled cycles of the
// busiest core; ties go to less GM traffic, then larger tiles. Infeasible only for an empty or
// negative problem (16 x 16 x 16 always fits the memories).
inline CubeTiling SolveCube(const CubeProblem& p, const CubeHw& hw) {
  CubeTiling best;
  if (p.batch <= 0 || p.m <= 0 || p.n <= 0 || p.k <= 0 || (p.in_bytes != 2 && p.in_bytes != 4)) {
    return best;
  }
  const int64_t max_m = CubeUp(p.m, 16) < 256 ? CubeUp(p.m, 16) : 256;
  const int64_t max_n = CubeUp(p.n, 16) < 256 ? CubeUp(p.n, 16) : 256;
  const int64_t max_k = CubeUp(p.k, 16) < 512 ? CubeUp(p.k, 16) : 512;
  for (int64_t bm = 16; bm <= max_m; bm += 16) {
    for (int64_t bn = 16; bn <= max_n; bn += 16) {
      for (int64_t bk = 16; bk <= max_k; bk += 16) {
        if (!CubeFits(p, hw, bm, bn, bk)) continue;
        CubeTiling t;
        t.feasible = true;
        t.base_m = bm;
        t.base_n = bn;
        t.base_k = bk;
        CubeEvaluate(p, hw, t);
        const bool better =
            !best.feasible || t.cycles < best.cycles ||
            (t.cycles == best.cycles && (t.total.mte2_bytes < best.total.mte2_bytes ||
                                         (t.total.mte2_bytes == best.total.mte2_bytes &&
                                          bm * bn * bk > best.base_m * best.base_n * best.base_k)));
        if (better) best = t;
      }
    }
  }
  return best;
}

}  // namespace af_tiling

#endif  // AF_TILING_CUBE_H_
