// Profile-guided tiling (AutoFuse's PGO, --autofuse_enable_pgo): the result file and the lookup a
// generated tiling function makes in it at run time.
//
// AutoFuse's PGO runs candidate tilings on the device and writes the best into a file that its
// tiling function reads. We have no device: the compiler searches against the cost model
// (autofuse/att/pgo.h) and writes the same kind of file, one per kernel. A tiling function compiled
// with PGO on takes an entry only for exactly its bound sizes, core count, UB size and cost table,
// and only when that point is feasible for the entry's case (the tile fits the UB); otherwise the
// solver decides, as it does without a file. The file is read again whenever it changes. A line it
// cannot read is skipped (the compiler, which writes the file, refuses such a file with its line
// number).
//
// One entry per line, '#' starts a comment line:
//   v1 perf=<1|2> syms=<s0>,<s1>,... cores=<n> ub=<bytes> case=<i> tile=<t> use=<cores budget>
//      cycles=<modelled> solver_cycles=<modelled, the solver's choice>
// (`syms=` is empty for a kernel without size symbols.)
#ifndef AF_TILING_PGO_H_
#define AF_TILING_PGO_H_

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "af_tiling/elementwise.h"

namespace af_tiling {

inline constexpr int kMaxPgoSyms = 16;

struct PgoEntry {
  int32_t perf_version = 0;
  uint32_t nsyms = 0;
  int64_t syms[kMaxPgoSyms] = {};
  uint32_t cores = 0;
  int64_t ub = 0;
  int32_t case_index = -1;
  int64_t tile = 0;
  int64_t use = 0;  // the core budget Evaluate takes (block_dim follows from it)
  double cycles = 0;
  double solver_cycles = 0;
};

// A non-negative decimal integer ending at a delimiter in `ends` (or the string's end).
inline bool PgoInt(const char*& s, const char* ends, int64_t* v) {
  if (*s < '0' || *s > '9') return false;
  int64_t r = 0;
  while (*s >= '0' && *s <= '9') {
    if (r > (INT64_MAX - (*s - '0')) / 10) return false;
    r = r * 10 + (*s - '0');
    ++s;
  }
  if (*s != '\0' && std::strchr(ends, *s) == nullptr) return false;
  *v = r;
  return true;
}

// Parses one value token "key=value" into `e`; false for an unknown key or a bad value.
inline bool PgoToken(const char* tok, PgoEntry* e) {
  const char* eq = std::strchr(tok, '=');
  if (eq == nullptr) return false;
  const std::string key(tok, static_cast<size_t>(eq - tok));
  const char* v = eq + 1;
  int64_t n = 0;
  if (key == "syms") {
    e->nsyms = 0;
    while (*v != '\0') {
      if (e->nsyms >= static_cast<uint32_t>(kMaxPgoSyms) || !PgoInt(v, ",", &n)) return false;
      e->syms[e->nsyms++] = n;
      if (*v == ',') ++v;
    }
    return true;
  }
  if (key == "cycles" || key == "solver_cycles") {
    char* end = nullptr;
    const double d = std::strtod(v, &end);
    if (end == v || *end != '\0' || !(d >= 0)) return false;
    (key == "cycles" ? e->cycles : e->solver_cycles) = d;
    return true;
  }
  if (!PgoInt(v, "", &n)) return false;
  if (key == "perf" && n >= 1 && n <= 2) {
    e->perf_version = static_cast<int32_t>(n);
  } else if (key == "cores" && n >= 1 && n <= 4096) {
    e->cores = static_cast<uint32_t>(n);
  } else if (key == "ub" && n >= 1) {
    e->ub = n;
  } else if (key == "case" && n <= 1000000) {
    e->case_index = static_cast<int32_t>(n);
  } else if (key == "tile" && n >= 1) {
    e->tile = n;
  } else if (key == "use" && n >= 1 && n <= 4096) {
    e->use = n;
  } else {
    return false;
  }
  return true;
}

// Parses one line; false for a comment, a blank line or a line that is not a whole v1 entry.
// `error` (optional) receives why a non-comment line was refused.
inline bool ParsePgoLine(const char* line, PgoEntry* e, std::string* error = nullptr) {
  auto fail = [&](const std::string& why) {
    if (error != nullptr) *error = why;
    return false;
  };
  if (error != nullptr) error->clear();
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos || text[first] == '#') return false;
  text = text.substr(first);
  *e = PgoEntry{};
  std::vector<std::string> toks;
  for (size_t at = 0; at < text.size();) {
    const size_t sp = text.find(' ', at);
    const size_t end = sp == std::string::npos ? text.size() : sp;
    if (end > at) toks.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (toks.empty() || toks[0] != "v1") return fail("not a v1 entry (it must start with 'v1')");
  unsigned seen = 0;
  static const char* const kKeys[] = {"perf", "syms", "cores",  "ub",           "case",
                                      "tile", "use",  "cycles", "solver_cycles"};
  for (size_t i = 1; i < toks.size(); ++i) {
    if (!PgoToken(toks[i].c_str(), e)) return fail("bad field '" + toks[i] + "'");
    for (unsigned k = 0; k < 9; ++k) {
      if (toks[i].compare(0, std::strlen(kKeys[k]) + 1, std::string(kKeys[k]) + "=") == 0) {
        if ((seen & (1u << k)) != 0) return fail("field '" + std::string(kKeys[k]) + "' twice");
        seen |= 1u << k;
      }
    }
  }
  if (seen != (1u << 9) - 1)
    return fail(
        "a field is missing (each of perf, syms, cores, ub, "
        "case, tile, use, cycles, solver_cycles once)");
  return true;
}

// The entries of one file, loaded once per process and path.
struct PgoTable {
  std::string path;
  bool loaded = false;
  std::vector<PgoEntry> entries;
};

inline void LoadPgoFile(const char* path, PgoTable* t) {
  t->path = path;
  t->loaded = true;
  t->entries.clear();
  std::FILE* f = std::fopen(path, "r");
  if (f == nullptr) return;
  char line[1024];
  PgoEntry e;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (ParsePgoLine(line, &e)) t->entries.push_back(e);
  }
  std::fclose(f);
}

// The file a tiling function reads: $AF_PGO_FILE when set and not empty, else `compiled_in` (the
// file the compiler wrote its search into).
inline const char* PgoPath(const char* compiled_in) {
  const char* env = std::getenv("AF_PGO_FILE");
  return env != nullptr && env[0] != '\0' ? env : compiled_in;
}

// The entry of `table` for these sizes, core count, UB size and cost table.
inline bool FindPgoEntryIn(const PgoTable& table, int32_t perf_version, const int64_t* syms,
                           uint32_t nsyms, uint32_t cores, int64_t ub, PgoEntry* out) {
  for (const PgoEntry& e : table.entries) {
    if (e.perf_version != perf_version || e.nsyms != nsyms || e.cores != cores || e.ub != ub)
      continue;
    bool same = true;
    for (uint32_t i = 0; i < nsyms && same; ++i)
      same = e.syms[i] == syms[i];
    if (!same) continue;
    *out = e;
    return true;
  }
  return false;
}

// The same from `path`, read on first use and again whenever the path or the file changes (its
// inode, size or modification time: the compiler replaces the file by renaming a new one into
// place, so a process that keeps running sees a new search). Thread-safe.
inline bool FindPgoEntry(const char* path, int32_t perf_version, const int64_t* syms,
                         uint32_t nsyms, uint32_t cores, int64_t ub, PgoEntry* out) {
  static std::mutex mu;
  static PgoTable table;
  static struct stat seen {};
  struct stat now {};
  if (::stat(path, &now) != 0) return false;  // no file: the solver decides
  std::lock_guard<std::mutex> lock(mu);
  if (!table.loaded || table.path != path || now.st_ino != seen.st_ino ||
      now.st_size != seen.st_size || now.st_mtim.tv_sec != seen.st_mtim.tv_sec ||
      now.st_mtim.tv_nsec != seen.st_mtim.tv_nsec) {
    LoadPgoFile(path, &table);
    seen = now;
  }
  return FindPgoEntryIn(table, perf_version, syms, nsyms, cores, ub, out);
}

// The solution of one (case, tile, core budget) point, priced as the solver prices its own
// choices (no model totals unless `totals`); ok is false when the point is not feasible for the
// case: a tile the solvers never use (not a whole number of steps and not the whole extent, see
// TileSpace), a budget outside 1..cores, or a tile larger than the UB.
inline CaseSolution SolvePoint(const CaseParams& p, int64_t tile, int64_t use, uint32_t cores,
                               int64_t ub_bytes, const SolverOptions& o, bool totals = false) {
  CaseSolution s;
  if (!ValidParams(p, cores) || !CatFeasible(p) || EmptySpace(p)) return s;
  if (use < 1 || use > static_cast<int64_t>(cores)) return s;
  const TileSpace sp = SpaceOf(p);
  if (tile < 1 || tile > sp.d || (tile % sp.step != 0 && tile != sp.d)) return s;
  Model m;
  Prepare(p, PerfTableFor(o.perf_version), &m);
  s = Evaluate(m, tile, use, ub_bytes);
  if (s.ok) {
    s.binding = kBindSearch;
    if (totals) Price(m, &s, true);
  }
  return s;
}

// What a generated tiling function compiled with PGO does after its own choice: an entry of the
// file for these sizes replaces `*chosen` / `*best` when its point is feasible. Returns whether
// it did. Forced cases or templates (--force_tiling_case, --force_schedule_result) are the user's
// choice and are never replaced.
inline bool ApplyPgo(const char* path, const CaseParams* cases, int n, const int64_t* syms,
                     uint32_t nsyms, uint32_t cores, int64_t ub_bytes, int forced,
                     int forced_template, const SolverOptions& o, int* chosen, CaseSolution* best) {
  if (forced >= 0 || forced_template >= 0 || path == nullptr || path[0] == '\0') return false;
  PgoEntry e;
  if (!FindPgoEntry(path, o.perf_version, syms, nsyms, cores, ub_bytes, &e)) return false;
  if (e.case_index < 0 || e.case_index >= n) return false;
  const CaseSolution s = SolvePoint(cases[e.case_index], e.tile, e.use, cores, ub_bytes, o);
  if (!s.ok) return false;
  *chosen = e.case_index;
  *best = s;
  return true;
}

}  // namespace af_tiling

#endif  // AF_TILING_PGO_H_
