// What a pipeline run is asked to do: the hardware profile, the bound sizes, the AutoFuse-style
// flags, whether to build, and the dump hook called after every stage. Parsers for the `--flags`
// and `--bind` texts that afc and the viewer take.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "autofuse/codegen/codegen.h"
#include "autofuse/hw/profile.h"
#include "autofuse/sym/expr.h"
#include "autofuse/toolchain/compile.h"

namespace af::pipeline {

// Called after each stage with the stage name and a readable dump of its result.
using DumpHook = std::function<void(const std::string& stage, const std::string& text)>;

struct Options {
  std::string soc = "ascend910b";
  sym::Bindings bindings;
  std::map<std::string, std::string> flags;  // AutoFuse-style --key=value flags
  bool build = true;                         // compile the generated sources
  // Model graphs: also estimate super kernels into the report (CompileReport.superkernel;
  // `afc compile --superkernel`, pipeline/superkernel_report.h).
  bool superkernel = false;
  toolchain::CompileOptions compile;
  DumpHook dump;
};

// The tiling solver and cache the flags ask for (--autofuse_att_algorithm, --att_*,
// --autofuse_enable_tiling_cache), for the in-process solver and the generated tiling function.
codegen::TilingOptions TilingOptionsFrom(const Options& o, const hw::Profile& profile);

// A non-negative index flag (`--force_tiling_case`, `--force_schedule_result`); -1 when unset.
// Throws af::InputError naming the flag and `what` it must be.
int IndexFlag(const Options& o, const char* name, const char* what);

// `--force_tiling_case` for a kernel of `groups` schedule groups (AutoFuse's spec: items `N`,
// `N_R`, `gG_N`, `gG_N_R`, comma-separated): the case each group is forced to, -1 where none. A
// plain `N` forces every group that has no `gG_` item of its own. Empty when the flag is unset.
// Throws af::InputError for a malformed item or a group the kernel does not have.
std::vector<int> ForcedGroupCases(const Options& o, std::size_t groups);

// Parses "--key=value;--k2=v2" (also "key=value", spaces around '=' allowed) into `flags`.
// Throws af::InputError on a malformed entry.
void ParseFlags(const std::string& text, std::map<std::string, std::string>* flags);
// Parses "s0=128,s1=64" into bindings; throws af::InputError.
void ParseBindings(const std::string& text, sym::Bindings* b);

}  // namespace af::pipeline
