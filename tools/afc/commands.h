// The afc subcommands. Each returns the process exit code: 0 success, 1 a check that failed,
// 2 bad input or an internal error (message already printed on stderr).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace af::cli {

struct InspectOptions {
  std::string input;
  bool json = false;
};
// The input registry's inspector for the input's format (inputs/registry.h).
int RunInspect(const InspectOptions& opts);

}  // namespace af::cli

namespace af::cli {

struct ConvertOptions {
  std::string input;
  std::string to = "text";  // "text" (readable form) or "ascgraph" (AscGraphDef text)
  std::string output;       // empty: stdout
  bool force = false;       // overwrite an existing output file
};
int RunConvert(const ConvertOptions& opts);

}  // namespace af::cli

namespace af::cli {

// Options shared by compile, run and tile (contracts.md "Common").
struct CommonOptions {
  std::string input;
  std::string bind;   // "s0=128,s1=64"
  std::string flags;  // "--key=value;..."
  std::string soc = "ascend910b";
  bool json = false;
  bool strict = false;  // a flag warning (unknown name, bad value) exits 2
};

// AUTOFUSE_FLAGS, AUTOFUSE_DFX_FLAGS, then --flags, checked against the flag table
// (pipeline/flag_table.h): warnings and notes on stderr; throws af::InputError under --strict.
void ReadFlags(const CommonOptions& c, std::map<std::string, std::string>* flags);

struct CompileOptions {
  CommonOptions common;
  std::string out;
  bool timings = false;
  bool force = false;
  bool no_build = false;     // generate the sources only, no host compile
  bool superkernel = false;  // model graphs: the super-kernel estimate into report.json
};
int RunCompile(const CompileOptions& opts);

struct RunCmdOptions {
  CommonOptions common;
  std::string inputs;
  std::string expect;
  unsigned long long seed = 0;
  double atol = -1;  // < 0: the dtype's default
  double rtol = -1;
  bool superkernel = false;  // model graphs: also run with super kernels (pipeline/superkernel.h)
};
int RunRun(const RunCmdOptions& opts);

struct TileOptions {
  CommonOptions common;
  std::string solver = "default";
};
int RunTile(const TileOptions& opts);

// afc export INPUT --format F --out PATH [--graph model|hint|impl] [--force] (exporters/).
struct ExportOptions {
  CommonOptions common;
  std::string format;
  std::string out;
  std::string graph;  // dot/svg/png: model (default for model graphs), hint, impl
  bool force = false;
};
int RunExport(const ExportOptions& opts);

// afc opt INPUT [--stage "NAME [ARGS]"]...: stages by hand (pipeline/stages.h); without --stage
// the input's own `# RUN:` lines.
struct OptOptions {
  std::string input;
  std::vector<std::string> stages;
};
int RunOpt(const OptOptions& opts);

}  // namespace af::cli

namespace af::cli {

// afc diff REPORT_A REPORT_B [--json]: report.json files or `afc compile --out` folders.
struct DiffOptions {
  std::string a;
  std::string b;
  bool json = false;
};
int RunDiff(const DiffOptions& opts);

}  // namespace af::cli

namespace af::cli {

// `afc ops`: the op registry as one profile sees it (issue 22).
struct OpsOptions {
  std::string soc = "ascend910b";
  bool json = false;
};
int RunOps(const OpsOptions& opts);

}  // namespace af::cli
