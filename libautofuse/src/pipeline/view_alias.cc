// Views that move no data in our dense buffers (see view_alias.h).
#include "autofuse/pipeline/view_alias.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "autofuse/frontend/op_registry.h"
#include "autofuse/model/arg_reader.h"
#include "autofuse/model/shape.h"

namespace af::pipeline {
namespace {

using model::Shape;

bool IsOne(const sym::Expr& e) {
  return e.AsInt() == std::optional<std::int64_t>(1);
}

// The permutation a permute / transpose / t node applies (out dim k is input dim p[k]).
std::optional<std::vector<std::size_t>> Permutation(const model::Graph& g, const model::Node& n,
                                                    std::size_t rank) {
  std::vector<std::size_t> p(rank);
  for (std::size_t k = 0; k < rank; ++k)
    p[k] = k;
  const std::string& name = n.op.name;
  if (name == "permute" || name == "permute_copy") {
    const model::Arg* d = model::ArgAt(n, 1, "dims");
    if (d == nullptr || !d->IsList() || d->items.size() != rank) return std::nullopt;
    for (std::size_t k = 0; k < rank; ++k) {
      const auto v = d->items[k].AsInt();
      const auto nd = v ? model::NormalizeDim(*v, rank) : std::nullopt;
      if (!nd) return std::nullopt;
      p[k] = static_cast<std::size_t>(*nd);
    }
    return p;
  }
  if (rank < 2) return p;
  if (name == "t") {
    std::swap(p[0], p[1]);
    return p;
  }
  std::size_t d[2] = {0, 1};
  for (std::size_t i = 0; i < 2; ++i) {
    const model::Arg* a = model::ArgAt(n, 1 + i, i == 0 ? "dim0" : "dim1");
    const auto e = a != nullptr ? model::IntExprOf(g, *a) : std::nullopt;
    const auto v = e ? e->AsInt() : std::nullopt;
    const auto nd = v ? model::NormalizeDim(*v, rank) : std::nullopt;
    if (!nd) return std::nullopt;
    d[i] = static_cast<std::size_t>(*nd);
  }
  std::swap(p[d[0]], p[d[1]]);
  return p;
}

// The op's strides over a dense input buffer of shape `in`, per result dim; nullopt when the
// op's arguments cannot be read.
std::optional<Shape> StridesOverInput(const model::Graph& g, const model::Node& n, const Shape& in,
                                      const Shape& out) {
  const std::string& name = n.op.name;
  const Shape in_strides = model::ContiguousStrides(in);
  if (name == "permute" || name == "permute_copy" || name == "transpose" || name == "t") {
    if (in.size() != out.size()) return std::nullopt;
    const auto p = Permutation(g, n, in.size());
    if (!p) return std::nullopt;
    Shape s(out.size());
    for (std::size_t k = 0; k < out.size(); ++k)
      s[k] = in_strides[(*p)[k]];
    return s;
  }
  if (name == "expand" || name == "expand_copy") {
    // aligned at the right; new leading dims and broadcast size-1 dims read with stride 0
    if (out.size() < in.size()) return std::nullopt;
    const std::size_t lead = out.size() - in.size();
    Shape s(out.size(), sym::Expr(0));
    for (std::size_t k = lead; k < out.size(); ++k) {
      const std::size_t i = k - lead;
      s[k] = (IsOne(in[i]) && !IsOne(out[k])) ? sym::Expr(0) : in_strides[i];
    }
    return s;
  }
  // the reshape family and the identities: the result walks the input in order
  return model::ContiguousStrides(out);
}

}  // namespace

ViewAlias ViewAliasOf(const model::Graph& g, const model::Node& n) {
  ViewAlias r;
  if (n.kind != model::NodeKind::kOp || frontend::KindOfOp(n.op) != frontend::OpKind::kView)
    return r;
  const std::string& name = n.op.name;
  const std::string op = n.op.ToString() + " " + n.name;
  static const std::vector<std::string> kCopies = {
      "clone",  "lift_fresh_copy",       "split",      "split_with_sizes", "split_copy", "chunk",
      "unbind", "split_with_sizes_copy", "unbind_copy"};
  if (std::ranges::find(kCopies, name) != kCopies.end()) {
    r.reason = op + " copies by contract (a new buffer, or several results)";
    return r;
  }
  const model::Arg* self = model::ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue() || n.outputs.size() != 1) {
    r.reason = op + ": its input or result is not one tensor value";
    return r;
  }
  const model::ValueType& in = g.value(self->value).type;
  const model::ValueType& out = g.value(n.outputs[0]).type;
  if (!in.IsTensor() || !out.IsTensor()) {
    r.reason = op + ": the type of its input or result is not known";
    return r;
  }
  if (in.dtype_code != out.dtype_code) {
    r.reason = op + " reinterprets " + in.dtype_code + " as " + out.dtype_code;
    return r;
  }
  if (model::Numel(in.shape) != model::Numel(out.shape)) {
    r.reason = op + " changes the element count (" + model::ShapeToString(in.shape) + " -> " +
               model::ShapeToString(out.shape) + "): it drops or repeats elements";
    return r;
  }
  if (name == "slice" || name == "select") {
    // with the element count kept, a slice or select keeps every element in order
    r.aliases = true;
  } else {
    const auto strides = StridesOverInput(g, n, in.shape, out.shape);
    if (!strides) {
      r.reason = op + ": its arguments could not be read";
      return r;
    }
    const Shape dense = model::ContiguousStrides(out.shape);
    r.aliases = true;
    for (std::size_t k = 0; k < out.shape.size(); ++k)
      r.aliases = r.aliases && (IsOne(out.shape[k]) || (*strides)[k] == dense[k]);
  }
  if (!r.aliases) {
    r.reason = op + " moves data: " + model::ShapeToString(in.shape) + " -> " +
               model::ShapeToString(out.shape) + " is not its input's elements in order";
    return r;
  }
  r.source = self->value;
  r.reason = op + " " + model::ShapeToString(in.shape) + " -> " + model::ShapeToString(out.shape) +
             " keeps its input's elements in order";
  return r;
}

}  // namespace af::pipeline
