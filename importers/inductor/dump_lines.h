// Lines of a dump text as the Inductor readers see them: CR removed, inductor_npu_ext log prefixes
// (`[2026-03-12 19:26:39] [RANK0] [DEBUG] `, then `Codegen [1/1] `) stripped and flagged, with
// their indentation. Also bracket-depth counting that ignores brackets inside strings. Private to
// the importers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace af::importers::inductor {

struct DumpLine {
  std::string text;        // without CR and log prefix; indentation kept
  int no = 0;              // 1-based line number in the file
  int indent = 0;          // leading white space (tab = to the next multiple of 8)
  bool log_start = false;  // the line began with a log prefix (a new log message)
  bool blank = false;
  std::string_view Stripped() const;  // text without indentation and trailing white space
};

std::vector<DumpLine> SplitDumpLines(std::string_view text);

// Change of bracket depth over `s` ( ([{ +1, )]} -1 ), ignoring brackets inside '…' / "…"; `#`
// is an ordinary character in dump values (common/bracket_scan.h, shared with the FX reader).
int BracketDepth(std::string_view s);

bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
bool IsIdentifier(std::string_view s);

}  // namespace af::importers::inductor
