// inductor_npu_ext's lowering summary in its logs: `Lowered <n>x <op>(<args>) -> <out>` and
// `Fallback <n>x <op>(<args>) -> <out>  # reason: <reason>, has_lowering=…, has_decompose=…`
// lines (log prefix `[time] [RANK<n>] [LEVEL] `), read as records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace af::importers::inductor {

struct LoweringRecord {
  bool fallback = false;
  int count = 0;
  std::string op;         // aten.add.Tensor
  std::string signature;  // the whole key as logged
  std::string reason;     // fallback reason ("not in lowering whitelist")
  int line = 0;
};

// Every Lowered/Fallback line of the text (other lines are ignored).
std::vector<LoweringRecord> ParseLoweringSummary(std::string_view text);

}  // namespace af::importers::inductor
