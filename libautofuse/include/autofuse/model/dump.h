// The readable text form of a model graph, for golden tests, `afc inspect` and bug reports.
// Deterministic: the same graph always prints the same bytes.
//
//   graph GraphModule
//     torch 2.5.1+cu124
//     symbols s0
//     input arg2_1: Sym(s0)
//     input arg3_1: f32[s0, 1, 28, 28]
//     %0 convolution: f32[s0, 32, 26, 26] = aten.convolution.default(arg3_1, ...)  # checked
//     %5 var_mean = aten.var_mean.correction(x, [2], correction=0, keepdim=True)  # inferred
//         [0] getitem: f32[s0, 197, 1]  # checked
//     return (sub_13,)
//     diagnostic line 12 mismatch: ...
#pragma once

#include <string>

#include "autofuse/model/graph.h"

namespace af::model {

struct DumpOptions {
  bool provenance = false;     // print the `# File:` lines before each node
  bool type_source = true;     // print "# checked" / "# inferred" / "# annotated" / "# CONFLICT"
  bool diagnostics = true;     // print the diagnostics at the end
  bool file_and_line = false;  // print "line N" after each node (off: keeps goldens stable)
};

std::string DumpText(const Graph& g, const DumpOptions& opts = {});

// One argument as the dump prints it: value names, Python-like constants.
std::string FormatArg(const Graph& g, const Arg& a);

}  // namespace af::model
