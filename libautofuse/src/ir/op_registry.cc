// The op table. Dtype sets follow the vector units' support as autofuse-reference.md §3 describes
// it (floats for transcendental math; floats and integers for arithmetic; bool for logic).
#include "autofuse/ir/op_registry.h"

#include <array>
#include <stdexcept>

namespace af::ir {
namespace {

using enum DType;
using CT = ComputeType;

const std::vector<DType> kFloats = {kFloat32, kFloat16, kBFloat16};
const std::vector<DType> kNumeric = {kFloat32, kFloat16, kBFloat16, kInt8,
                                     kInt16,   kInt32,   kInt64,    kUInt8};
const std::vector<DType> kLogical = {kBool, kUInt8};
const std::vector<DType> kAny = {};

OpDef Def(OpCode c, const char* type, CT ct, std::vector<std::string> inputs) {
  OpDef d;
  d.code = c;
  d.type = type;
  d.compute = ct;
  d.inputs = std::move(inputs);
  return d;
}

OpDef Buffer(OpCode c, const char* type, std::vector<std::string> inputs,
             std::vector<std::string> attrs, std::vector<std::string> required) {
  OpDef d = Def(c, type, CT::kBuffer, std::move(inputs));
  d.attrs = std::move(attrs);
  d.required_attrs = std::move(required);
  d.out_rule = DTypeRule::kDeclared;
  return d;
}

OpDef Unary(OpCode c, const char* type, CT ct, const std::vector<DType>& dtypes) {
  OpDef d = Def(c, type, ct, {"x"});
  d.dtypes = dtypes;
  return d;
}

OpDef Binary(OpCode c, const char* type, const std::vector<DType>& dtypes,
             DTypeRule rule = DTypeRule::kSameAsFirst) {
  OpDef d = Def(c, type, CT::kElewise, {"x1", "x2"});
  d.dtypes = dtypes;
  d.out_rule = rule;
  return d;
}

OpDef Reduce(OpCode c, const char* type, const std::vector<DType>& dtypes) {
  OpDef d = Def(c, type, CT::kReduce, {"x"});
  d.dtypes = dtypes;
  return d;
}

// The V1 (A2/A3) ops of issue 22: inputs, attributes and dtypes as AutoFuse's
// ascir_builtin_ops_v1.cpp registers them (FlashSoftmax: registered without any SoC there).
void AppendV1Ops(std::vector<OpDef>& ops) {
  const std::vector<DType> f16_32 = {kFloat32, kFloat16};
  OpDef axpy = Binary(OpCode::kAxpy, "Axpy", f16_32);  // y = alpha * x1 + x2
  axpy.attrs = {"alpha"};
  axpy.required_attrs = {"alpha"};
  ops.push_back(axpy);
  OpDef clip = Def(OpCode::kClipByValue, "ClipByValue", CT::kElewise, {"x1", "x2", "x3"});
  clip.dtypes = f16_32;  // min(max(x1, x2), x3)
  ops.push_back(clip);
  ops.push_back(Binary(OpCode::kFloorDiv, "FloorDiv", f16_32));
  ops.push_back(Unary(OpCode::kGelu, "Gelu", CT::kElewise, f16_32));  // tanh approximation
  OpDef leaky = Unary(OpCode::kLeakyRelu, "LeakyRelu", CT::kElewise, f16_32);
  leaky.attrs = {"negative_slope"};
  leaky.required_attrs = {"negative_slope"};
  ops.push_back(leaky);
  ops.push_back(Binary(OpCode::kRemainder, "Remainder", {kFloat32, kInt32}));  // Python's %
  ops.push_back(Binary(OpCode::kBitwiseAnd, "BitwiseAnd", {kInt16, kUInt16, kInt32, kUInt8}));
  for (auto [code, type] : {std::pair{OpCode::kIsFinite, "IsFinite"},
                            {OpCode::kIsInf, "IsInf"},
                            {OpCode::kIsnan, "Isnan"}}) {
    OpDef d = Unary(code, type, CT::kElewise, f16_32);
    d.out_rule = DTypeRule::kBool;
    ops.push_back(d);
  }
  // MaskedFill(x, mask, value): value where mask, else x. The mask is bool; x and value share
  // the output dtype (checked in validation like Where's values).
  OpDef fill = Def(OpCode::kMaskedFill, "MaskedFill", CT::kElewise, {"x", "mask", "value"});
  fill.same_input_dtypes = false;
  ops.push_back(fill);
  OpDef sdata = Buffer(OpCode::kScalarData, "ScalarData", {}, {"index"}, {});
  sdata.codegen_refusal = "SCALAR_DATA";
  ops.push_back(sdata);
  OpDef iexpr = Buffer(OpCode::kIndexExpr, "IndexExpr", {}, {"expr"}, {"expr"});
  iexpr.codegen_refusal = "INDEX_EXPR";
  ops.push_back(iexpr);
  ops.push_back(Unary(OpCode::kNop, "Nop", CT::kElewise, kAny));
  ops.push_back(Unary(OpCode::kUb2ub, "Ub2ub", CT::kElewise, kAny));
  OpDef fs = Def(OpCode::kFlashSoftmax, "FlashSoftmax", CT::kElewise, {"x1", "x2", "x3"});
  fs.num_outputs = 3;
  fs.same_input_dtypes = false;
  fs.in_v1 = false;  // Impl({}, ...): AutoFuse implements it on no SoC
  fs.in_v2 = false;
  fs.codegen_refusal = "FLASH_SOFTMAX";
  ops.push_back(fs);
  OpDef vf = Def(OpCode::kVectorFunc, "VectorFunc", CT::kElewise, {"x"});
  vf.dynamic_inputs = true;
  vf.dynamic_outputs = true;
  vf.attrs = {"sub_graph_name"};
  vf.codegen_refusal = "VECTOR_FUNC_SUBGRAPH";
  ops.push_back(vf);
  // ArgMax: the index (int32 or int64, declared) of the first maximum along the reduced dims.
  for (auto [code, type] : {std::pair{OpCode::kArgMax, "ArgMax"},
                            {OpCode::kArgMaxMultiRPhase1, "ArgMaxMultiRPhase1"},
                            {OpCode::kArgMaxMultiRPhase2, "ArgMaxMultiRPhase2"}}) {
    OpDef d = Reduce(code, type, kFloats);
    d.out_rule = DTypeRule::kDeclared;
    d.in_v2 = false;
    ops.push_back(d);
  }
  ops[ops.size() - 2].codegen_refusal = "ARGMAX_MULTI_PHASE";
  ops.back().codegen_refusal = "ARGMAX_MULTI_PHASE";
  // Softmax (V2 only): y = softmax(x) along x's innermost axis, y keeps x's shape. AutoFuse
  // registers integer dtypes too; a softmax is a probability, so the registry takes floats.
  OpDef softmax = Reduce(OpCode::kSoftmax, "Softmax", kFloats);
  softmax.in_v1 = false;
  ops.push_back(softmax);
}

// The orthogonal polynomials of degree n (api_regbase shifted_chebyshev_polynomial_t.h, ...,
// laguerre_polynomial_l.h, legendre_polynomial_p.h; float only there): x and the int64 attr `n`.
// AutoFuse registers the Chebyshev ones with Attr<int64_t>("n") (a template argument of the
// kernel) and Laguerre / Legendre with an integer input "n" whose value the kernel reads as a
// scalar; we take the degree as the attr for all six (a constant, as the kernels need it) and
// refuse a graph that gives Laguerre / Legendre a second input (docs/ir.md).
template <typename Push>
void AppendPolynomialOps(const Push& v2) {
  const std::pair<OpCode, const char*> poly[] = {
      {OpCode::kShiftedChebyshevPolynomialT, "ShiftedChebyshevPolynomialT"},
      {OpCode::kShiftedChebyshevPolynomialU, "ShiftedChebyshevPolynomialU"},
      {OpCode::kShiftedChebyshevPolynomialV, "ShiftedChebyshevPolynomialV"},
      {OpCode::kShiftedChebyshevPolynomialW, "ShiftedChebyshevPolynomialW"},
      {OpCode::kLaguerrePolynomialL, "LaguerrePolynomialL"},
      {OpCode::kLegendrePolynomialP, "LegendrePolynomialP"}};
  for (const auto& [code, type] : poly) {
    OpDef d = Unary(code, type, CT::kElewise, {kFloat32});
    d.attrs = {"n"};
    d.required_attrs = {"n"};
    v2(d);
  }
}

// The 950 (V2) math set of issue 22: AutoFuse registers these for the 950 only; we run them on
// every profile (the V1 profiles record AUTOFUSE_V1_UNREGISTERED).
void AppendV2MathOps(std::vector<OpDef>& ops) {
  const std::vector<DType> f16_32 = {kFloat32, kFloat16};
  const std::vector<DType> ints = {kInt8, kInt16, kInt32, kInt64, kUInt8, kUInt16};
  auto v2 = [&ops](OpDef d) {
    d.in_v1 = false;
    ops.push_back(std::move(d));
  };
  const std::pair<OpCode, const char*> float_unary[] = {
      {OpCode::kSin, "Sin"},       {OpCode::kCos, "Cos"},         {OpCode::kTan, "Tan"},
      {OpCode::kAsin, "Asin"},     {OpCode::kAcos, "Acos"},       {OpCode::kAtan, "Atan"},
      {OpCode::kSinh, "Sinh"},     {OpCode::kCosh, "Cosh"},       {OpCode::kAsinh, "Asinh"},
      {OpCode::kAcosh, "Acosh"},   {OpCode::kAtanh, "Atanh"},     {OpCode::kErfc, "Erfc"},
      {OpCode::kLgamma, "Lgamma"}, {OpCode::kDigamma, "Digamma"}, {OpCode::kFloor, "Floor"},
      {OpCode::kCeil, "Ceil"},     {OpCode::kRound, "Round"},     {OpCode::kTrunc, "Trunc"},
      {OpCode::kLog2, "Log2"},     {OpCode::kLog10, "Log10"},     {OpCode::kSquare, "Square"},
      {OpCode::kExp2, "Exp2"},     {OpCode::kExpm, "Expm"},       {OpCode::kLog1p, "Log1p"}};
  for (const auto& [code, type] : float_unary)
    v2(Unary(code, type, CT::kElewise, f16_32));
  for (auto [code, type] : {std::pair{OpCode::kRoundToInt, "RoundToInt"},
                            {OpCode::kTruncToInt, "TruncToInt"},
                            {OpCode::kFloorToInt, "FloorToInt"},
                            {OpCode::kCeil2Int, "Ceil2Int"}}) {
    OpDef d = Unary(code, type, CT::kElewise, f16_32);
    d.out_rule = DTypeRule::kDeclared;  // int32
    v2(d);
  }
  for (auto [code, type] : {std::pair{OpCode::kFmod, "Fmod"},
                            {OpCode::kHypot, "Hypot"},
                            {OpCode::kTruncDiv, "TruncDiv"},
                            {OpCode::kMod, "Mod"}}) {
    v2(Binary(code, type, f16_32));
  }
  v2(Binary(OpCode::kBitwiseOr, "BitwiseOr", ints));
  v2(Binary(OpCode::kBitwiseXor, "BitwiseXor", ints));
  v2(Unary(OpCode::kBitwiseNot, "BitwiseNot", CT::kElewise, ints));
  v2(Binary(OpCode::kLogicalXor, "LogicalXor", kLogical, DTypeRule::kBool));
  OpDef fma = Def(OpCode::kFma, "Fma", CT::kElewise, {"x1", "x2", "x3"});
  fma.dtypes = f16_32;  // x1 * x2 + x3
  v2(fma);
  // AutoFuse's api_regbase special functions: float only there (their static_asserts).
  const std::pair<OpCode, const char*> special[] = {
      {OpCode::kBesselJ0, "BesselJ0"},
      {OpCode::kBesselJ1, "BesselJ1"},
      {OpCode::kBesselY0, "BesselY0"},
      {OpCode::kBesselY1, "BesselY1"},
      {OpCode::kModifiedBesselI0, "ModifiedBesselI0"},
      {OpCode::kModifiedBesselI1, "ModifiedBesselI1"},
      {OpCode::kModifiedBesselK0, "ModifiedBesselK0"},
      {OpCode::kModifiedBesselK1, "ModifiedBesselK1"},
      {OpCode::kScaledModifiedBesselK0, "ScaledModifiedBesselK0"},
      {OpCode::kScaledModifiedBesselK1, "ScaledModifiedBesselK1"},
      {OpCode::kSphericalBesselJ0, "SphericalBesselJ0"},
      {OpCode::kNdtr, "Ndtr"},
      {OpCode::kNdtri, "Ndtri"},
      {OpCode::kErfinv, "Erfinv"},
      {OpCode::kErfcx, "Erfcx"}};
  for (const auto& [code, type] : special)
    v2(Unary(code, type, CT::kElewise, {kFloat32}));
  // Atan2(x1, x2) = atan2(x2, x1) (AutoFuse's operand order: api_regbase/atan2.h divides src1 by
  // src0), CopySign(x1, x2) = |x1| with x2's sign bit; SignBit(x) = the sign bit, as bool.
  v2(Binary(OpCode::kAtan2, "Atan2", f16_32));
  v2(Binary(OpCode::kCopySign, "CopySign", f16_32));
  // SignBit on int32 too (AutoFuse's SignBitExtend takes float and int32 sources).
  OpDef sign_bit = Unary(OpCode::kSignBit, "SignBit", CT::kElewise, {kFloat32, kInt32});
  sign_bit.out_rule = DTypeRule::kBool;
  v2(sign_bit);
  // The remaining special functions (api_regbase igamma.h, igammac.h, zeta.h, airy_ai.h; float
  // only there): Igamma(a, x) = P(a, x), Igammac(a, x) = Q(a, x), Zeta(x, q) = the Hurwitz zeta
  // function, AiryAi(x) = Ai(x).
  for (auto [code, type] : {std::pair{OpCode::kIgamma, "Igamma"},
                            {OpCode::kIgammac, "Igammac"},
                            {OpCode::kZeta, "Zeta"}}) {
    v2(Binary(code, type, {kFloat32}));
  }
  v2(Unary(OpCode::kAiryAi, "AiryAi", CT::kElewise, {kFloat32}));
  // LShift(x1, x2) / RShift(x1, x2): x1 shifted by x2 bits, x2 of x1's dtype, with PyTorch's
  // results for counts outside [0, width) (docs/ir.md); Xor: inductor's `xor` (Python's `^` on
  // integer tensors), the same values as BitwiseXor. AscendC's tensor-count ShiftLeft/ShiftRight
  // take the 8- to 64-bit integers; uint16 is not an input dtype PyTorch shifts.
  const std::vector<DType> shift_ints = {kInt8, kInt16, kInt32, kInt64, kUInt8};
  v2(Binary(OpCode::kLShift, "LShift", shift_ints));
  v2(Binary(OpCode::kRShift, "RShift", shift_ints));
  v2(Binary(OpCode::kXor, "Xor", ints));
  AppendPolynomialOps(v2);
}

// AscIR's cube ops (autofuse-reference.md §3): x1, x2 (T1), optional bias (T2) and offset_w
// (int8), output y (T2). Input dtypes are checked by ir::CheckMatMul (T1 and T2 differ).
void AddCubeOps(std::vector<OpDef>& ops) {
  const std::vector<std::string> mm_attrs = {"offset_x", "transpose_x1", "transpose_x2", "has_relu",
                                             "enable_hf32"};
  const std::vector<std::string> bmm_attrs = {"offset_x", "has_relu", "enable_hf32", "adj_x1",
                                              "adj_x2"};
  struct Entry {
    OpCode code;
    const char* type;
    bool batch;
    std::vector<std::string> inputs;
  };
  const std::vector<Entry> entries = {
      {OpCode::kMatMul, "MatMul", false, {"x1", "x2"}},
      {OpCode::kMatMulBias, "MatMulBias", false, {"x1", "x2", "bias"}},
      {OpCode::kMatMulOffset, "MatMulOffset", false, {"x1", "x2", "offset_w"}},
      {OpCode::kMatMulOffsetBias, "MatMulOffsetBias", false, {"x1", "x2", "bias", "offset_w"}},
      {OpCode::kBatchMatMul, "BatchMatMul", true, {"x1", "x2"}},
      {OpCode::kBatchMatMulBias, "BatchMatMulBias", true, {"x1", "x2", "bias"}},
      {OpCode::kBatchMatMulOffset, "BatchMatMulOffset", true, {"x1", "x2", "offset_w"}},
      {OpCode::kBatchMatMulOffsetBias,
       "BatchMatMulOffsetBias",
       true,
       {"x1", "x2", "bias", "offset_w"}},
  };
  for (const Entry& e : entries) {
    OpDef d = Def(e.code, e.type, CT::kCube, e.inputs);
    d.attrs = e.batch ? bmm_attrs : mm_attrs;
    d.out_rule = DTypeRule::kDeclared;
    d.same_input_dtypes = false;
    ops.push_back(d);
  }
  // Conv2D[Bias][Offset]: x, filter (T1), optional bias (T2) and offset_w (int8), output y (T2);
  // ir::CheckConv2D checks dtypes and shapes. Codegen has no convolution template.
  const std::vector<std::string> conv_attrs = {"strides",     "pads",     "dilations",
                                               "groups",      "has_relu", "pad_mode",
                                               "data_format", "offset_x", "enable_hf32"};
  const std::vector<std::pair<OpCode, const char*>> convs = {
      {OpCode::kConv2D, "Conv2D"},
      {OpCode::kConv2DBias, "Conv2DBias"},
      {OpCode::kConv2DOffset, "Conv2DOffset"},
      {OpCode::kConv2DOffsetBias, "Conv2DOffsetBias"}};
  for (const auto& [code, type] : convs) {
    const std::string t = type;
    std::vector<std::string> inputs = {"x", "filter"};
    if (t.find("Bias") != std::string::npos) inputs.emplace_back("bias");
    if (t.find("Offset") != std::string::npos) inputs.emplace_back("offset_w");
    OpDef d = Def(code, type, CT::kCube, inputs);
    d.attrs = conv_attrs;
    d.out_rule = DTypeRule::kDeclared;
    d.same_input_dtypes = false;
    d.codegen_refusal = "CUBE_CONV_UNSUPPORTED";
    ops.push_back(d);
  }
}

std::vector<OpDef> MakeOps() {
  std::vector<OpDef> ops;
  // Data/Output `index` is optional: AutoFuse's own serialisation tests write Data nodes without it
  // (inputs are then numbered in file order; validation warns).
  ops.push_back(Buffer(OpCode::kData, "Data", {}, {"index"}, {}));
  ops.push_back(Buffer(OpCode::kScalar, "Scalar", {}, {"value", "index"}, {"value"}));
  // An Output reads one value, or several Stores that each write a region of it through their
  // views (a concat turned into stores: AutoFuse's GM concat).
  ops.push_back(Buffer(OpCode::kOutput, "Output", {"x"}, {"index"}, {}));
  ops.back().dynamic_inputs = true;
  ops.push_back(Buffer(OpCode::kWorkspace, "Workspace", {}, {"index"}, {}));

  OpDef load = Unary(OpCode::kLoad, "Load", CT::kLoad, kAny);
  load.attrs = {"offset"};
  ops.push_back(load);
  OpDef store = Unary(OpCode::kStore, "Store", CT::kStore, kAny);
  store.attrs = {"offset"};
  ops.push_back(store);
  ops.push_back(Unary(OpCode::kBroadcast, "Broadcast", CT::kBroadcast, kAny));
  OpDef cast = Unary(OpCode::kCast, "Cast", CT::kElewise, kAny);
  cast.out_rule = DTypeRule::kDeclared;
  ops.push_back(cast);

  ops.push_back(Unary(OpCode::kAbs, "Abs", CT::kElewise, kNumeric));
  ops.push_back(Unary(OpCode::kNeg, "Neg", CT::kElewise, kNumeric));
  ops.push_back(Unary(OpCode::kExp, "Exp", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kLn, "Ln", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kSqrt, "Sqrt", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kRsqrt, "Rsqrt", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kReciprocal, "Reciprocal", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kRelu, "Relu", CT::kElewise, kNumeric));
  ops.push_back(Unary(OpCode::kSigmoid, "Sigmoid", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kTanh, "Tanh", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kErf, "Erf", CT::kElewise, kFloats));
  ops.push_back(Unary(OpCode::kSign, "Sign", CT::kElewise, kNumeric));
  ops.push_back(Unary(OpCode::kLogicalNot, "LogicalNot", CT::kElewise, kLogical));
  ops.back().out_rule = DTypeRule::kBool;

  ops.push_back(Binary(OpCode::kAdd, "Add", kNumeric));
  ops.push_back(Binary(OpCode::kSub, "Sub", kNumeric));
  ops.push_back(Binary(OpCode::kMul, "Mul", kNumeric));
  ops.push_back(Binary(OpCode::kDiv, "Div", kNumeric));
  ops.push_back(Binary(OpCode::kTrueDiv, "TrueDiv", kFloats));
  ops.push_back(Binary(OpCode::kMaximum, "Maximum", kNumeric));
  ops.push_back(Binary(OpCode::kMinimum, "Minimum", kNumeric));
  ops.push_back(Binary(OpCode::kPow, "Pow", kNumeric));
  ops.push_back(Binary(OpCode::kEq, "Eq", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kNe, "Ne", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kGt, "Gt", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kGe, "Ge", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kLt, "Lt", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kLe, "Le", kNumeric, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kLogicalAnd, "LogicalAnd", kLogical, DTypeRule::kBool));
  ops.push_back(Binary(OpCode::kLogicalOr, "LogicalOr", kLogical, DTypeRule::kBool));

  for (auto [code, type] : {std::pair{OpCode::kWhere, "Where"}, {OpCode::kSelect, "Select"}}) {
    OpDef d = Def(code, type, CT::kElewise, {"x1", "x2", "x3"});  // x1: condition, x2/x3: values
    d.out_rule = DTypeRule::kSameAsSecond;
    d.same_input_dtypes = false;
    ops.push_back(d);
  }

  ops.push_back(Reduce(OpCode::kSum, "Sum", kNumeric));
  ops.push_back(Reduce(OpCode::kMean, "Mean", kFloats));
  ops.push_back(Reduce(OpCode::kMax, "Max", kNumeric));
  ops.push_back(Reduce(OpCode::kMin, "Min", kNumeric));
  ops.push_back(Reduce(OpCode::kProd, "Prod", kNumeric));
  ops.push_back(Reduce(OpCode::kAny, "Any", kLogical));
  ops.push_back(Reduce(OpCode::kAll, "All", kLogical));

  ops.push_back(Unary(OpCode::kTranspose, "Transpose", CT::kTranspose, kAny));
  OpDef concat = Def(OpCode::kConcat, "Concat", CT::kConcat, {"x"});
  concat.dynamic_inputs = true;
  ops.push_back(concat);
  OpDef split = Def(OpCode::kSplit, "Split", CT::kSplit, {"x"});
  split.dynamic_outputs = true;
  split.attrs = {"index", "gid"};
  ops.push_back(split);
  OpDef gather = Def(OpCode::kGather, "Gather", CT::kGather, {"x1", "x2"});
  gather.attrs = {"axis", "negative_index_support"};
  gather.required_attrs = {"axis"};
  gather.same_input_dtypes = false;
  ops.push_back(gather);
  // Pad / RemovePad change only the UB layout of a tensor (rows padded to the 32-byte block, or
  // that padding dropped); AutoFuse V1 registers them as Elewise for these dtypes (docs/ir.md).
  const std::vector<DType> pad_dtypes = {kFloat32, kFloat16, kInt16, kUInt16, kInt32, kUInt32};
  ops.push_back(Unary(OpCode::kPad, "Pad", CT::kElewise, pad_dtypes));
  ops.push_back(Unary(OpCode::kRemovePad, "RemovePad", CT::kElewise, pad_dtypes));
  AppendV1Ops(ops);
  AppendV2MathOps(ops);
  AddCubeOps(ops);
  return ops;
}

}  // namespace

std::string_view ComputeTypeName(ComputeType c) {
  static constexpr std::array<std::string_view, 12> kNames = {
      "load",      "store",  "reduce_store", "elewise", "broadcast", "reduce",
      "transpose", "concat", "gather",       "cube",    "split",     "buffer"};
  return kNames[static_cast<std::size_t>(c)];
}

const std::vector<OpDef>& AllOps() {
  static const std::vector<OpDef> ops = MakeOps();
  return ops;
}

const OpDef* FindOp(std::string_view type) {
  for (const auto& op : AllOps()) {
    if (op.type == type) return &op;
  }
  return nullptr;
}

bool IsReduceOp(std::string_view type) {
  const OpDef* op = FindOp(type);
  return op != nullptr && op->compute == ComputeType::kReduce;
}

std::string AutofuseRefusal(const OpDef& op, bool v2) {
  if (v2) return op.in_v2 ? "" : "AUTOFUSE_V2_UNREGISTERED";
  return op.in_v1 ? "" : "AUTOFUSE_V1_UNREGISTERED";
}

const OpDef& GetOp(OpCode code) {
  for (const auto& op : AllOps()) {
    if (op.code == code) return op;
  }
  throw std::logic_error("op code not registered");
}

}  // namespace af::ir
