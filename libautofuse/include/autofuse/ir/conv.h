// Conv2D, Conv2DBias, Conv2DOffset and Conv2DOffsetBias, AscIR's V1/V2 convolution cube ops: their
// attributes and shape rules in one place, so validation, the reference interpreter and the
// schedule read a Conv2D node the same way (docs/ir.md, "Cube ops"). They are registered so that
// graphs holding them parse, validate and interpret; no fused kernel takes them yet (the
// schedule and codegen refuse them with CUBE_CONV_UNSUPPORTED, and the front end keeps aten
// convolutions out of kernels with CUBE_OP), as AutoFuse's own CV fusion starts from MatMul.
//   data_format  "NCHW" (default) or "NHWC": x (N, C, H, W) / (N, H, W, C), the output likewise.
//   filter       (Cout, C / groups, kh, kw) with NCHW, (kh, kw, C / groups, Cout) with NHWC.
//   strides      4 entries in data_format order, 1 on N and C (or 2 entries: h, w); default 1.
//   dilations    as strides; default 1.
//   pads         (top, bottom, left, right); with pad_mode "VALID" all 0, with "SAME" the
//                padding that gives ceil(H / stride) rows (the odd one at the bottom / right);
//                pad_mode "", "SPECIFIC" or "NOTSET" takes `pads` as they are.
//   groups       C and Cout divisible by it; default 1.
//   bias         (Cout), the output's dtype, added in fp32; has_relu: max(0, .) before rounding.
//   dtypes       x and filter share T1 in {fp16, bf16, fp32}; the output T2 in the same set;
//                products accumulate in fp32 (the interpreter: in double) and round once.
//   offset_x / enable_hf32 / the Offset variants: refused as for MatMul (ir::ConvRefusal).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/ir/op_registry.h"

namespace af::ir {

bool IsConvOp(OpCode c);

struct ConvInfo {
  OpCode code = OpCode::kConv2D;
  bool bias = false;                                // *Bias: input 2 is the bias
  bool offset = false;                              // *Offset*: int8 weight offsets (refused)
  bool nhwc = false;                                // data_format "NHWC"
  std::array<std::int64_t, 2> strides = {1, 1};     // h, w
  std::array<std::int64_t, 2> dilations = {1, 1};   // h, w
  std::array<std::int64_t, 4> pads = {0, 0, 0, 0};  // top, bottom, left, right
  std::string pad_mode;                             // "", SPECIFIC, NOTSET, VALID or SAME
  std::int64_t groups = 1;
  bool has_relu = false;
  std::int64_t offset_x = 0;
  bool enable_hf32 = false;
};

// The op's attributes; nullopt with `error` set when one is malformed (a list of the wrong
// length, a stride or dilation below 1, a negative pad, groups below 1, an unknown data_format or
// pad_mode) or `n` is not a Conv2D op.
std::optional<ConvInfo> ReadConv2D(const Node& n, std::string* error);

// The reason code for a Conv2D node: CUBE_OFFSET_UNSUPPORTED, CUBE_INT8_UNSUPPORTED,
// CUBE_HF32_UNSUPPORTED as for MatMul, else CUBE_CONV_UNSUPPORTED (no convolution template).
std::string ConvRefusal(const ConvInfo& c);

// The pads (top, bottom, left, right) `c` applies to an input of h x w with a kh x kw filter.
std::array<std::int64_t, 4> ConvPads(const ConvInfo& c, std::int64_t h, std::int64_t w,
                                     std::int64_t kh, std::int64_t kw);

// Output (N, Cout, Ho, Wo) in data_format order for input `x` and `filter` shapes (data_format
// order, filter as above); nullopt with `error` when they disagree (rank, channels vs groups, a
// window larger than the padded input).
std::optional<std::vector<std::int64_t>> ConvOutputShape(const ConvInfo& c,
                                                         const std::vector<std::int64_t>& x,
                                                         const std::vector<std::int64_t>& filter,
                                                         std::string* error);

// Validation messages for a Conv2D node (attributes, dtypes, ranks; channels, groups and output
// extents where the sizes are constants; bias and offset_w); empty when it is well formed.
std::vector<std::string> CheckConv2D(const Graph& g, const Node& n);

}  // namespace af::ir
