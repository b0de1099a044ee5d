// Lowering rules for views. A view of a value from outside the group stays a chain (offset,
// sizes, strides over the external buffer: permutes, slices, selects, expands and contiguous
// reshapes all fold into it); a view of a value computed in the kernel is the same node under
// another layout, which works for permutes, expands and reshapes that only add or drop size-1
// dims.
#include "lowerer.h"

namespace af::frontend::lower_detail {
namespace {

// ------------------------------------------------------------------ views

// Maps dims of `in` to dims of `out` when they differ only by size-1 dims: result[j] = input dim
// for out dim j, or -1 for an inserted size-1 dim. Empty optional when they differ otherwise.
std::optional<std::vector<int>> OnesOnlyMap(const std::vector<Expr>& in,
                                            const std::vector<Expr>& out) {
  std::vector<int> in_dims;
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!IsOne(in[k])) in_dims.push_back(static_cast<int>(k));
  std::vector<int> map(out.size(), -1);
  std::size_t p = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (IsOne(out[j])) continue;
    if (p >= in_dims.size() || in[static_cast<std::size_t>(in_dims[p])] != out[j])
      return std::nullopt;
    map[j] = in_dims[p++];
  }
  if (p != in_dims.size()) return std::nullopt;
  return map;
}

}  // namespace

void Lowerer::LowerView(const model::Node& n) {
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": view input");
  const auto& in_t = TypeOf(self->value);
  (void)OutType(n);  // throws when the output is not a known tensor
  if (!in_t.IsTensor()) throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::size_t rank = in_t.shape.size();
  auto src = Source(self->value);
  Chain* chain = std::get_if<Chain>(&src);
  const std::optional<std::vector<int>> perm = ViewPermutation(n, rank);
  if (chain != nullptr) {
    values_[n.outputs[0]] = ViewOfChain(n, *chain, perm, rank);
    return;
  }
  values_[n.outputs[0]] = ViewOfComputed(n, std::get<Emitted>(src), perm);
}

std::optional<std::vector<int>> Lowerer::ViewPermutation(const model::Node& n, std::size_t rank) {
  const std::string& name = n.op.name;
  if (name == "permute" || name == "permute_copy") {
    const Arg* d = ArgAt(n, 1, "dims");
    if (d == nullptr || !d->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
    std::vector<int> p;
    for (const auto& a : d->items) {
      auto v = a.AsInt();
      auto nd = v ? model::NormalizeDim(*v, rank) : std::nullopt;
      if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
      p.push_back(*nd);
    }
    return p;
  }
  if (name == "transpose" || name == "t") {
    std::vector<int> p(rank);
    for (std::size_t k = 0; k < rank; ++k)
      p[k] = static_cast<int>(k);
    if (rank >= 2) {
      std::int64_t d0 = 0;
      std::int64_t d1 = 1;
      if (name == "transpose") {
        auto a0 = IntExprArg(g_, ArgAt(n, 1, "dim0"));
        auto a1 = IntExprArg(g_, ArgAt(n, 2, "dim1"));
        if (!a0 || !a1 || !a0->AsInt() || !a1->AsInt())
          throw LowerError("UNSUPPORTED_ARG", n.name + ": dims");
        d0 = *model::NormalizeDim(*a0->AsInt(), rank);
        d1 = *model::NormalizeDim(*a1->AsInt(), rank);
      }
      std::swap(p[static_cast<std::size_t>(d0)], p[static_cast<std::size_t>(d1)]);
    }
    return p;
  }
  return std::nullopt;
}

Chain Lowerer::ViewOfChain(const model::Node& n, Chain c,
                           const std::optional<std::vector<int>>& perm, std::size_t rank) {
  const std::string& name = n.op.name;
  const std::vector<Expr>& out_shape = OutType(n).shape;
  if (perm) {
    Chain r = c;
    for (std::size_t j = 0; j < perm->size(); ++j) {
      r.sizes[j] = c.sizes[static_cast<std::size_t>((*perm)[j])];
      r.strides[j] = c.strides[static_cast<std::size_t>((*perm)[j])];
    }
    c = r;
  } else if (name == "slice") {
    auto dim = IntExprArg(g_, ArgAt(n, 1, "dim")).value_or(Expr(0)).AsInt();
    auto nd = dim ? model::NormalizeDim(*dim, rank) : std::nullopt;
    if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": slice dim");
    const auto k = static_cast<std::size_t>(*nd);
    Expr start = IntExprArg(g_, ArgAt(n, 2, "start")).value_or(Expr(0));
    auto step = IntExprArg(g_, ArgAt(n, 4, "step")).value_or(Expr(1)).AsInt();
    if (!step || *step < 1) throw LowerError("UNSUPPORTED_ARG", n.name + ": slice step");
    if (auto s = start.AsInt(); s && *s < 0) start = Max(c.sizes[k] + Expr(*s), Expr(0));
    c.offset = c.offset + start * c.strides[k];
    c.sizes[k] = out_shape.at(k);
    c.strides[k] = c.strides[k] * Expr(*step);
  } else if (name == "select") {
    auto dim = IntExprArg(g_, ArgAt(n, 1, "dim"));
    auto d = dim ? dim->AsInt() : std::nullopt;
    auto nd = d ? model::NormalizeDim(*d, rank) : std::nullopt;
    if (!nd) throw LowerError("UNSUPPORTED_ARG", n.name + ": select dim");
    const auto k = static_cast<std::size_t>(*nd);
    auto idx = IntExprArg(g_, ArgAt(n, 2, "index"));
    if (!idx) throw LowerError("UNSUPPORTED_ARG", n.name + ": select index");
    Expr index = *idx;
    if (auto v = index.AsInt(); v && *v < 0) index = c.sizes[k] + index;
    c.offset = c.offset + index * c.strides[k];
    c.sizes.erase(c.sizes.begin() + static_cast<std::ptrdiff_t>(k));
    c.strides.erase(c.strides.begin() + static_cast<std::ptrdiff_t>(k));
  } else if (name == "expand" || name == "expand_copy") {
    const std::size_t r = out_shape.size();
    if (r < rank) throw LowerError("UNSUPPORTED_ARG", n.name + ": expand to lower rank");
    Chain e;
    e.base = c.base;
    e.offset = c.offset;
    for (std::size_t j = 0; j < r; ++j) {
      if (j < r - rank) {
        e.sizes.push_back(out_shape[j]);
        e.strides.emplace_back(0);
        continue;
      }
      const std::size_t k = j - (r - rank);
      e.sizes.push_back(out_shape[j]);
      e.strides.push_back(IsOne(c.sizes[k]) && !IsOne(out_shape[j]) ? Expr(0) : c.strides[k]);
    }
    c = e;
  } else if (name == "alias" || name == "clone" || name == "lift_fresh_copy" ||
             name == "contiguous") {
  } else {  // view, reshape, unsqueeze, squeeze
    if (auto map = OnesOnlyMap(c.sizes, out_shape)) {
      Chain r;
      r.base = c.base;
      r.offset = c.offset;
      for (std::size_t j = 0; j < out_shape.size(); ++j) {
        r.sizes.push_back(out_shape[j]);
        r.strides.push_back((*map)[j] < 0 ? Expr(0)
                                          : c.strides[static_cast<std::size_t>((*map)[j])]);
      }
      c = r;
    } else {
      const auto contiguous = model::ContiguousStrides(c.sizes);
      for (std::size_t k = 0; k < c.sizes.size(); ++k) {
        if (!IsOne(c.sizes[k]) && c.strides[k] != contiguous[k]) {
          throw LowerError("VIEW_NOT_FUSIBLE",
                           n.name + ": reshape of a non-contiguous view of an input");
        }
      }
      c.sizes = out_shape;
      c.strides = model::ContiguousStrides(out_shape);
    }
  }
  return c;
}

Emitted Lowerer::ViewOfComputed(const model::Node& n, const Emitted& x,
                                const std::optional<std::vector<int>>& perm) {
  const std::string& name = n.op.name;
  const std::vector<Expr>& in_shape = TypeOf(ArgAt(n, 0, "self")->value).shape;
  const std::vector<Expr>& out_shape = OutType(n).shape;
  const std::size_t rank = in_shape.size();
  if (!perm &&
      (name == "view" || name == "_unsafe_view" || name == "reshape" || name == "view_copy")) {
    if (auto split = SplitCubeOutput(n, x)) return *split;
  }
  Emitted r = x;
  if (perm) {
    Layout l(perm->size());
    for (std::size_t j = 0; j < perm->size(); ++j)
      l[j] = x.layout.at(static_cast<std::size_t>((*perm)[j]));
    r.layout = l;
  } else if (name == "alias" || name == "clone" || name == "lift_fresh_copy" ||
             name == "contiguous") {
  } else if (name == "expand" || name == "expand_copy") {
    const std::size_t rr = out_shape.size();
    Layout l(rr);
    for (std::size_t j = 0; j < rr; ++j) {
      const bool old = j >= rr - rank;
      Dim d = old ? x.layout[j - (rr - rank)] : Dim{};
      if (!IsOne(out_shape[j]) && !d.full) {
        if (d.cls >= 0 && size_[static_cast<std::size_t>(Find(d.cls))] == out_shape[j]) {
          d.full = true;
        } else {
          d = Dim{NewClass(out_shape[j]), true};
        }
      }
      l[j] = d;
    }
    r = BroadcastTo(x, l);
    r.layout = l;
  } else if (name == "slice" || name == "select") {
    if (name == "slice" && out_shape == in_shape) {
      // a slice that keeps everything
    } else {
      throw LowerError("VIEW_NOT_FUSIBLE",
                       n.name + ": " + name + " of a value computed in the kernel");
    }
  } else {
    auto map = OnesOnlyMap(in_shape, out_shape);
    if (!map) {
      throw LowerError("VIEW_NOT_FUSIBLE",
                       n.name +
                           ": reshape that merges or splits dims of a value computed in "
                           "the kernel");
    }
    Layout l(out_shape.size());
    for (std::size_t j = 0; j < out_shape.size(); ++j)
      if ((*map)[j] >= 0) l[j] = x.layout[static_cast<std::size_t>((*map)[j])];
    r.layout = l;
  }
  return r;
}

}  // namespace af::frontend::lower_detail
