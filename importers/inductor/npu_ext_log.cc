#include "autofuse/importers/npu_ext_log.h"

#include <charconv>

#include "autofuse/support/strings.h"
#include "dump_lines.h"

namespace af::importers::inductor {

std::vector<LoweringRecord> ParseLoweringSummary(std::string_view text) {
  std::vector<LoweringRecord> out;
  for (const DumpLine& l : SplitDumpLines(text)) {
    if (!l.log_start) continue;
    std::string_view t = l.Stripped();
    LoweringRecord r;
    if (StartsWith(t, "Lowered ")) {
      t.remove_prefix(8);
    } else if (StartsWith(t, "Fallback ")) {
      r.fallback = true;
      t.remove_prefix(9);
    } else {
      continue;
    }
    const std::size_t x = t.find("x ");
    if (x == std::string_view::npos) continue;
    const auto res = std::from_chars(t.data(), t.data() + x, r.count);
    if (res.ec != std::errc() || res.ptr != t.data() + x) continue;
    t.remove_prefix(x + 2);
    const std::size_t reason = t.find("# reason:");
    if (reason != std::string_view::npos) {
      std::string_view why = TrimSpace(t.substr(reason + 9));
      const std::size_t flags = why.find(", has_lowering=");
      r.reason = std::string(why.substr(0, flags));
      t = TrimSpace(t.substr(0, reason));
    }
    r.signature = std::string(t);
    r.op = std::string(t.substr(0, t.find('(')));
    r.line = l.no;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace af::importers::inductor
