// Lowering rules for reductions: sum, mean, amax, amin, prod, any, all and argmax as one AscIR
// reduction each (keep-dim, reduced dims not spanned), var and var_mean from Mean and Sum.
#include "lowerer.h"

namespace af::frontend::lower_detail {
namespace {

// The reduction's result: the reduced dims dropped unless keepdim.
Emitted Finish(const Emitted& e, const std::vector<bool>& reduced, bool keepdim) {
  Emitted r = e;
  if (!keepdim) {
    Layout l;
    for (std::size_t k = 0; k < reduced.size(); ++k)
      if (!reduced[k]) l.push_back(e.layout[k]);
    r.layout = l;
  }
  return r;
}

}  // namespace

void Lowerer::LowerReduce(const model::Node& n) {
  const std::string& name = n.op.name;
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": reduction input");
  const auto& it = TypeOf(self->value);
  if (!it.IsTensor()) throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::size_t rank = it.rank();
  // dims
  const Arg* dims_arg = nullptr;
  // sum.default, mean.default, prod.default, any.default, all.default, var.default: all dims
  const bool has_dims = n.op.ns == "prims" || n.op.overload != "default" || name == "amax" ||
                        name == "amin" || name == "argmax";
  if (has_dims) dims_arg = ArgAt(n, 1, "dim");
  std::vector<bool> reduced(rank, false);
  bool any_dim = false;
  auto add_dim = [&](std::int64_t d) {
    auto nd = model::NormalizeDim(d, rank);
    if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": bad reduction dim");
    reduced[static_cast<std::size_t>(*nd)] = true;
    any_dim = true;
  };
  if (dims_arg != nullptr && !dims_arg->IsNone()) {
    if (dims_arg->IsList()) {
      for (const auto& a : dims_arg->items) {
        auto v = a.AsInt();
        if (!v) throw LowerError("UNSUPPORTED_ARG", n.name + ": non-integer dim");
        add_dim(*v);
      }
    } else if (auto v = dims_arg->AsInt()) {
      add_dim(*v);
    } else {
      throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
    }
  }
  if (!any_dim) std::fill(reduced.begin(), reduced.end(), true);
  bool keepdim = false;
  if (n.op.ns == "aten") {
    const Arg* kd = n.Kwarg("keepdim");
    if (kd == nullptr && n.op.overload != "correction" && has_dims) {
      std::size_t pos = 2;
      if ((name == "var" || name == "var_mean") && n.op.overload == "dim") pos = 3;
      if (pos < n.args.size()) kd = &n.args[pos];
    }
    if (kd != nullptr && kd->kind == Arg::Kind::kBool) keepdim = kd->b;
  }
  const auto& ot = OutType(n);
  const DType out = ot.dtype;
  Emitted x = Get(self->value);
  // reduced layout
  Layout red = x.layout;
  Expr count(1);
  for (std::size_t k = 0; k < rank; ++k) {
    if (!reduced[k]) continue;
    red[k].full = false;
    count = count * it.shape[k];
  }
  if (name == "var" || name == "var_mean") {
    LowerVariance(n, x, red, count, out, reduced, keepdim);
    return;
  }
  if (name == "argmax") {
    LowerArgMax(n, x, red, out, reduced, keepdim);
    return;
  }
  std::string type;
  DType cd = Compute(out);
  if (name == "sum") type = "Sum";
  if (name == "mean") type = "Mean";
  if (name == "amax") type = "Max";
  if (name == "amin") type = "Min";
  if (name == "prod") type = "Prod";
  if (name == "any") type = "Any";
  if (name == "all") type = "All";
  if (type == "Any" || type == "All") {
    if (x.dtype != DType::kBool) {
      x = Op("Ne", {x, Scalar(0, x.dtype)}, DType::kBool, x.layout);
    }
    cd = DType::kBool;
  }
  x = Cast(x, cd);
  values_[n.outputs[0]] = Finish(Op(type, {x}, cd, red), reduced, keepdim);
}

// aten.argmax(self, dim=None, keepdim=False): AscIR's ArgMax (first maximum, NaN the maximum,
// the index in C order over the reduced dims: all of them for dim=None, as PyTorch's flattened
// index). fp32 and fp16 stay (AscendC's ReduceMax takes them), bf16 is widened exactly to fp32;
// integer inputs fall back (AutoFuse's ArgMax takes floats). AutoFuse has no ArgMin: aten.argmin
// is not lowered.
void Lowerer::LowerArgMax(const model::Node& n, Emitted x, const Layout& red, DType out,
                          const std::vector<bool>& reduced, bool keepdim) {
  if (!ir::IsFloat(x.dtype)) {
    throw LowerError("UNSUPPORTED_DTYPE", n.name + ": argmax of " +
                                              std::string(ir::DTypeName(x.dtype)) +
                                              " (AscIR's ArgMax takes floats)");
  }
  if (out != DType::kInt64 && out != DType::kInt32) {
    throw LowerError("UNSUPPORTED_DTYPE", n.name + ": argmax result dtype");
  }
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kFloat16) x = Cast(x, DType::kFloat32);
  values_[n.outputs[0]] = Finish(Op("ArgMax", {x}, out, red), reduced, keepdim);
}

void Lowerer::LowerVariance(const model::Node& n, Emitted x, const Layout& red, const Expr& count,
                            DType out, const std::vector<bool>& reduced, bool keepdim) {
  const std::string& name = n.op.name;
  double correction = 1.0;
  if (const Arg* c = n.Kwarg("correction"); c != nullptr && !c->IsNone()) {
    correction = FloatArg(c, 1.0);
  } else if (n.op.overload == "dim" || n.op.overload == "default") {
    const Arg* ub = n.op.overload == "dim" ? ArgAt(n, 2, "unbiased") : ArgAt(n, 1, "unbiased");
    if (ub != nullptr && ub->kind == Arg::Kind::kBool && !ub->b) correction = 0.0;
  } else if (n.op.ns == "prims") {
    correction = FloatArg(ArgAt(n, 2, "correction"), 0.0);
  }
  const DType cd = Compute(out);
  if (!ir::IsFloat(cd)) throw LowerError("UNSUPPORTED_DTYPE", n.name + ": var of integers");
  x = Cast(x, cd);
  Emitted mean = Op("Mean", {x}, cd, red);
  Emitted d = Op("Sub", {x, BroadcastTo(mean, x.layout)}, cd, x.layout);
  Emitted sq = Op("Mul", {d, d}, cd, x.layout);
  Emitted var;
  if (correction == 0.0) {
    var = Op("Mean", {sq}, cd, red);
  } else {
    Emitted s = Op("Sum", {sq}, cd, red);
    if (auto c = count.AsInt()) {
      const double denom = static_cast<double>(*c) - correction;
      var = Op("Mul", {s, Scalar(denom > 0 ? 1.0 / denom : std::nan(""), cd)}, cd, red);
    } else {
      if (correction != std::floor(correction))
        throw LowerError("UNSUPPORTED_ARG", n.name + ": fractional correction");
      var = Op("Div", {s, ScalarExpr(count - Expr(static_cast<std::int64_t>(correction)), cd)}, cd,
               red);
    }
  }
  values_[n.outputs[0]] = Finish(var, reduced, keepdim);
  if (name == "var_mean") {
    if (n.outputs.size() < 2) throw LowerError("UNSUPPORTED_OP", n.name + ": var_mean outputs");
    values_[n.outputs[1]] = Finish(mean, reduced, keepdim);
  }
}

}  // namespace af::frontend::lower_detail
