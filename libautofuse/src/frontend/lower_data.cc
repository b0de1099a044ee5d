// Lowering rules for data movement (docs/frontend.md, "Data movement"): cat and constant_pad_nd
// become Concat (a pad is a Concat with filled pieces), the split family becomes Load views of an
// input or Split nodes of a computed value, and index_select / embedding / gather / index become
// a Gather reading its params and indices straight from Data (or indices a reduction computes).
#include "autofuse/ir/op_registry.h"
#include "lowerer.h"

namespace af::frontend::lower_detail {

// Concat of `in` (same rank, already in dtype `dt`) along `dim` into an output of extent `size`
// there. The output's concat dim is a new axis; each input's concat dim becomes a piece of it
// (the same axis id with the input's own repeat, docs/ir.md "Concat").
Emitted Lowerer::ConcatOf(const model::Node& n, std::vector<Emitted> in, std::size_t dim,
                          const Expr& size, DType dt) {
  const std::size_t r = in.front().layout.size();
  Layout out(r);
  for (std::size_t j = 0; j < r; ++j) {
    if (j == dim) continue;
    int cls = -1;
    int any = -1;
    for (const auto& e : in) {
      if (e.layout.size() != r)
        throw LowerError("AXIS_CONFLICT", n.name + ": concat inputs of different ranks");
      const Dim& d = e.layout[j];
      if (d.cls < 0) continue;
      if (d.full) {
        cls = cls < 0 ? Find(d.cls) : Unify(cls, d.cls, n.name);
      } else if (any < 0) {
        any = Find(d.cls);
      }
    }
    out[j] = cls >= 0 ? Dim{cls, true} : Dim{any, false};
  }
  out[dim] = Dim{NewClass(size), true};
  for (auto& e : in) {
    Layout want = out;
    want[dim] = e.layout[dim];
    e = BroadcastTo(e, want);
    const Dim& d = e.layout[dim];
    if (d.cls >= 0 && d.full) MarkPart(d.cls, out[dim].cls, n.name);
  }
  return Op("Concat", in, dt, out);
}

void Lowerer::LowerCat(const model::Node& n) {
  const Arg* list = ArgAt(n, 0, "tensors");
  if (list == nullptr || !list->IsList() || list->items.empty())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": cat needs a list of tensors");
  const auto& ot = OutType(n);
  const std::size_t r = ot.rank();
  const auto d = r == 0 ? std::nullopt : DimArg(g_, n, 1, r);
  if (!d) throw LowerError("UNSUPPORTED_ARG", n.name + ": cat dim");
  const DType cd = Compute(ot.dtype);
  std::vector<Emitted> in;
  Expr total(0);
  for (const auto& a : list->items) {
    if (!a.IsValue() || !TypeOf(a.value).IsTensor())
      throw LowerError("UNSUPPORTED_ARG", n.name + ": a cat operand is not a tensor");
    const auto& t = TypeOf(a.value);
    if (t.dtype == DType::kUndefined)
      throw LowerError("UNKNOWN_TYPE", n.name + ": a cat operand's dtype is not known");
    if (t.rank() == 1 && t.shape[0] == Expr(0) && r != 1) continue;  // legacy: skipped by cat
    if (t.rank() != r)
      throw LowerError("AXIS_CONFLICT", n.name + ": cat operands of different ranks");
    total = total + t.shape[*d];
    if (t.shape[*d] == Expr(0)) continue;
    Emitted e = Cast(Get(a.value), cd);
    if (e.layout.size() != r)
      throw LowerError("AXIS_CONFLICT", n.name + ": a cat operand's layout has another rank");
    if (!IsOne(t.shape[*d]) && !e.layout[*d].full)
      throw LowerError("AXIS_CONFLICT", n.name + ": a cat operand does not span the concat dim");
    in.push_back(e);
  }
  if (total != ot.shape[*d]) {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": the operands add up to " + total.ToString() +
                                            " along dim " + std::to_string(*d) +
                                            ", the output has " + ot.shape[*d].ToString());
  }
  if (in.empty()) throw LowerError("UNSUPPORTED_ARG", n.name + ": cat of empty tensors only");
  values_[n.outputs[0]] = in.size() == 1 ? in[0] : ConcatOf(n, in, *d, ot.shape[*d], cd);
}

void Lowerer::LowerSplit(const model::Node& n) {
  const std::string& name = n.op.name;
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": split input");
  const auto& it = TypeOf(self->value);
  if (!it.IsTensor() || it.dtype == DType::kUndefined)
    throw LowerError("UNKNOWN_TYPE", n.name + ": input type unknown");
  const std::size_t rank = it.rank();
  const bool unbind = name == "unbind" || name == "unbind_copy";
  const auto d = rank == 0 ? std::nullopt : DimArg(g_, n, unbind ? 1 : 2, rank);
  if (!d) throw LowerError("UNSUPPORTED_ARG", n.name + ": split dim");
  if (n.outputs.empty()) throw LowerError("UNSUPPORTED_ARG", n.name + ": split without outputs");
  // the pieces' extents along the split dim, from their types
  std::vector<Expr> sizes;
  Expr total(0);
  for (std::size_t k = 0; k < n.outputs.size(); ++k) {
    const auto& t = OutType(n, static_cast<int>(k));
    if (t.rank() != (unbind ? rank - 1 : rank))
      throw LowerError("AXIS_CONFLICT", n.name + ": piece " + std::to_string(k) + " has rank " +
                                            std::to_string(t.rank()));
    sizes.push_back(unbind ? Expr(1) : t.shape[*d]);
    total = total + sizes.back();
  }
  if (total != it.shape[*d]) {
    throw LowerError("UNSUPPORTED_ARG", n.name + ": the " + std::to_string(sizes.size()) +
                                            " pieces add up to " + total.ToString() +
                                            ", the split dim has " + it.shape[*d].ToString());
  }
  auto src = Source(self->value);
  if (auto* chain = std::get_if<Chain>(&src)) {  // a view of an input: one Load view per piece
    Expr start(0);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      Chain c = *chain;
      c.offset = c.offset + start * c.strides[*d];
      start = start + sizes[k];
      if (unbind) {
        c.sizes.erase(c.sizes.begin() + static_cast<std::ptrdiff_t>(*d));
        c.strides.erase(c.strides.begin() + static_cast<std::ptrdiff_t>(*d));
      } else {
        c.sizes[*d] = sizes[k];
      }
      values_[n.outputs[k]] = c;
    }
    return;
  }
  const Emitted x = std::get<Emitted>(src);
  if (x.layout.size() != rank)
    throw LowerError("AXIS_CONFLICT", n.name + ": the split input's layout has another rank");
  auto drop = [&](Emitted e) {
    if (unbind) e.layout.erase(e.layout.begin() + static_cast<std::ptrdiff_t>(*d));
    return e;
  };
  if (sizes.size() == 1) {
    values_[n.outputs[0]] = drop(x);
    return;
  }
  const Dim whole = x.layout[*d];
  if (whole.cls < 0 || !whole.full)
    throw LowerError("AXIS_CONFLICT", n.name + ": the split dim is not spanned by its input");
  // One Split node per piece, all with one gid (AutoFuse's form before merging, docs/ir.md;
  // MergeSplits makes them one node with an output per piece at the end); each piece is the same
  // axis as the input with its own repeat.
  const int gid = split_gid_++;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    Layout l = x.layout;
    l[*d] = IsOne(sizes[k]) ? Dim{} : Dim{NewClass(sizes[k]), true};
    if (l[*d].cls >= 0) MarkPart(l[*d].cls, whole.cls, n.name);
    Info info;
    info.layout = l;
    const int id = Add("Split", {x.node}, x.dtype, info);
    auto& attrs = g_out_.nodes[static_cast<std::size_t>(id)].attrs;
    attrs["gid"] = static_cast<std::int64_t>(gid);
    attrs["index"] = static_cast<std::int64_t>(k);
    values_[n.outputs[k]] = drop(Emitted{id, x.dtype, l});
  }
}

int Lowerer::GatherData(const model::Node& n, int value, const char* what) {
  auto src = Source(value);
  int base = -1;
  if (const auto* c = std::get_if<Chain>(&src)) {
    const auto& bt = TypeOf(c->base);
    if (c->offset == Expr(0) && c->sizes == bt.shape &&
        c->strides == model::ContiguousStrides(bt.shape))
      base = c->base;
  }
  if (base < 0) {
    throw LowerError("VIEW_NOT_FUSIBLE",
                     n.name + ": the Gather " + what +
                         " must be a kernel input read whole (AutoFuse's Gather reads params and "
                         "indices straight from global memory), not a view or a computed value");
  }
  const int data = DataFor(base);
  gather_data_.insert(data);
  return data;
}

// Indices a reduction computes in this kernel (argmax's): Gather reads its indices from global
// memory, so they cross a group boundary (docs/schedule.md, groups), a workspace tensor the
// reducing group writes and the Gather's group reads, as in AutoFuse's multi-group kernels. A
// value computed any other way stays VIEW_NOT_FUSIBLE (no group boundary would carry it).
std::optional<Emitted> Lowerer::ReducedIndices(int value) {
  const auto src = Source(value);
  const auto* e = std::get_if<Emitted>(&src);
  if (e == nullptr || e->node < 0) return std::nullopt;
  if (!ir::IsReduceOp(g_out_.nodes[static_cast<std::size_t>(e->node)].type)) return std::nullopt;
  return *e;
}

void Lowerer::LowerGather(const model::Node& n) {
  const std::string& name = n.op.name;
  auto tensor_arg = [&](std::size_t i, std::string_view kw) {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr || !a->IsValue() || !TypeOf(a->value).IsTensor())
      throw LowerError("UNSUPPORTED_ARG",
                       n.name + ": operand '" + std::string(kw) + "' is not a tensor");
    if (TypeOf(a->value).dtype == DType::kUndefined)
      throw LowerError("UNKNOWN_TYPE", n.name + ": operand '" + std::string(kw) + "' dtype");
    return a->value;
  };
  int params = -1;
  int indices = -1;
  std::optional<std::size_t> axis;
  bool negative = false;  // embedding, index_select and gather refuse negative indices
  if (name == "embedding") {
    params = tensor_arg(0, "weight");
    indices = tensor_arg(1, "indices");
    if (TypeOf(params).rank() != 2)
      throw LowerError("UNSUPPORTED_ARG", n.name + ": embedding weight must be 2-D");
    axis = 0;
  } else if (name == "index_select" || name == "gather") {
    params = tensor_arg(0, "self");
    indices = tensor_arg(2, "index");
    const std::size_t pr = TypeOf(params).rank();
    axis = pr == 0 ? std::nullopt : DimArg(g_, n, 1, pr);
    if (!axis) throw LowerError("UNSUPPORTED_ARG", n.name + ": dim");
    if (name == "gather" && pr != 1) {
      // torch.gather picks per element; it is AscIR Gather (a take along one axis) only in 1-D
      throw LowerError("UNSUPPORTED_ARG",
                       n.name + ": gather of a " + std::to_string(pr) +
                           "-D tensor is an element-wise gather, not a take along an axis");
    }
    if (TypeOf(indices).rank() != 1) {
      throw LowerError("UNSUPPORTED_ARG", n.name + ": " + name + " with a " +
                                              std::to_string(TypeOf(indices).rank()) +
                                              "-D index is not lowered (1-D only)");
    }
  } else {  // index.Tensor / _unsafe_index: x[..., idx, ...] with one index tensor
    params = tensor_arg(0, "self");
    const Arg* l = ArgAt(n, 1, "indices");
    if (l == nullptr || !l->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": index list");
    for (std::size_t k = 0; k < l->items.size(); ++k) {
      if (l->items[k].IsNone()) continue;
      if (axis || !l->items[k].IsValue() || !TypeOf(l->items[k].value).IsTensor())
        throw LowerError("UNSUPPORTED_ARG", n.name + ": indexing with more than one tensor");
      axis = k;
      indices = l->items[k].value;
    }
    if (!axis) throw LowerError("UNSUPPORTED_ARG", n.name + ": no index tensor");
    negative = true;  // Python indexing counts negative indices from the end
  }
  const auto& pt = TypeOf(params);
  const auto& xt = TypeOf(indices);
  if (xt.dtype != DType::kInt32 && xt.dtype != DType::kInt64) {
    throw LowerError("UNSUPPORTED_DTYPE",
                     n.name + ": Gather indices must be int32 or int64, not " + xt.dtype_code);
  }
  if (*axis >= pt.rank()) throw LowerError("UNSUPPORTED_ARG", n.name + ": axis out of range");
  const int pdata = GatherData(n, params, "params");
  const std::optional<Emitted> reduced = ReducedIndices(indices);
  const int idata = reduced ? reduced->node : GatherData(n, indices, "indices");
  if (pdata == idata)
    throw LowerError("UNSUPPORTED_ARG", n.name + ": one tensor as params and indices");
  GatherUse gu;
  gu.params = pdata;
  gu.indices = idata;
  gu.reduced_indices = reduced.has_value();
  gu.extent = pt.shape[*axis];
  gu.params_shape = pt.shape;
  Layout out;
  for (std::size_t k = 0; k < pt.rank(); ++k) {
    if (k == *axis) {
      for (std::size_t j = 0; j < xt.shape.size(); ++j) {
        const Expr& e = xt.shape[j];
        // Computed indices keep their producer's dims (the same loop axes); those of a Data
        // node get axes of their own.
        Dim dd = IsOne(e) ? Dim{} : Dim{NewClass(e), true};
        if (reduced) dd = reduced->layout.at(j).full ? reduced->layout[j] : Dim{};
        gu.index_layout.push_back(dd);
        out.push_back(dd);
      }
      continue;
    }
    const int c = NewClass(pt.shape[k]);  // an axis even when of extent 1: params views need it
    (k < *axis ? gu.prefix : gu.suffix).push_back(c);
    out.push_back({c, true});
  }
  const auto& ot = OutType(n);
  if (out.size() != ot.rank())
    throw LowerError("AXIS_CONFLICT", n.name + ": output rank differs from the Gather's");
  Info info;
  info.layout = out;
  const int id = Add("Gather", {pdata, idata}, pt.dtype, info);
  auto& attrs = g_out_.nodes[static_cast<std::size_t>(id)].attrs;
  attrs["axis"] = static_cast<std::int64_t>(*axis);
  attrs["negative_index_support"] = negative;
  gu.node = id;
  gathers_.push_back(gu);
  values_[n.outputs[0]] = Cast(Emitted{id, pt.dtype, out}, Compute(ot.dtype));
}

void Lowerer::LowerPad(const model::Node& n) {
  const Arg* self = ArgAt(n, 0, "self");
  if (self == nullptr || !self->IsValue() || !TypeOf(self->value).IsTensor())
    throw LowerError("UNSUPPORTED_ARG", n.name + ": pad input");
  const auto& it = TypeOf(self->value);
  const Arg* pl = ArgAt(n, 1, "pad");
  if (pl == nullptr || !pl->IsList()) throw LowerError("UNSUPPORTED_ARG", n.name + ": pad list");
  std::vector<std::int64_t> pad;
  for (const auto& a : pl->items) {
    auto v = a.AsInt();
    if (!v) throw LowerError("UNSUPPORTED_ARG", n.name + ": symbolic pads are not lowered");
    if (*v < 0)
      throw LowerError("UNSUPPORTED_ARG", n.name + ": negative pads (cropping) are not lowered");
    pad.push_back(*v);
  }
  const std::size_t rank = it.rank();
  if (pad.size() % 2 != 0 || pad.size() / 2 > rank)
    throw LowerError("UNSUPPORTED_ARG", n.name + ": bad pad list");
  const double value = FloatArg(ArgAt(n, 2, "value"), 0.0);
  const auto& ot = OutType(n);
  const DType cd = Compute(ot.dtype);
  Emitted x = Cast(Get(self->value), cd);
  if (x.layout.size() != rank)
    throw LowerError("AXIS_CONFLICT", n.name + ": the pad input's layout has another rank");
  std::vector<Expr> shape = it.shape;
  // pad pairs run from the last dim backwards; each padded dim is a Concat of filled pieces
  for (std::size_t i = 0; i < pad.size() / 2; ++i) {
    const std::int64_t lo = pad[2 * i];
    const std::int64_t hi = pad[2 * i + 1];
    if (lo == 0 && hi == 0) continue;
    const std::size_t d = rank - 1 - i;
    if (!IsOne(shape[d]) && !x.layout[d].full)
      throw LowerError("AXIS_CONFLICT", n.name + ": the padded dim is not spanned");
    auto fill = [&](std::int64_t width) {
      Layout l = x.layout;
      l[d] = width == 1 ? Dim{} : Dim{NewClass(Expr(width)), true};
      return Op("Broadcast", {Scalar(value, cd)}, cd, l);
    };
    std::vector<Emitted> parts;
    if (lo > 0) parts.push_back(fill(lo));
    parts.push_back(x);
    if (hi > 0) parts.push_back(fill(hi));
    shape[d] = shape[d] + Expr(lo + hi);
    x = ConcatOf(n, parts, d, shape[d], cd);
  }
  values_[n.outputs[0]] = x;
}

}  // namespace af::frontend::lower_detail
