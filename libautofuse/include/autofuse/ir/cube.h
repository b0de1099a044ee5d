// The cube ops (MatMul, MatMulBias, BatchMatMul and their Offset variants): their attributes and
// shape rules in one place, so validation, the reference interpreter and the schedule read a
// MatMul node the same way (docs/ir.md, "Cube ops").
//   MatMul[Bias]        x1 (M, K) or (K, M) with transpose_x1; x2 (K, N) or (N, K) with
//                       transpose_x2; output (M, N).
//   BatchMatMul[Bias]   the same over leading batch dims (adj_x1 / adj_x2 transpose): x1
//                       (B.., M, K), x2 (B.., K, N), output (B.., M, N); batch dims are aligned
//                       from the right and a dim of 1 (or a missing dim) broadcasts.
//   bias                (N) or any rank up to the output's, aligned from the right, each dim 1
//                       or the output's; it has the output's dtype and is added in fp32.
//   dtypes              x1 and x2 share T1 in {fp16, bf16, fp32}; the output T2 in the same set;
//                       products accumulate in fp32 (the interpreter: in double) and round once.
//   has_relu            max(0, .) before the rounding.
//   offset_x / enable_hf32 must be 0: int8 quantisation and HF32 are outside this compiler.
// The Offset variants (int8 weight offsets) are accepted by the parser and refused with the reason
// code CUBE_OFFSET_UNSUPPORTED by the interpreter and the schedule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/ir/op_registry.h"

namespace af::ir {

// The MatMul family (MatMul*, BatchMatMul*); the convolutions are ir::IsConvOp (ir/conv.h).
bool IsCubeOp(OpCode c);
// fp16, bf16 or fp32: the dtypes T1 and T2 of every cube op (MatMul* and Conv2D*).
bool IsCubeDType(DType t);

struct MatMulInfo {
  OpCode code = OpCode::kMatMul;
  bool batch = false;   // BatchMatMul*: leading batch dims
  bool bias = false;    // *Bias: input 2 is the bias
  bool offset = false;  // *Offset*: int8 weight offsets (refused)
  bool transpose_x1 = false;
  bool transpose_x2 = false;
  bool has_relu = false;
  std::int64_t offset_x = 0;
  bool enable_hf32 = false;
};

// The op's shape of the attributes; nullopt with `error` set when an attribute is not an integer
// or bool, or `n` is not a cube op.
std::optional<MatMulInfo> ReadMatMul(const Node& n, std::string* error);

// The reason code for a cube node this compiler refuses, nullopt for one it takes.
std::optional<std::string> CubeRefusal(const MatMulInfo& m);

// Validation messages for a cube node (dtypes, ranks, K agreement, output and bias repeats);
// empty when it is well formed. Dangling inputs are reported elsewhere and skipped here.
std::vector<std::string> CheckMatMul(const Graph& g, const Node& n);

}  // namespace af::ir
