// Solution quality of the tiling solvers against the exhaustive optimum, and their solve times,
// over every test graph (tests/e2e/graphs) and a seeded set of random shapes per graph.
//
// For each (graph, shape) the kernel-level choice of each solver (case and tiling, selected as a
// generated tiling function would) is priced by the model; the default solver (AxesReorder) must
// be within 3% of the exhaustive choice's modelled cycles on at least 95% of them. The worst case
// is printed (--max-worst R also fails when a case is worse than R x exhaustive). Besides the
// random shapes, every graph gets a fixed list of hard shapes (StructuredShapes): odd sizes just
// past powers of two, rows near the UB limit, few rows of long columns. Solve times are measured
// per SolveCase call (one tiling case, what AutoFuse's per-case DoTiling does) and per kernel
// (every case plus the selection) and printed as figures for docs/tiling.md; they are never
// asserted.
//
// Usage: af_tiling_quality [--shapes N] [--soc NAME] [--check] [--max-worst R] [--verbose] [--pgo]
//                          [--no-times]
//   --check: exit 1 when the 95% / 3% target is missed (the ctest entry uses it).
//   --no-times: skip the timed repetitions (the ctest entries: quality only, a third of the time).
//   --pgo: also run the PGO searches (att/pgo.h, core_select and pruning with AutoFuse's default
//          step_max 16 and topn 5) from the default solver's choice and print how far they move
//          the modelled cycles (docs/tiling.md "PGO").
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "autofuse/att/pgo.h"
#include "autofuse/att/tiling.h"
#include "autofuse/ir/load.h"
#include "autofuse/schedule/schedule.h"
#include "e2e_units.h"
#include "fixtures.h"

namespace {

using Clock = std::chrono::steady_clock;

struct GraphStats {
  std::string name;
  int shapes = 0;
  int within = 0;  // default within 3% of exhaustive
  int heuristic_within = 0;
  double worst = 1.0;  // default / exhaustive cycles
  std::string worst_shape;
  std::vector<double> case_ns;  // default solver, per SolveCase call
  std::vector<double> kernel_ns;
};

// Sizes for one symbol: 1, small, primes, up to `cap` (the exhaustive space stays small).
std::int64_t RandomSize(std::mt19937_64& rng, std::int64_t cap) {
  static const std::int64_t kPrimes[] = {2, 3, 5, 7, 13, 31, 101, 127, 257, 1021, 4099};
  std::int64_t v = 1;
  switch (rng() % 4) {
    case 0:
      v = 1 + static_cast<std::int64_t>(rng() % 16);
      break;
    case 1:
      v = kPrimes[rng() % (sizeof(kPrimes) / sizeof(kPrimes[0]))];
      break;
    default:
      v = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(cap));
      break;
  }
  return std::min(v, cap);
}

// Shapes where solvers that search a regular grid miss: sizes just past a power of two (a tile of
// the power of two leaves a tail of one row block), rows near the UB limit (fp16 rows of 6-16 K
// elements: a whole row barely fits with its double buffers), and a few rows of long columns
// (fewer A iterations than cores). One list per symbol count; the last symbols take the long
// sizes. The held-out misses are among them: 7 x 8191 (softmax-style norm), 64 x 1000
// (max reduction), 3 x 65537 (broadcast add).
std::vector<std::vector<std::int64_t>> StructuredShapes(std::size_t n) {
  switch (n) {
    case 1:
      return {{8191}, {65537}, {4097}, {1000}, {12289}, {33}};
    case 2:
      return {{7, 8191},  {64, 1000}, {3, 65537}, {1, 4097},  {17, 2049}, {5, 12289},
              {9, 6145},  {3, 16385}, {33, 1025}, {257, 513}, {2, 32769}, {129, 383},
              {48, 1001}, {97, 8193}, {7, 4095},  {1, 65537}, {65, 257},  {11, 10007}};
    case 3:
      return {{7, 8191, 1}, {64, 1000, 3}, {3, 3, 65537}, {2, 17, 4097}, {1, 3, 65537},
              {5, 9, 1025}, {7, 1, 8191},  {64, 1, 1000}, {3, 65, 257},  {1, 7, 12289}};
    default: {
      std::vector<std::vector<std::int64_t>> out = {
          {1, 7, 1, 8191}, {2, 3, 5, 4097}, {64, 1, 1, 1000}, {3, 1, 1, 65537}, {5, 4, 3, 2049}};
      for (auto& v : out)
        v.resize(n, 1);
      return out;
    }
  }
}

// How far one PGO search moves the default solver's choice, over all (graph, shape) cases.
struct PgoStats {
  PgoStats(const char* n, bool p) : name(n), pruning(p) {}
  const char* name;
  bool pruning;
  int cases = 0;
  int moved = 0;              // searched point cheaper than the solver's
  int within = 0;             // searched point within 3% of exhaustive
  std::vector<double> gains;  // solver / searched cycles, of the moved cases
  double best_gain = 1.0;
  std::string best_where;
  long long evaluated = 0;

  void Add(const af::att::CaseSet& set, const af::hw::Profile& profile,
           const af_tiling::SolverOptions& solver, int chosen, const af_tiling::CaseSolution& best,
           double exhaustive_cost, const std::string& where) {
    af::att::PgoOptions o;
    o.enabled = true;
    o.pruning = pruning;
    const auto r =
        af::att::SearchTiling(set, profile.vector_cores, profile.ub_bytes, solver, chosen, best, o);
    if (r.top.empty()) return;
    ++cases;
    evaluated += r.evaluated;
    const double gain = r.gain();
    if (gain > 1.0 + 1e-9) {
      ++moved;
      gains.push_back(gain);
    }
    if (r.top[0].cycles / exhaustive_cost <= 1.03) ++within;
    if (gain > best_gain) {
      best_gain = gain;
      best_where = where;
    }
  }
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The command line (see the usage above).
struct Args {
  int n_shapes = 40;
  std::string soc = "ascend910b";
  bool check = false;
  bool verbose = false;
  bool pgo = false;
  bool times = true;
  double max_worst = 0;  // --max-worst R: fail when a case is worse than R x exhaustive
};

bool ParseArgs(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0) {
      a->verbose = true;
    } else if (std::strcmp(argv[i], "--pgo") == 0) {
      a->pgo = true;
    } else if (std::strcmp(argv[i], "--no-times") == 0) {
      a->times = false;
    } else if (std::strcmp(argv[i], "--shapes") == 0 && i + 1 < argc) {
      a->n_shapes = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--soc") == 0 && i + 1 < argc) {
      a->soc = argv[++i];
    } else if (std::strcmp(argv[i], "--max-worst") == 0 && i + 1 < argc) {
      a->max_worst = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--check") == 0) {
      a->check = true;
    } else {
      std::fprintf(stderr,
                   "usage: af_tiling_quality [--shapes N] [--soc NAME] [--check] [--max-worst R] "
                   "[--verbose] [--pgo] [--no-times]\n");
      return false;
    }
  }
  return true;
}

// The default solver's time per SolveCase call and per kernel (every case plus the selection),
// repeated to be measurable, as a generated tiling function runs it (no totals pass: only the
// compiler's report needs it).
void TimeSolves(const af::att::CaseSet& set, const af::hw::Profile& profile,
                const af_tiling::SolverOptions& base, double* case_ns, double* kernel_ns) {
  constexpr int kReps = 100;
  const int n = static_cast<int>(set.params.size());
  auto t0 = Clock::now();
  for (int r = 0; r < kReps; ++r) {
    for (int c = 0; c < n; ++c) {
      const auto sol = af_tiling::SolveCase(set.params[static_cast<std::size_t>(c)],
                                            profile.vector_cores, profile.ub_bytes, base, false);
      if (sol.cost < 0) std::puts("");  // keeps the call
    }
  }
  auto t1 = Clock::now();
  *case_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / (kReps * n);
  t0 = Clock::now();
  for (int r = 0; r < kReps; ++r) {
    af_tiling::CaseSolution best;
    if (af_tiling::SelectCase(set.params.data(), n, profile.vector_cores, profile.ub_bytes, -1,
                              &best, -1, base) < -1)
      std::puts("");
  }
  t1 = Clock::now();
  *kernel_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / kReps;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 2;
  const int n_shapes = args.n_shapes;
  const std::string& soc = args.soc;
  const bool check = args.check;
  const bool verbose = args.verbose;
  const bool pgo = args.pgo;
  const double max_worst = args.max_worst;
  const af::hw::Profile& profile = af::hw::GetProfile(soc);
  const auto base = af::att::SolverOptionsFrom({}, profile);
  af_tiling::SolverOptions exhaustive = base;
  exhaustive.algorithm = af_tiling::kExhaustive;
  af_tiling::SolverOptions heuristic = base;
  heuristic.algorithm = af_tiling::kHeuristic;
  const auto graphs = af::test::E2eUnits(soc);  // multi-group graphs: each group
  std::vector<GraphStats> stats;
  int total = 0;
  int within = 0;
  int heuristic_within = 0;
  double worst = 1.0;
  std::string worst_where;
  std::vector<double> all_case_ns;
  std::vector<double> all_kernel_ns;
  PgoStats pgo_stats[2] = {{"core_select", false}, {"pruning", true}};
  for (const auto& unit : graphs) {
    // Each graph draws its shapes from a generator of its own, seeded by its name (FNV-1a), so a
    // graph added to tests/e2e/graphs leaves every other graph's shapes as they were.
    std::uint64_t seed = 1469598103934665603ULL;
    for (const unsigned char ch : unit)
      seed = (seed ^ ch) * 1099511628211ULL;
    std::mt19937_64 rng(seed);
    const auto s = af::test::ScheduleE2eUnit(unit, profile);
    const auto syms = af::att::KernelSymbols(s);
    GraphStats g;
    g.name = unit;
    const std::int64_t cap = syms.size() >= 3 ? 60 : syms.size() == 2 ? 2000 : 100000;
    const auto structured = StructuredShapes(syms.size());
    const int n_all = n_shapes + static_cast<int>(structured.size());
    for (int k = 0; k < n_all; ++k) {
      af::sym::Bindings b;
      std::string where;
      for (std::size_t i = 0; i < syms.size(); ++i) {
        const auto& name = syms[i];
        b[name] = k < n_shapes ? RandomSize(rng, cap)
                               : structured[static_cast<std::size_t>(k - n_shapes)].at(i);
        where += (where.empty() ? "" : ",") + name + "=" + std::to_string(b[name]);
      }
      const auto dims = af::att::DimValues(s, b);
      const af::att::CaseSet set = af::att::BuildCases(s, dims);
      const int n = static_cast<int>(set.params.size());
      af_tiling::CaseSolution d_best;
      af_tiling::CaseSolution e_best;
      af_tiling::CaseSolution h_best;
      const int dc = af_tiling::SelectCase(set.params.data(), n, profile.vector_cores,
                                           profile.ub_bytes, -1, &d_best, -1, base);
      const int ec = af_tiling::SelectCase(set.params.data(), n, profile.vector_cores,
                                           profile.ub_bytes, -1, &e_best, -1, exhaustive);
      const int hc = af_tiling::SelectCase(set.params.data(), n, profile.vector_cores,
                                           profile.ub_bytes, -1, &h_best, -1, heuristic);
      if (dc < 0 || ec < 0 || hc < 0 || e_best.cost <= 0) continue;
      const double ratio = d_best.cost / e_best.cost;
      ++g.shapes;
      ++total;
      if (ratio <= 1.03) {
        ++g.within;
        ++within;
      }
      if (h_best.cost / e_best.cost <= 1.03) {
        ++g.heuristic_within;
        ++heuristic_within;
      }
      if (verbose && ratio > 1.03) {
        std::printf(
            "  %s [%s]: default case %d tile %lld cores %u cost %.0f | exhaustive case %d "
            "tile %lld cores %u cost %.0f\n",
            g.name.c_str(), where.c_str(), dc, static_cast<long long>(d_best.tile),
            d_best.block_dim, d_best.cost, ec, static_cast<long long>(e_best.tile),
            e_best.block_dim, e_best.cost);
      }
      if (pgo) {
        for (auto& p : pgo_stats)
          p.Add(set, profile, base, dc, d_best, e_best.cost, g.name + " [" + where + "]");
      }
      if (ratio > g.worst) {
        g.worst = ratio;
        g.worst_shape = where;
      }
      if (ratio > worst) {
        worst = ratio;
        worst_where = g.name + " [" + where + "]";
      }
      if (!args.times) continue;
      double case_ns = 0;
      double kernel_ns = 0;
      TimeSolves(set, profile, base, &case_ns, &kernel_ns);
      g.case_ns.push_back(case_ns);
      g.kernel_ns.push_back(kernel_ns);
      all_case_ns.push_back(case_ns);
      all_kernel_ns.push_back(kernel_ns);
    }
    stats.push_back(g);
  }
  std::printf("%-26s %6s %9s %9s %8s %10s %10s  %s\n", "graph", "shapes", "default", "HighPerf",
              "worst", "ns/case", "ns/kernel", "worst shape");
  for (const auto& g : stats) {
    std::printf("%-26s %6d %8.1f%% %8.1f%% %8.4f %10.0f %10.0f  %s\n", g.name.c_str(), g.shapes,
                g.shapes > 0 ? 100.0 * g.within / g.shapes : 0.0,
                g.shapes > 0 ? 100.0 * g.heuristic_within / g.shapes : 0.0, g.worst,
                Median(g.case_ns), Median(g.kernel_ns), g.worst_shape.c_str());
  }
  const double share = total > 0 ? 100.0 * within / total : 0.0;
  std::printf(
      "all: %d (graph, shape) cases on %s; AxesReorder within 3%% of exhaustive on %.1f%%, "
      "HighPerf on %.1f%%; worst AxesReorder/exhaustive %.4f at %s; median solve %.0f ns per "
      "case, %.0f ns per kernel\n",
      total, soc.c_str(), share, total > 0 ? 100.0 * heuristic_within / total : 0.0, worst,
      worst_where.c_str(), Median(all_case_ns), Median(all_kernel_ns));
  for (const auto& p : pgo_stats) {
    if (!pgo || p.cases == 0) continue;
    std::printf(
        "pgo %s: moved %d of %d cases (%.1f%%), median gain of those x%.4f, largest x%.4f at %s; "
        "searched point within 3%% of exhaustive on %.1f%%; %.1f points priced per search\n",
        p.name, p.moved, p.cases, 100.0 * p.moved / p.cases, Median(p.gains), p.best_gain,
        p.best_where.c_str(), 100.0 * p.within / p.cases,
        static_cast<double>(p.evaluated) / p.cases);
  }
  if (check && (total == 0 || share < 95.0)) {
    std::printf("FAIL: target is >= 95%% within 3%%\n");
    return 1;
  }
  if (max_worst > 0 && worst > max_worst) {
    std::printf("FAIL: worst AxesReorder/exhaustive %.4f is above %.4f\n", worst, max_worst);
    return 1;
  }
  return 0;
}
