// Checks that a graph obeys the IR's rules, with messages that say which node, which tensor and
// what is wrong: dangling inputs, cycles, view rank mismatches, unknown axes, dtype rules per op,
// unknown ops, unknown size symbols.
#pragma once

#include <cstdint>
#include <optional>
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

// The degree of an orthogonal-polynomial node (ShiftedChebyshevPolynomialT, ...): its attr `n`
// as an integer (an int64, an integral double, or a string holding one); nullopt when it is
// missing or not an integer. Validation reports that; the interpreter and codegen read it here.
std::optional<std::int64_t> PolynomialDegree(const Node& n);

bool HasErrors(const std::vector<Diagnostic>& diags);
// One message per line, "error: ..." / "warning: ...".
std::string FormatDiagnostics(const std::vector<Diagnostic>& diags);

}  // namespace af::ir
