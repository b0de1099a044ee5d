// Benchmarks of the hot paths: symbolic expression construction, the tiling solve per call
// (what a generated tiling function does at every launch), and scheduling a hint graph.
#include <benchmark/benchmark.h>

#include "autofuse/att/tiling.h"
#include "autofuse/ir/load.h"
#include "autofuse/schedule/schedule.h"
#include "fixtures.h"

namespace {

using af::sym::Expr;

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
  std::vector<af_tiling::CaseParams> params;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    params.push_back(af::att::CaseParamsFor(s, static_cast<int>(c), dims));
  }
  for (auto _ : state) {
    af_tiling::CaseSolution best;
    const int chosen = af_tiling::SelectCase(params.data(), static_cast<int>(params.size()), 48,
                                             192 * 1024, -1, &best);
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

}  // namespace
