// Conv2D in the reference interpreter: the direct sum over each output element's window,
// accumulating in double (no im2col, no Winograd: the reference is the definition).
#include "conv.h"

#include <algorithm>

namespace af::interp::detail {

Value EvalConv2D(const ir::ConvInfo& c, const Value& x, const Value& filter, const Value* bias,
                 ir::DType out_dtype, const std::vector<std::int64_t>& out_shape) {
  std::string error;
  const auto want = ir::ConvOutputShape(c, x.shape, filter.shape, &error);
  if (!want) throw EvalError(error);
  if (*want != out_shape) {
    throw EvalError("x " + ShapeString(x.shape) + " and filter " + ShapeString(filter.shape) +
                    " give " + ShapeString(*want) + ", the output is " + ShapeString(out_shape));
  }
  // Sizes and element strides in (n, c, h, w) terms whatever the layout.
  const std::int64_t nb = x.shape[0];
  const std::int64_t ch = c.nhwc ? x.shape[3] : x.shape[1];
  const std::int64_t h = c.nhwc ? x.shape[1] : x.shape[2];
  const std::int64_t w = c.nhwc ? x.shape[2] : x.shape[3];
  const std::int64_t cout = c.nhwc ? filter.shape[3] : filter.shape[0];
  const std::int64_t cg = c.nhwc ? filter.shape[2] : filter.shape[1];
  const std::int64_t kh = c.nhwc ? filter.shape[0] : filter.shape[2];
  const std::int64_t kw = c.nhwc ? filter.shape[1] : filter.shape[3];
  const std::int64_t ho = c.nhwc ? out_shape[1] : out_shape[2];
  const std::int64_t wo = c.nhwc ? out_shape[2] : out_shape[3];
  struct Strides {
    std::int64_t n, c, h, w;
  };
  const Strides xs = c.nhwc ? Strides{h * w * ch, 1, w * ch, ch} : Strides{ch * h * w, h * w, w, 1};
  const Strides os = c.nhwc ? Strides{ho * wo * cout, 1, wo * cout, cout}
                            : Strides{cout * ho * wo, ho * wo, wo, 1};
  // filter element (co, ci, a, b): OIHW with NCHW, HWIO with NHWC
  const Strides fs =
      c.nhwc ? Strides{1, cout, kw * cg * cout, cg * cout} : Strides{cg * kh * kw, kh * kw, kw, 1};
  if (bias != nullptr && bias->numel() != cout) {
    throw EvalError("bias " + ShapeString(bias->shape) + " is not (" + std::to_string(cout) + ")");
  }
  const auto pad = ir::ConvPads(c, h, w, kh, kw);
  const std::int64_t per_group = cout / c.groups;
  Value out = MakeValue(out_dtype, out_shape);
  for (std::int64_t n = 0; n < nb; ++n) {
    for (std::int64_t co = 0; co < cout; ++co) {
      const std::int64_t c0 = (co / per_group) * cg;  // the group's first input channel
      for (std::int64_t i = 0; i < ho; ++i) {
        for (std::int64_t j = 0; j < wo; ++j) {
          double acc = 0.0;
          for (std::int64_t ci = 0; ci < cg; ++ci) {
            for (std::int64_t a = 0; a < kh; ++a) {
              const std::int64_t y = i * c.strides[0] - pad[0] + a * c.dilations[0];
              if (y < 0 || y >= h) continue;
              for (std::int64_t b = 0; b < kw; ++b) {
                const std::int64_t z = j * c.strides[1] - pad[2] + b * c.dilations[1];
                if (z < 0 || z >= w) continue;
                acc += x.F(n * xs.n + (c0 + ci) * xs.c + y * xs.h + z * xs.w) *
                       filter.F(co * fs.n + ci * fs.c + a * fs.h + b * fs.w);
              }
            }
          }
          if (bias != nullptr) acc += bias->F(co);
          if (c.has_relu) acc = std::max(acc, 0.0);  // NaN stays NaN
          out.PutDouble(n * os.n + co * os.c + i * os.h + j * os.w, acc);
        }
      }
    }
  }
  return out;
}

}  // namespace af::interp::detail
