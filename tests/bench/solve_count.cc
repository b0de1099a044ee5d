// The generated tiling function's solve (af_tiling::SelectCase) on a list of (graph, bindings)
// kernels, for scripts/solve_time.py: its instruction count under callgrind (the call is made
// through one non-inlined function, CountedSelect, so `--toggle-collect=*CountedSelect*` counts
// exactly the solve), its time per kernel, and a fingerprint of every decision so that a change
// meant to make the solver cheaper can be checked to decide exactly as before.
//
// Usage: af_solve_count LIST [--soc NAME] [--reps N] [--decisions] [--dump-each]
//   LIST: one kernel a line, "<graph file> <name=value,...>" (blank lines and # comments skipped).
//   --reps N: solve each kernel N times (default 1); with N > 1 the median time per kernel is
//     printed (ns, steady clock), never asserted.
//   --decisions: per kernel, the chosen case and every case's solution (tile, block_dim, r_split,
//     cycles to 17 digits, binding, UB bytes, the model's totals) — two builds decide the same
//     when these lines are identical.
//   --dump-each: under callgrind, write one profile dump per kernel (per-kernel instruction
//     counts; needs valgrind/callgrind.h at build time).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define AF_HAVE_CALLGRIND 1
#endif

#include "autofuse/att/tiling.h"
#include "autofuse/ir/load.h"
#include "autofuse/schedule/schedule.h"

namespace {

using Clock = std::chrono::steady_clock;

// The call a generated tiling function makes, kept out of line so callgrind can count it alone.
__attribute__((noinline)) int CountedSelect(const af::att::CaseSet& set, const af::hw::Profile& hw,
                                            const af_tiling::SolverOptions& o,
                                            af_tiling::CaseSolution* best) {
  return af_tiling::SelectCase(set.params.data(), static_cast<int>(set.params.size()),
                               hw.vector_cores, hw.ub_bytes, -1, best, -1, o);
}

af::sym::Bindings ParseBindings(const std::string& text) {
  af::sym::Bindings b;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    b[item.substr(0, eq)] = std::stoll(item.substr(eq + 1));
  }
  return b;
}

void PrintDecision(const std::string& where, const af::att::CaseSet& set, const af::hw::Profile& hw,
                   const af_tiling::SolverOptions& o, int chosen,
                   const af_tiling::CaseSolution& best) {
  std::printf("%s chosen %d tile %lld bd %u cost %.17g\n", where.c_str(), chosen,
              static_cast<long long>(best.tile), best.block_dim, best.cost);
  for (std::size_t c = 0; c < set.params.size(); ++c) {
    const auto s = af_tiling::SolveCase(set.params[c], hw.vector_cores, hw.ub_bytes, o, true);
    std::printf(
        "  case %zu ok %d tile %lld tpb %lld bd %u r_split %lld ub %lld cost %.17g binding %d "
        "mte2 %lld mte3 %lld rep %lld\n",
        c, s.ok ? 1 : 0, static_cast<long long>(s.tile), static_cast<long long>(s.tiles_per_block),
        s.block_dim, static_cast<long long>(s.r_split), static_cast<long long>(s.ub_bytes), s.cost,
        s.binding, static_cast<long long>(s.mte2_bytes), static_cast<long long>(s.mte3_bytes),
        static_cast<long long>(s.vec_repeats));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string list;
  std::string soc = "ascend910b";
  int reps = 1;
  bool decisions = false;
  bool dump_each = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--soc") == 0 && i + 1 < argc) {
      soc = argv[++i];
    } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--decisions") == 0) {
      decisions = true;
    } else if (std::strcmp(argv[i], "--dump-each") == 0) {
      dump_each = true;
    } else if (argv[i][0] != '-' && list.empty()) {
      list = argv[i];
    } else {
      std::fprintf(stderr,
                   "usage: af_solve_count LIST [--soc NAME] [--reps N] [--decisions] "
                   "[--dump-each]\n");
      return 2;
    }
  }
  std::ifstream in(list);
  if (list.empty() || !in) {
    std::fprintf(stderr, "af_solve_count: cannot read the kernel list '%s'\n", list.c_str());
    return 2;
  }
  const af::hw::Profile& hw = af::hw::GetProfile(soc);
  const auto options = af::att::SolverOptionsFrom({}, hw);
  // Schedules are built once per graph file; the solves run after every list entry is prepared.
  std::map<std::string, af::schedule::ScheduleResult> schedules;
  std::vector<std::string> where;
  std::vector<af::att::CaseSet> sets;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string path;
    std::string binds;
    ss >> path >> binds;
    try {
      auto it = schedules.find(path);
      if (it == schedules.end()) {
        const auto file = af::ir::LoadGraphFile(path);
        it = schedules.emplace(path, af::schedule::Schedule(file.graphs.at(0).graph, hw)).first;
      }
      sets.push_back(
          af::att::BuildCases(it->second, af::att::DimValues(it->second, ParseBindings(binds))));
      where.push_back(path.substr(path.find_last_of('/') + 1) + " " + binds);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s:%d: %s\n", list.c_str(), line_no, e.what());
      return 2;
    }
  }
  std::vector<double> kernel_ns;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    af_tiling::CaseSolution best;
    int chosen = -1;
    std::vector<double> ns;
    for (int r = 0; r < reps; ++r) {
      const auto t0 = Clock::now();
      chosen = CountedSelect(sets[k], hw, options, &best);
      const auto t1 = Clock::now();
      ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
#ifdef AF_HAVE_CALLGRIND
    if (dump_each) CALLGRIND_DUMP_STATS;
#else
    if (dump_each) {
      std::fprintf(stderr, "af_solve_count: built without valgrind/callgrind.h\n");
      return 2;
    }
#endif
    std::sort(ns.begin(), ns.end());
    kernel_ns.push_back(ns[ns.size() / 2]);
    if (decisions) PrintDecision(where[k], sets[k], hw, options, chosen, best);
  }
  std::sort(kernel_ns.begin(), kernel_ns.end());
  std::printf("kernels %zu on %s\n", sets.size(), soc.c_str());
  if (reps > 1 && !kernel_ns.empty()) {
    std::printf("median ns per kernel %.0f (median of %d calls each)\n",
                kernel_ns[kernel_ns.size() / 2], reps);
  }
  return 0;
}
