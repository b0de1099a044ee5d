// Lowering of pointwise Inductor groups into hint graphs. A failure anywhere is a reason string
// (thrown as Refuse and caught per group), never a partial graph.
#include "autofuse/importers/inductor_hint.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "autofuse/ir/validate.h"
#include "autofuse/support/error.h"

namespace af::importers::inductor {
namespace {

using sym::Expr;

struct Refuse {
  std::string reason;
};

const std::map<std::string, std::string>& PointwiseOps() {
  static const std::map<std::string, std::string> kOps = {
      {"add", "Add"},
      {"sub", "Sub"},
      {"mul", "Mul"},
      {"truediv", "TrueDiv"},
      {"div", "TrueDiv"},
      {"neg", "Neg"},
      {"abs", "Abs"},
      {"exp", "Exp"},
      {"log", "Ln"},
      {"sqrt", "Sqrt"},
      {"rsqrt", "Rsqrt"},
      {"relu", "Relu"},
      {"sigmoid", "Sigmoid"},
      {"tanh", "Tanh"},
      {"maximum", "Maximum"},
      {"minimum", "Minimum"},
      {"reciprocal", "Reciprocal"},
      {"erf", "Erf"},
  };
  return kOps;
}

std::optional<ir::DType> TorchDType(const std::string& s) {
  if (s == "torch.float32") return ir::DType::kFloat32;
  if (s == "torch.float16") return ir::DType::kFloat16;
  if (s == "torch.bfloat16") return ir::DType::kBFloat16;
  return std::nullopt;
}

// Contiguous strides of `repeats` in elements, 0 where the repeat is 1.
std::vector<Expr> Contiguous(const std::vector<Expr>& repeats) {
  std::vector<Expr> s(repeats.size(), Expr(0));
  Expr acc(1);
  for (std::size_t i = repeats.size(); i-- > 0;) {
    s[i] = repeats[i] == Expr(1) ? Expr(0) : acc;
    acc = acc * repeats[i];
  }
  return s;
}

// True when `strides` are the contiguous strides of `repeats` (axes of extent 1 are free).
bool IsDense(const std::vector<Expr>& strides, const std::vector<Expr>& repeats) {
  const auto c = Contiguous(repeats);
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    if (!(repeats[i] == Expr(1)) && !(strides[i] == c[i])) return false;
  }
  return true;
}

// True when the non-zero strides do not increase from outer to inner axes.
bool Descending(const std::vector<Expr>& strides) {
  const Expr* prev = nullptr;
  for (const auto& s : strides) {
    if (s == Expr(0)) continue;
    if (prev != nullptr && sym::ProveGe(*prev, s) != sym::Tri::kTrue) return false;
    prev = &s;
  }
  return true;
}

class Lowerer {
 public:
  Lowerer(const IrFile& f, const SchedNode& group, const BufferDTypes* types)
      : group_(group), types_(types) {
    for (const auto* l : group.Leaves())
      members_.insert(l->name);
    // Buffer dtypes and users from every node of the file.
    for (const auto& n : f.nodes) {
      for (const auto* l : n.Leaves())
        Note(*l);
      Note(n);
    }
    // Members resolved from ir_pre_fusion.txt (torch 2.0) are not nodes of `f`.
    for (const auto* l : group.Leaves())
      Note(*l);
  }

  ir::Graph Lower() {
    if (group_.kind == NodeKind::kTemplate) throw Refuse{"template kernel (no loop body)"};
    if (group_.kind == NodeKind::kFused && group_.snodes.empty())
      throw Refuse{"the fused node lists only its members' names (torch 2.0 form)"};
    const auto leaves = group_.Leaves();
    const SchedNode* widest = nullptr;
    for (const auto* l : leaves) {
      if (l->kind != NodeKind::kScheduler) throw Refuse{l->name + " is not a computed node"};
      if (!l->body) throw Refuse{l->name + " has no loop body"};
      if (widest == nullptr || l->body->var_ranges.size() > widest->body->var_ranges.size())
        widest = l;
    }
    g_.name = group_.name;
    g_.type = ir::GraphType::kHint;
    for (const auto& [v, r] : widest->body->var_ranges) {
      if (!r.expr) throw Refuse{"loop range `" + r.text + "` is not an integer expression"};
      for (const auto& s : r.expr->FreeSymbols())
        g_.AddSizeVar(s);
      sizes_.push_back(*r.expr);
      axes_.push_back(g_.AddAxis("z" + std::to_string(axes_.size()), *r.expr));
    }
    for (const auto* l : leaves) {
      if (l->body->var_ranges.size() != sizes_.size())
        throw Refuse{l->name + " iterates another loop nest than " + widest->name};
      for (std::size_t i = 0; i < sizes_.size(); ++i) {
        const auto& r = l->body->var_ranges[i].second;
        if (!r.expr || !(*r.expr == sizes_[i]))
          throw Refuse{l->name + " iterates another loop nest than " + widest->name};
      }
      LowerLeaf(*l);
    }
    SetDataViews();
    const auto diags = ir::Validate(g_);
    for (const auto& d : diags) {
      if (d.severity == ir::Diagnostic::Severity::kError)
        throw Refuse{"the built graph does not validate: " + d.message};
    }
    return g_;
  }

 private:
  void Note(const SchedNode& n) {
    for (const auto& [b, l] : n.buffer_layouts) {
      if (!l.dtype.empty()) dtype_[b] = l.dtype;
    }
    for (const auto& o : n.outputs) {
      if (o.layout && !o.layout->dtype.empty()) dtype_[o.name] = o.layout->dtype;
      auto& u = users_[o.name];
      u.insert(u.end(), o.users.begin(), o.users.end());
      has_users_.insert(o.name);
    }
    for (const auto& [b, us] : n.users) {
      auto& u = users_[b];
      u.insert(u.end(), us.begin(), us.end());
      has_users_.insert(b);
    }
  }

  bool ReadOutside(const std::string& buf) const {
    if (has_users_.count(buf) == 0u) return true;  // unknown: keep it
    for (const auto& u : users_.at(buf)) {
      if (u.node == "OUTPUT" || members_.count(u.node) == 0u) return true;
    }
    return false;
  }

  ir::DType BufferDType(const std::string& buf) const {
    auto it = dtype_.find(buf);
    if (it == dtype_.end() && types_ != nullptr) {
      it = types_->dtype.find(buf);
      if (it == types_->dtype.end()) {
        throw Refuse{
            "neither a layout nor the FX graph" +
            (types_->fx_file.empty() ? std::string(" (none in the folder)") : std::string()) +
            " gives the dtype of " + buf};
      }
    } else if (it == dtype_.end()) {
      throw Refuse{"no layout gives the dtype of " + buf};
    }
    const auto d = TorchDType(it->second);
    if (!d) throw Refuse{"dtype " + it->second + " of " + buf + " is not handled yet"};
    return *d;
  }

  std::vector<std::int64_t> AllAxes() const { return axes_; }

  int Add(const std::string& base, const std::string& type, std::vector<int> inputs, ir::DType dt,
          std::vector<Expr> repeats, std::vector<Expr> strides) {
    ir::Node n;
    n.name = base + std::to_string(counter_++);
    n.type = type;
    for (int i : inputs)
      n.inputs.push_back(ir::InputRef{i, 0});
    n.sched.axis = AllAxes();
    if (type != "Data" && type != "Output" && !axes_.empty()) n.sched.loop_axis = axes_.back();
    ir::Tensor t;
    t.dtype = dt;
    t.axis = AllAxes();
    t.repeats = std::move(repeats);
    t.strides = std::move(strides);
    n.outputs.push_back(std::move(t));
    g_.nodes.push_back(std::move(n));
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  int Dense(const std::string& base, const std::string& type, std::vector<int> inputs,
            ir::DType dt = ir::DType::kFloat32) {
    return Add(base, type, std::move(inputs), dt, sizes_, Contiguous(sizes_));
  }

  // Strides per canonical axis and the offset of an index expression in the leaf's variables.
  std::pair<std::vector<Expr>, Expr> View(const SchedNode& l, const std::string& index_var) {
    auto it = index_of_.find(index_var);
    if (it == index_of_.end()) throw Refuse{"unknown index variable " + index_var};
    const IndexExpr* ie = nullptr;
    for (const auto& [k, e] : l.body->indexing) {
      if (k == it->second) ie = &e;
    }
    if (ie == nullptr) throw Refuse{"unknown index " + it->second + " in " + l.name};
    if (!ie->expr) throw Refuse{"index `" + ie->text + "` is not an integer expression"};
    const Expr e = *ie->expr;
    std::map<std::string, Expr, std::less<>> zero;
    for (const auto& [v, r] : l.body->var_ranges)
      zero[v] = Expr(0);
    const Expr offset = e.Subs(zero);
    std::vector<Expr> strides;
    Expr rebuilt = offset;
    for (const auto& [v, r] : l.body->var_ranges) {
      auto one = zero;
      one[v] = Expr(1);
      const Expr s = e.Subs(one) - offset;
      strides.push_back(s);
      rebuilt = rebuilt + s * Expr::Sym(v);
    }
    if (!(rebuilt == e))
      throw Refuse{"index `" + ie->text + "` is not affine in the loop variables"};
    for (const auto& s : strides) {
      if (sym::ProveGe(s, Expr(0)) != sym::Tri::kTrue)
        throw Refuse{"index `" + ie->text + "` has a stride not provably >= 0 (a flipped view)"};
    }
    // Strides may be in any order: a load whose innermost stride is not 1 (a transposed or
    // permuted read, where inductor_npu_ext inserts a Transpose) is a strided Load view that
    // the schedule stages and gathers into loop order. Stores are checked by the caller.
    return {strides, offset};
  }

  void LowerLeaf(const SchedNode& l) {
    std::map<std::string, int> val;  // body name → node index
    index_of_.clear();
    if (l.body->blocks.empty() || l.body->blocks[0].name != "body")
      throw Refuse{"the loop body of " + l.name + " has no `body` block"};
    for (const auto& b : l.body->blocks) {
      if (b.name != "body") throw Refuse{"masked sub-block " + b.name + " in " + l.name};
    }
    for (const BodyOp& op : l.body->blocks[0].ops) {
      switch (op.kind) {
        case BodyOp::Kind::kGetIndex:
          index_of_[op.result] = op.index;
          break;
        case BodyOp::Kind::kReturn:
          break;
        case BodyOp::Kind::kOps:
          LowerOp(l, op, val);
          break;
        case BodyOp::Kind::kSetIndirect:
          throw Refuse{"indirect indexing in " + l.name};
        case BodyOp::Kind::kMaskedSubblock:
          throw Refuse{"masked load in " + l.name};
        case BodyOp::Kind::kGetItem:
        case BodyOp::Kind::kOther:
          throw Refuse{"statement `" + op.text + "` in " + l.name};
      }
    }
  }

  int Arg(const std::map<std::string, int>& val, const std::string& name) const {
    auto it = val.find(name);
    if (it == val.end()) throw Refuse{"operand `" + name + "` is not a lowered value"};
    return it->second;
  }

  void LowerOp(const SchedNode& l, const BodyOp& op, std::map<std::string, int>& val) {
    if (op.op == "load") {
      val[op.result] = Load(l, op.buffer, op.index);
      return;
    }
    if (op.op == "reduction") {
      // 2.1+: reduction(dtype, src_dtype, type, value), stored by a later store_reduction;
      // 2.0: reduction(buffer, dtype, src_dtype, type, index, value) stores directly.
      const bool direct = op.args.size() == 6;
      if (op.args.size() != 4 && !direct) throw Refuse{"reduction form `" + op.text + "`"};
      const std::string& type = op.reduction_type;
      static const std::map<std::string, std::string> kReduce = {
          {"sum", "Sum"}, {"max", "Max"}, {"min", "Min"}, {"prod", "Prod"}};
      auto r = kReduce.find(type);
      if (r == kReduce.end()) throw Refuse{"reduction " + type + " (not lowered yet)"};
      const int v = Arg(val, op.args.back());
      if (direct) {
        StoreReduction(l, op.buffer, op.index, r->second, v);
      } else {
        pending_[op.result] = {r->second, v};
      }
      return;
    }
    if (op.op == "store_reduction") {
      auto p = pending_.find(op.args.size() > 2 ? op.args[2] : "");
      if (p == pending_.end()) throw Refuse{"store_reduction of an unknown reduction"};
      StoreReduction(l, op.buffer, op.index, p->second.first, p->second.second);
      return;
    }
    if (op.op == "store") {
      if (op.args.size() > 3 && op.args[3] != "None")
        throw Refuse{"store mode " + op.args[3] + " in " + l.name};
      Store(l, op.buffer, op.index, Arg(val, op.args.size() > 2 ? op.args[2] : ""));
      return;
    }
    if (op.op == "constant") {
      // fp16/bf16 constants are computed in fp32 like every other value (inductor_npu_ext)
      if (op.args.size() < 2 || !TorchDType(op.args[1]))
        throw Refuse{"constant of dtype " + (op.args.size() > 1 ? op.args[1] : "?") + " in " +
                     l.name};
      const int s = Dense("scalar", "Scalar", {});
      g_.nodes[static_cast<std::size_t>(s)].attrs["value"] = std::stod(op.args[0]);
      val[op.result] = s;
      return;
    }
    if (op.op == "to_dtype") {
      // Casts to fp16/bf16 are promoted to fp32 (inductor_npu_ext: compute stays fp32; the
      // store casts to the buffer's dtype). Other targets are not lowered.
      if (op.args.size() < 2 || !TorchDType(op.args[1]))
        throw Refuse{"cast to " + (op.args.size() > 1 ? op.args[1] : "?") + " in " + l.name};
      val[op.result] = Arg(val, op.args[0]);  // compute is fp32 already
      return;
    }
    if (op.op == "square") {  // inductor_npu_ext: Mul(x, x)
      const int x = Arg(val, op.args.empty() ? "" : op.args[0]);
      val[op.result] = Dense("square", "Mul", {x, x});
      return;
    }
    auto it = PointwiseOps().find(op.op);
    if (it == PointwiseOps().end()) throw Refuse{"op " + op.op + " (not lowered yet)"};
    std::vector<int> ins;
    for (const auto& a : op.args)
      ins.push_back(Arg(val, a));
    val[op.result] = Dense(op.op, it->second, std::move(ins));
  }

  int Load(const SchedNode& l, const std::string& buf, const std::string& index_var) {
    const auto [strides, offset] = View(l, index_var);
    auto stored = stored_.find(buf);
    if (stored != stored_.end()) {
      if (stored->second.second != strides)
        throw Refuse{buf + " is read through another view than it was written"};
      // a kept-dim reduction result is broadcast back to the loop nest
      int cur = stored->second.first;
      std::vector<Expr> rep = g_.nodes[static_cast<std::size_t>(cur)].outputs[0].repeats;
      for (std::size_t i = 0; i < sizes_.size() && i < rep.size(); ++i) {
        if (rep[i] == sizes_[i]) continue;
        rep[i] = sizes_[i];
        cur = Add("broadcast", "Broadcast", {cur}, ir::DType::kFloat32, rep, Contiguous(rep));
      }
      return cur;
    }
    const ir::DType dt = BufferDType(buf);
    std::vector<Expr> repeats;
    for (std::size_t i = 0; i < sizes_.size(); ++i)
      repeats.push_back(strides[i] == Expr(0) ? Expr(1) : sizes_[i]);
    int data = -1;
    auto d = data_.find(buf);
    if (d == data_.end()) {
      data = Add("data", "Data", {}, dt, repeats, strides);  // the view is set at the end
      g_.nodes[static_cast<std::size_t>(data)].attrs["index"] =
          static_cast<std::int64_t>(data_.size());
      data_[buf] = data;
    } else {
      data = d->second;
    }
    reads_[buf].push_back({repeats, strides, offset});
    int cur = Add("load", "Load", {data}, dt, repeats, strides);
    g_.nodes[static_cast<std::size_t>(cur)].attrs["offset"] = offset;
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      if (!(repeats[i] == Expr(1)) || sizes_[i] == Expr(1)) continue;
      repeats[i] = sizes_[i];
      cur = Add("broadcast", "Broadcast", {cur}, dt, repeats, Contiguous(repeats));
    }
    if (dt != ir::DType::kFloat32) cur = Dense("cast", "Cast", {cur});
    return cur;
  }

  // Data views. A buffer read once, densely from its start, keeps the Load's view; otherwise
  // (an offset, a transposed or strided view, several views) the Data is the flat buffer
  // (repeats (n, 1, ...), strides (1, 0, ...)) of n = the largest element read + 1, the way the
  // front end writes buffers it reads through views.
  void SetDataViews() {
    for (const auto& [buf, reads] : reads_) {
      const auto& first = reads.front();
      const bool same = std::all_of(reads.begin(), reads.end(), [&](const Read& r) {
        return r.repeats == first.repeats && r.strides == first.strides && r.offset == first.offset;
      });
      if (same && first.offset == Expr(0) && IsDense(first.strides, first.repeats)) continue;
      if (axes_.empty()) continue;
      std::optional<Expr> span;
      for (const auto& r : reads) {
        Expr last = r.offset;
        for (std::size_t i = 0; i < r.repeats.size(); ++i)
          last = last + (r.repeats[i] - Expr(1)) * r.strides[i];
        const Expr n = last + Expr(1);
        if (!span || sym::ProveGe(n, *span) == sym::Tri::kTrue) {
          span = n;
        } else if (sym::ProveGe(*span, n) != sym::Tri::kTrue) {
          throw Refuse{"the views of " + buf + " have no provably largest extent"};
        }
      }
      ir::Tensor& t = g_.nodes[static_cast<std::size_t>(data_.at(buf))].outputs[0];
      t.repeats.assign(axes_.size(), Expr(1));
      t.strides.assign(axes_.size(), Expr(0));
      t.repeats[0] = *span;
      t.strides[0] = Expr(1);
    }
  }

  // The reduction node (kept-dim: the axes the store index does not use get repeat 1), its
  // Store/Output when the buffer is read outside the group.
  void StoreReduction(const SchedNode& l, const std::string& buf, const std::string& index_var,
                      const std::string& type, int v) {
    const auto [strides, offset] = View(l, index_var);
    std::vector<Expr> repeats;
    for (std::size_t i = 0; i < sizes_.size(); ++i)
      repeats.push_back(strides[i] == Expr(0) ? Expr(1) : sizes_[i]);
    if (repeats == sizes_) throw Refuse{"store_reduction of " + buf + " reduces no axis"};
    if (!IsDense(strides, repeats)) {
      throw Refuse{"store_reduction of " + buf + " writes a strided view, not a dense output"};
    }
    const int red = Add(type == "Sum" ? "sum" : "reduce", type, {v}, ir::DType::kFloat32, repeats,
                        Contiguous(repeats));
    stored_[buf] = {red, strides};
    if (!ReadOutside(buf)) return;
    const ir::DType dt = BufferDType(buf);
    int cur = red;
    if (dt != ir::DType::kFloat32)
      cur = Add("cast", "Cast", {cur}, dt, repeats, Contiguous(repeats));
    const int st = Add("store", "Store", {cur}, dt, repeats, strides);
    if (!(offset == Expr(0))) g_.nodes[static_cast<std::size_t>(st)].attrs["offset"] = offset;
    const int out = Add("output", "Output", {st}, dt, repeats, strides);
    g_.nodes[static_cast<std::size_t>(out)].attrs["index"] = static_cast<std::int64_t>(outputs_++);
  }

  void Store(const SchedNode& l, const std::string& buf, const std::string& index_var, int v) {
    const auto [strides, offset] = View(l, index_var);
    stored_[buf] = {v, strides};
    if (!ReadOutside(buf)) return;
    const ir::DType dt = BufferDType(buf);
    int cur = v;
    if (dt != ir::DType::kFloat32) cur = Dense("cast", "Cast", {cur}, dt);
    std::vector<Expr> repeats;
    for (std::size_t i = 0; i < sizes_.size(); ++i)
      repeats.push_back(strides[i] == Expr(0) ? Expr(1) : sizes_[i]);
    if (repeats != sizes_) throw Refuse{"store of " + buf + " reduces a loop axis"};
    if (!IsDense(strides, repeats)) {
      if (!Descending(strides))
        throw Refuse{"store of " + buf + " writes transposed (not lowered yet)"};
      throw Refuse{"store of " + buf + " writes a strided view (e.g. a slice of a concat " +
                   "buffer), not a dense output"};
    }
    const int st = Add("store", "Store", {cur}, dt, repeats, strides);
    if (!(offset == Expr(0))) g_.nodes[static_cast<std::size_t>(st)].attrs["offset"] = offset;
    const int out = Add("output", "Output", {st}, dt, repeats, strides);
    g_.nodes[static_cast<std::size_t>(out)].attrs["index"] = static_cast<std::int64_t>(outputs_++);
  }

  const SchedNode& group_;
  const BufferDTypes* types_;
  std::set<std::string> members_;
  std::map<std::string, std::string> dtype_;
  std::map<std::string, std::vector<NodeUser>> users_;
  std::set<std::string> has_users_;
  ir::Graph g_;
  std::vector<Expr> sizes_;
  std::vector<std::int64_t> axes_;
  std::map<std::string, std::string> index_of_;  // get_index variable → indexK
  std::map<std::string, int> data_;              // buffer → Data node
  struct Read {
    std::vector<Expr> repeats, strides;
    Expr offset;
  };
  std::map<std::string, std::vector<Read>> reads_;  // buffer → the views it is loaded through
  std::map<std::string, std::pair<int, std::vector<Expr>>> stored_;  // buffer → value, view
  std::map<std::string, std::pair<std::string, int>> pending_;       // reduction → (type, value)
  int counter_ = 0;
  int outputs_ = 0;
};

// torch 2.0 fused nodes list only their members' names: the members' dumps are the top-level
// nodes of the same file or of the pre-fusion file. Returns the fused node with `snodes` filled,
// or nullopt when a member is found in neither.
std::optional<SchedNode> ResolveMembers(const SchedNode& n, const IrFile& post, const IrFile* pre) {
  SchedNode r = n;
  for (const auto& m : n.snode_names) {
    const SchedNode* found = nullptr;
    for (const IrFile* f : {&post, pre}) {
      if (f == nullptr || found != nullptr) continue;
      for (const auto& c : f->nodes) {
        if (c.name == m && c.kind != NodeKind::kFused) {
          found = &c;
          break;
        }
      }
    }
    if (found == nullptr) return std::nullopt;
    r.snodes.push_back(*found);
  }
  return r;
}

}  // namespace

std::vector<HintGroup> BuildHintGraphs(const IrFile& post, const IrFile* pre,
                                       const BufferDTypes* types) {
  std::vector<HintGroup> out;
  for (const auto& n : post.nodes) {
    if (n.kind == NodeKind::kExtern || n.kind == NodeKind::kNop) continue;
    HintGroup h;
    h.name = n.name;
    h.members = n.snode_names.empty() ? std::vector<std::string>{n.name} : n.snode_names;
    try {
      std::optional<SchedNode> resolved;
      if (n.kind == NodeKind::kFused && n.snodes.empty() && !n.snode_names.empty()) {
        resolved = ResolveMembers(n, post, pre);
        if (!resolved) {
          throw Refuse{"the fused node lists only its members' names (torch 2.0 form) and " +
                       std::string(pre != nullptr ? "not every member" : "no ir_pre_fusion.txt") +
                       " gives their loop bodies"};
        }
      }
      Lowerer l(post, resolved ? *resolved : n, types);
      h.graph = l.Lower();
    } catch (const Refuse& r) {
      h.reason = r.reason;
    } catch (const std::exception& e) {  // sym errors on odd sizes: a reason, not a failure
      h.reason = std::string("cannot lower: ") + e.what();
    }
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<HintGroup> BuildHintGraphs(const IrFile& post) {
  bool names_only = false;
  bool layouts = false;
  for (const auto& n : post.nodes) {
    names_only = names_only || (n.kind == NodeKind::kFused && n.snodes.empty());
    for (const auto* l : n.Leaves()) {
      layouts = layouts || !l->buffer_layouts.empty() ||
                std::any_of(l->outputs.begin(), l->outputs.end(),
                            [](const OutputBuffer& o) { return o.layout.has_value(); });
    }
  }
  std::optional<IrFile> pre;
  if (names_only && !post.file.empty()) {
    const auto pre_path = std::filesystem::path(post.file).parent_path() / "ir_pre_fusion.txt";
    std::error_code ec;
    if (std::filesystem::is_regular_file(pre_path, ec)) {
      try {
        pre = LoadInductorIrFile(pre_path);
      } catch (const InputError&) {
        // a damaged pre-fusion file: the groups that need it fall back
      }
    }
  }
  const IrFile* pre_ptr = pre ? &*pre : nullptr;
  if (layouts || post.file.empty()) return BuildHintGraphs(post, pre_ptr);
  // No layouts (torch 2.0): dtypes from the model folder's FX graph and the loop bodies.
  const auto fx = LoadFolderFxGraph(post.file);
  const BufferDTypes types = InferBufferDTypes(post, pre_ptr, fx ? &*fx : nullptr);
  return BuildHintGraphs(post, pre_ptr, &types);
}

}  // namespace af::importers::inductor
