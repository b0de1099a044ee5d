// The AxesReorder tile refinement (af_tiling::RefineTile) and what it relies on:
// - PartsOf / PartsCost price a tile for any core count with the same cycles as Price's search
//   path (Evaluate), so the refinement ranks points as the model does;
// - the held-out misses of the widened quality stream (docs/tiling.md) are now within 10% of the
//   exhaustive optimum;
// - the case choice, which now skips templates that cannot reach the chosen score, picks what
//   visiting every template in index order picks;
// - Price's cycles-only paths (PriceSearch for A tiles, PriceLooped for R tiles and r_core, both
//   pricing each node class once) give the per-node loop's cycles bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "autofuse/att/tiling.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/schedule.h"
#include "e2e_units.h"
#include "fixtures.h"

namespace af {
namespace {

// An e2e graph's schedule, or a group's of a multi-group graph ("<graph>/g<i>").
schedule::ScheduleResult Graph(const std::string& name, const hw::Profile& profile) {
  return test::ScheduleE2eUnit(name, profile);
}

std::vector<std::string> Graphs(const std::string& soc = "ascend910b") {
  return test::E2eUnits(soc);
}

TEST(TileRefine, PartsCostIsPricesCycles) {
  const auto& profile = hw::GetProfile("ascend910b");
  const std::int64_t sizes[] = {7, 257, 1030};
  int checked = 0;
  for (const auto& name : Graphs()) {
    SCOPED_TRACE(name);
    const auto s = Graph(name, profile);
    sym::Bindings b;
    const auto syms = att::KernelSymbols(s);
    for (std::size_t i = 0; i < syms.size(); ++i)
      b[syms[i]] = sizes[i % 3];
    const auto set = att::BuildCases(s, att::DimValues(s, b));
    for (const auto& p : set.params) {
      af_tiling::Model m;
      af_tiling::Prepare(p, af_tiling::PerfTableFor(1), &m);
      for (const std::int64_t tile : {1, 8, 64, 300}) {
        const af_tiling::TileParts parts = af_tiling::PartsOf(m, tile);
        if (!parts.ok) continue;
        for (const std::int64_t use : {48, 13, 2}) {
          const auto sol = af_tiling::Evaluate(m, tile, use, profile.ub_bytes);
          if (!sol.ok) continue;
          const double c = af_tiling::PartsCost(*m.t, parts, sol.tiles_per_block, sol.block_dim);
          EXPECT_NEAR(c, sol.cost, 1e-9 * sol.cost) << "tile " << tile << " use " << use;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 100);
}

double DefaultOverExhaustive(const std::string& graph, const sym::Bindings& b,
                             const std::string& soc) {
  const auto& profile = hw::GetProfile(soc);
  const auto s = Graph(graph, profile);
  const auto set = att::BuildCases(s, att::DimValues(s, b));
  const auto base = att::SolverOptionsFrom({}, profile);
  auto exhaustive = base;
  exhaustive.algorithm = af_tiling::kExhaustive;
  af_tiling::CaseSolution d;
  af_tiling::CaseSolution e;
  const int n = static_cast<int>(set.params.size());
  EXPECT_GE(af_tiling::SelectCase(set.params.data(), n, profile.vector_cores, profile.ub_bytes, -1,
                                  &d, -1, base),
            0);
  EXPECT_GE(af_tiling::SelectCase(set.params.data(), n, profile.vector_cores, profile.ub_bytes, -1,
                                  &e, -1, exhaustive),
            0);
  return d.cost / e.cost;
}

// The cases above 1.10 before the refinement (docs/tiling.md, widened stream 2026-12-02).
TEST(Price, CyclesOnlyPathsAreThePerNodeLoop) {
  int search = 0;
  int looped = 0;
  for (const char* soc : {"ascend910b", "ascend950"}) {
    const auto& profile = hw::GetProfile(soc);
    const auto table = att::SolverOptionsFrom({}, profile).perf_version;
    for (const auto& name : Graphs(soc)) {
      SCOPED_TRACE(name + " " + soc);
      const auto s = Graph(name, profile);
      const auto syms = att::KernelSymbols(s);
      for (const std::int64_t size : {7, 1030}) {
        sym::Bindings b;
        for (std::size_t i = 0; i < syms.size(); ++i)
          b[syms[i]] = i % 2 == 0 ? size : 13;
        const auto set = att::BuildCases(s, att::DimValues(s, b));
        for (const auto& p : set.params) {
          af_tiling::Model m;
          af_tiling::Prepare(p, af_tiling::PerfTableFor(table), &m);
          for (const std::int64_t tile : {1, 8, 13, 300, 1030}) {
            for (const std::int64_t use : {48, 13, 2, 1}) {
              const auto sol = af_tiling::Evaluate(m, tile, use, profile.ub_bytes);
              if (!sol.ok) continue;
              af_tiling::CaseSolution x = sol;
              af_tiling::Price(m, &x, true);
              // With pieces the search path groups tiles x share x executions differently.
              const double rel = af_tiling::HasPieces(p) ? 1e-12 : 0;
              for (int k = 0; k < af_tiling::kNumPipes; ++k) {
                EXPECT_NEAR(sol.pipes[k], x.pipes[k], rel * x.pipes[k])
                    << "pipe " << k << " tile " << tile << " use " << use;
              }
              EXPECT_NEAR(sol.cost, x.cost, rel * x.cost) << "tile " << tile << " use " << use;
              ++(p.r_core == 0 && !m.loops.tile_is_r ? search : looped);
            }
          }
        }
      }
    }
  }
  EXPECT_GT(search, 1000);
  EXPECT_GT(looped, 100);
}

TEST(TileRefine, HeldOutMissesAreWithinTenPercent) {
  struct Miss {
    const char* graph;
    sym::Bindings b;
  };
  const Miss misses[] = {
      {"transpose_sum", {{"s0", 1030}, {"s1", 1413}}},
      {"transpose_sum", {{"s0", 644}, {"s1", 568}}},
      {"transpose_sum", {{"s0", 460}, {"s1", 276}}},
      {"transpose_add", {{"s0", 65}, {"s1", 257}}},
      {"mean_ra", {{"s0", 7}, {"s1", 8191}}},
      {"split_rows", {{"s0", 7}, {"s1", 8191}, {"s2", 1}}},
      {"split_many", {{"s0", 1282}, {"s1", 598}}},
      {"split_many", {{"s0", 1134}, {"s1", 232}}},
      {"max_ara", {{"s0", 7}, {"s1", 8191}, {"s2", 1}}},
      {"min_ara", {{"s0", 7}, {"s1", 8191}, {"s2", 1}}},
  };
  for (const auto& m : misses) {
    SCOPED_TRACE(m.graph);
    EXPECT_LE(DefaultOverExhaustive(m.graph, m.b, "ascend910b"), 1.10);
  }
}

// The cases above 1.10 in the widened stream with 40 shapes per graph after the refinement
// (docs/tiling.md, 2026-12-03): the 950's sawtooth in the tile (fewer tiles per core, RefineTile's
// tpb - 1 and one-tile counts), pieces' own tiles, r_core tile counts that fill every core, and
// r_core's core count at the chosen tile (RefineCores; A2's mean_ra 570 x 1021, 1.24 before).
TEST(TileRefine, WidenedStreamMissesAreWithinTenPercent) {
  struct Miss {
    const char* graph;
    sym::Bindings b;
    const char* soc;
  };
  const Miss misses[] = {
      {"mean_ra", {{"s0", 570}, {"s1", 1021}}, "ascend910b"},
      {"bcast_middle", {{"s0", 1}, {"s1", 7}, {"s2", 12289}}, "ascend950"},
      {"bcast_leading", {{"s0", 11}, {"s1", 10007}}, "ascend950"},
      {"cmp_where_bcast", {{"s0", 7}, {"s1", 4095}}, "ascend950"},
      {"concat_rows_fp16", {{"s0", 7}, {"s1", 8191}, {"s2", 1}}, "ascend950"},
      {"math_binary", {{"s0", 101}, {"s1", 858}}, "ascend950"},
      {"sigmoid_bcast_4d", {{"s0", 7}, {"s1", 56}, {"s2", 8}, {"s3", 57}}, "ascend950"},
      {"split_rows", {{"s0", 3}, {"s1", 3}, {"s2", 65537}}, "ascend950"},
      {"step_slice", {{"s0", 11}, {"s1", 10007}}, "ascend950"},
      {"sum_rara", {{"s0", 60}, {"s1", 31}, {"s2", 31}, {"s3", 8}}, "ascend950"},
      {"transpose_relu_add", {{"s0", 13}, {"s1", 56}, {"s2", 60}}, "ascend950"},
  };
  for (const auto& m : misses) {
    SCOPED_TRACE(std::string(m.graph) + " " + m.soc);
    EXPECT_LE(DefaultOverExhaustive(m.graph, m.b, m.soc), 1.10);
  }
}

// The choice by visiting every template in index order (the rule before templates were visited
// by score): the highest score, then the lower cycles, then the lower template index.
int ReferenceChoice(const std::vector<af_tiling::CaseParams>& cases,
                    const std::vector<af_tiling::CaseSolution>& sols, const af_tiling::PerfTable& t,
                    std::int64_t ub) {
  int max_templ = -1;
  for (const auto& c : cases)
    max_templ = std::max(max_templ, static_cast<int>(c.templ));
  int chosen = -1;
  int chosen_score = 0;
  double chosen_cost = 0;
  for (int tp = 0; tp <= max_templ; ++tp) {
    int in_t = -1;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (cases[i].templ != tp || !sols[i].ok) continue;
      if (in_t < 0 || af_tiling::Better(t, sols[i], sols[static_cast<std::size_t>(in_t)], ub)) {
        in_t = static_cast<int>(i);
      }
    }
    if (in_t < 0) continue;
    const int score = af_tiling::TemplateScore(cases[static_cast<std::size_t>(in_t)]);
    const double cost = sols[static_cast<std::size_t>(in_t)].cost;
    if (chosen < 0 || score > chosen_score || (score == chosen_score && cost < chosen_cost)) {
      chosen = in_t;
      chosen_score = score;
      chosen_cost = cost;
    }
  }
  return chosen;
}

TEST(TileRefine, ChoiceByScoreIsTheIndexOrderChoice) {
  const auto& profile = hw::GetProfile("ascend910b");
  const auto opts = att::SolverOptionsFrom({}, profile);
  const std::int64_t sizes[][3] = {{1, 1, 1}, {37, 101, 3}, {3, 200003, 5}, {1024, 2048, 7}};
  for (const auto& name : Graphs()) {
    SCOPED_TRACE(name);
    const auto s = Graph(name, profile);
    const auto syms = att::KernelSymbols(s);
    for (const auto& sz : sizes) {
      sym::Bindings b;
      for (std::size_t i = 0; i < syms.size(); ++i)
        b[syms[i]] = sz[i % 3];
      const auto set = att::BuildCases(s, att::DimValues(s, b));
      std::vector<af_tiling::CaseSolution> sols;
      for (const auto& p : set.params)
        sols.push_back(af_tiling::SolveCase(p, profile.vector_cores, profile.ub_bytes, opts));
      af_tiling::CaseSolution best;
      const int got =
          af_tiling::SelectCase(set.params.data(), static_cast<int>(sols.size()),
                                profile.vector_cores, profile.ub_bytes, -1, &best, -1, opts);
      EXPECT_EQ(got,
                ReferenceChoice(set.params, sols, af_tiling::PerfTableFor(1), profile.ub_bytes));
    }
  }
}

}  // namespace
}  // namespace af
