// afc convert: one AscGraph between its file forms, never overwriting a file unless asked.
#include <filesystem>
#include <iostream>

#include "autofuse/inputs/registry.h"
#include "autofuse/ir/load.h"
#include "autofuse/ir/text.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "commands.h"

namespace af::cli {

int RunConvert(const ConvertOptions& opts) {
  const ir::Graph g = inputs::ReadOneHintGraph(opts.input);
  std::error_code ec;
  std::string text;
  if (opts.to == "text") {
    text = ir::DumpText(g);
  } else if (opts.to == "ascgraph") {
    text = ir::WriteAscGraphText(g);
  } else {
    throw InputError({}, "--to must be 'text' or 'ascgraph', not '" + opts.to + "'");
  }
  if (opts.output.empty() || opts.output == "-") {
    std::cout << text;
    return 0;
  }
  if (std::filesystem::exists(opts.output, ec) && !opts.force) {
    throw InputError({opts.output, 0, 0}, "exists; not overwriting it (use --force)");
  }
  WriteFileReplacing(opts.output, text);
  return 0;
}

}  // namespace af::cli
