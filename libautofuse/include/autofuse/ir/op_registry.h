// The AscIR op set, each op type declared once: inputs and outputs, attributes, ComputeType,
// allowed dtypes and the rule that gives the output dtype. Validation, the schedule (axis groups
// per ComputeType), the interpreter, codegen and the cost model all look ops up here, so adding
// an op means adding one entry (and its hooks in those modules, keyed by the same OpCode).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::ir {

// ComputeType as AutoFuse defines it (ascendc_ir_def.h order), plus kBuffer for the
// Data/Scalar/Output/Workspace markers that AutoFuse calls "Invalid".
enum class ComputeType : std::uint8_t {
  kLoad,
  kStore,
  kReduceStore,
  kElewise,
  kBroadcast,
  kReduce,
  kTranspose,
  kConcat,
  kGather,
  kCube,
  kSplit,
  kBuffer,
};
std::string_view ComputeTypeName(ComputeType c);  // "load", "elewise", ...

// One code per op type; modules switch on it.
enum class OpCode : std::uint16_t {
  kData,
  kScalar,
  kOutput,
  kWorkspace,
  kLoad,
  kStore,
  kBroadcast,
  kCast,
  kAbs,
  kNeg,
  kExp,
  kLn,
  kSqrt,
  kRsqrt,
  kReciprocal,
  kRelu,
  kSigmoid,
  kTanh,
  kErf,
  kSign,
  kLogicalNot,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kTrueDiv,
  kMaximum,
  kMinimum,
  kPow,
  kEq,
  kNe,
  kGt,
  kGe,
  kLt,
  kLe,
  kLogicalAnd,
  kLogicalOr,
  kWhere,
  kSelect,
  kSum,
  kMean,
  kMax,
  kMin,
  kProd,
  kAny,
  kAll,
  kTranspose,
  kConcat,
  kSplit,
  kGather,
  kPad,        // UB layout: pads rows to the 32-byte block; values unchanged
  kRemovePad,  // UB layout: drops that padding; values unchanged
  // Cube ops (autofuse/ir/cube.h): the Offset variants (int8 weight offsets) are registered so
  // that graphs holding them parse and validate, and are refused with CUBE_OFFSET_UNSUPPORTED.
  kMatMul,
  kMatMulBias,
  kMatMulOffset,
  kMatMulOffsetBias,
  kBatchMatMul,
  kBatchMatMulBias,
  kBatchMatMulOffset,
  kBatchMatMulOffsetBias,
};

// How the output dtype follows from the inputs.
enum class DTypeRule : std::uint8_t {
  kSameAsFirst,   // output = dtype of input 0 (elementwise math, load/store, reductions)
  kSameAsSecond,  // output = dtype of input 1 (Where/Select: x1 is the condition)
  kBool,          // comparisons and logical ops produce bool (uint8 storage)
  kDeclared,      // the output dtype is whatever the tensor declares (Cast, Data, Scalar)
};

struct OpDef {
  OpCode code = OpCode::kData;
  std::string type;  // AscIR type name, e.g. "Add"
  ComputeType compute = ComputeType::kBuffer;
  std::vector<std::string> inputs;  // input names; with dynamic_inputs, the repeated one
  bool dynamic_inputs = false;      // Concat: any number >= 1
  int num_outputs = 1;              // Output has 1 (pass-through), Split is dynamic
  bool dynamic_outputs = false;
  std::vector<std::string> attrs;  // attribute keys the op understands
  std::vector<std::string> required_attrs;
  std::vector<DType> dtypes;  // allowed dtypes of the data inputs; empty = any
  DTypeRule out_rule = DTypeRule::kSameAsFirst;
  bool same_input_dtypes = true;  // all data inputs must share one dtype
};

const std::vector<OpDef>& AllOps();
const OpDef* FindOp(std::string_view type);  // nullptr for unknown types
bool IsReduceOp(std::string_view type);      // a registered op of ComputeType::kReduce
const OpDef& GetOp(OpCode code);

}  // namespace af::ir
