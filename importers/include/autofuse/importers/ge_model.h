// GE graphs (ge_onnx_*.pbtxt or ge_proto_*.txt, read into GeOnnxModel) as the front end's model
// graph, so that GE networks take the same road as FX graphs: fusion decisions, kernels,
// fallbacks with reasons. GE op types lower to the aten ops the front end knows, with GE's
// attributes honoured (Cast's destination type, ReduceSumD's axes and keep_dims, ConcatV2's axis
// Const, Split's num_split, GatherV2's axis, MatMul's transposes …); SoftmaxV2 and LayerNorm are
// decomposed as the front end expects. Const values in the dump are used: small integer Consts as
// axes / permutations / sizes, one-element Consts as scalars, others as constant tensors with
// their bytes. An op that does not lower (a type outside the table, a private format such as
// NC1HWC0, unknown dims, a Const the dump does not hold) stays a `ge.<Type>` node and is listed
// in `refusals` with a reason code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/importers/ge_onnx.h"
#include "autofuse/ir/dtype.h"
#include "autofuse/model/graph.h"

namespace af::importers::ge {

// Why a GE op stays outside the aten graph. Codes: GE_UNSUPPORTED_OP (no lowering for the type),
// GE_FORMAT (a tensor in a private format), GE_DYNAMIC_SHAPE (dims not known), GE_CONST_MISSING
// (a Const operand the dump does not hold), GE_UNSUPPORTED_ATTR (an attribute value we cannot
// express), GE_SUBGRAPH_CALL (a call of a subgraph: its body is lowered as its own graph).
struct GeRefusal {
  std::string node;  // model graph node name
  std::string code;
  std::string message;
};

// A constant tensor of the model graph with the bytes the dump gave (C order, little endian).
struct GeConstant {
  int value = -1;  // model value id
  ir::DType dtype = ir::DType::kFloat32;
  std::vector<std::int64_t> shape;
  std::string bytes;
};

struct GeModelImport {
  model::Graph graph;
  std::vector<GeRefusal> refusals;
  std::vector<GeConstant> constants;
};

// One graph of a dump.
GeModelImport LowerGeGraph(const GeOnnxGraph& g, const std::string& file);
// Every graph of a dump in one model graph: the root graph, then each subgraph with its node
// names prefixed by "<graph name>/" (its Data nodes become inputs, its NetOutput outputs).
GeModelImport LowerGeModel(const GeOnnxModel& m);

// ND and the plain layouts whose shape is the dense C-order shape (NCHW, NHWC, NCDHW, NDHWC,
// HWCN, CHWN) and "" (not dumped); the fractal / 5HD formats are not.
bool IsPlainGeFormat(std::string_view layout);

}  // namespace af::importers::ge
