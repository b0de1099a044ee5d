// afc's reading of AutoFuse flags (AUTOFUSE_FLAGS, AUTOFUSE_DFX_FLAGS, --flags) through the flag
// table: warnings for unknown names and bad values, notes for flags that do not act here,
// --strict turning a warning into exit 2; and what --att_profiling prints.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "autofuse/pipeline/debug_dump.h"
#include "autofuse/pipeline/flag_table.h"
#include "autofuse/pipeline/options.h"
#include "autofuse/support/error.h"
#include "commands.h"
#include "graph_cmds.h"

namespace af::cli {

void ReadFlags(const CommonOptions& c, std::map<std::string, std::string>* flags) {
  // The environment's AutoFuse flags first, --flags wins.
  for (const char* env : {"AUTOFUSE_FLAGS", "AUTOFUSE_DFX_FLAGS"})
    if (const char* v = std::getenv(env); v != nullptr) pipeline::ParseFlags(v, flags);
  pipeline::ParseFlags(c.flags, flags);
  int warnings = 0;
  for (const auto& d : pipeline::CheckFlags(flags)) {
    const bool warn = d.kind != pipeline::FlagDiagnostic::Kind::kNote;
    warnings += warn ? 1 : 0;
    std::cerr << "afc: " << (warn ? "warning" : "note") << ": [" << d.code << "] " << d.message
              << "\n";
  }
  if (c.strict && warnings > 0) {
    throw InputError({}, std::to_string(warnings) + " flag warning(s) and --strict");
  }
}

void FlagEffects(const pipeline::CompileResult& r, const pipeline::Options& o) {
  for (const auto& k : r.kernels) {
    for (const auto& f : k.replaced)
      std::cerr << "afc: note: replace_kernel: " << k.code.kernel_name << " takes " << f << "\n";
  }
  PrintAttProfiling(r, o);
  const std::string dir = pipeline::WriteDebugTree(r, o);
  if (!dir.empty())
    std::cerr << "afc: note: codegen_compile_debug: stages dumped under " << dir << "\n";
}

void PrintAttProfiling(const pipeline::CompileResult& r, const pipeline::Options& o) {
  if (!pipeline::FlagBool(o.flags, "att_profiling", false)) return;
  for (const auto& k : r.kernels) {
    const std::string name = k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name;
    if (!k.tiling) {
      std::fprintf(stderr, "att_profiling: %s: not tiled (unbound sizes or refused)\n",
                   name.c_str());
      continue;
    }
    int feasible = 0;
    for (const auto& c : k.tiling->cases)
      feasible += c.feasible ? 1 : 0;
    std::fprintf(stderr,
                 "att_profiling: %s: %zu tiling cases (%d feasible), chose case %d, solved in "
                 "%.1f us\n",
                 name.c_str(), k.tiling->cases.size(), feasible, k.tiling->chosen,
                 static_cast<double>(k.tiling->solve_ns) / 1000.0);
  }
}

}  // namespace af::cli
