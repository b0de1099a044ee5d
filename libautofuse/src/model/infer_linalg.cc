// Inference rules for matrix products (mm, bmm, addmm, baddbmm, matmul, linear), convolution
// and its backward, pooling and upsampling: shapes from the size formulas, dtype of the input.
#include <algorithm>

#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using ir::DType;
using sym::Expr;

void SameSize(const Expr& a, const Expr& b, const char* what) {
  if (!(a == b)) Fail(std::string(what) + ": " + a.ToString() + " vs " + b.ToString());
}

std::vector<ValueType> Mm(const Ctx& c) {
  const ValueType& a = c.Tensor(0, "self");
  const ValueType& b = c.Tensor(1, "mat2");
  if (a.rank() != 2 || b.rank() != 2) Fail("mm needs 2-D operands");
  SameSize(a.shape[1], b.shape[0], "mm inner sizes differ");
  return {WithShape(a, {a.shape[0], b.shape[1]})};
}

std::vector<ValueType> Bmm(const Ctx& c) {
  const ValueType& a = c.Tensor(0, "self");
  const ValueType& b = c.Tensor(1, "mat2");
  if (a.rank() != 3 || b.rank() != 3) Fail("bmm needs 3-D operands");
  SameSize(a.shape[2], b.shape[1], "bmm inner sizes differ");
  return {WithShape(a, {a.shape[0], a.shape[1], b.shape[2]})};
}

// addmm(bias, a, b) / baddbmm(bias, a, b): the product's shape, the operands' dtype.
std::vector<ValueType> AddMm(const Ctx& c) {
  const ValueType& a = c.Tensor(1, "mat1");
  const ValueType& b = c.Tensor(2, "mat2");
  (void)c.Tensor(0, "self");
  if (c.op().name == "baddbmm") {
    if (a.rank() != 3 || b.rank() != 3) Fail("baddbmm needs 3-D operands");
    SameSize(a.shape[2], b.shape[1], "baddbmm inner sizes differ");
    return {WithShape(a, {a.shape[0], a.shape[1], b.shape[2]})};
  }
  if (a.rank() != 2 || b.rank() != 2) Fail("addmm needs 2-D operands");
  SameSize(a.shape[1], b.shape[0], "addmm inner sizes differ");
  return {WithShape(a, {a.shape[0], b.shape[1]})};
}

std::vector<ValueType> Matmul(const Ctx& c) {
  const ValueType& a = c.Tensor(0, "self");
  const ValueType& b = c.Tensor(1, "other");
  if (a.rank() == 0 || b.rank() == 0) Fail("matmul of a 0-dim tensor");
  Shape sa = a.shape;
  Shape sb = b.shape;
  const bool va = sa.size() == 1;
  const bool vb = sb.size() == 1;
  if (va) sa.insert(sa.begin(), Expr(1));
  if (vb) sb.push_back(Expr(1));
  SameSize(sa.back(), sb[sb.size() - 2], "matmul inner sizes differ");
  std::string why;
  auto batch =
      BroadcastShapes(Shape(sa.begin(), sa.end() - 2), Shape(sb.begin(), sb.end() - 2), &why);
  if (!batch) Fail(why);
  Shape s = *batch;
  if (!va) s.push_back(sa[sa.size() - 2]);
  if (!vb) s.push_back(sb.back());
  return {WithShape(a, s)};
}

std::vector<ValueType> Linear(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "input");
  const ValueType& w = c.Tensor(1, "weight");
  if (x.rank() == 0 || w.rank() != 2) Fail("linear needs a 2-D weight");
  SameSize(x.shape.back(), w.shape[1], "linear inner sizes differ");
  Shape s = x.shape;
  s.back() = w.shape[0];
  return {WithShape(x, s)};
}

// A per-spatial-dimension parameter list (a single entry applies to every dimension).
std::vector<Expr> PerDim(const Ctx& c, int pos, std::string_view name, std::size_t n,
                         std::int64_t def, const std::vector<Expr>* fallback = nullptr) {
  const Arg* a = c.Get(pos, name);
  std::vector<Expr> v;
  if (a != nullptr && !a->IsNone()) v = c.SizeList(*a);
  if (v.empty() && fallback != nullptr) v = *fallback;
  if (v.empty()) v.assign(n, Expr(def));
  if (v.size() == 1) v.assign(n, v[0]);
  if (v.size() != n) Fail(std::string(name) + " has the wrong length");
  return v;
}

// floor((in + 2*pad - dil*(k-1) - 1) / stride) + 1, or with ceil: PyTorch's pooling rule, where
// the last window must start inside the input or the left padding.
Expr WindowOut(const Expr& in, const Expr& k, const Expr& stride, const Expr& pad, const Expr& dil,
               bool ceil_mode) {
  const Expr span = in + pad * 2 - dil * (k - 1) - 1;
  if (!ceil_mode) return sym::FloorDiv(span, stride) + 1;
  Expr out = sym::CeilDiv(span, stride) + 1;
  auto o = out.AsInt();
  auto i = (in + pad).AsInt();
  auto st = stride.AsInt();
  if (!o || !i || !st) Fail("ceil_mode pooling over symbolic sizes is not inferred");
  if ((*o - 1) * *st >= *i) out = out - 1;
  return out;
}

std::vector<ValueType> Convolution(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "input");
  const ValueType& w = c.Tensor(1, "weight");
  if (x.rank() < 3 || w.rank() != x.rank()) Fail("convolution needs N-D input and weight");
  const std::size_t n = x.rank() - 2;
  const auto stride = PerDim(c, 3, "stride", n, 1);
  const auto pad = PerDim(c, 4, "padding", n, 0);
  const auto dil = PerDim(c, 5, "dilation", n, 1);
  const bool transposed = c.Bool(6, "transposed", false);
  const auto out_pad = PerDim(c, 7, "output_padding", n, 0);
  const Expr groups = c.Has(8, "groups") ? c.Size(c.Need(8, "groups")) : Expr(1);
  Shape s{x.shape[0], transposed ? w.shape[1] * groups : w.shape[0]};
  for (std::size_t i = 0; i < n; ++i) {
    const Expr& in = x.shape[i + 2];
    const Expr& k = w.shape[i + 2];
    if (transposed) {
      s.push_back((in - 1) * stride[i] - pad[i] * 2 + dil[i] * (k - 1) + out_pad[i] + 1);
    } else {
      s.push_back(WindowOut(in, k, stride[i], pad[i], dil[i], false));
    }
  }
  return {WithShape(x, s)};
}

// (grad_input, grad_weight, grad_bias) shaped like input, weight and bias_sizes; outputs whose
// output_mask entry is False are None (unknown here).
std::vector<ValueType> ConvolutionBackward(const Ctx& c) {
  const ValueType& g = c.Tensor(0, "grad_output");
  const ValueType& x = c.Tensor(1, "input");
  const ValueType& w = c.Tensor(2, "weight");
  std::vector<ValueType> out{WithShape(g, x.shape), WithShape(g, w.shape), ValueType{}};
  const Arg* bias = c.Get(3, "bias_sizes");
  if (bias != nullptr && !bias->IsNone()) out[2] = WithShape(g, c.SizeList(*bias));
  const Arg* mask = c.Get(10, "output_mask");
  if (mask != nullptr && mask->IsList() && mask->items.size() == 3) {
    for (std::size_t i = 0; i < 3; ++i) {
      if (mask->items[i].kind == Arg::Kind::kBool && !mask->items[i].b) out[i] = ValueType{};
    }
  }
  return out;
}

// max_pool2d_with_indices (self, kernel, stride, padding, dilation, ceil_mode) and prims'
// _low_memory_max_pool2d_with_offsets: pooled values plus indices (int64) or offsets (int8).
std::vector<ValueType> MaxPool(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  if (x.rank() < 3) Fail("pooling needs at least 3 dimensions");
  const std::size_t n = c.op().name.find("3d") != std::string::npos ? 3 : 2;
  if (x.rank() < n + 1) Fail("pooling input has too few dimensions");
  const auto k = PerDim(c, 1, "kernel_size", n, 1);
  const auto stride = PerDim(c, 2, "stride", n, 1, &k);
  const auto pad = PerDim(c, 3, "padding", n, 0);
  const auto dil = PerDim(c, 4, "dilation", n, 1);
  const bool ceil_mode = c.Bool(5, "ceil_mode", false);
  Shape s(x.shape.begin(), x.shape.end() - static_cast<long>(n));
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(WindowOut(x.shape[x.rank() - n + i], k[i], stride[i], pad[i], dil[i], ceil_mode));
  }
  const DType idx = c.op().name.find("offsets") != std::string::npos ? DType::kInt8 : DType::kInt64;
  ValueType ind = MakeTensor(idx, s);
  ind.device = x.device;
  return {WithShape(x, s), ind};
}

std::vector<ValueType> AvgPool(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const std::size_t n = c.op().name.find("3d") != std::string::npos ? 3 : 2;
  if (x.rank() < n + 1) Fail("pooling input has too few dimensions");
  const auto k = PerDim(c, 1, "kernel_size", n, 1);
  const auto stride = PerDim(c, 2, "stride", n, 1, &k);
  const auto pad = PerDim(c, 3, "padding", n, 0);
  const bool ceil_mode = c.Bool(4, "ceil_mode", false);
  Shape s(x.shape.begin(), x.shape.end() - static_cast<long>(n));
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(WindowOut(x.shape[x.rank() - n + i], k[i], stride[i], pad[i], Expr(1), ceil_mode));
  }
  return {WithShape(x, s)};
}

// Pool backward ops return the gradient of their `self` (argument 1).
std::vector<ValueType> PoolBackward(const Ctx& c) {
  const ValueType& g = c.Tensor(0, "grad_output");
  const ValueType& x = c.Tensor(1, "self");
  return {WithShape(g, x.shape)};
}

// upsample_*(input, output_size, ...): the leading (batch, channel) dims, then output_size.
std::vector<ValueType> Upsample(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "input");
  const Arg* os = c.Get(1, "output_size");
  if (os == nullptr || os->IsNone()) Fail("upsample from scale factors is not inferred");
  const Shape out = c.SizeList(*os);
  if (out.size() + 2 != x.rank()) Fail("output_size does not match the input rank");
  Shape s{x.shape[0], x.shape[1]};
  s.insert(s.end(), out.begin(), out.end());
  return {WithShape(x, s)};
}

std::vector<ValueType> AdaptivePool(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const Shape out = c.SizeList(c.Need(1, "output_size"));
  if (out.size() > x.rank()) Fail("output_size longer than the input rank");
  Shape s(x.shape.begin(), x.shape.end() - static_cast<long>(out.size()));
  s.insert(s.end(), out.begin(), out.end());
  std::vector<ValueType> r{WithShape(x, s)};
  if (c.op().name.find("max") != std::string::npos) {
    ValueType ind = MakeTensor(DType::kInt64, s);
    ind.device = x.device;
    r.push_back(ind);
  }
  return r;
}

void Add(RuleTable& t, std::initializer_list<std::string_view> names, const RuleFn& fn,
         bool multi = false) {
  for (auto nm : names)
    t[std::string(nm)] = Rule{fn, multi};
}

}  // namespace

void AddLinalgRules(RuleTable& t) {
  Add(t, {"aten.mm"}, Mm);
  Add(t, {"aten.bmm"}, Bmm);
  Add(t, {"aten.addmm", "aten.baddbmm"}, AddMm);
  Add(t, {"aten.matmul"}, Matmul);
  Add(t, {"aten.linear"}, Linear);
  Add(t, {"aten.convolution", "aten._convolution"}, Convolution);
  Add(t, {"aten.convolution_backward"}, ConvolutionBackward, true);
  Add(t,
      {"aten.max_pool2d_with_indices", "aten.max_pool3d_with_indices",
       "prims._low_memory_max_pool2d_with_offsets", "prims._low_memory_max_pool3d_with_offsets"},
      MaxPool, true);
  Add(t, {"aten.avg_pool2d", "aten.avg_pool3d"}, AvgPool);
  Add(t,
      {"aten.max_pool2d_with_indices_backward", "aten.max_pool3d_with_indices_backward",
       "aten.avg_pool2d_backward", "aten.avg_pool3d_backward",
       "aten._adaptive_avg_pool2d_backward"},
      PoolBackward);
  Add(t,
      {"aten.upsample_nearest1d", "aten.upsample_nearest2d", "aten.upsample_nearest3d",
       "aten._upsample_nearest_exact1d", "aten._upsample_nearest_exact2d",
       "aten._upsample_nearest_exact3d", "aten.upsample_linear1d", "aten.upsample_bilinear2d",
       "aten.upsample_bicubic2d", "aten.upsample_trilinear3d", "aten._upsample_bilinear2d_aa",
       "aten._upsample_bicubic2d_aa"},
      Upsample);
  Add(t, {"aten._adaptive_avg_pool2d", "aten.adaptive_avg_pool2d", "aten._adaptive_avg_pool3d"},
      AdaptivePool);
  Add(t, {"aten.adaptive_max_pool2d", "aten.adaptive_max_pool3d"}, AdaptivePool, true);
  // prims' offsets -> indices conversion keeps the shape and yields int64.
  Add(t,
      {"prims._low_memory_max_pool2d_offsets_to_indices",
       "prims._low_memory_max_pool3d_offsets_to_indices"},
      [](const Ctx& c) {
        const ValueType& o = c.Tensor(0);
        ValueType r = MakeTensor(DType::kInt64, o.shape);
        r.device = o.device;
        return std::vector<ValueType>{r};
      });
}

}  // namespace af::model::infer_detail
