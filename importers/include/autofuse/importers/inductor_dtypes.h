// Buffer dtypes for Inductor dumps that print no layouts (torch 2.0's ir_*_fusion.txt). Every
// dtype is derived, never guessed:
//  - graph inputs (`arg0_1`, `primals_1`, ...) take the dtype of the FX placeholder of the same
//    name (Inductor names its graph inputs after the FX placeholders);
//  - a computed buffer takes the dtype of the value its loop body stores, propagated through the
//    body from the loaded buffers (`to_dtype`, `constant`, `index_expr`, `reduction` name their
//    dtype; other ops keep the common dtype of their operands, comparisons give bool);
//  - the k-th extern kernel `extern_kernels.addmm` (or `aten.convolution`, ...) in buffer order is
//    the k-th FX call of that aten op (Inductor lowers FX nodes in graph order and names buffers in
//    creation order), taken only when both counts agree;
//  - a ConcatKernel (nop) buffer takes the dtype its inputs agree on.
// Buffers none of these determine stay out of the map (their groups fall back with the reason).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/importers/inductor_ir.h"
#include "autofuse/model/graph.h"

namespace af::importers::inductor {

struct BufferDTypes {
  std::map<std::string, std::string> dtype;   // buffer -> "torch.float16"
  std::map<std::string, std::string> source;  // buffer -> how it was derived (for reports)
  std::vector<std::string> notes;             // mappings refused, e.g. extern counts differ
  std::string fx_file;                        // the FX graph used ("" when none)
};

// Layout dtypes (2.1+) first, then the rules above. `pre` and `fx` may be null.
BufferDTypes InferBufferDTypes(const IrFile& post, const IrFile* pre, const model::Graph* fx);

// The FX graph of the model folder holding `ir_file` (fx_graph_transformed.py, then
// fx_graph_readable.py, then fx_graph_runnable.py; the first that parses), or nullopt.
std::optional<model::Graph> LoadFolderFxGraph(const std::string& ir_file);

}  // namespace af::importers::inductor
