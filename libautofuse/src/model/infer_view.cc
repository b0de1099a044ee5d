// Inference rules for views and data movement: view/reshape (with -1), unsqueeze, squeeze,
// expand, permute, transpose, t, slice, select, narrow, unbind, split, cat, stack, pad, repeat,
// gather, index_select, advanced indexing (index.Tensor), embedding, as_strided.
#include <algorithm>
#include <limits>

#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using ir::DType;
using sym::Expr;

std::vector<ValueType> One(ValueType t) {
  return {std::move(t)};
}

// view/reshape sizes: at most one -1, inferred from the element count.
Shape ViewSizes(const Ctx& c, const ValueType& x, const Arg& sizes) {
  Shape s = c.SizeList(sizes);
  int infer_at = -1;
  Expr known(1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == Expr(-1)) {
      if (infer_at >= 0) Fail("more than one -1 in the view sizes");
      infer_at = static_cast<int>(i);
    } else {
      known = known * s[i];
    }
  }
  if (infer_at >= 0) {
    if (known == Expr(0)) Fail("cannot infer -1 next to a zero size");
    s[static_cast<std::size_t>(infer_at)] = sym::Div(Numel(x.shape), known);
  }
  return s;
}

std::vector<ValueType> View(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  if (c.op().overload == "dtype") {
    const auto dt = c.DTypeArg(1, "dtype");
    if (!dt || ir::DTypeBytes(*dt) != ir::DTypeBytes(x.dtype)) {
      Fail("view.dtype between element sizes is not inferred");
    }
    ValueType r = MakeTensor(*dt, x.shape);
    r.device = x.device;
    return One(r);
  }
  return One(WithShape(x, ViewSizes(c, x, c.Need(1, "size"))));
}

std::vector<ValueType> Unsqueeze(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", std::nullopt), x.rank() + 1);
  Shape s = x.shape;
  s.insert(s.begin() + d, Expr(1));
  return One(WithShape(x, s));
}

std::vector<ValueType> Squeeze(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  std::vector<bool> drop(x.rank(), false);
  const Arg* dims = c.Get(1, "dim");
  if (dims == nullptr) dims = c.Get(-1, "dims");
  if (dims == nullptr || dims->IsNone()) {
    std::fill(drop.begin(), drop.end(), true);
  } else {
    const auto listed = c.Dims(dims, x.rank());
    for (int d : *listed) {
      if (static_cast<std::size_t>(d) < drop.size()) drop[static_cast<std::size_t>(d)] = true;
    }
  }
  Shape s;
  for (std::size_t i = 0; i < x.rank(); ++i) {
    // Only sizes known to be 1 are removed; a symbolic size is taken as not 1 (PyTorch would
    // have specialised it to 1 otherwise).
    if (!(drop[i] && x.shape[i] == Expr(1))) s.push_back(x.shape[i]);
  }
  return One(WithShape(x, s));
}

std::vector<ValueType> Expand(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const Shape sizes = c.SizeList(c.Need(1, "size"));
  if (sizes.size() < x.rank()) Fail("expand to fewer dimensions than the input has");
  const std::size_t lead = sizes.size() - x.rank();
  Shape s(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == Expr(-1)) {
      if (i < lead) Fail("-1 in a new leading dimension of expand");
      s[i] = x.shape[i - lead];
    } else {
      if (i >= lead && !(x.shape[i - lead] == sizes[i]) && !(x.shape[i - lead] == Expr(1))) {
        Fail("cannot expand size " + x.shape[i - lead].ToString() + " to " + sizes[i].ToString());
      }
      s[i] = sizes[i];
    }
  }
  return One(WithShape(x, s));
}

std::vector<ValueType> Permute(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const auto dims = c.Dims(&c.Need(1, "dims"), x.rank());
  if (dims->size() != x.rank()) Fail("permute needs one entry per dimension");
  std::vector<bool> seen(x.rank(), false);
  Shape s;
  for (int d : *dims) {
    if (seen[static_cast<std::size_t>(d)]) Fail("permute repeats a dimension");
    seen[static_cast<std::size_t>(d)] = true;
    s.push_back(x.shape[static_cast<std::size_t>(d)]);
  }
  return One(WithShape(x, s));
}

std::vector<ValueType> Transpose(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  Shape s = x.shape;
  if (c.op().name == "t" || c.op().name == "t_copy") {
    if (x.rank() > 2) Fail("t() needs at most 2 dimensions");
    std::reverse(s.begin(), s.end());
    return One(WithShape(x, s));
  }
  if (x.rank() == 0) return One(WithShape(x, s));
  const int a = c.Dim(c.Int(1, "dim0", std::nullopt), x.rank());
  const int b = c.Dim(c.Int(2, "dim1", std::nullopt), x.rank());
  std::swap(s[static_cast<std::size_t>(a)], s[static_cast<std::size_t>(b)]);
  return One(WithShape(x, s));
}

bool IsHuge(const Expr& e) {
  auto v = e.AsInt();
  return v && *v >= std::numeric_limits<std::int64_t>::max() / 4;
}

// The size of x[start:end:step] along a dimension of size n (Python slicing rules). Bounds are
// clamped into [0, n] when everything is constant; with a symbolic n they are taken as in range,
// as PyTorch's guards would have established.
Expr SliceLength(const Expr& n, std::optional<Expr> start, std::optional<Expr> end,
                 std::int64_t step) {
  if (step <= 0) Fail("slice step must be positive");
  auto wrap = [&n](Expr v) {
    if (auto k = v.AsInt(); k && *k < 0) v = v + n;
    return v;
  };
  Expr b = start ? wrap(*start) : Expr(0);
  Expr e = (!end || IsHuge(*end)) ? n : wrap(*end);
  if (auto nv = n.AsInt()) {
    auto clamp = [nv](const Expr& v) {
      auto k = v.AsInt();
      if (!k) return v;
      return Expr(std::clamp<std::int64_t>(*k, 0, *nv));
    };
    b = clamp(b);
    e = clamp(e);
  }
  Expr len = e - b;
  if (auto k = len.AsInt(); k && *k < 0) len = Expr(0);
  if (step != 1) len = sym::CeilDiv(len, Expr(step));
  return len;
}

std::vector<ValueType> Slice(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  if (x.rank() == 0) Fail("slice of a 0-dim tensor");
  const int d = c.Dim(c.Int(1, "dim", 0), x.rank());
  auto opt = [&c](int pos, std::string_view name) -> std::optional<Expr> {
    const Arg* a = c.Get(pos, name);
    if (a == nullptr || a->IsNone()) return std::nullopt;
    return c.Size(*a);
  };
  Shape s = x.shape;
  s[static_cast<std::size_t>(d)] = SliceLength(s[static_cast<std::size_t>(d)], opt(2, "start"),
                                               opt(3, "end"), c.Int(4, "step", 1));
  return One(WithShape(x, s));
}

std::vector<ValueType> Select(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", std::nullopt), x.rank());
  (void)c.Need(2, "index");
  Shape s = x.shape;
  s.erase(s.begin() + d);
  return One(WithShape(x, s));
}

std::vector<ValueType> Narrow(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", std::nullopt), x.rank());
  Shape s = x.shape;
  s[static_cast<std::size_t>(d)] = c.Size(c.Need(3, "length"));
  return One(WithShape(x, s));
}

std::int64_t ConstSize(const Expr& e, const char* what) {
  auto v = e.AsInt();
  if (!v) Fail(std::string(what) + " along a symbolic size " + e.ToString());
  return *v;
}

std::vector<ValueType> Unbind(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", 0), x.rank());
  const std::int64_t n = ConstSize(x.shape[static_cast<std::size_t>(d)], "unbind");
  if (n < 0 || n > 4096) Fail("unbind into " + std::to_string(n) + " tensors");
  Shape s = x.shape;
  s.erase(s.begin() + d);
  std::vector<ValueType> out(static_cast<std::size_t>(n), WithShape(x, s));
  return out;
}

std::vector<ValueType> Split(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(2, "dim", 0), x.rank());
  const Expr total = x.shape[static_cast<std::size_t>(d)];
  std::vector<Expr> sizes;
  const Arg& a = c.Need(1, "split_size");
  if (a.IsList()) {
    sizes = c.SizeList(a);
  } else {
    const std::int64_t n = ConstSize(total, "split");
    if (n < 0) Fail("split of a negative size");
    const std::int64_t k = c.Int(1, "split_size", std::nullopt);
    if (k <= 0) Fail("split size must be positive");
    if (n / k > 4096) Fail("split into more than 4096 tensors");
    for (std::int64_t at = 0; at < n || (n == 0 && sizes.empty()); at += k)
      sizes.emplace_back(std::min(k, n - at));
  }
  std::vector<ValueType> out;
  for (const auto& sz : sizes) {
    Shape s = x.shape;
    s[static_cast<std::size_t>(d)] = sz;
    out.push_back(WithShape(x, s));
  }
  return out;
}

const Arg& TensorList(const Ctx& c) {
  const Arg& l = c.Need(0, "tensors");
  if (!l.IsList() || l.items.empty()) Fail("expected a non-empty list of tensors");
  return l;
}

std::vector<ValueType> Cat(const Ctx& c) {
  const Arg& l = TensorList(c);
  std::vector<const Arg*> parts;
  const ValueType* first = nullptr;
  for (const auto& it : l.items) {
    const ValueType& t = c.TensorArg(it);
    parts.push_back(&it);
    // Legacy: 1-D empty tensors are skipped by cat.
    if (t.rank() == 1 && t.shape[0] == Expr(0)) continue;
    if (first == nullptr) first = &t;
  }
  if (first == nullptr) first = &c.TensorArg(l.items[0]);
  const int d = c.Dim(c.Int(1, "dim", 0), first->rank());
  Expr total(0);
  for (const auto& it : l.items) {
    const ValueType& t = c.TensorArg(it);
    if (t.rank() == 1 && t.shape[0] == Expr(0) && first->rank() != 1) continue;
    if (t.rank() != first->rank()) Fail("cat of tensors with different ranks");
    total = total + t.shape[static_cast<std::size_t>(d)];
  }
  Shape s = first->shape;
  s[static_cast<std::size_t>(d)] = total;
  ValueType r = MakeTensor(Promote(c, parts), s);
  r.device = first->device;
  return One(r);
}

std::vector<ValueType> Stack(const Ctx& c) {
  const Arg& l = TensorList(c);
  const ValueType& first = c.TensorArg(l.items[0]);
  std::vector<const Arg*> parts;
  for (const auto& it : l.items)
    parts.push_back(&it);
  const int d = c.Dim(c.Int(1, "dim", 0), first.rank() + 1);
  Shape s = first.shape;
  s.insert(s.begin() + d, Expr(static_cast<std::int64_t>(l.items.size())));
  ValueType r = MakeTensor(Promote(c, parts), s);
  r.device = first.device;
  return One(r);
}

std::vector<ValueType> Pad(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const Shape pad = c.SizeList(c.Need(1, "pad"));
  if (pad.size() % 2 != 0 || pad.size() / 2 > x.rank()) Fail("bad pad list");
  Shape s = x.shape;
  for (std::size_t i = 0; i < pad.size() / 2; ++i) {
    auto& dim = s[x.rank() - 1 - i];
    dim = dim + pad[2 * i] + pad[2 * i + 1];
  }
  return One(WithShape(x, s));
}

std::vector<ValueType> Repeat(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const Shape reps = c.SizeList(c.Need(1, "repeats"));
  if (reps.size() < x.rank()) Fail("fewer repeats than dimensions");
  Shape s(reps.size());
  const std::size_t lead = reps.size() - x.rank();
  for (std::size_t i = 0; i < reps.size(); ++i)
    s[i] = (i < lead ? Expr(1) : x.shape[i - lead]) * reps[i];
  return One(WithShape(x, s));
}

std::vector<ValueType> Gather(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const ValueType& idx = c.Tensor(2, "index");
  (void)c.DimOrScalar(c.Int(1, "dim", std::nullopt), x.rank());
  return One(WithShape(x, idx.shape));
}

std::vector<ValueType> IndexSelect(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.DimOrScalar(c.Int(1, "dim", std::nullopt), x.rank());
  const ValueType& idx = c.Tensor(2, "index");
  Shape s = x.shape;
  if (!s.empty()) s[static_cast<std::size_t>(d)] = Numel(idx.shape);
  return One(WithShape(x, s));
}

// x[i0, i1, ...] with tensors (and None for ":") in the index list. Index tensors broadcast
// together; the broadcast shape replaces the indexed dims in place when they are adjacent, and
// goes first otherwise.
std::vector<ValueType> AdvancedIndex(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const Arg& l = c.Need(1, "indices");
  if (!l.IsList()) Fail("expected a list of indices");
  if (l.items.size() > x.rank()) Fail("too many indices");
  std::vector<std::size_t> indexed;
  Shape b;
  for (std::size_t i = 0; i < l.items.size(); ++i) {
    if (l.items[i].IsNone()) continue;
    const ValueType& t = c.TensorArg(l.items[i]);
    if (t.dtype == DType::kBool || t.dtype == DType::kUInt8) {
      Fail("boolean mask indexing has a data-dependent shape");
    }
    std::string why;
    auto bb = BroadcastShapes(b, t.shape, &why);
    if (!bb) Fail(why);
    b = std::move(*bb);
    indexed.push_back(i);
  }
  if (indexed.empty()) return One(WithShape(x, x.shape));
  const bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  Shape s;
  if (adjacent) {
    s.insert(s.end(), x.shape.begin(), x.shape.begin() + static_cast<long>(indexed.front()));
    s.insert(s.end(), b.begin(), b.end());
    s.insert(s.end(), x.shape.begin() + static_cast<long>(indexed.back()) + 1, x.shape.end());
  } else {
    s = b;
    for (std::size_t i = 0; i < x.rank(); ++i) {
      if (std::find(indexed.begin(), indexed.end(), i) == indexed.end()) s.push_back(x.shape[i]);
    }
  }
  return One(WithShape(x, s));
}

std::vector<ValueType> Embedding(const Ctx& c) {
  const ValueType& w = c.Tensor(0, "weight");
  const ValueType& idx = c.Tensor(1, "indices");
  Shape s = idx.shape;
  s.insert(s.end(), w.shape.begin() + (w.rank() > 0 ? 1 : 0), w.shape.end());
  return One(WithShape(w, s));
}

std::vector<ValueType> AsStrided(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  ValueType r = WithShape(x, c.SizeList(c.Need(1, "size")));
  r.strides = c.SizeList(c.Need(2, "stride"));
  if (r.strides->size() != r.shape.size()) Fail("size and stride lists differ in length");
  return One(r);
}

std::vector<ValueType> BroadcastInDim(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "a");
  return One(WithShape(x, c.SizeList(c.Need(1, "shape"))));
}

void Add(RuleTable& t, std::initializer_list<std::string_view> names, const RuleFn& fn,
         bool multi = false) {
  for (auto n : names)
    t[std::string(n)] = Rule{fn, multi};
}

}  // namespace

void AddViewRules(RuleTable& t) {
  Add(t, {"aten.view", "aten._unsafe_view", "aten.reshape", "aten.view_copy", "prims.reshape"},
      View);
  Add(t, {"aten.unsqueeze", "aten.unsqueeze_copy"}, Unsqueeze);
  Add(t, {"aten.squeeze", "aten.squeeze_copy", "prims.squeeze"}, Squeeze);
  Add(t, {"aten.expand", "aten.expand_copy"}, Expand);
  Add(t, {"aten.permute", "aten.permute_copy", "prims.transpose"}, Permute);
  Add(t, {"aten.transpose", "aten.transpose_copy", "aten.t", "aten.t_copy"}, Transpose);
  Add(t, {"aten.slice", "aten.slice_copy"}, Slice);
  Add(t, {"aten.select", "aten.select_copy"}, Select);
  Add(t, {"aten.narrow", "aten.narrow_copy"}, Narrow);
  Add(t, {"aten.unbind", "aten.unbind_copy"}, Unbind, true);
  Add(t, {"aten.split", "aten.split_with_sizes", "aten.split_copy", "aten.split_with_sizes_copy"},
      Split, true);
  Add(t, {"aten.cat", "prims.cat"}, Cat);
  Add(t, {"aten.stack"}, Stack);
  Add(t, {"aten.constant_pad_nd"}, Pad);
  Add(t, {"aten.repeat"}, Repeat);
  Add(t, {"aten.gather"}, Gather);
  Add(t, {"aten.index_select"}, IndexSelect);
  Add(t, {"aten.index", "aten._unsafe_index"}, AdvancedIndex);
  Add(t, {"aten.embedding"}, Embedding);
  Add(t, {"aten.as_strided", "aten._reshape_alias", "aten.as_strided_copy"}, AsStrided);
  Add(t, {"prims.broadcast_in_dim"}, BroadcastInDim);
}

}  // namespace af::model::infer_detail
