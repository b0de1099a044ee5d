// The PGO search (att/pgo.h) and its result file (af_tiling/pgo.h): the searched best is never
// worse than the solver's choice and stays inside the flags' bounds; the file keeps one entry per
// key, refuses a damaged line with its number, and an entry is taken only for exactly its sizes
// and only when feasible.
#include "autofuse/att/pgo.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/error.h"
#include "e2e_units.h"
#include "fixtures.h"

namespace af {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// An e2e graph's schedule, or a group's of a multi-group graph ("<graph>/g<i>").
schedule::ScheduleResult Graph(const std::string& name) {
  return test::ScheduleE2eUnit(name, hw::GetProfile("ascend910b"));
}

fs::path Scratch(const std::string& name) {
  const fs::path d = test::BinaryDir() / "pgo_test" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// The search for one graph and shape with the default solver.
struct Searched {
  schedule::ScheduleResult s;
  att::TilingDecision d;
  att::PgoResult r;
};

Searched Search(const std::string& graph, const sym::Bindings& b, const att::PgoOptions& o) {
  Searched x{Graph(graph), {}, {}};
  const auto& profile = hw::GetProfile("ascend910b");
  x.d = att::Solve(x.s, b, profile);
  const att::CaseSet set = att::BuildCases(x.s, att::DimValues(x.s, b));
  x.r = att::SearchTiling(set, profile.vector_cores, profile.ub_bytes, af_tiling::SolverOptions{},
                          x.d.chosen, x.d.solution, o);
  return x;
}

TEST(PgoFile, ParsesWholeEntriesAndNamesWhatIsWrong) {
  af_tiling::PgoEntry e;
  std::string why;
  ASSERT_TRUE(af_tiling::ParsePgoLine(
      "v1 perf=1 syms=7,8191 cores=48 ub=196608 case=1 tile=4096 use=7 cycles=12.5 "
      "solver_cycles=14\n",
      &e, &why))
      << why;
  EXPECT_EQ(e.nsyms, 2u);
  EXPECT_EQ(e.syms[1], 8191);
  EXPECT_EQ(e.case_index, 1);
  EXPECT_EQ(e.tile, 4096);
  EXPECT_EQ(e.use, 7);
  EXPECT_DOUBLE_EQ(e.solver_cycles, 14);
  // A kernel without size symbols.
  EXPECT_TRUE(af_tiling::ParsePgoLine(
      "v1 perf=2 syms= cores=1 ub=32 case=0 tile=1 use=1 cycles=0 solver_cycles=0", &e, &why))
      << why;
  EXPECT_EQ(e.nsyms, 0u);
  EXPECT_FALSE(af_tiling::ParsePgoLine("# a comment", &e, &why));
  EXPECT_TRUE(why.empty());
  EXPECT_FALSE(af_tiling::ParsePgoLine("   ", &e, &why));
  EXPECT_TRUE(why.empty());
  const char* bad[] = {
      "v2 perf=1 syms=1 cores=1 ub=32 case=0 tile=1 use=1 cycles=0 solver_cycles=0",
      "v1 perf=1 syms=1 cores=1 ub=32 case=0 tile=1 use=1 cycles=0",
      "v1 perf=1 syms=1 cores=1 ub=32 case=0 tile=1 tile=2 use=1 cycles=0 solver_cycles=0",
      "v1 perf=3 syms=1 cores=1 ub=32 case=0 tile=1 use=1 cycles=0 solver_cycles=0",
      "v1 perf=1 syms=1,-2 cores=1 ub=32 case=0 tile=1 use=1 cycles=0 solver_cycles=0",
      "v1 perf=1 syms=1 cores=1 ub=32 case=0 tile=0 use=1 cycles=0 solver_cycles=0",
      "v1 perf=1 syms=1 cores=1 ub=32 case=0 tile=1 use=1 cycles=nan solver_cycles=0",
      ("v1 perf=1 syms=99999999999999999999 cores=1 ub=32 case=0 tile=1 use=1 cycles=0 "
       "solver_cycles=0"),  // one line, split here (parenthesised for clang's concatenation check)
      "v1 perf=1 syms=1 cores=1 ub=32 case=0 tile=1 use=1 cycles=0 solver_cycles=0 extra=1",
  };
  for (const char* line : bad) {
    EXPECT_FALSE(af_tiling::ParsePgoLine(line, &e, &why)) << line;
    EXPECT_FALSE(why.empty()) << line;
  }
}

TEST(PgoFile, OneEntryPerKeyAndADamagedFileIsRefusedUntouched) {
  const fs::path file = Scratch("write") / "sub" / "k.pgo.txt";
  af_tiling::PgoEntry a;
  a.perf_version = 1;
  a.nsyms = 2;
  a.syms[0] = 7;
  a.syms[1] = 9;
  a.cores = 48;
  a.ub = 196608;
  a.case_index = 0;
  a.tile = 8;
  a.use = 3;
  a.cycles = 10;
  a.solver_cycles = 12;
  att::WritePgoEntry(file, a);
  af_tiling::PgoEntry b = a;
  b.syms[1] = 10;
  att::WritePgoEntry(file, b);
  a.tile = 16;  // same key: replaces the first entry
  att::WritePgoEntry(file, a);
  af_tiling::PgoTable t;
  af_tiling::LoadPgoFile(file.string().c_str(), &t);
  ASSERT_EQ(t.entries.size(), 2u);
  af_tiling::PgoEntry found;
  ASSERT_TRUE(af_tiling::FindPgoEntryIn(t, 1, a.syms, 2, 48, 196608, &found));
  EXPECT_EQ(found.tile, 16);
  EXPECT_FALSE(af_tiling::FindPgoEntryIn(t, 2, a.syms, 2, 48, 196608, &found));  // other table
  EXPECT_FALSE(af_tiling::FindPgoEntryIn(t, 1, a.syms, 2, 40, 196608, &found));  // other cores
  const std::int64_t other[2] = {7, 11};
  EXPECT_FALSE(af_tiling::FindPgoEntryIn(t, 1, other, 2, 48, 196608, &found));

  std::ofstream(file, std::ios::app) << "v1 perf=1 syms=1 oops\n";
  const std::string before = test::ReadFile(file);
  try {
    att::WritePgoEntry(file, b);
    FAIL() << "a damaged line was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 4);
    EXPECT_THAT(e.what(), HasSubstr(file.string()));
    EXPECT_THAT(e.what(), HasSubstr("bad field 'oops'"));
  }
  EXPECT_EQ(test::ReadFile(file), before);
}

TEST(PgoSearch, CoreSelectStaysWithinItsStepsAndNeverLoses) {
  att::PgoOptions o;
  o.enabled = true;
  o.step_max = 4;
  o.topn = 3;
  const auto x = Search("softmax_fp16", {{"s0", 7}, {"s1", 8191}}, o);
  ASSERT_FALSE(x.r.top.empty());
  EXPECT_EQ(x.r.solver.case_index, x.d.chosen);
  EXPECT_EQ(x.r.solver.block_dim, x.d.solution.block_dim);
  EXPECT_DOUBLE_EQ(x.r.solver.cycles, x.d.solution.cost);
  EXPECT_LE(x.r.top.size(), 3u);
  EXPECT_LE(x.r.top[0].cycles, x.r.solver.cycles);
  EXPECT_GE(x.r.gain(), 1.0);
  for (std::size_t i = 0; i < x.r.top.size(); ++i) {
    const auto& p = x.r.top[i];
    EXPECT_EQ(p.case_index, x.d.chosen);
    EXPECT_LE(std::abs(p.use - static_cast<std::int64_t>(x.d.solution.block_dim)), 4);
    if (i > 0) {
      EXPECT_LE(x.r.top[i - 1].cycles, p.cycles);
    }
  }
  // Every budget within 4 of the solver's block_dim is priced (two points each at most).
  const std::int64_t bd = x.d.solution.block_dim;
  const std::int64_t budgets =
      std::min<std::int64_t>(48, bd + 4) - std::max<std::int64_t>(1, bd - 4) + 1;
  EXPECT_GE(x.r.evaluated, budgets);
  EXPECT_LE(x.r.evaluated, 2 * budgets + 1);
}

TEST(PgoSearch, PruningFindsAtLeastTheSolversPointOnEveryGraph) {
  att::PgoOptions o;
  o.enabled = true;
  o.pruning = true;
  for (const auto& name : test::E2eUnits()) {
    SCOPED_TRACE(name);
    const auto s = Graph(name);
    sym::Bindings b;
    for (const auto& sym : att::KernelSymbols(s))
      b[sym] = sym == att::KernelSymbols(s).front() ? 37 : 129;
    att::TilingDecision d;
    try {
      d = att::Solve(s, b, hw::GetProfile("ascend910b"));
    } catch (const InputError&) {
      continue;  // no tiling at this shape (a concat's whole rows): nothing to search
    }
    const auto& profile = hw::GetProfile("ascend910b");
    const att::CaseSet set = att::BuildCases(s, att::DimValues(s, b));
    const auto r = att::SearchTiling(set, profile.vector_cores, profile.ub_bytes,
                                     af_tiling::SolverOptions{}, d.chosen, d.solution, o);
    ASSERT_FALSE(r.top.empty());
    EXPECT_LE(r.top.size(), 5u);
    EXPECT_LE(r.top[0].cycles, r.solver.cycles);
    for (const auto& p : r.top) {
      const auto sol =
          af_tiling::SolvePoint(set.params[static_cast<std::size_t>(p.case_index)], p.tile, p.use,
                                profile.vector_cores, profile.ub_bytes, af_tiling::SolverOptions{});
      ASSERT_TRUE(sol.ok);
      EXPECT_DOUBLE_EQ(sol.cost, p.cycles);
      EXPECT_EQ(sol.block_dim, p.block_dim);
    }
  }
}

TEST(PgoApply, TakesAFeasibleEntryForExactlyTheseSizesOnly) {
  const auto& profile = hw::GetProfile("ascend910b");
  const auto s = Graph("abs_add_relu");
  const sym::Bindings b = {{"s0", 1024}, {"s1", 2048}};
  const att::TilingDecision solved = att::Solve(s, b, profile);
  ASSERT_GT(solved.solution.block_dim, 1u);
  const fs::path file = Scratch("apply") / "k.pgo.txt";
  af_tiling::PgoEntry e;
  e.perf_version = 1;
  e.nsyms = 2;
  e.syms[0] = 1024;
  e.syms[1] = 2048;
  e.cores = profile.vector_cores;
  e.ub = profile.ub_bytes;
  e.case_index = solved.chosen;
  e.tile = solved.solution.tile;
  e.use = 1;  // one core: a worse point, but the file is what was measured
  att::WritePgoEntry(file, e);
  att::TilingDecision d = solved;
  ASSERT_TRUE(att::ApplyPgo(file, s, b, profile, af_tiling::SolverOptions{}, &d));
  EXPECT_EQ(d.solution.block_dim, 1u);
  EXPECT_EQ(d.solution.tile, solved.solution.tile);
  EXPECT_GT(d.solution.cost, solved.solution.cost);
  EXPECT_EQ(d.solution.mte2_bytes, solved.solution.mte2_bytes);  // totals priced

  // Other sizes: no entry.
  att::TilingDecision other = att::Solve(s, {{"s0", 1024}, {"s1", 2049}}, profile);
  const auto before = other.solution.block_dim;
  EXPECT_FALSE(att::ApplyPgo(file, s, {{"s0", 1024}, {"s1", 2049}}, profile,
                             af_tiling::SolverOptions{}, &other));
  EXPECT_EQ(other.solution.block_dim, before);

  // Infeasible entries are ignored: a tile off the step grid, a tile past the UB, a budget past
  // the cores, a case that does not exist.
  for (const auto& [tile, use, c] : {std::tuple<std::int64_t, std::int64_t, int>{7, 1, 0},
                                     {2048LL * 1024, 1, 0},
                                     {8, 4096, 0},
                                     {8, 1, 99}}) {
    e.tile = tile;
    e.use = use;
    e.case_index = c;
    att::WritePgoEntry(file, e);
    att::TilingDecision t = solved;
    EXPECT_FALSE(att::ApplyPgo(file, s, b, profile, af_tiling::SolverOptions{}, &t))
        << tile << " " << use << " " << c;
    EXPECT_EQ(t.solution.block_dim, solved.solution.block_dim);
  }
}

TEST(PgoOptions, FlagsAndTheirBounds) {
  EXPECT_FALSE(att::PgoOptionsFrom({}).enabled);
  const auto o = att::PgoOptionsFrom({{"autofuse_enable_pgo", "true"},
                                      {"autofuse_pgo_algo", "pruning"},
                                      {"autofuse_pgo_step_max", "3"},
                                      {"autofuse_pgo_topn", "2"}});
  EXPECT_TRUE(o.enabled);
  EXPECT_TRUE(o.pruning);
  EXPECT_EQ(o.step_max, 3);
  EXPECT_EQ(o.topn, 2);
  EXPECT_EQ(att::PgoAlgoName(o), "pruning");
  EXPECT_THROW(att::PgoOptionsFrom({{"autofuse_enable_pgo", "maybe"}}), InputError);
  EXPECT_THROW(att::PgoOptionsFrom({{"autofuse_pgo_algo", "random"}}), InputError);
  EXPECT_THROW(att::PgoOptionsFrom({{"autofuse_pgo_step_max", "0"}}), InputError);
  EXPECT_THROW(att::PgoOptionsFrom({{"autofuse_pgo_topn", "1025"}}), InputError);
}

}  // namespace
}  // namespace af
