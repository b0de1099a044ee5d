// The PGO tiling search against the cost model, its result file, and the in-process lookup that
// mirrors the generated tiling function's.
#include "autofuse/att/pgo.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"

namespace af::att {
namespace {

namespace fs = std::filesystem;
using af_tiling::CaseParams;
using af_tiling::CaseSolution;

int IntFlag(const std::map<std::string, std::string>& flags, const char* name, int def, int lo,
            int hi) {
  const auto it = flags.find(name);
  if (it == flags.end() || it->second.empty()) return def;
  char* end = nullptr;
  const long v = std::strtol(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v < lo || v > hi) {
    throw InputError({}, std::string("--") + name + " must be an integer in " + std::to_string(lo) +
                             ".." + std::to_string(hi) + ", not '" + it->second + "'");
  }
  return static_cast<int>(v);
}

// The points found so far, by (case, tile, block_dim): two budgets giving the same block_dim are
// the same kernel launch.
class Pool {
 public:
  Pool(const CaseSet& set, std::uint32_t cores, std::int64_t ub, const af_tiling::SolverOptions& o)
      : set_(set), cores_(cores), ub_(ub), o_(o) {}

  // Prices the point (once); returns it, with cycles < 0 when infeasible.
  PgoPoint Visit(int c, std::int64_t tile, std::int64_t use) {
    PgoPoint pt;
    pt.case_index = c;
    pt.tile = tile;
    pt.use = use;
    pt.cycles = -1;
    const auto key = std::make_tuple(c, tile, use);
    if (const auto it = seen_.find(key); it != seen_.end()) return it->second;
    const CaseSolution s =
        af_tiling::SolvePoint(set_.params[static_cast<std::size_t>(c)], tile, use, cores_, ub_, o_);
    ++evaluated_;
    if (s.ok) {
      pt.block_dim = s.block_dim;
      pt.cycles = s.cost;
      const auto launch = std::make_tuple(c, tile, static_cast<std::int64_t>(s.block_dim));
      if (launches_.insert(launch).second) points_.push_back(pt);
    }
    seen_.emplace(key, pt);
    return pt;
  }

  // The best `n` distinct points, best first (ties: lower case, tile, use).
  std::vector<PgoPoint> Top(int n) const {
    std::vector<PgoPoint> v = points_;
    std::sort(v.begin(), v.end(), [](const PgoPoint& a, const PgoPoint& b) {
      return std::tie(a.cycles, a.case_index, a.tile, a.use) <
             std::tie(b.cycles, b.case_index, b.tile, b.use);
    });
    if (v.size() > static_cast<std::size_t>(n)) v.resize(static_cast<std::size_t>(n));
    return v;
  }
  int evaluated() const { return evaluated_; }

 private:
  const CaseSet& set_;
  std::uint32_t cores_;
  std::int64_t ub_;
  const af_tiling::SolverOptions& o_;
  std::map<std::tuple<int, std::int64_t, std::int64_t>, PgoPoint> seen_;
  std::set<std::tuple<int, std::int64_t, std::int64_t>> launches_;
  std::vector<PgoPoint> points_;
  int evaluated_ = 0;
};

void CoreSelect(const CaseSet& set, std::uint32_t cores, std::int64_t ub,
                const af_tiling::SolverOptions& solver, const PgoPoint& start, int step_max,
                Pool* pool) {
  const CaseParams& p = set.params[static_cast<std::size_t>(start.case_index)];
  const auto bd = static_cast<std::int64_t>(start.block_dim);
  const std::int64_t lo = std::max<std::int64_t>(1, bd - step_max);
  const std::int64_t hi = std::min<std::int64_t>(cores, bd + step_max);
  for (std::int64_t u = lo; u <= hi; ++u) {
    pool->Visit(start.case_index, start.tile, u);
    const CaseSolution s =
        af_tiling::SolveCase(p, static_cast<std::uint32_t>(u), ub, solver, false);
    if (s.ok) pool->Visit(start.case_index, s.tile, u);
  }
}

void Pruning(const CaseSet& set, std::uint32_t cores, std::int64_t ub,
             const af_tiling::SolverOptions& solver, const PgoOptions& o, Pool* pool) {
  // Every case's own solver point starts the search.
  for (std::size_t c = 0; c < set.params.size(); ++c) {
    const CaseSolution s = af_tiling::SolveCase(set.params[c], cores, ub, solver, false);
    if (s.ok) pool->Visit(static_cast<int>(c), s.tile, s.block_dim);
  }
  std::vector<PgoPoint> kept = pool->Top(o.topn);
  for (int step = 0; step < o.step_max; ++step) {
    for (const PgoPoint& pt : kept) {
      const af_tiling::TileSpace sp =
          af_tiling::SpaceOf(set.params[static_cast<std::size_t>(pt.case_index)]);
      // The tile's index in the case's tile space (the whole extent is the last index).
      const std::int64_t i = pt.tile == sp.d && sp.d % sp.step != 0 ? sp.n + 1 : pt.tile / sp.step;
      for (const std::int64_t j : {i - 1, i + 1, i * 2, i / 2}) {
        if (j >= 1 && j <= sp.Count()) pool->Visit(pt.case_index, sp.Tile(j), pt.use);
      }
      for (const std::int64_t u : {pt.use - 1, pt.use + 1, pt.use * 2, pt.use / 2})
        pool->Visit(pt.case_index, pt.tile, u);
    }
    std::vector<PgoPoint> next = pool->Top(o.topn);
    const bool same =
        next.size() == kept.size() &&
        std::equal(next.begin(), next.end(), kept.begin(), [](auto& a, auto& b) {
          return std::tie(a.case_index, a.tile, a.use) == std::tie(b.case_index, b.tile, b.use);
        });
    kept = std::move(next);
    if (same) break;
  }
}

std::string EntryLine(const af_tiling::PgoEntry& e) {
  std::ostringstream o;
  o.precision(17);
  o << "v1 perf=" << e.perf_version << " syms=";
  for (std::uint32_t i = 0; i < e.nsyms; ++i)
    o << (i > 0 ? "," : "") << e.syms[i];
  o << " cores=" << e.cores << " ub=" << e.ub << " case=" << e.case_index << " tile=" << e.tile
    << " use=" << e.use << " cycles=" << e.cycles << " solver_cycles=" << e.solver_cycles;
  return o.str();
}

bool SameKey(const af_tiling::PgoEntry& a, const af_tiling::PgoEntry& b) {
  return a.perf_version == b.perf_version && a.nsyms == b.nsyms && a.cores == b.cores &&
         a.ub == b.ub && std::equal(a.syms, a.syms + a.nsyms, b.syms);
}

}  // namespace

PgoOptions PgoOptionsFrom(const std::map<std::string, std::string>& flags) {
  PgoOptions o;
  if (const auto it = flags.find("autofuse_enable_pgo"); it != flags.end()) {
    const std::string& v = it->second;
    if (v == "1" || v == "true") {
      o.enabled = true;
    } else if (v != "0" && v != "false" && !v.empty()) {
      throw InputError({}, "--autofuse_enable_pgo must be true or false, not '" + v + "'");
    }
  }
  if (const auto it = flags.find("autofuse_pgo_algo"); it != flags.end() && !it->second.empty()) {
    if (it->second == "pruning") {
      o.pruning = true;
    } else if (it->second != "core_select") {
      throw InputError(
          {}, "--autofuse_pgo_algo must be core_select or pruning, not '" + it->second + "'");
    }
  }
  o.step_max = IntFlag(flags, "autofuse_pgo_step_max", o.step_max, 1, 1024);
  o.topn = IntFlag(flags, "autofuse_pgo_topn", o.topn, 1, 1024);
  return o;
}

std::string PgoAlgoName(const PgoOptions& o) {
  return o.pruning ? "pruning" : "core_select";
}

double PgoResult::gain() const {
  if (top.empty() || top[0].cycles <= 0) return 1.0;
  return solver.cycles / top[0].cycles;
}

PgoResult SearchTiling(const CaseSet& set, std::uint32_t cores, std::int64_t ub_bytes,
                       const af_tiling::SolverOptions& solver, int chosen,
                       const af_tiling::CaseSolution& best, const PgoOptions& o) {
  PgoResult r;
  if (chosen < 0 || chosen >= static_cast<int>(set.params.size()) || !best.ok) return r;
  Pool pool(set, cores, ub_bytes, solver);
  // The solver's own point, priced by the same route as every candidate (its budget is its
  // block_dim: the budget that yields it, see docs/tiling.md "PGO").
  r.solver = pool.Visit(chosen, best.tile, best.block_dim);
  if (r.solver.cycles < 0) return r;  // a point outside the search space (cannot happen today)
  if (o.pruning) {
    Pruning(set, cores, ub_bytes, solver, o, &pool);
  } else {
    CoreSelect(set, cores, ub_bytes, solver, r.solver, o.step_max, &pool);
  }
  r.top = pool.Top(o.topn);
  r.evaluated = pool.evaluated();
  return r;
}

fs::path PgoFile(const fs::path& cache_dir, const std::string& kernel_name) {
  const char* env = std::getenv("AF_PGO_DIR");
  const fs::path dir = env != nullptr && env[0] != '\0' ? fs::path(env) : cache_dir / "pgo";
  return dir / (kernel_name + ".pgo.txt");
}

af_tiling::PgoEntry PgoEntryFor(const PgoResult& r, int perf_version,
                                const std::vector<std::int64_t>& syms, std::uint32_t cores,
                                std::int64_t ub_bytes) {
  if (syms.size() > static_cast<std::size_t>(af_tiling::kMaxPgoSyms)) {
    throw InputError({}, "[PGO_TOO_MANY_SYMBOLS] the PGO result file holds at most " +
                             std::to_string(af_tiling::kMaxPgoSyms) + " size symbols per kernel");
  }
  af_tiling::PgoEntry e;
  e.perf_version = perf_version;
  e.nsyms = static_cast<std::uint32_t>(syms.size());
  std::copy(syms.begin(), syms.end(), e.syms);
  e.cores = cores;
  e.ub = ub_bytes;
  const PgoPoint& best = r.top.empty() ? r.solver : r.top[0];
  e.case_index = best.case_index;
  e.tile = best.tile;
  e.use = best.use;
  e.cycles = best.cycles;
  e.solver_cycles = r.solver.cycles;
  return e;
}

void WritePgoEntry(const fs::path& file, const af_tiling::PgoEntry& e) {
  std::vector<std::string> lines;
  bool replaced = false;
  std::error_code ec;
  if (fs::exists(file, ec)) {
    std::ifstream in(file);
    if (!in) throw InputError({file.string(), 0, 0}, "cannot read the PGO result file");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      af_tiling::PgoEntry old;
      std::string why;
      if (!af_tiling::ParsePgoLine(line.c_str(), &old, &why)) {
        if (!why.empty()) throw InputError({file.string(), n, 1}, "PGO result file: " + why);
        lines.push_back(line);
        continue;
      }
      if (SameKey(old, e)) {
        if (!replaced) lines.push_back(EntryLine(e));
        replaced = true;
        continue;
      }
      lines.push_back(line);
    }
  } else {
    lines.emplace_back(
        "# autofuse PGO results (af_tiling/pgo.h): searched against the cost model, read by the "
        "kernel's tiling function");
  }
  if (!replaced) lines.push_back(EntryLine(e));
  fs::create_directories(file.parent_path(), ec);
  if (ec) {
    throw InputError({file.parent_path().string(), 0, 0},
                     "cannot create the PGO folder: " + ec.message());
  }
  std::string text;
  for (const std::string& l : lines)
    text += l + "\n";
  WriteFileReplacing(file.string(), text);
}

bool ApplyPgo(const fs::path& file, const schedule::ScheduleResult& s, const sym::Bindings& b,
              const hw::Profile& profile, const af_tiling::SolverOptions& solver,
              TilingDecision* d) {
  std::vector<std::int64_t> syms;
  for (const auto& n : KernelSymbols(s))
    syms.push_back(b.at(n));
  // Read afresh: the compiler may have just written it.
  af_tiling::PgoTable table;
  af_tiling::LoadPgoFile(file.string().c_str(), &table);
  af_tiling::PgoEntry e;
  if (!af_tiling::FindPgoEntryIn(table, solver.perf_version, syms.data(),
                                 static_cast<std::uint32_t>(syms.size()), profile.vector_cores,
                                 profile.ub_bytes, &e) ||
      e.case_index < 0 || e.case_index >= static_cast<int>(s.cases.size())) {
    return false;
  }
  const CaseSet set = BuildCases(s, DimValues(s, b));
  const auto& p = set.params[static_cast<std::size_t>(e.case_index)];
  const CaseSolution best =
      af_tiling::SolvePoint(p, e.tile, e.use, profile.vector_cores, profile.ub_bytes, solver, true);
  if (!best.ok) return false;
  d->chosen = e.case_index;
  d->solution = best;
  d->compulsory_bytes = CompulsoryBytes(s, d->chosen, p);
  d->traffic = TrafficOf(s, d->chosen, p, d->solution, solver.perf_version);
  return true;
}

}  // namespace af::att
