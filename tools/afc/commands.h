// The afc subcommands. Each returns the process exit code: 0 success, 1 a check that failed,
// 2 bad input or an internal error (message already printed on stderr).
#pragma once

#include <string>

namespace af::cli {

struct InspectOptions {
  std::string input;
  bool json = false;
};
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
