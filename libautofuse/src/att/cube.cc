// The cube group's tiling and template choice (see autofuse/att/cube.h).
#include "autofuse/att/cube.h"

#include <set>
#include <sstream>

#include "autofuse/ir/dtype.h"
#include "autofuse/support/error.h"

namespace af::att {

const char* CubeTemplateName(int key) {
  return key == kCubeFixpip ? "kFixpip" : "kCommon";
}

af_tiling::CubeHw CubeHwOf(const hw::Profile& profile) {
  af_tiling::CubeHw hw = profile.name == "ascend950" ? af_tiling::CubeHw950() : af_tiling::CubeHw{};
  hw.cube_cores = profile.vector_cores / 2 > 0 ? profile.vector_cores / 2 : 1;
  return hw;
}

std::vector<std::string> CubeSymbols(const schedule::CubeGroup& c) {
  std::set<std::string> s;
  auto add = [&s](const sym::Expr& e) {
    for (const auto& v : e.FreeSymbols())
      s.insert(v);
  };
  add(c.m);
  add(c.n);
  add(c.k);
  for (const auto& v : {c.batch, c.x1_batch_stride, c.x2_batch_stride})
    for (const auto& e : v)
      add(e);
  return {s.begin(), s.end()};
}

CubeDecision SolveCubeGroup(const schedule::CubeGroup& c, const sym::Bindings& b,
                            const hw::Profile& profile, int forced_case) {
  CubeDecision d;
  for (const auto& s : CubeSymbols(c)) {
    if (!b.contains(s)) throw InputError({}, "cube group: size " + s + " is not bound");
  }
  d.problem.m = c.m.Eval(b);
  d.problem.n = c.n.Eval(b);
  d.problem.k = c.k.Eval(b);
  d.problem.batch = 1;
  for (const auto& e : c.batch)
    d.problem.batch *= e.Eval(b);
  d.problem.in_bytes = static_cast<std::uint32_t>(ir::DTypeBytes(c.in_dtype));
  d.fixpipe_offered = c.fixpipe;
  if (forced_case > kCubeFixpip || (forced_case == kCubeFixpip && !c.fixpipe)) {
    throw InputError({}, "cube group: tiling case " + std::to_string(forced_case) +
                             " is not offered (0 kCommon" +
                             (c.fixpipe ? ", 1 kFixpip)"
                                        : "; kFixpip needs an epilogue the "
                                          "fixpipe can do)"));
  }
  d.chosen = forced_case >= 0 ? forced_case : (c.fixpipe ? kCubeFixpip : kCubeCommon);
  d.reason = forced_case >= 0 ? "forced (--force_tiling_case)"
             : c.fixpipe
                 ? "kFixpip: the fixpipe does the epilogue, saving kCommon's fp32 workspace "
                   "round trip, its SyncAll and the vector epilogue"
                 : "kCommon: the epilogue needs the vector cores";
  d.problem.out_bytes =
      d.chosen == kCubeFixpip ? static_cast<std::uint32_t>(ir::DTypeBytes(c.fix_dtype)) : 4U;
  if (d.problem.m <= 0 || d.problem.n <= 0 || d.problem.k <= 0 || d.problem.batch <= 0) {
    throw InputError({}, "cube group: an empty product (M " + std::to_string(d.problem.m) + ", N " +
                             std::to_string(d.problem.n) + ", K " + std::to_string(d.problem.k) +
                             ")");
  }
  d.tiling = af_tiling::SolveCube(d.problem, CubeHwOf(profile));
  if (!d.tiling.feasible) throw InputError({}, "cube group: no cube tiling");
  const auto& t = d.tiling;
  const af_tiling::CubePipes one = af_tiling::CubeTilePipes(
      CubeHwOf(profile), af_tiling::CubeTileWork(d.problem, t.base_m, t.base_n, t.base_k),
      af_tiling::CubeCeilDiv(d.problem.k, t.base_k));
  const auto per = static_cast<double>(t.tiles_per_core);
  d.pipes = {one.mte2 * per, one.mte1 * per, one.cube * per, one.fix * per};
  return d;
}

std::string DumpCubeDecision(const CubeDecision& d) {
  std::ostringstream o;
  const auto& t = d.tiling;
  o << "cube template " << CubeTemplateName(d.chosen) << " (" << d.reason << ")\n";
  o << "  batch " << d.problem.batch << " M " << d.problem.m << " N " << d.problem.n << " K "
    << d.problem.k << ", base " << t.base_m << "x" << t.base_n << "x" << t.base_k << ", " << t.tiles
    << " tiles on " << t.block_dim << " cube cores, " << t.cycles << " cycles\n";
  o << "  mte2 " << t.total.mte2_bytes << " B, mte1 " << t.total.mte1_fractals << " fractals, cube "
    << t.total.cube_steps << " steps, fixpipe " << t.total.fix_fractals << " fractals ("
    << t.total.fix_bytes << " B)\n";
  return o.str();
}

}  // namespace af::att
