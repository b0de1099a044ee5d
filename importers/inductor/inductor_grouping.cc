// Inductor's post-fusion groups mapped onto FX nodes, and the comparison with our grouping
// (inductor_grouping.h).
#include "autofuse/importers/inductor_grouping.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "autofuse/model/dtype_code.h"
#include "autofuse/model/shape.h"

namespace af::importers::inductor {
namespace {

// The aten op an extern kernel calls: `extern_kernels.addmm` / `aten.convolution` /
// `torch.ops.aten.convolution_backward.default` -> addmm, convolution, convolution_backward.
std::string ExternOp(const std::string& kernel) {
  std::string k = kernel;
  if (k.rfind("torch.ops.", 0) == 0) k = k.substr(10);
  if (const auto a = k.find("aten."); a != std::string::npos) {
    k = k.substr(a + 5);
    return k.substr(0, k.find('.'));
  }
  const auto dot = k.rfind('.');
  return dot == std::string::npos ? k : k.substr(dot + 1);
}

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The leading identifier of `s` (after spaces), "" when none.
std::string LeadingIdent(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0)
    ++i;
  std::size_t j = i;
  while (j < s.size() && IsIdentChar(s[j]))
    ++j;
  return std::string(s.substr(i, j - i));
}

// The buffers `call()` returns in output_code.py, in order: `return (buf17, primals_1,
// reinterpret_tensor(buf9, …), )` -> buf17, primals_1, buf9. Empty when there is no such return.
std::vector<std::string> ReturnedBuffers(const std::string& text) {
  std::vector<std::string> out;
  const auto call = text.find("\ndef call(args):");
  if (call == std::string::npos) return out;
  const auto ret = text.find("\n    return ", call);
  if (ret == std::string::npos) return out;
  std::size_t i = ret + 12;
  while (i < text.size() && text[i] == ' ')
    ++i;
  if (i >= text.size() || text[i] != '(') return out;
  ++i;
  int depth = 0;
  std::string item;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (depth == 0 && (c == ',' || c == ')')) {
      const std::string id = LeadingIdent(item);
      const auto open = item.find('(');
      if (open != std::string::npos) {
        out.push_back(LeadingIdent(std::string_view(item).substr(open + 1)));
      } else if (!id.empty()) {
        out.push_back(id);
      }
      item.clear();
      if (c == ')') break;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0) return {};
    item += c;
  }
  return out;
}

// Every value an argument reads (nested lists too).
void ArgValues(const model::Arg& a, std::vector<int>* out) {
  if (a.IsValue()) out->push_back(a.value);
  for (const auto& it : a.items)
    ArgValues(it, out);
}

std::vector<int> NodeInputs(const model::Node& n) {
  std::vector<int> v;
  for (const auto& a : n.args)
    ArgValues(a, &v);
  for (const auto& [k, a] : n.kwargs)
    ArgValues(a, &v);
  return v;
}

struct Cone {
  std::set<int> nodes;   // FX op node ids
  bool escaped = false;  // reached a graph input outside the stop set
};

// The FX op nodes between `roots` and `stop` (backward through node inputs).
Cone BackwardCone(const model::Graph& g, const std::vector<int>& roots, const std::set<int>& stop) {
  Cone c;
  std::vector<int> work(roots.begin(), roots.end());
  std::set<int> seen;
  while (!work.empty()) {
    const int v = work.back();
    work.pop_back();
    if (stop.contains(v) || !seen.insert(v).second) continue;
    const model::Value& val = g.value(v);
    if (val.origin != model::ValueOrigin::kNodeOutput) {
      if (val.type.IsTensor()) c.escaped = true;
      continue;
    }
    if (val.node < 0) continue;
    const model::Node& n = g.node(val.node);
    if (n.kind != model::NodeKind::kOp) continue;  // Python arithmetic on sizes
    if (!c.nodes.insert(n.id).second) continue;
    for (int in : NodeInputs(n))
      work.push_back(in);
  }
  return c;
}

// Element count of a layout, when every size parses.
std::optional<sym::Expr> LayoutNumel(const Layout& l) {
  model::Shape s;
  for (const auto& e : l.size) {
    if (!e.expr) return std::nullopt;
    s.push_back(*e.expr);
  }
  return model::Numel(s);
}

const Layout* FindLayout(const SchedNode& top, const std::string& buf) {
  for (const SchedNode* n : top.Leaves()) {
    for (const auto& o : n->outputs)
      if (o.name == buf && o.layout) return &*o.layout;
    for (const auto& [b, l] : n->buffer_layouts)
      if (b == buf) return &l;
  }
  for (const auto& o : top.outputs)
    if (o.name == buf && o.layout) return &*o.layout;
  for (const auto& [b, l] : top.buffer_layouts)
    if (b == buf) return &l;
  return nullptr;
}

std::vector<std::string> NodeNames(const model::Graph& g, const std::set<int>& ids) {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (int id : ids)  // node ids follow graph order
    out.push_back(g.node(id).name);
  return out;
}

template <typename T>
void AddUnique(std::vector<T>* v, const T& x) {
  if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
}

using Anchors = std::map<std::string, int>;  // buffer -> FX value id

// Anchors the buffers extern kernels write to the outputs of the FX calls of the same op, matched
// by ordinal per op; a multi-output kernel's tuple buffer through the MultiOutput nodes reading it.
void AnchorExterns(const IrFile& post, const model::Graph& fx, Anchors* anchor,
                   std::vector<std::string>* notes) {
  std::map<std::string, const model::Node*> multi;  // tuple buffer of a multi-output extern
  // extern kernels by ordinal per op
  std::map<std::string, std::vector<const SchedNode*>> externs;
  for (const auto& n : post.nodes) {
    if (n.kind != NodeKind::kExtern) continue;
    const bool seeds = std::ranges::find(n.ir_classes, "RandomSeeds") != n.ir_classes.end();
    if (std::ranges::find(n.ir_classes, "MultiOutput") != n.ir_classes.end()) continue;
    if (seeds) {
      externs["prims.inductor_seeds"].push_back(&n);
    } else if (!n.kernel.empty()) {
      externs["aten." + ExternOp(n.kernel)].push_back(&n);
    }
  }
  for (const auto& [op, ns] : externs) {
    const auto dot = op.find('.');
    const std::string nsp = op.substr(0, dot);
    const std::string name = op.substr(dot + 1);
    std::vector<const model::Node*> calls;
    for (const auto& fn : fx.nodes)
      if (fn.kind == model::NodeKind::kOp && fn.op.Is(nsp, name) && !fn.outputs.empty())
        calls.push_back(&fn);
    if (calls.size() != ns.size()) {
      notes->push_back(std::to_string(ns.size()) + " extern " + op + " kernel(s) but " +
                       std::to_string(calls.size()) + " FX call(s): not mapped");
      continue;
    }
    for (std::size_t i = 0; i < ns.size(); ++i) {
      for (const auto& w : ns[i]->writes) {
        if (calls[i]->outputs.size() == 1) {
          anchor->emplace(w.buffer, calls[i]->outputs[0]);
        } else {
          multi[w.buffer] = calls[i];
        }
      }
    }
  }
  // MultiOutput nodes reading a multi-output fallback kernel: its outputs in order
  std::map<std::string, std::vector<std::string>> parts;  // tuple buffer -> MultiOutput buffers
  for (const auto& n : post.nodes) {
    if (n.kind != NodeKind::kExtern ||
        std::ranges::find(n.ir_classes, "MultiOutput") == n.ir_classes.end() ||
        n.unmet_dependencies.size() != 1 || n.writes.size() != 1)
      continue;
    parts[n.unmet_dependencies[0].buffer].push_back(n.writes[0].buffer);
  }
  for (const auto& [tuple, bufs] : parts) {
    const auto it = multi.find(tuple);
    if (it == multi.end()) continue;
    if (bufs.size() != it->second->outputs.size()) {
      notes->push_back(std::to_string(bufs.size()) + " MultiOutput buffer(s) of " + tuple +
                       " but " + it->second->name + " has " +
                       std::to_string(it->second->outputs.size()) + " outputs: not mapped");
      continue;
    }
    for (std::size_t k = 0; k < bufs.size(); ++k)
      anchor->emplace(bufs[k], it->second->outputs[k]);
  }
}

// Anchors the values call() returns in output_code.py to the FX graph's outputs, by position.
void AnchorReturns(const std::string& output_code, const model::Graph& fx, Anchors* anchor,
                   std::vector<std::string>* notes) {
  if (output_code.empty()) return;
  const auto ret = ReturnedBuffers(output_code);
  if (ret.size() == fx.outputs.size()) {
    for (std::size_t i = 0; i < ret.size(); ++i)
      if (fx.outputs[i].IsValue()) anchor->emplace(ret[i], fx.outputs[i].value);
  } else if (!ret.empty()) {
    notes->push_back("output_code.py returns " + std::to_string(ret.size()) +
                     " values, the FX graph " + std::to_string(fx.outputs.size()) +
                     ": outputs not mapped by position");
  }
}

// The ops a group's loop bodies run (neg <- ops.neg).
std::set<std::string> BodyOps(const SchedNode& top) {
  std::set<std::string> body_ops;
  for (const SchedNode* n : top.Leaves())
    if (n->body)
      for (const auto& blk : n->body->blocks)
        for (const auto& op : blk.ops)
          if (op.kind == BodyOp::Kind::kOps) body_ops.insert(op.op);
  return body_ops;
}

// Maps Inductor's top-level scheduler nodes onto FX nodes, one group after the other: the buffers
// guessed for one group anchor the groups after it.
class GroupMapper {
 public:
  GroupMapper(const IrFile& post, const model::Graph& fx, Anchors anchor, InductorFxGroups* r)
      : fx_(fx), views_(ViewNodes(fx)), anchor_(std::move(anchor)), r_(r) {
    for (const auto& top : post.nodes)
      for (const SchedNode* n : top.Leaves())
        for (const auto* deps : {&n->unmet_dependencies, &n->met_dependencies})
          for (const auto& d : *deps)
            readers_[d.buffer].insert(top.name);
    for (const auto& [b, v] : anchor_)
      claimed_values_.insert(v);
  }

  FxGroup Map(const SchedNode& top) {
    FxGroup grp;
    grp.name = top.name;
    grp.kind = top.kind == NodeKind::kExtern ? "extern"
               : top.kind == NodeKind::kNop  ? "nop"
                                             : "kernel";
    std::vector<std::string> writes;
    std::vector<std::string> reads;
    for (const SchedNode* n : top.Leaves()) {
      for (const auto& w : n->writes)
        AddUnique(&writes, w.buffer);
    }
    for (const SchedNode* n : top.Leaves()) {
      for (const auto* deps : {&n->unmet_dependencies, &n->met_dependencies})
        for (const auto& d : *deps)
          if (d.kind != Dep::Kind::kWeak && std::ranges::find(writes, d.buffer) == writes.end())
            AddUnique(&reads, d.buffer);
    }
    grp.buffers = writes;
    const std::set<int> stop = StopValues(top, grp.kind == "kernel", reads);
    if (grp.kind == "extern") {
      std::set<int> ids;
      for (const auto& b : writes)
        if (auto it = anchor_.find(b);
            it != anchor_.end() && fx_.value(it->second).node >= 0 &&
            fx_.value(it->second).origin == model::ValueOrigin::kNodeOutput)
          ids.insert(fx_.value(it->second).node);
      grp.nodes = NodeNames(fx_, ids);
      return grp;
    }
    if (grp.kind != "kernel") return grp;
    GuessWrites(top, writes, stop);
    std::vector<int> roots;
    for (const auto& b : writes)
      if (auto it = anchor_.find(b); it != anchor_.end()) roots.push_back(it->second);
    const Cone c = BackwardCone(fx_, roots, stop);
    grp.nodes = NodeNames(fx_, c.nodes);
    return grp;
  }

 private:
  // The FX values a group's cone stops at: those of the buffers it reads and, since Inductor
  // reinterprets views, the bases of those read through a view.
  std::set<int> StopValues(const SchedNode& top, bool kernel,
                           const std::vector<std::string>& reads) {
    std::set<int> stop;
    for (const auto& b : reads) {
      if (auto it = anchor_.find(b); it != anchor_.end()) {
        for (int v = it->second; v >= 0;) {
          stop.insert(v);
          const model::Value& val = fx_.value(v);
          v = -1;
          if (val.origin != model::ValueOrigin::kNodeOutput || val.node < 0) break;
          const model::Node& pn = fx_.node(val.node);
          if (!views_.contains(pn.name)) break;
          const auto ins = NodeInputs(pn);
          if (!ins.empty()) v = ins.front();
        }
      } else if (kernel) {
        r_->notes.push_back(top.name + " reads " + b + ", which maps to no FX value");
      }
    }
    return stop;
  }

  // Guesses the buffers of a kernel group that other groups read (the others never leave the
  // kernel) and anchors them.
  void GuessWrites(const SchedNode& top, const std::vector<std::string>& writes,
                   const std::set<int>& stop) {
    for (const auto& b : writes) {
      const auto rd = readers_.find(b);
      if (anchor_.contains(b) || rd == readers_.end() ||
          std::ranges::all_of(rd->second, [&top](const std::string& t) { return t == top.name; }))
        continue;
      const Layout* l = FindLayout(top, b);
      const auto numel = l != nullptr ? LayoutNumel(*l) : std::nullopt;
      if (!numel) {
        r_->notes.push_back(top.name + " writes " + b + ": no layout, not mapped");
        continue;
      }
      const int best = BestValue(*l, *numel, stop, BodyOps(top));
      if (best < 0) {
        r_->notes.push_back(top.name + " writes " + b + ": no FX value matches it");
        continue;
      }
      anchor_[b] = best;
      claimed_values_.insert(best);
      ++r_->guessed_buffers;
      r_->notes.push_back(top.name + " writes " + b + ": taken as FX value " +
                          fx_.value(best).name +
                          " (same dtype and size, reads only the group's inputs)");
    }
  }

  // The unclaimed FX value of the layout's dtype and size whose cone stays inside `stop`,
  // preferring values computed by an op the group's loop bodies run, then the latest; -1 if none.
  int BestValue(const Layout& l, const sym::Expr& numel, const std::set<int>& stop,
                const std::set<std::string>& body_ops) const {
    int best = -1;
    bool best_in_body = false;
    for (const auto& v : fx_.values) {
      if (v.origin != model::ValueOrigin::kNodeOutput || v.node < 0 || !v.type.IsTensor() ||
          claimed_values_.contains(v.id) || fx_.node(v.node).kind != model::NodeKind::kOp ||
          views_.contains(fx_.node(v.node).name))
        continue;
      if (model::TorchName(v.type.dtype) != l.dtype || model::Numel(v.type.shape) != numel)
        continue;
      const Cone c = BackwardCone(fx_, {v.id}, stop);
      if (c.escaped) continue;
      const bool in_body = body_ops.contains(fx_.node(v.node).op.name);
      if (best < 0 || (in_body && !best_in_body) ||
          (in_body == best_in_body && v.node > fx_.value(best).node)) {
        best = v.id;
        best_in_body = in_body;
      }
    }
    return best;
  }

  const model::Graph& fx_;
  std::set<std::string> views_;
  Anchors anchor_;
  std::set<int> claimed_values_;
  std::map<std::string, std::set<std::string>> readers_;  // buffer -> top-level nodes reading it
  InductorFxGroups* r_;
};

}  // namespace

InductorFxGroups MapInductorGroups(const IrFile& post, const model::Graph& fx,
                                   const std::string& output_code) {
  InductorFxGroups r;
  Anchors anchor;
  for (int id : fx.inputs)
    anchor[fx.value(id).name] = id;
  for (int id : fx.attrs)
    anchor[fx.value(id).name] = id;
  const std::size_t inputs = anchor.size();
  AnchorExterns(post, fx, &anchor, &r.notes);
  AnchorReturns(output_code, fx, &anchor, &r.notes);
  r.anchored_buffers = static_cast<int>(anchor.size() - inputs);
  GroupMapper mapper(post, fx, std::move(anchor), &r);
  for (const auto& top : post.nodes)
    r.groups.push_back(mapper.Map(top));
  return r;
}

GroupingComparison CompareGroupings(const std::vector<FxGroup>& inductor_in,
                                    const std::vector<FxGroup>& ours_in,
                                    const std::map<std::string, std::string>& our_fallback_codes,
                                    const std::vector<Refusal>& refusals,
                                    const std::set<std::string>& ignored) {
  GroupingComparison c;
  auto compared = [&ignored](const FxGroup& grp) {
    FxGroup out = grp;
    std::erase_if(out.nodes, [&ignored](const std::string& n) { return ignored.contains(n); });
    return out;
  };
  std::vector<FxGroup> inductor_c;
  std::vector<FxGroup> ours_c;
  inductor_c.reserve(inductor_in.size());
  ours_c.reserve(ours_in.size());
  for (const auto& grp : inductor_in)
    inductor_c.push_back(compared(grp));
  for (const auto& grp : ours_in)
    ours_c.push_back(compared(grp));
  const std::vector<FxGroup>& inductor = inductor_c;
  const std::vector<FxGroup>& ours = ours_c;
  std::map<std::string, int> our_of;                       // node -> our group
  std::map<std::string, std::vector<std::size_t>> ind_of;  // node -> Inductor kernels
  for (std::size_t j = 0; j < ours.size(); ++j)
    for (const auto& n : ours[j].nodes)
      our_of.emplace(n, static_cast<int>(j));
  for (std::size_t i = 0; i < inductor.size(); ++i) {
    if (inductor[i].kind != "kernel") continue;
    for (const auto& n : inductor[i].nodes)
      ind_of[n].push_back(i);
  }
  auto fallback_code = [&](const std::string& n) -> std::string {
    const auto it = our_fallback_codes.find(n);
    return it == our_fallback_codes.end() ? std::string() : it->second;
  };
  std::set<std::string> inductor_only;
  for (const FxGroup& ig : inductor) {
    if (ig.kind != "kernel" || ig.nodes.empty()) continue;
    ++c.inductor_kernels;
    std::vector<int> touched;
    std::vector<std::string> outside;
    for (const auto& n : ig.nodes) {
      if (auto it = our_of.find(n); it != our_of.end()) {
        AddUnique(&touched, it->second);
      } else {
        outside.push_back(n);
      }
    }
    if (touched.size() == 1 && outside.empty() &&
        ours[static_cast<std::size_t>(touched[0])].nodes.size() == ig.nodes.size()) {
      ++c.identical;
      c.identical_pairs.emplace_back(ig.name, ours[static_cast<std::size_t>(touched[0])].name);
      continue;
    }
    for (const auto& n : outside)
      inductor_only.insert(n);
    if (touched.empty()) {  // the whole kernel is outside ours
      GroupingDiff d;
      d.kind = "inductor_only";
      d.inductor_groups = {ig.name};
      d.our_groups = {"-"};
      d.nodes = outside;
      for (const auto& n : outside)
        if (const std::string code = fallback_code(n); !code.empty()) AddUnique(&d.codes, code);
      c.diffs.push_back(std::move(d));
    }
    if (touched.size() + (outside.empty() ? 0 : 1) < 2) continue;
    ++c.split;
    GroupingDiff d;
    d.kind = "split";
    d.inductor_groups = {ig.name};
    for (int j : touched)
      d.our_groups.push_back(ours[static_cast<std::size_t>(j)].name);
    if (!outside.empty()) d.our_groups.emplace_back("-");
    d.nodes = ig.nodes;
    const std::set<std::string> in(ig.nodes.begin(), ig.nodes.end());
    auto meets = [&in](const std::vector<std::string>& v) {
      return std::ranges::any_of(v, [&in](const std::string& n) { return in.contains(n); });
    };
    for (const auto& rf : refusals)
      if (meets(rf.first) && meets(rf.second)) AddUnique(&d.codes, rf.code);
    for (const auto& n : outside)
      if (const std::string code = fallback_code(n); !code.empty()) AddUnique(&d.codes, code);
    c.diffs.push_back(std::move(d));
  }
  c.inductor_only_nodes = static_cast<int>(inductor_only.size());
  for (const auto& og : ours) {
    if (og.nodes.empty()) continue;
    ++c.our_kernels;
    std::vector<std::string> hit;
    std::vector<std::string> alone;
    for (const auto& n : og.nodes) {
      const auto it = ind_of.find(n);
      if (it == ind_of.end()) {
        alone.push_back(n);
        continue;
      }
      for (std::size_t i : it->second)
        AddUnique(&hit, inductor[i].name);
    }
    if (hit.size() >= 2) {
      ++c.merged;
      GroupingDiff d;
      d.kind = "merged";
      d.inductor_groups = hit;
      d.our_groups = {og.name};
      d.nodes = og.nodes;
      c.diffs.push_back(std::move(d));
    }
    if (!alone.empty()) {
      c.ours_only_nodes += static_cast<int>(alone.size());
      GroupingDiff d;
      d.kind = "ours_only";
      d.inductor_groups = {"-"};
      d.our_groups = {og.name};
      d.nodes = alone;
      c.diffs.push_back(std::move(d));
    }
  }
  return c;
}

std::set<std::string> ViewNodes(const model::Graph& g) {
  static const std::set<std::string, std::less<>> kViews = {
      "view",      "_unsafe_view", "reshape",    "permute",
      "expand",    "squeeze",      "unsqueeze",  "t",
      "transpose", "alias",        "as_strided", "broadcast_in_dim",
      "slice",     "select",       "unflatten",  "flatten",
      "detach"};
  std::set<std::string> out;
  for (const auto& n : g.nodes) {
    if (n.kind != model::NodeKind::kOp || (n.op.ns != "aten" && n.op.ns != "prims")) continue;
    // 0-dim constants (`full([], 0.0)`): both sides inline them as scalars
    const bool scalar_const = (n.op.name == "full" || n.op.name == "scalar_tensor") &&
                              n.outputs.size() == 1 && g.value(n.outputs[0]).type.IsTensor() &&
                              g.value(n.outputs[0]).type.shape.empty();
    if (kViews.contains(n.op.name) || scalar_const) out.insert(n.name);
  }
  return out;
}

}  // namespace af::importers::inductor
