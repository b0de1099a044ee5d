// Benchmarks of the hot paths: symbolic expression construction, the tiling solve per call
// (what a generated tiling function does at every launch), and scheduling a hint graph.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "autofuse/att/tiling.h"
#include "autofuse/ir/load.h"
#include "autofuse/schedule/schedule.h"
#include "e2e_units.h"
#include "fixtures.h"

namespace {

using af::sym::Expr;

constexpr std::int64_t kUb = std::int64_t{192} * 1024;  // the e2e tests' UB size

void BM_SymBuildCeilDiv(benchmark::State& state) {
  const Expr s0 = Expr::Sym("s0");
  const Expr s1 = Expr::Sym("s1");
  const Expr t = Expr::Sym("z0t_size");
  for (auto _ : state) {
    Expr e = af::sym::CeilDiv(s0 * s1, t) * Expr(4) + af::sym::Align(s1, Expr(8));
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_SymBuildCeilDiv);

af::schedule::ScheduleResult SampleSchedule() {
  const auto f = af::ir::LoadGraphFile(
      (af::test::SourceDir() / "samples" / "hint_graphs" / "add_bcast_relu.AscGraphDef.txt")
          .string());
  return af::schedule::Schedule(f.graphs.at(0).graph, af::hw::GetProfile("ascend910b"));
}

void BM_Schedule(benchmark::State& state) {
  const auto f = af::ir::LoadGraphFile(
      (af::test::SourceDir() / "samples" / "hint_graphs" / "add_bcast_relu.AscGraphDef.txt")
          .string());
  const auto& profile = af::hw::GetProfile("ascend910b");
  for (auto _ : state) {
    auto s = af::schedule::Schedule(f.graphs.at(0).graph, profile);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Schedule);

// The solver alone on prepared case parameters: the work of a generated tiling function.
void BM_SelectCase(benchmark::State& state) {
  const auto s = SampleSchedule();
  const std::vector<std::int64_t> dims = {state.range(0), state.range(1)};
  const af::att::CaseSet set = af::att::BuildCases(s, dims);
  const auto& params = set.params;
  for (auto _ : state) {
    af_tiling::CaseSolution best;
    const int chosen =
        af_tiling::SelectCase(params.data(), static_cast<int>(params.size()), 48, kUb, -1, &best);
    benchmark::DoNotOptimize(chosen);
    benchmark::DoNotOptimize(best);
  }
}
BENCHMARK(BM_SelectCase)->Args({37, 1031})->Args({3, 200003})->Args({4096, 4096});

// The in-process path behind `afc tile`: evaluate the dims, build parameters, solve.
void BM_AttSolve(benchmark::State& state) {
  const auto s = SampleSchedule();
  const af::sym::Bindings b = {{"s0", state.range(0)}, {"s1", state.range(1)}};
  const auto& profile = af::hw::GetProfile("ascend910b");
  for (auto _ : state) {
    auto d = af::att::Solve(s, b, profile);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_AttSolve)->Args({37, 1031})->Args({3, 200003});

// Every test graph (tests/e2e/graphs) at a fixed set of shapes, prepared once: the default
// solver per SolveCase call (one tiling case), then per kernel (all cases + the selection). The
// per-call time is the benchmark's time divided by the calls per iteration (items_per_second).
// SolveCase runs as a generated tiling function runs it, without the report's totals pass.
struct TestGraphCases {
  std::vector<af::att::CaseSet> sets;
  int calls = 0;
};

const TestGraphCases& PreparedTestGraphs() {
  static const TestGraphCases prepared = [] {
    TestGraphCases t;
    const auto& profile = af::hw::GetProfile("ascend910b");
    for (const auto& unit : af::test::E2eUnits()) {  // multi-group graphs: each group
      auto s = af::test::ScheduleE2eUnit(unit, profile);
      static std::vector<af::schedule::ScheduleResult> keep;
      keep.reserve(256);
      keep.push_back(std::move(s));
      const auto& sched = keep.back();
      const auto syms = af::att::KernelSymbols(sched);
      for (const std::int64_t v : {7, 101, 1031, 4096}) {
        af::sym::Bindings b;
        for (const auto& name : syms)
          b[name] = syms.size() > 2 ? std::min<std::int64_t>(v, 60) : v;
        t.sets.push_back(af::att::BuildCases(sched, af::att::DimValues(sched, b)));
        t.calls += static_cast<int>(t.sets.back().params.size());
      }
    }
    return t;
  }();
  return prepared;
}

void BM_SolveCaseTestGraphs(benchmark::State& state) {
  const auto& t = PreparedTestGraphs();
  for (auto _ : state) {
    for (const auto& set : t.sets) {
      for (const auto& p : set.params) {
        auto sol = af_tiling::SolveCase(p, 48, kUb, af_tiling::SolverOptions{}, false);
        benchmark::DoNotOptimize(sol);
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * t.calls);
}
BENCHMARK(BM_SolveCaseTestGraphs)->Unit(benchmark::kMillisecond);

void BM_SelectCaseTestGraphs(benchmark::State& state) {
  const auto& t = PreparedTestGraphs();
  for (auto _ : state) {
    for (const auto& set : t.sets) {
      af_tiling::CaseSolution best;
      const int chosen = af_tiling::SelectCase(
          set.params.data(), static_cast<int>(set.params.size()), 48, kUb, -1, &best);
      benchmark::DoNotOptimize(chosen);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.sets.size()));
}
BENCHMARK(BM_SelectCaseTestGraphs)->Unit(benchmark::kMillisecond);

}  // namespace
