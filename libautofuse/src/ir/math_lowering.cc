// The math set's lowering table. API names and operand orders are CANN's: basic APIs
// (Muls/Adds/Exp/Ln/Mul/Add/Div/Max/Min/LeakyRelu/Cast/DataCopy) and adv_api/math,
// adv_api/activation (asc-devkit include/adv_api).
#include "autofuse/ir/math_lowering.h"

#include <algorithm>
#include <map>

namespace af::ir {
namespace {

ApiCall Call(const char* api, std::vector<int> srcs, int dst = kCallDst) {
  ApiCall c;
  c.api = api;
  c.srcs = std::move(srcs);
  c.dst = dst;
  return c;
}

ApiCall Scalar(const char* api, int src, const char* scalar, int dst = kCallDst) {
  ApiCall c = Call(api, {src}, dst);
  c.scalar = scalar;
  return c;
}

ApiCall CastCall(const char* mode) {
  ApiCall c = Call("Cast", {0});
  c.round_mode = mode;
  return c;
}

// AutoFuse's kernel library's orthogonal polynomials (rows of Table, kept apart for its size).
void AddPolynomials(std::map<OpCode, std::vector<ApiCall>>& m) {
  // ShiftedChebyshevPolynomialTExtend<T, N>(dst, src, tmp, count) with the degree N as a template
  // argument (api_regbase shifted_chebyshev_polynomial_t.h, .._u.h, .._v.h, .._w.h),
  // LaguerrePolynomialLExtend / LegendrePolynomialPExtend(dst, src, n, count) with the degree as a
  // scalar and no temporary.
  for (auto [code, api] :
       {std::pair{OpCode::kShiftedChebyshevPolynomialT, "ShiftedChebyshevPolynomialTExtend"},
        {OpCode::kShiftedChebyshevPolynomialU, "ShiftedChebyshevPolynomialUExtend"},
        {OpCode::kShiftedChebyshevPolynomialV, "ShiftedChebyshevPolynomialVExtend"},
        {OpCode::kShiftedChebyshevPolynomialW, "ShiftedChebyshevPolynomialWExtend"}}) {
    ApiCall c = Call(api, {0});
    c.tmp_bytes = true;
    c.degree_template = true;
    m[code] = {c};
  }
  for (auto [code, api] : {std::pair{OpCode::kLaguerrePolynomialL, "LaguerrePolynomialLExtend"},
                           {OpCode::kLegendrePolynomialP, "LegendrePolynomialPExtend"}}) {
    ApiCall c = Scalar(api, 0, "attr:n");
    c.scalar_ctype = "int64_t";
    m[code] = {c};
  }
}

const std::map<OpCode, std::vector<ApiCall>>& Table() {
  static const std::map<OpCode, std::vector<ApiCall>> t = [] {
    std::map<OpCode, std::vector<ApiCall>> m;
    // One adv_api call, dst = f(src).
    const std::pair<OpCode, const char*> unary[] = {
        {OpCode::kSin, "Sin"},       {OpCode::kCos, "Cos"},
        {OpCode::kTan, "Tan"},       {OpCode::kAsin, "Asin"},
        {OpCode::kAcos, "Acos"},     {OpCode::kAtan, "Atan"},
        {OpCode::kSinh, "Sinh"},     {OpCode::kCosh, "Cosh"},
        {OpCode::kAsinh, "Asinh"},   {OpCode::kAcosh, "Acosh"},
        {OpCode::kAtanh, "Atanh"},   {OpCode::kErfc, "Erfc"},
        {OpCode::kLgamma, "Lgamma"}, {OpCode::kDigamma, "Digamma"},
        {OpCode::kFloor, "Floor"},   {OpCode::kCeil, "Ceil"},
        {OpCode::kRound, "Round"},   {OpCode::kTrunc, "Trunc"},
        {OpCode::kLog2, "Log2"},     {OpCode::kLog10, "Log10"},
        {OpCode::kGelu, "Gelu"},     {OpCode::kBitwiseNot, "BitwiseNot"}};
    for (const auto& [code, api] : unary)
      m[code] = {Call(api, {0})};
    for (auto [code, api] : {std::pair{OpCode::kFmod, "Fmod"},
                             {OpCode::kHypot, "Hypot"},
                             {OpCode::kBitwiseAnd, "BitwiseAnd"},
                             {OpCode::kBitwiseOr, "BitwiseOr"},
                             {OpCode::kBitwiseXor, "BitwiseXor"}}) {
      m[code] = {Call(api, {0, 1})};
    }
    for (auto [code, api] : {std::pair{OpCode::kIsFinite, "IsFinite"},
                             {OpCode::kIsInf, "IsInf"},
                             {OpCode::kIsnan, "IsNan"}}) {
      ApiCall c = Call(api, {0});
      c.bool_dst = true;
      m[code] = {c};
    }
    // The logical family (adv_api logical_*.h): the first set's LogicalNot/And/Or too.
    for (auto [code, api] : {std::pair{OpCode::kLogicalXor, "LogicalXor"},
                             {OpCode::kLogicalAnd, "LogicalAnd"},
                             {OpCode::kLogicalOr, "LogicalOr"},
                             {OpCode::kLogicalNot, "LogicalNot"}}) {
      ApiCall c =
          Call(api, code == OpCode::kLogicalNot ? std::vector<int>{0} : std::vector<int>{0, 1});
      c.bool_dst = true;
      c.bool_srcs = true;
      m[code] = {c};
    }
    // Casts with a rounding mode (float -> int32).
    m[OpCode::kRoundToInt] = {CastCall("CAST_RINT")};
    m[OpCode::kTruncToInt] = {CastCall("CAST_TRUNC")};
    m[OpCode::kFloorToInt] = {CastCall("CAST_FLOOR")};
    m[OpCode::kCeil2Int] = {CastCall("CAST_CEIL")};
    // Chains of basic APIs, in place after the first call.
    m[OpCode::kSquare] = {Call("Mul", {0, 0})};
    m[OpCode::kExp2] = {Scalar("Muls", 0, "0.69314718055994531"), Call("Exp", {kCallDst})};
    m[OpCode::kExpm] = {Call("Exp", {0}), Scalar("Adds", kCallDst, "-1")};
    m[OpCode::kLog1p] = {Scalar("Adds", 0, "1"), Call("Ln", {kCallDst})};
    m[OpCode::kNop] = {Call("DataCopy", {0})};
    m[OpCode::kUb2ub] = {Call("DataCopy", {0})};
    m[OpCode::kLeakyRelu] = {Scalar("LeakyRelu", 0, "attr:negative_slope")};
    m[OpCode::kAxpy] = {Scalar("Muls", 0, "attr:alpha"), Call("Add", {kCallDst, 1})};
    m[OpCode::kClipByValue] = {Call("Max", {0, 1}), Call("Min", {kCallDst, 2})};
    m[OpCode::kFma] = {Call("Mul", {0, 1}), Call("Add", {kCallDst, 2})};
    // Through the work tensor: the quotient, then its rounding (and for the modulo forms
    // x1 - floor(x1 / x2) * x2).
    m[OpCode::kFloorDiv] = {Call("Div", {0, 1}, kCallTmp), Call("Floor", {kCallTmp})};
    m[OpCode::kTruncDiv] = {Call("Div", {0, 1}, kCallTmp), Call("Trunc", {kCallTmp})};
    for (OpCode c : {OpCode::kRemainder, OpCode::kMod}) {
      m[c] = {Call("Div", {0, 1}, kCallTmp), Call("Floor", {kCallTmp}), Call("Mul", {kCallDst, 1}),
              Call("Sub", {0, kCallDst})};
    }
    // AutoFuse's own kernel library (graph-autofusion autofuse/v35/ascendc/api_regbase): the
    // special functions AscendC has no API for, (dst, src, sharedTmpBuffer, calCount).
    const std::pair<OpCode, const char*> extend[] = {
        {OpCode::kBesselJ0, "BesselJ0Extend"},
        {OpCode::kBesselJ1, "BesselJ1Extend"},
        {OpCode::kBesselY0, "BesselY0Extend"},
        {OpCode::kBesselY1, "BesselY1Extend"},
        {OpCode::kModifiedBesselI0, "ModifiedBesselI0Extend"},
        {OpCode::kModifiedBesselI1, "ModifiedBesselI1Extend"},
        {OpCode::kModifiedBesselK0, "ModifiedBesselK0Extend"},
        {OpCode::kModifiedBesselK1, "ModifiedBesselK1Extend"},
        {OpCode::kScaledModifiedBesselK0, "ScaledModifiedBesselK0Extend"},
        {OpCode::kScaledModifiedBesselK1, "ScaledModifiedBesselK1Extend"},
        {OpCode::kSphericalBesselJ0, "SphericalBesselJ0Extend"},
        {OpCode::kNdtr, "NdtrExtend"},
        {OpCode::kNdtri, "NdtriExtend"},
        {OpCode::kErfinv, "Erfinv"},
        {OpCode::kErfcx, "ErfcxExtend"}};
    for (const auto& [code, api] : extend) {
      ApiCall c = Call(api, {0});
      c.tmp_bytes = true;
      m[code] = {c};
    }
    // The same library's sign and angle ops (api_regbase atan2.h, copy_sign.h, signbit.h):
    // Atan2Extend(dst, src0, src1, tmp, n) = atan2(src1, src0), CopySignExtend(dst, src0, src1, n)
    // (no temporary), SignBitExtend(dst as bool, src, tmp, n).
    ApiCall atan2 = Call("Atan2Extend", {0, 1});
    atan2.tmp_bytes = true;
    m[OpCode::kAtan2] = {atan2};
    m[OpCode::kCopySign] = {Call("CopySignExtend", {0, 1})};
    ApiCall sign_bit = Call("SignBitExtend", {0});
    sign_bit.tmp_bytes = true;
    sign_bit.bool_dst = true;
    m[OpCode::kSignBit] = {sign_bit};
    // The same library's incomplete gamma, zeta and Airy functions (api_regbase igamma.h,
    // igammac.h, zeta.h, airy_ai.h): (dst, src0, src1, tmp, n) and (dst, src, tmp, n).
    for (auto [code, api] : {std::pair{OpCode::kIgamma, "IgammaExtend"},
                             {OpCode::kIgammac, "IgammacExtend"},
                             {OpCode::kZeta, "ZetaExtend"}}) {
      ApiCall c = Call(api, {0, 1});
      c.tmp_bytes = true;
      m[code] = {c};
    }
    ApiCall airy = Call("AiryAiExtend", {0});
    airy.tmp_bytes = true;
    m[OpCode::kAiryAi] = {airy};
    AddPolynomials(m);
    // Xor: inductor's `xor` on integers, BitwiseXor's call.
    m[OpCode::kXor] = {Call("BitwiseXor", {0, 1})};
    // LShift / RShift through the tensor-count ShiftLeft / ShiftRight, with PyTorch's results for
    // every count (docs/ir.md): the API takes no negative count, leaves a count equal to the width
    // unspecified, and its signed ShiftLeft keeps the sign bit. So, on the count n read as
    // unsigned (negative counts become huge): s1 = min(n, bits - 1), shift by s1, then by
    // s2 = min(n - s1, 1) (1 exactly when n is out of range), every count in [0, bits). Two
    // in-range shifts give PyTorch's 0 (left, unsigned right) or sign fill (signed right);
    // ShiftLeft works on the unsigned view (a logical shift, PyTorch's wrap-around).
    for (auto [code, api] :
         {std::pair{OpCode::kLShift, "ShiftLeft"}, std::pair{OpCode::kRShift, "ShiftRight"}}) {
      const bool left = code == OpCode::kLShift;
      std::vector<ApiCall> calls = {Scalar("Mins", 1, "bits-1", kCallTmp), Call(api, {0, kCallTmp}),
                                    Call("Sub", {1, kCallTmp}, kCallTmp),
                                    Scalar("Mins", kCallTmp, "1", kCallTmp),
                                    Call(api, {kCallDst, kCallTmp})};
      for (ApiCall& c : calls) {
        const bool shift = c.api == api;
        c.as_unsigned = !shift || left;
        c.count_last = shift;
      }
      m[code] = calls;
    }
    return m;
  }();
  return t;
}

}  // namespace

std::optional<std::vector<ApiCall>> MathLowering(OpCode code) {
  const auto it = Table().find(code);
  if (it == Table().end()) return std::nullopt;
  return it->second;
}

bool MathNeedsTmp(OpCode code) {
  const auto calls = MathLowering(code);
  return calls && std::ranges::any_of(
                      *calls, [](const ApiCall& c) { return c.dst == kCallTmp || c.tmp_bytes; });
}

}  // namespace af::ir
