// The AscendC calls each op of the issue-22 math set lowers to, as data: codegen writes them and
// the ATT cost model prices the same list (one vector call each), so the model's repeat counts
// follow the kernel's calls exactly. Ops with an AscendC API of their own (adv_api/math: Sin,
// Floor, Fmod, IsNan, ...) are one call; the others are short chains of basic APIs that may work
// in place (Exp2 = Muls then Exp) or through one work tensor (FloorDiv = Div into it, then Floor).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/op_registry.h"

namespace af::ir {

inline constexpr int kCallDst = -1;  // the op's result tensor
inline constexpr int kCallTmp = -2;  // the kernel's math work tensor (compute dtype, tile-sized)

struct ApiCall {
  std::string api;        // AscendC API: "Sin", "Muls", "Cast", ...
  std::vector<int> srcs;  // operands: input slot (>= 0), kCallDst (in place) or kCallTmp
  int dst = kCallDst;
  std::string scalar;      // a scalar operand after the tensors: a number, or "attr:<key>"
  std::string round_mode;  // Cast: "CAST_FLOOR", ...
  bool bool_dst = false;   // the result is passed as LocalTensor<bool> (ReinterpretCast)
  bool bool_srcs = false;  // so are the tensor operands
  bool tmp_bytes = false;  // the work tensor follows as sharedTmpBuffer (LocalTensor<uint8_t>)
  // Integer views (LShift/RShift): `as_unsigned` passes dst and the tensor operands as the
  // unsigned integer of the op's width (and types the scalar so); `count_last` passes the last
  // operand as the signed integer of that width (ShiftLeft/ShiftRight's count tensor). The scalar
  // "bits-1" is the width less one.
  bool as_unsigned = false;
  bool count_last = false;
  // The orthogonal polynomials' degree (the node's attr `n`, ir::PolynomialDegree): as the
  // second template argument, `api<T, n>(...)` (AutoFuse's ShiftedChebyshevPolynomialTExtend),
  // or, with `scalar` "attr:n", as a scalar of `scalar_ctype` (LaguerrePolynomialLExtend).
  bool degree_template = false;
  std::string scalar_ctype;  // the scalar's C++ type when it is not the compute dtype
};

// The calls of `code`; nullopt for ops outside the math set.
std::optional<std::vector<ApiCall>> MathLowering(OpCode code);

// Whether the lowering of `code` uses the work tensor (as an operand or sharedTmpBuffer).
bool MathNeedsTmp(OpCode code);

}  // namespace af::ir
