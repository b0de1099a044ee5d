// Reading PyTorch FX graphs as torch_compile_debug and TORCH_TRACE write them, without running
// Python: fx_graph_readable.py, fx_graph_transformed.py, fx_graph_runnable.py (the forward of its
// `class Repro`, the input shapes of `load_args` / `args = [...]` and the `# torch version:`
// line) and inductor_post_grad_graph text, as printed by PyTorch 2.0 ... 2.9.
//
// The result is a model::Graph with every `torch.ops.*` call as a kOp node (unknown ops are kept
// as opaque nodes), Python arithmetic on symbolic sizes as kPython nodes, multi-output nodes whose
// outputs the `getitem` lines name, annotations as value types, and `# File:` comments as node
// provenance. Types are then inferred and checked (model::InferTypes): disagreements between an
// annotation and inference are diagnostics in the graph, not errors.
//
// Damaged input never crashes or hangs the reader: it throws af::InputError naming the file, the
// line and the cause.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "autofuse/model/graph.h"

namespace af::importers {

// True when `text` looks like a printed FX graph module: a `def forward(self` line inside a
// class, with torch.ops calls or annotations. Cheap; does not parse.
bool LooksLikeFxGraph(std::string_view text);

// Parses an FX graph module's text. `file` is used in error messages and kept in Graph::file.
model::Graph ParseFxGraph(const std::string& text, const std::string& file);

// Reads and parses a file (InputError when it cannot be read).
model::Graph LoadFxGraphFile(const std::filesystem::path& path);

}  // namespace af::importers
