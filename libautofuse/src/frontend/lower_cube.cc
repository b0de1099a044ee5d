// Lowering rules of the matmul pass (docs/frontend.md, "The matmul pass"): aten mm, bmm and addmm
// become AscIR MatMul, BatchMatMul or MatMulBias (BatchMatMulBias) nodes that read their operands
// straight from kernel inputs, as the cube reads GM itself; the schedule makes the group a cube +
// vector kernel (schedule::PartitionCube). An operand must be a kernel input read whole, densely
// or with its last two dims transposed (a permute of a weight, k.transpose(-2, -1)); an operand
// computed in the kernel is CUBE_PROLOGUE (the front end does not store it for the cube), any
// other view CUBE_OPERAND_LAYOUT. A reshape of the product that splits its leading dim (the
// [B * M, N] -> [B, M, N] after addmm in a transformer) makes it a BatchMatMul over the split
// dims, so the epilogue that follows can fuse.
#include "autofuse/ir/data_movement.h"
#include "lowerer.h"

namespace af::frontend::lower_detail {

Lowerer::CubeOperand Lowerer::CubeOperandOf(const model::Node& n, int value, const char* what) {
  const auto& t = TypeOf(value);
  if (!t.IsTensor() || t.dtype == DType::kUndefined)
    throw LowerError("UNKNOWN_TYPE", n.name + ": operand " + what + " is not a known tensor");
  auto src = Source(value);
  const auto* c = std::get_if<Chain>(&src);
  if (c == nullptr) {
    throw LowerError("CUBE_PROLOGUE", n.name + ": operand " + what +
                                          " is computed in the kernel; the matmul pass feeds the "
                                          "cube kernel inputs only");
  }
  const auto& bt = TypeOf(c->base);
  const std::size_t r = c->sizes.size();
  CubeOperand op;
  op.data_value = c->base;
  op.sizes = c->sizes;
  bool whole = c->offset == Expr(0) && r >= 2 && model::Numel(c->sizes) == model::Numel(bt.shape);
  // Normal: the view's own contiguous strides; transposed: contiguous over the view with its last
  // two dims swapped.
  std::vector<Expr> swapped = c->sizes;
  if (r >= 2) std::swap(swapped[r - 1], swapped[r - 2]);
  std::vector<Expr> ts = model::ContiguousStrides(swapped);
  if (r >= 2) std::swap(ts[r - 1], ts[r - 2]);
  auto same = [&](const std::vector<Expr>& want) {
    for (std::size_t k = 0; k < r; ++k)
      if (!IsOne(c->sizes[k]) && c->strides[k] != want[k]) return false;
    return true;
  };
  if (whole && same(model::ContiguousStrides(c->sizes))) {
    op.transposed = false;
  } else if (whole && same(ts)) {
    op.transposed = true;
  } else {
    throw LowerError("CUBE_OPERAND_LAYOUT",
                     n.name + ": operand " + what +
                         " is a view the cube cannot read whole (it reads a kernel input densely, "
                         "or with its last two dims transposed)");
  }
  return op;
}

void Lowerer::LowerMatMul(const model::Node& n) {
  const std::string& name = n.op.name;
  const auto& ot = OutType(n);
  if (!IsHalf(ot.dtype)) {
    throw LowerError("CUBE_FP32_UNSUPPORTED",
                     n.name + ": a " + ot.dtype_code +
                         " matmul; the cube + vector kernels take fp16 and bf16 products");
  }
  if (!cubes_.empty()) {
    throw LowerError("CUBE_MULTIPLE", n.name +
                                          ": a second matmul in one kernel (a cube + vector "
                                          "kernel takes one matrix product)");
  }
  const bool addmm = name == "addmm";
  const bool batch = name == "bmm";
  for (const char* kw : {"beta", "alpha"}) {
    const Arg* a = n.Kwarg(kw);
    if (a != nullptr && !a->IsNone() && FloatArg(a, 1.0) != 1.0)
      throw LowerError("UNSUPPORTED_ARG", n.name + ": addmm with " + kw + " other than 1");
  }
  auto tensor = [&](std::size_t i, const char* kw) {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr || !a->IsValue())
      throw LowerError("UNSUPPORTED_ARG", n.name + ": operand '" + kw + "'");
    return a->value;
  };
  const int v1 = tensor(addmm ? 1 : 0, addmm ? "mat1" : "self");
  const int v2 = tensor(addmm ? 2 : 1, "mat2");
  CubeUse cu;
  cu.batch = batch;
  CubeOperand x1 = CubeOperandOf(n, v1, "x1");
  CubeOperand x2 = CubeOperandOf(n, v2, "x2");
  if (TypeOf(v1).dtype != ot.dtype || TypeOf(v2).dtype != ot.dtype)
    throw LowerError("UNSUPPORTED_DTYPE", n.name + ": operands and product differ in dtype");
  const std::size_t r = ot.shape.size();
  if (r != (batch ? 3U : 2U) || x1.sizes.size() != r || x2.sizes.size() != r)
    throw LowerError("UNSUPPORTED_ARG", n.name + ": operand ranks");
  // Classes: the product's dims, and K shared by the operands.
  Layout out;
  for (const auto& e : ot.shape)
    out.push_back(IsOne(e) ? Dim{} : Dim{NewClass(e), true});
  const Expr& k = x1.sizes[r - 1];
  const int kc = NewClass(k);
  auto storage = [&](const CubeOperand& x, int first, int second) {
    // logical dims [b?, first, second]; storage order swaps the last two when transposed
    std::vector<int> cls;
    if (batch) cls.push_back(IsOne(x.sizes[0]) ? -1 : out[0].cls);
    cls.push_back(x.transposed ? second : first);
    cls.push_back(x.transposed ? first : second);
    return cls;
  };
  cu.storage[0] = storage(x1, out[r - 2].cls, kc);
  cu.storage[1] = storage(x2, kc, out[r - 1].cls);
  cu.transpose[0] = x1.transposed;
  cu.transpose[1] = x2.transposed;
  if (batch && !IsOne(x2.sizes[0]) && !IsOne(x1.sizes[0]) && x1.sizes[0] != x2.sizes[0])
    throw LowerError("AXIS_CONFLICT", n.name + ": batch dims differ");
  std::vector<int> ins = {DataFor(x1.data_value), DataFor(x2.data_value)};
  cu.data[0] = ins[0];
  cu.data[1] = ins[1];
  if (addmm) {
    // The bias: a 1-D kernel input of N read whole (MatMulBias adds it in fp32 before the
    // rounding), else an Add after the product.
    const int bv = tensor(0, "self");
    auto src = Source(bv);
    const auto* c = std::get_if<Chain>(&src);
    const auto& bt = TypeOf(bv);
    if (c != nullptr && bt.shape.size() == 1 && bt.dtype == ot.dtype && c->offset == Expr(0) &&
        c->sizes == TypeOf(c->base).shape && !IsOne(bt.shape[0])) {
      cu.bias = DataFor(c->base);
      ins.push_back(cu.bias);
    }
  }
  const std::string type =
      std::string(batch ? "BatchMatMul" : "MatMul") + (cu.bias >= 0 ? "Bias" : "");
  Info info;
  info.layout = out;
  cu.node = Add(type, ins, ot.dtype, info);
  cu.out_cls = out[r - 1].cls;
  cu.k_cls = kc;
  auto& attrs = g_out_.nodes[static_cast<std::size_t>(cu.node)].attrs;
  attrs[batch ? "adj_x1" : "transpose_x1"] = std::int64_t{x1.transposed ? 1 : 0};
  attrs[batch ? "adj_x2" : "transpose_x2"] = std::int64_t{x2.transposed ? 1 : 0};
  cube_data_.insert(ins.begin(), ins.end());
  SyncCubeDataLayouts(cu);
  cubes_.push_back(cu);
  Emitted e{cu.node, ot.dtype, out};
  if (addmm && cu.bias < 0) {
    const DType cd = Compute(ot.dtype);
    Emitted b = BroadcastTo(Cast(Get(tensor(0, "self")), cd), out);
    e = Op("Add", {Cast(e, cd), b}, cd, out);
  }
  values_[n.outputs[0]] = e;
}

std::optional<Emitted> Lowerer::SplitCubeOutput(const model::Node& n, const Emitted& x) {
  auto it = std::find_if(cubes_.begin(), cubes_.end(),
                         [&](const CubeUse& c) { return c.node == x.node; });
  if (it == cubes_.end()) return std::nullopt;
  CubeUse& cu = *it;
  for (const auto& node : g_out_.nodes)
    for (const auto& in : node.inputs)
      if (in.node == cu.node) return std::nullopt;  // read already under its own layout
  // The product must have no reader but this view (nor be returned): another would read it under
  // the layout it had before the split.
  const int product = ArgAt(n, 0, "self")->value;
  std::optional<ValueUses> own;
  const ValueUses* uses = o_.uses != nullptr ? o_.uses : &own.emplace(ComputeValueUses(g_));
  const auto pv = static_cast<std::size_t>(product);
  if (pv >= uses->readers.size() || uses->readers[pv].size() != 1 || uses->returned[pv])
    return std::nullopt;
  const std::vector<Expr>& in = TypeOf(ArgAt(n, 0, "self")->value).shape;
  const std::vector<Expr>& out = OutType(n).shape;
  if (out.size() <= in.size()) return std::nullopt;
  const std::size_t lead = out.size() - in.size() + 1;  // out dims that replace in[0]
  for (std::size_t j = 1; j < in.size(); ++j)
    if (out[lead + j - 1] != in[j]) return std::nullopt;
  Expr prod(1);
  for (std::size_t j = 0; j < lead; ++j)
    prod = prod * out[j];
  if (!ir::SameRepeat(prod, in[0])) return std::nullopt;
  // mm: the M dim splits, so x1 must hold M outermost; bmm: the batch dim splits in each operand
  // that has it.
  if (!cu.batch && cu.transpose[0]) return std::nullopt;
  Layout l;
  std::vector<int> lead_cls;
  for (std::size_t j = 0; j < lead; ++j) {
    const Dim d = IsOne(out[j]) ? Dim{} : Dim{NewClass(out[j]), true};
    l.push_back(d);
    lead_cls.push_back(d.cls);
  }
  for (std::size_t j = 1; j < x.layout.size(); ++j)
    l.push_back(x.layout[j]);
  auto replace_first = [&](std::vector<int>& storage) {
    std::vector<int> s = lead_cls;
    s.insert(s.end(), storage.begin() + 1, storage.end());
    storage = s;
  };
  if (cu.batch) {
    for (auto& s : cu.storage)
      if (s.front() >= 0) replace_first(s);
  } else {
    replace_first(cu.storage[0]);  // x1 [M, K] -> [b.., M', K]; x2 broadcasts
    cu.batch = true;
    ir::Node& mm = g_out_.nodes[static_cast<std::size_t>(cu.node)];
    mm.type = cu.bias >= 0 ? "BatchMatMulBias" : "BatchMatMul";
    mm.attrs["adj_x1"] = mm.attrs.at("transpose_x1");
    mm.attrs["adj_x2"] = mm.attrs.at("transpose_x2");
    mm.attrs.erase("transpose_x1");
    mm.attrs.erase("transpose_x2");
  }
  info_[static_cast<std::size_t>(cu.node)].layout = l;
  SyncCubeDataLayouts(cu);
  return Emitted{cu.node, x.dtype, l};
}

void Lowerer::SyncCubeDataLayouts(const CubeUse& cu) {
  for (int i = 0; i < 2; ++i) {
    Layout l;
    for (const int c : cu.storage[i])
      l.push_back(c < 0 ? Dim{} : Dim{c, true});
    info_[static_cast<std::size_t>(cu.data[i])].layout = l;
  }
  if (cu.bias >= 0) info_[static_cast<std::size_t>(cu.bias)].layout = {Dim{cu.out_cls, true}};
}

void Lowerer::SetCubeViews(const std::vector<int>& order, const std::vector<std::int64_t>& ids) {
  for (const Info& info : info_) {
    if (info.role == Role::kLoad && cube_data_.contains(info.base)) {
      throw LowerError("CUBE_OPERAND_LAYOUT",
                       "a matmul operand is also loaded elsewhere in the kernel (the cube reads "
                       "its input whole)");
    }
  }
  auto view = [&](const std::vector<int>& classes, DType dt) {
    ir::Tensor t;
    t.dtype = dt;
    for (const int c : classes) {
      if (c < 0) continue;  // a batch dim of 1: the operand broadcasts
      const int a = AxisClass(c);
      const auto pos =
          static_cast<std::size_t>(std::find(order.begin(), order.end(), a) - order.begin());
      if (pos >= order.size()) throw LowerError("AXIS_CONFLICT", "a matmul dim has no axis");
      t.axis.push_back(ids[pos]);
      t.repeats.push_back(size_[static_cast<std::size_t>(a)]);
    }
    t.strides.assign(t.repeats.size(), Expr(0));
    Expr s(1);
    for (std::size_t j = t.repeats.size(); j-- > 0;) {
      t.strides[j] = IsOne(t.repeats[j]) ? Expr(0) : s;
      s = s * t.repeats[j];
    }
    return t;
  };
  // The contraction axes: only the operands span them, so the vector nodes' views (which
  // ViewFor gives every axis, extent 1 where a node has none) drop them.
  std::set<std::int64_t> k_axes;
  for (const CubeUse& cu : cubes_) {
    const int a = AxisClass(cu.k_cls);
    const auto pos =
        static_cast<std::size_t>(std::find(order.begin(), order.end(), a) - order.begin());
    if (pos < order.size()) k_axes.insert(ids[pos]);
  }
  for (auto& node : g_out_.nodes) {
    for (auto& t : node.outputs) {
      for (std::size_t j = t.axis.size(); j-- > 0;) {
        if (!k_axes.contains(t.axis[j])) continue;
        t.axis.erase(t.axis.begin() + static_cast<std::ptrdiff_t>(j));
        if (j < t.repeats.size())
          t.repeats.erase(t.repeats.begin() + static_cast<std::ptrdiff_t>(j));
        if (j < t.strides.size())
          t.strides.erase(t.strides.begin() + static_cast<std::ptrdiff_t>(j));
      }
    }
    auto& sa = node.sched.axis;
    sa.erase(
        std::remove_if(sa.begin(), sa.end(), [&](std::int64_t a) { return k_axes.contains(a); }),
        sa.end());
    if (k_axes.contains(node.sched.loop_axis)) node.sched.loop_axis = sa.empty() ? -1 : sa.back();
  }
  std::map<int, ir::Tensor> data_views;
  auto set_data = [&](int data, const ir::Tensor& v) {
    auto [it, fresh] = data_views.emplace(data, v);
    if (!fresh && !(it->second == v))
      throw LowerError("CUBE_OPERAND_LAYOUT", "one kernel input read by the cube in two views");
  };
  for (const CubeUse& cu : cubes_) {
    ir::Node& mm = g_out_.nodes[static_cast<std::size_t>(cu.node)];
    std::vector<int> out_cls;
    for (const auto& d : info_[static_cast<std::size_t>(cu.node)].layout)
      out_cls.push_back(d.full ? d.cls : -1);
    mm.outputs[0] = view(out_cls, mm.outputs[0].dtype);
    mm.sched.axis = mm.outputs[0].axis;
    mm.sched.loop_axis = mm.sched.axis.empty() ? -1 : mm.sched.axis.back();
    for (int i = 0; i < 2; ++i) {
      const int d = cu.data[i];
      set_data(d, view(cu.storage[i], g_out_.nodes[static_cast<std::size_t>(d)].outputs[0].dtype));
    }
    if (cu.bias >= 0) {
      set_data(cu.bias, view({cu.out_cls},
                             g_out_.nodes[static_cast<std::size_t>(cu.bias)].outputs[0].dtype));
    }
  }
  for (auto& [data, v] : data_views) {
    g_out_.nodes[static_cast<std::size_t>(data)].outputs[0] = v;
    g_out_.nodes[static_cast<std::size_t>(data)].sched.axis = v.axis;
  }
}

}  // namespace af::frontend::lower_detail
