// Lowering of a group of model-graph nodes into one AscIR hint graph (see lower.h and, for how,
// lowerer.h): the driver. It lowers the group's nodes in graph order, each by its op's rule, makes
// the values used outside the group the kernel's outputs, checks every AscIR node's dtypes and
// finishes the views.
#include "autofuse/frontend/lower.h"

#include <functional>
#include <optional>

#include "autofuse/ir/op_registry.h"
#include "lowerer.h"
#include "op_rules.h"

namespace af::frontend {
namespace lower_detail {

// ------------------------------------------------------------------ sources

std::variant<Emitted, Chain> Lowerer::Source(int value) {
  if (auto it = values_.find(value); it != values_.end()) return it->second;
  const auto& t = TypeOf(value);
  if (!t.IsTensor() || t.dtype == DType::kUndefined) {
    throw LowerError("UNKNOWN_TYPE", "value " + g_.value(value).name + " is not a known tensor");
  }
  Chain c;
  c.base = value;
  c.offset = Expr(0);
  c.sizes = t.shape;
  c.strides = model::ContiguousStrides(t.shape);
  return c;
}

int Lowerer::DataFor(int base) {
  if (auto it = data_.find(base); it != data_.end()) return it->second;
  Info info;
  info.role = Role::kData;
  info.base = base;
  const int id = Add("Data", {}, TypeOf(base).dtype, info);
  g_out_.nodes[static_cast<std::size_t>(id)].attrs["index"] =
      static_cast<std::int64_t>(data_order_.size());
  g_out_.nodes[static_cast<std::size_t>(id)].name = "arg" + std::to_string(data_order_.size());
  data_order_.push_back(base);
  data_[base] = id;
  return id;
}

Emitted Lowerer::Materialize(const Chain& c) {
  const int data = DataFor(c.base);
  Info info;
  info.role = Role::kLoad;
  info.offset = c.offset;
  info.base = data;
  Layout full;
  bool expanded = false;
  for (std::size_t k = 0; k < c.sizes.size(); ++k) {
    Dim d;
    if (!IsOne(c.sizes[k])) {
      d.cls = NewClass(c.sizes[k]);
      d.full = c.strides[k] != Expr(0);
      expanded = expanded || !d.full;
    }
    info.layout.push_back(d);
    info.phys.push_back(d.full ? c.strides[k] : Expr(0));
    full.push_back({d.cls, d.cls >= 0});
  }
  const DType dt = TypeOf(c.base).dtype;
  Layout l = info.layout;
  Emitted e{Add("Load", {data}, dt, std::move(info)), dt, l};
  e = Cast(e, Compute(dt));
  if (expanded) e = Op("Broadcast", {e}, e.dtype, full);
  return e;
}

Emitted Lowerer::Get(int value) {
  auto src = Source(value);
  if (auto* e = std::get_if<Emitted>(&src)) return *e;
  if (auto it = materialized_.find(value); it != materialized_.end()) return it->second;
  Emitted e = Materialize(std::get<Chain>(src));
  materialized_[value] = e;
  return e;
}

Lowerer::Operand Lowerer::ArgOperand(const model::Node& n, const Arg& a) {
  Operand op;
  switch (a.kind) {
    case Arg::Kind::kValue: {
      const auto& t = TypeOf(a.value);
      if (t.IsTensor()) {
        op.value = a.value;
        return op;
      }
      if (t.kind == model::ValueKind::kSymInt && t.expr) {
        if (auto v = t.expr->AsInt()) {
          op.scalar = true;
          op.v = static_cast<double>(*v);
          op.scalar_dtype = DType::kInt64;
          return op;
        }
      }
      throw LowerError("SYMBOLIC_SCALAR", n.name + ": a symbolic scalar operand is not lowered (" +
                                              t.ToString() + ")");
    }
    case Arg::Kind::kBool:
      op.scalar = true;
      op.v = a.b ? 1 : 0;
      op.scalar_dtype = DType::kBool;
      return op;
    case Arg::Kind::kInt:
      op.scalar = true;
      op.v = static_cast<double>(a.i);
      op.scalar_dtype = DType::kInt64;
      return op;
    case Arg::Kind::kFloat:
      op.scalar = true;
      op.v = a.f;
      op.scalar_dtype = DType::kFloat32;
      return op;
    default:
      throw LowerError("UNSUPPORTED_ARG", n.name + ": an operand is neither a tensor nor a number");
  }
}

// ------------------------------------------------------------------ arguments

double FloatArg(const Arg* a, double dflt) {
  if (a == nullptr || a->IsNone()) return dflt;
  if (auto v = NumberOf(*a)) return *v;
  throw LowerError("UNSUPPORTED_ARG", "expected a number");
}

std::optional<Expr> IntExprArg(const model::Graph& g, const Arg* a) {
  if (a == nullptr || a->IsNone()) return std::nullopt;
  if (auto e = IntExprOf(g, *a)) return e;
  throw LowerError("UNSUPPORTED_ARG", "expected an integer");
}

std::string StringArg(const Arg* a, const std::string& dflt) {
  if (a == nullptr || a->IsNone()) return dflt;
  if (a->kind == Arg::Kind::kString) return a->text;
  throw LowerError("UNSUPPORTED_ARG", "expected a string");
}

std::optional<std::size_t> DimArg(const model::Graph& g, const model::Node& n, std::size_t i,
                                  std::size_t rank) {
  const auto v = IntExprArg(g, ArgAt(n, i, "dim")).value_or(Expr(0)).AsInt();
  const auto d = v ? model::NormalizeDim(*v, rank) : std::nullopt;
  if (!d) return std::nullopt;
  return static_cast<std::size_t>(*d);
}

// ------------------------------------------------------------------ the group

void Lowerer::LowerNode(const model::Node& n) {
  const OpKind kind = KindOfNode(n);
  const OpRule* rule = kind == OpKind::kOther || (kind == OpKind::kCube && !o_.matmul)
                           ? nullptr
                           : FindOpRule(n.op.name);
  if (rule == nullptr || rule->lower == nullptr) {
    throw LowerError(IsCubeOp(n.op) ? "CUBE_OP" : "UNSUPPORTED_OP",
                     n.op.ToString() + " is not lowered to AscIR");
  }
  (this->*rule->lower)(n);
}

namespace {

// The Split nodes of one gid (one per piece, as LowerSplit emits them) become one Split node with
// an output per piece, AutoFuse's merged form (docs/ir.md "Split"); their readers read output k.
void MergeSplits(ir::Graph& g) {
  std::map<std::int64_t, std::vector<std::size_t>> groups;  // gid -> nodes, in index order
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type != "Split") continue;
    if (auto gid = g.nodes[i].IntAttr("gid")) groups[*gid].push_back(i);
  }
  std::vector<ir::InputRef> moved(g.nodes.size(), ir::InputRef{-1, 0});  // piece -> (node, output)
  for (const auto& [gid, pieces] : groups) {
    ir::Node& first = g.nodes[pieces.front()];
    for (std::size_t k = 1; k < pieces.size(); ++k) {
      first.outputs.push_back(g.nodes[pieces[k]].outputs.at(0));
      moved[pieces[k]] = {static_cast<int>(pieces.front()), static_cast<int>(k)};
    }
  }
  std::vector<int> index(g.nodes.size(), -1);
  int next = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (moved[i].node < 0) index[i] = next++;
  for (auto& n : g.nodes) {
    for (auto& in : n.inputs) {
      const ir::InputRef m = moved[static_cast<std::size_t>(in.node)];
      in = m.node < 0 ? ir::InputRef{index[static_cast<std::size_t>(in.node)], in.output}
                      : ir::InputRef{index[static_cast<std::size_t>(m.node)], m.output};
    }
  }
  std::vector<ir::Node> kept;
  kept.reserve(static_cast<std::size_t>(next));
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (moved[i].node < 0) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

}  // namespace

LoweredKernel Lowerer::Run(const std::vector<int>& nodes) {
  group_.insert(nodes.begin(), nodes.end());
  g_out_.name = o_.name;
  g_out_.type = ir::GraphType::kHint;
  std::vector<int> ordered(group_.begin(), group_.end());
  for (int id : ordered) {
    const auto& n = g_.node(id);
    for (int v : n.outputs) {
      const auto& t = TypeOf(v);
      if (t.IsTensor() && (t.dtype == DType::kUndefined || t.dtype == DType::kFloat64)) {
        throw LowerError("UNSUPPORTED_DTYPE",
                         n.name + ": dtype " + t.dtype_code + " is not computed in fused kernels");
      }
    }
    LowerNode(n);
  }
  // outputs: group values used outside the group or returned
  std::set<int> needed;
  if (!o_.all_outputs) {
    std::optional<ValueUses> own;
    const ValueUses* uses = o_.uses;
    if (uses == nullptr) uses = &own.emplace(ComputeValueUses(g_));
    for (int id : ordered) {
      for (int v : g_.node(id).outputs) {
        const auto i = static_cast<std::size_t>(v);
        if (i >= uses->readers.size()) continue;
        bool outside = uses->returned[i];
        for (int r : uses->readers[i])
          outside = outside || !group_.contains(r);
        if (outside) needed.insert(v);
      }
    }
  }
  LoweredKernel k;
  AddOutputs(ordered, needed, &k);
  if (k.outputs.empty()) throw LowerError("NO_OUTPUT", "the group computes nothing used later");
  CheckDTypes();
  Finalize(&k);
  MergeSplits(g_out_);
  k.graph = std::move(g_out_);
  return k;
}

void Lowerer::AddOutputs(const std::vector<int>& ordered, const std::set<int>& needed,
                         LoweredKernel* k) {
  for (int id : ordered) {
    for (int v : g_.node(id).outputs) {
      if ((!needed.contains(v) && !o_.all_outputs) || !values_.contains(v)) continue;
      const auto& t = TypeOf(v);
      Emitted e = Get(v);
      e = Cast(e, t.dtype);
      // the stored tensor must span every non-1 dim of the value
      Info info;
      info.role = Role::kStore;
      info.layout = e.layout;
      info.phys = model::ContiguousStrides(t.shape);
      info.offset = Expr(0);
      if (info.layout.size() != t.shape.size())
        throw LowerError("AXIS_CONFLICT", "output " + g_.value(v).name + ": rank mismatch");
      for (std::size_t d = 0; d < t.shape.size(); ++d) {
        if (!IsOne(t.shape[d]) && !info.layout[d].full) {
          Emitted b = BroadcastTo(e, [&] {
            Layout l = e.layout;
            for (std::size_t j = 0; j < l.size(); ++j)
              if (!IsOne(t.shape[j]) && !l[j].full) l[j] = {NewClass(t.shape[j]), true};
            return l;
          }());
          e = b;
          info.layout = e.layout;
          break;
        }
      }
      const int st = Add("Store", {e.node}, t.dtype, info);
      Info oi;
      oi.role = Role::kOutput;
      oi.base = v;
      const int out = Add("Output", {st}, t.dtype, oi);
      g_out_.nodes[static_cast<std::size_t>(out)].attrs["index"] =
          static_cast<std::int64_t>(k->outputs.size());
      g_out_.nodes[static_cast<std::size_t>(out)].name = "out" + std::to_string(k->outputs.size());
      k->outputs.push_back(v);
    }
  }
}

void Lowerer::CheckDTypes() const {
  // dtype support of every AscIR node
  for (const auto& n : g_out_.nodes) {
    const ir::OpDef* def = ir::FindOp(n.type);
    if (def == nullptr || def->dtypes.empty() || n.inputs.empty()) continue;
    for (const auto& in : n.inputs) {
      const auto& p = g_out_.nodes[static_cast<std::size_t>(in.node)];
      const DType dt = p.outputs[static_cast<std::size_t>(in.output)].dtype;
      if (n.type == "Where" && &in == n.inputs.data()) continue;
      if (std::find(def->dtypes.begin(), def->dtypes.end(), dt) == def->dtypes.end()) {
        throw LowerError("UNSUPPORTED_DTYPE",
                         "AscIR " + n.type + " does not take " + std::string(ir::DTypeName(dt)));
      }
    }
  }
}

}  // namespace lower_detail

ValueUses ComputeValueUses(const model::Graph& g) {
  ValueUses u;
  u.readers.resize(g.values.size());
  u.returned.assign(g.values.size(), false);
  std::function<void(const model::Arg&, int)> scan = [&](const model::Arg& a, int reader) {
    if (a.IsValue() && a.value >= 0 && static_cast<std::size_t>(a.value) < g.values.size()) {
      if (reader < 0) {
        u.returned[static_cast<std::size_t>(a.value)] = true;
      } else {
        auto& r = u.readers[static_cast<std::size_t>(a.value)];
        if (r.empty() || r.back() != reader) r.push_back(reader);
      }
    }
    for (const auto& it : a.items)
      scan(it, reader);
  };
  for (const auto& n : g.nodes) {
    bool tensor_out = false;  // size queries (sym_size, ...) read no data
    for (int v : n.outputs)
      tensor_out = tensor_out || g.value(v).type.IsTensor();
    if (!tensor_out) continue;
    for (const auto& a : n.args)
      scan(a, n.id);
    for (const auto& [key, a] : n.kwargs)
      scan(a, n.id);
  }
  for (const auto& a : g.outputs)
    scan(a, -1);
  return u;
}

OpSupport CheckOp(const model::Graph& g, const model::Node& n, bool matmul) {
  OpSupport s;
  s.kind = KindOfNode(n);
  if (s.kind == OpKind::kOther || (s.kind == OpKind::kCube && !matmul)) {
    s.code = IsCubeOp(n.op) && n.op.ns == "aten" ? "CUBE_OP" : "UNSUPPORTED_OP";
    s.message = n.op.ToString() + (s.code == "CUBE_OP" ? " runs on the cube unit, outside fused "
                                                         "vector kernels"
                                                       : " has no AscIR lowering");
    return s;
  }
  try {
    LowerOptions o;
    o.all_outputs = true;
    o.matmul = matmul;
    (void)LowerGroup(g, {n.id}, o);
  } catch (const LowerError& e) {
    s.code = e.code();
    s.message = e.what();
  }
  return s;
}

LoweredKernel LowerGroup(const model::Graph& g, const std::vector<int>& nodes,
                         const LowerOptions& options) {
  lower_detail::Lowerer l(g, options);
  return l.Run(nodes);
}

}  // namespace af::frontend
