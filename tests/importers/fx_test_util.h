// Helpers shared by the FX importer tests: locating FX files and counting what a file holds
// straight from its text (independently of the importer).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "autofuse/model/graph.h"

namespace af::test {

// tests/fixtures/fx/<name>.
std::filesystem::path FxFixture(const std::string& name);
// Every fx_graph_{readable,transformed,runnable}.py under shared/fixtures/inductor, sorted.
std::vector<std::filesystem::path> RealFxFiles();
// Every FX file of ours (tests/fixtures/fx), sorted.
std::vector<std::filesystem::path> OurFxFiles();
// Lines that assign the result of a `torch.ops.` call: `x = torch.ops...` / `x: "t" =
// torch.ops...`.
int CountTorchOpsLines(const std::string& text);
// Lines that assign Python arithmetic on two operands: `mul: "Sym(196)" = a * b`.
int CountPythonArithmeticLines(const std::string& text);
// Values whose inferred type disagrees with the annotation.
int CountConflicts(const model::Graph& g);

}  // namespace af::test
