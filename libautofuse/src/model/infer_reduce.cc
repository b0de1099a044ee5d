// Inference rules for reductions (sum, mean, prod, amax/amin, max/min, var/std, var_mean,
// any/all, argmax/argmin, logsumexp) and the softmax family, with dim lists and keepdim.
#include <algorithm>

#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using ir::DType;

// The reduced shape: dims (nullopt or empty = all when `empty_is_all`) removed or kept as 1.
Shape Reduced(const Shape& in, const std::optional<std::vector<int>>& dims, bool keepdim,
              bool empty_is_all = true) {
  std::vector<bool> reduce(in.size(), false);
  if (!dims || (dims->empty() && empty_is_all)) {
    std::fill(reduce.begin(), reduce.end(), true);
  } else {
    for (int d : *dims) {
      if (static_cast<std::size_t>(d) < reduce.size()) reduce[static_cast<std::size_t>(d)] = true;
    }
  }
  Shape out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!reduce[i]) {
      out.push_back(in[i]);
    } else if (keepdim) {
      out.emplace_back(1);
    }
  }
  return out;
}

// Accumulating reductions (sum, prod, cumsum): integers and bool accumulate in int64.
DType AccumulateDType(DType t) {
  return ir::IsFloat(t) ? t : DType::kInt64;
}

enum class Acc { kSame, kInt64Acc, kBool, kIndex, kFloating };

DType ResultDType(Acc a, DType in) {
  switch (a) {
    case Acc::kSame:
      return in;
    case Acc::kInt64Acc:
      return AccumulateDType(in);
    case Acc::kBool:
      return in == DType::kUInt8 ? in : DType::kBool;
    case Acc::kIndex:
      return DType::kInt64;
    case Acc::kFloating:
      return ToFloating(in);
  }
  return in;
}

// A reduction whose dims are at `dim_pos` (or keyword "dim") and keepdim at `keep_pos` (or
// keyword "keepdim"); `dtype` keyword overrides the result dtype. When `default_is_all`, the
// "default" overload takes no dims and reduces everything (sum.default; amax.default has dims).
RuleFn Reduction(int dim_pos, int keep_pos, Acc acc, bool default_is_all) {
  return [dim_pos, keep_pos, acc, default_is_all](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "self");
    const bool all = default_is_all && c.op().overload == "default";
    const auto dims = all ? std::nullopt : c.Dims(c.Get(dim_pos, "dim"), x.rank());
    const bool keepdim = all ? false : c.Bool(keep_pos, "keepdim", false);
    DType dt = x.dtype;
    if (dt == DType::kUndefined && acc != Acc::kSame) Fail("unsupported dtype " + x.dtype_code);
    dt = ResultDType(acc, dt);
    if (auto d = c.DTypeArg(-1, "dtype")) dt = *d;
    ValueType r = WithShape(x, Reduced(x.shape, dims, keepdim));
    if (dt != x.dtype) r = MakeTensor(dt, r.shape);
    return std::vector<ValueType>{r};
  };
}

// var/std: dims at 1 for the dim/correction overloads (keepdim at 3 for .dim, keyword for
// .correction); "default" reduces everything.
std::pair<Shape, DType> VarShape(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const std::string& ov = c.op().overload;
  std::optional<std::vector<int>> dims;
  bool keepdim = false;
  if (ov != "default") {
    dims = c.Dims(c.Get(1, "dim"), x.rank());
    keepdim = c.Bool(ov == "dim" || ov == "names_dim" ? 3 : -1, "keepdim", false);
  }
  if (x.dtype == DType::kUndefined) Fail("unsupported dtype " + x.dtype_code);
  return {Reduced(x.shape, dims, keepdim), ToFloating(x.dtype)};
}

// prims reductions: (inp, dims, *, output_dtype).
RuleFn PrimsReduction(int dtype_pos) {
  return [dtype_pos](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "inp");
    const auto dims = c.Dims(c.Get(1, "dims"), x.rank());
    ValueType r = WithShape(x, Reduced(x.shape, dims, false, false));
    if (auto d = c.DTypeArg(dtype_pos, "output_dtype")) r = MakeTensor(*d, r.shape);
    return std::vector<ValueType>{r};
  };
}

// Softmax-like ops keep the shape; `half_to_float` (argument 2) promotes f16/bf16 to f32.
std::vector<ValueType> Softmax(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  (void)c.DimOrScalar(c.Int(1, "dim", std::nullopt), x.rank());
  ValueType r = WithShape(x, x.shape);
  const Arg* a2 = c.Get(2);
  if (a2 != nullptr && a2->kind == Arg::Kind::kBool && a2->b &&
      (x.dtype == DType::kFloat16 || x.dtype == DType::kBFloat16)) {
    r = MakeTensor(DType::kFloat32, x.shape);
  }
  if (auto d = c.DTypeArg(a2 != nullptr && a2->kind == Arg::Kind::kDType ? 2 : -1, "dtype")) {
    r = MakeTensor(*d, x.shape);
  }
  return {r};
}

}  // namespace

void AddReductionRules(RuleTable& t) {
  t["aten.sum"] = {Reduction(1, 2, Acc::kInt64Acc, true)};
  t["aten.nansum"] = {Reduction(1, 2, Acc::kInt64Acc, true)};
  t["aten.mean"] = {Reduction(1, 2, Acc::kSame, true)};
  t["aten.prod"] = {Reduction(1, 2, Acc::kInt64Acc, true)};
  t["aten.amax"] = {Reduction(1, 2, Acc::kSame, false)};
  t["aten.amin"] = {Reduction(1, 2, Acc::kSame, false)};
  t["aten.any"] = {Reduction(1, 2, Acc::kBool, true)};
  t["aten.all"] = {Reduction(1, 2, Acc::kBool, true)};
  t["aten.argmax"] = {Reduction(1, 2, Acc::kIndex, false)};
  t["aten.argmin"] = {Reduction(1, 2, Acc::kIndex, false)};
  t["aten.logsumexp"] = {Reduction(1, 2, Acc::kFloating, false)};
  t["aten.max.default"] = {Reduction(1, 2, Acc::kSame, true)};
  t["aten.min.default"] = {Reduction(1, 2, Acc::kSame, true)};
  // max.dim / min.dim: (values, indices).
  auto values_indices = [](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "self");
    const auto dims = c.Dims(&c.Need(1, "dim"), x.rank());
    const bool keepdim = c.Bool(2, "keepdim", false);
    const Shape s = Reduced(x.shape, dims, keepdim);
    return std::vector<ValueType>{WithShape(x, s), MakeTensor(DType::kInt64, s)};
  };
  t["aten.max.dim"] = {values_indices, true};
  t["aten.min.dim"] = {values_indices, true};
  t["aten.var"] = {[](const Ctx& c) {
    auto [s, dt] = VarShape(c);
    return std::vector<ValueType>{MakeTensor(dt, s)};
  }};
  t["aten.std"] = t["aten.var"];
  auto var_mean = [](const Ctx& c) {
    auto [s, dt] = VarShape(c);
    return std::vector<ValueType>{MakeTensor(dt, s), MakeTensor(dt, s)};
  };
  t["aten.var_mean"] = {var_mean, true};
  t["aten.std_mean"] = {var_mean, true};
  // Cumulative ops keep the shape.
  auto cumulative = [](const Ctx& c) {
    const ValueType& x = c.Tensor(0, "self");
    (void)c.DimOrScalar(c.Int(1, "dim", std::nullopt), x.rank());
    DType dt = x.dtype == DType::kUndefined ? x.dtype : AccumulateDType(x.dtype);
    if (auto d = c.DTypeArg(2, "dtype")) dt = *d;
    ValueType r = WithShape(x, x.shape);
    if (dt != x.dtype) r = MakeTensor(dt, x.shape);
    return std::vector<ValueType>{r};
  };
  t["aten.cumsum"] = {cumulative};
  t["aten.cumprod"] = {cumulative};
  t["aten._softmax"] = {Softmax};
  t["aten._log_softmax"] = {Softmax};
  t["aten.softmax"] = {Softmax};
  t["aten.log_softmax"] = {Softmax};
  t["aten._softmax_backward_data"] = {[](const Ctx& c) {
    const ValueType& g = c.Tensor(0);
    ValueType r = WithShape(g, g.shape);
    if (auto d = c.DTypeArg(3, "input_dtype")) r = MakeTensor(*d, g.shape);
    return std::vector<ValueType>{r};
  }};
  t["prims.sum"] = {PrimsReduction(-1)};
  t["prims.prod"] = {PrimsReduction(-1)};
  t["prims.amax"] = {PrimsReduction(-1)};
  t["prims.amin"] = {PrimsReduction(-1)};
  t["prims.xor_sum"] = {PrimsReduction(-1)};
  t["prims.var"] = {PrimsReduction(-1)};
}

}  // namespace af::model::infer_detail
