// Checks that a graph obeys the IR's rules, with messages that say which node, which tensor and
// what is wrong: dangling inputs, cycles, view rank mismatches, unknown axes, dtype rules per op,
// unknown ops, unknown size symbols.
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/graph.h"

namespace af::ir {

struct Diagnostic {
  enum class Severity { kError, kWarning } severity = Severity::kError;
  int node = -1;        // node index, -1 for graph-level problems
  std::string message;  // names the node and what is wrong
};

std::vector<Diagnostic> Validate(const Graph& g);
bool HasErrors(const std::vector<Diagnostic>& diags);
// One message per line, "error: ..." / "warning: ...".
std::string FormatDiagnostics(const std::vector<Diagnostic>& diags);

}  // namespace af::ir
