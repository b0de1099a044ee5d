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
  // AutoFuse V1 (A2/A3) ops beyond the first set (issue 22).
  kAxpy,
  kClipByValue,
  kFloorDiv,
  kGelu,
  kLeakyRelu,
  kRemainder,
  kBitwiseAnd,
  kIsFinite,
  kIsInf,
  kIsnan,
  kMaskedFill,
  kScalarData,
  kIndexExpr,
  kNop,
  kUb2ub,
  kFlashSoftmax,
  kVectorFunc,
  kArgMax,
  kArgMaxMultiRPhase1,
  kArgMaxMultiRPhase2,
  // The AutoFuse V2 (950) math set (issue 22).
  kSin,
  kCos,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kSinh,
  kCosh,
  kAsinh,
  kAcosh,
  kAtanh,
  kErfc,
  kLgamma,
  kDigamma,
  kFloor,
  kCeil,
  kRound,
  kTrunc,
  kLog2,
  kLog10,
  kSquare,
  kExp2,
  kExpm,
  kLog1p,
  kRoundToInt,
  kTruncToInt,
  kFloorToInt,
  kCeil2Int,
  kFmod,
  kHypot,
  kTruncDiv,
  kMod,
  kBitwiseOr,
  kBitwiseXor,
  kBitwiseNot,
  kLogicalXor,
  kFma,
  // Special functions AutoFuse's V2 computes with its own kernel library (api_regbase).
  kBesselJ0,
  kBesselJ1,
  kBesselY0,
  kBesselY1,
  kModifiedBesselI0,
  kModifiedBesselI1,
  kModifiedBesselK0,
  kModifiedBesselK1,
  kScaledModifiedBesselK0,
  kScaledModifiedBesselK1,
  kSphericalBesselJ0,
  kNdtr,
  kNdtri,
  kErfinv,
  kErfcx,
  // The 950 set's sign and angle ops (issue 22, last part).
  kAtan2,
  kCopySign,
  kSignBit,
  // The 950 set's remaining special functions (issue 22): incomplete gamma, Hurwitz zeta, Airy.
  kIgamma,
  kIgammac,
  kZeta,
  kAiryAi,
  // The 950 set's integer bit ops (issue 22, helper "bits").
  kLShift,
  kRShift,
  kXor,
  // The 950 set's orthogonal polynomials (issue 22, helper "poly"): x and an int64 attr `n`, the
  // degree (AutoFuse passes it as a template argument or a scalar, never a tensor we read).
  kShiftedChebyshevPolynomialT,
  kShiftedChebyshevPolynomialU,
  kShiftedChebyshevPolynomialV,
  kShiftedChebyshevPolynomialW,
  kLaguerrePolynomialL,
  kLegendrePolynomialP,
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
  // Convolutions (autofuse/ir/conv.h): registered, validated and interpreted; no fused kernel
  // takes them (CUBE_CONV_UNSUPPORTED).
  kConv2D,
  kConv2DBias,
  kConv2DOffset,
  kConv2DOffsetBias,
  // AscIR's V2 Softmax (a reduce-typed op whose output keeps the input's shape: softmax along the
  // innermost axis); the schedule expands it (schedule/expand_softmax.h).
  kSoftmax,
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
  // Which AutoFuse back-end registers the op (ascir_builtin_ops_v1.cpp for A2/A3 "2201",
  // v35/.../ascir_builtin_ops_v2.cpp for the 950). Our pipeline runs an op on every profile; on a
  // profile whose back-end lacks it the compile records a decision (AUTOFUSE_V1_UNREGISTERED or
  // AUTOFUSE_V2_UNREGISTERED) and `afc ops` lists the code, so the difference is never silent.
  bool in_v1 = true;
  bool in_v2 = true;
  // Empty when codegen lowers the op to AscendC; else the reason code codegen refuses it with
  // (the interpreter may still evaluate it).
  std::string codegen_refusal;
};

// The decision code for `op` on a profile of AutoFuse back-end `v2` (false: V1, A2/A3): empty
// when that back-end registers the op.
std::string AutofuseRefusal(const OpDef& op, bool v2);

const std::vector<OpDef>& AllOps();
const OpDef* FindOp(std::string_view type);  // nullptr for unknown types
bool IsReduceOp(std::string_view type);      // a registered op of ComputeType::kReduce
// ShiftedChebyshevPolynomialT/U/V/W, LaguerrePolynomialL, LegendrePolynomialP (attr `n`).
inline bool IsPolynomialOp(OpCode c) {
  return c >= OpCode::kShiftedChebyshevPolynomialT && c <= OpCode::kLegendrePolynomialP;
}
const OpDef& GetOp(OpCode code);

}  // namespace af::ir
