// What fx_graph_runnable.py says besides its graph: the torch version comment and the graph
// inputs' shapes, strides, dtypes and devices from `def load_args(reader):` (torch >= 2.1) or
// `args = [((shape), (stride), dtype, device), ...]` (2.0). Private to the FX importer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/model/value.h"

namespace af::importers::fx {

struct RunnableInput {
  std::string name;  // from the `# arg0_1` comment; empty when only the position is known
  model::ValueType type;
  std::optional<std::int64_t> hint;  // reader.symint(N): the example value
  int line = 0;
};

struct RunnableInfo {
  std::string torch_version;          // "2.5.1+cu124"; empty when absent
  std::vector<RunnableInput> inputs;  // in order
  // Module buffers registered in Repro.__init__ as `tensor(<literal>)`: attribute name -> type.
  std::vector<std::pair<std::string, model::ValueType>> buffers;
  std::vector<std::pair<int, std::string>> problems;  // (line, message) of lines not understood
};

// Scans the lines (any file: the version comment may be anywhere) for the version comment and the
// input descriptions. Never throws on bad input: problems are listed.
RunnableInfo ReadRunnableInfo(const std::vector<std::string_view>& lines);

}  // namespace af::importers::fx
