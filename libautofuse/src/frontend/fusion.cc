// The fusion decider (see fusion.h): greedy rounds over ranked candidate pairs of groups.
#include "autofuse/frontend/fusion.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <span>
#include <unordered_map>

#include "autofuse/att/price.h"
#include "autofuse/att/tiling.h"
#include "autofuse/codegen/codegen.h"
#include "autofuse/codegen/superkernel.h"
#include "autofuse/frontend/device_facts.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/text.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/strings.h"

namespace af::frontend {
namespace {

using nlohmann::json;

// Values a node reads (tensor values only).
std::vector<int> ReadValues(const model::Graph& g, const model::Node& n) {
  std::vector<int> out;
  std::function<void(const model::Arg&)> scan = [&](const model::Arg& a) {
    if (a.IsValue() && g.value(a.value).type.IsTensor()) out.push_back(a.value);
    for (const auto& it : a.items)
      scan(it);
  };
  for (const auto& a : n.args)
    scan(a);
  for (const auto& [k, a] : n.kwargs)
    scan(a);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double Bytes(const model::Graph& g, int value, const std::map<std::string, std::int64_t>& hints) {
  const auto& t = g.value(value).type;
  if (!t.IsTensor()) return 0;
  double n = 1;
  for (const auto& d : t.shape) {
    if (auto v = d.AsInt()) {
      n *= static_cast<double>(*v);
    } else {
      sym::Bindings b;
      for (const auto& s : d.FreeSymbols()) {
        auto it = hints.find(s);
        b[s] = it != hints.end() ? it->second : 64;  // unbound sizes count as 64
      }
      try {
        n *= static_cast<double>(d.Eval(b));
      } catch (const std::exception&) {
        n *= 64;
      }
    }
  }
  const int es = ir::DTypeBytes(t.dtype);
  return n * (es > 0 ? es : 4);
}

// Bytes of a tensor value with every size symbol bound by `b`; nullopt (and the missing symbols
// in *unbound) when one is not.
std::optional<double> BoundBytes(const model::Graph& g, int value, const sym::Bindings& b,
                                 std::set<std::string>* unbound) {
  const auto& t = g.value(value).type;
  if (!t.IsTensor()) return 0.0;
  double n = 1;
  bool ok = true;
  for (const auto& d : t.shape) {
    for (const auto& s : d.FreeSymbols())
      if (b.find(s) == b.end()) {
        unbound->insert(s);
        ok = false;
      }
    if (!ok) continue;
    try {
      n *= static_cast<double>(d.Eval(b));
    } catch (const std::exception&) {
      return std::nullopt;  // a size that does not evaluate (division by zero...): no figure
    }
  }
  if (!ok) return std::nullopt;
  const int es = ir::DTypeBytes(t.dtype);
  return n * (es > 0 ? es : 4);
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string Us(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string Join(const std::set<std::string>& s) {
  std::string r;
  for (const auto& x : s)
    r += (r.empty() ? "" : ",") + x;
  return r;
}

// Why sizes gave no figure: the unbound symbols, else a size that does not evaluate.
std::string Unbound(const std::set<std::string>& s) {
  return s.empty() ? "a size does not evaluate" : Join(s) + " unbound";
}

struct Check {
  bool ok = false;
  std::string code;
  std::string stage;
  std::string message;
  LoweredKernel lowered;
};

class Decider {
 public:
  Decider(const model::Graph& g, const FusionOptions& o)
      : g_(g), o_(o), profile_(hw::GetProfile(o.soc)), facts_(GetDeviceFacts(profile_)) {
    for (const auto& v : g.values)
      if (v.hint && !v.name.empty()) {
        const auto& t = v.type;
        if (t.kind == model::ValueKind::kSymInt && t.expr && t.expr->IsSymbol())
          hints_[t.expr->name()] = *v.hint;
      }
    sizes_ = o.bindings;  // bindings first, then the graph's hints
    for (const auto& [k, v] : hints_)
      sizes_.emplace(k, v);
    reads_.resize(g.nodes.size());
    users_.resize(g.values.size());
    for (const auto& n : g.nodes) {
      reads_[static_cast<std::size_t>(n.id)] = ReadValues(g, n);
      for (int v : reads_[static_cast<std::size_t>(n.id)])
        users_[static_cast<std::size_t>(v)].push_back(n.id);  // node order: ascending, unique
    }
    uses_ = ComputeValueUses(g);
    order_.resize(g.nodes.size());
    for (std::size_t i = 0; i < order_.size(); ++i)
      order_[i] = static_cast<int>(i);  // the graph's node order is topological
    peak_limit_ = o.peak_memory_limit < 0 ? facts_.hbm_bytes : o.peak_memory_limit;
  }

  FusionResult Run();

 private:
  void SeedGroups(std::map<int, Fallback>& fallback);
  std::vector<std::string> Names(const std::vector<int>& nodes) const {
    std::vector<std::string> r;
    r.reserve(nodes.size());
    for (int id : nodes)
      r.push_back(g_.node(id).name);
    return r;
  }
  std::set<std::string> Passes(const std::vector<int>& nodes) const {
    std::set<std::string> p;
    for (int id : nodes) {
      const auto& n = g_.node(id);
      const std::string& name = n.op.name;
      if (kinds_.at(id) == OpKind::kReduce) p.insert("reduce");
      if (kinds_.at(id) == OpKind::kCube) p.insert("matmul");
      if (n.op.ns != "aten" && n.op.ns != "prims") continue;
      // AutoFuse's pass names (concat, slice, gather, transpose; split folds into slice as
      // AutoFuse lowers split to slices) and ours for constant_pad_nd (pad)
      if (name == "slice" || name == "select" || name == "split" || name == "split_with_sizes" ||
          name == "split_copy" || name == "split_with_sizes_copy" || name == "chunk" ||
          name == "unbind" || name == "unbind_copy")
        p.insert("slice");
      if (name == "permute" || name == "transpose" || name == "t") p.insert("transpose");
      if (name == "cat") p.insert("concat");
      if (name == "index_select" || name == "embedding" || name == "gather" || name == "index" ||
          name == "_unsafe_index")
        p.insert("gather");
      if (name == "constant_pad_nd") p.insert("pad");
    }
    return p;
  }
  Check Validate(const std::vector<int>& nodes);
  // The schedule and codegen of a lowered group: ok, or the stage, code and message refusing it.
  Check ScheduleAndGenerate(const ir::Graph& hint) const;
  bool ReachesAvoiding(int from, int to, int a, int b) const;
  // Units: a group (by its id, a node id) or a node outside every group (by its own id).
  int UnitOf(int node) const {
    const int grp = group_of_[static_cast<std::size_t>(node)];
    return grp >= 0 ? grp : node;
  }
  std::span<const int> Members(int unit) const {
    if (group_of_[static_cast<std::size_t>(unit)] == unit) return groups_.at(unit);
    return {&g_.node(unit).id, 1};
  }
  template <typename F>
  void ForSuccessors(int unit, F&& f) const;
  template <typename F>
  void ForPredecessors(int unit, F&& f) const;
  // Keeps order_ a topological order of the units when units lo and hi become one (kept as
  // `keep`): the units between them that lo reaches move after the merged unit, those that reach
  // hi before it (Pearce and Kelly's dynamic topological order; the cycle check guarantees the two
  // sets are disjoint). Costs the units between the two, not the graph.
  void MergeOrder(int a, int b, int keep);
  void InitAliases();
  // Modeled peak of live global-memory bytes with the current groups, groups a and b counted as
  // one kernel when b >= 0 (docs/frontend.md, "Memory guards"). Sets *where to the node names
  // of the unit at the peak; nullopt with the missing symbols in *unbound when a size is unbound.
  std::optional<double> PeakBytes(int a, int b, std::string* where,
                                  std::set<std::string>* unbound) const;
  // Modeled time (us, one launch included) of a node set as one kernel; 0 for views only;
  // nullopt with the reason in *why when it cannot be modeled.
  std::optional<double> KernelUs(const std::vector<int>& nodes, std::string* why);
  // The memory guards and the gain check for an accepted-so-far candidate; false when refused
  // (rec carries the code and numbers). Notes for checks not applied go to *notes.
  // Why --skip_node_names_cfg keeps `n` out of fusion, or "".
  std::string SkipListed(const model::Node& n) const;
  bool Guards(int a, int b, const std::vector<int>& all, const Check& chk, FusionRecord& rec,
              std::string* notes);

  const model::Graph& g_;
  const FusionOptions& o_;
  const hw::Profile& profile_;
  const DeviceFacts& facts_;
  std::map<std::string, std::int64_t> hints_;
  sym::Bindings sizes_;                      // options' bindings, then hints
  std::int64_t peak_limit_ = 0;              // 0: the guard is off
  std::vector<std::vector<int>> reads_;      // node -> tensor values it reads
  std::map<int, int> base_;                  // value -> the value whose storage it aliases (views)
  std::map<int, std::vector<int>> aliases_;  // base value -> values sharing its storage
  std::map<int, double> base_bytes_;         // base value -> bytes, when bound
  std::set<std::string> unbound_;            // size symbols no binding or hint gives
  std::set<int> graph_outputs_;              // values the graph returns
  std::map<std::vector<int>, std::optional<double>> us_cache_;
  std::map<std::vector<int>, std::string> us_why_;
  std::map<int, OpKind> kinds_;
  std::vector<int> group_of_;                // node id -> group id, -1 when outside every group
  std::map<int, std::vector<int>> groups_;   // group id -> node ids (sorted)
  std::map<std::vector<int>, Check> cache_;  // validated node sets
  // hint graph text -> (hint graph, ScheduleAndGenerate's answer); equal texts are compared whole
  std::unordered_map<std::string, std::vector<std::pair<ir::Graph, Check>>> staged_;
  std::vector<std::vector<int>> users_;  // value -> consumer nodes (tensor reads), ascending
  ValueUses uses_;                       // for LowerGroup: who reads each value
  // unit -> its position in a topological order of the units (the cycle check's bound)
  std::vector<int> order_;
  double total_bytes_ = 0;  // bytes of every storage: no modeled peak exceeds it
};

Check Decider::Validate(const std::vector<int>& nodes) {
  if (auto it = cache_.find(nodes); it != cache_.end()) return it->second;
  Check c;
  c.stage = "decider";
  for (const auto& p : Passes(nodes)) {
    if (!o_.enabled_passes.contains(p)) {
      c.code = "PASS_DISABLED";
      c.message = "the '" + p + "' fusion kind is not enabled (--autofuse_enable_pass=" + p + ")";
      return cache_[nodes] = c;
    }
  }
  try {
    LowerOptions lo;
    lo.upcast_half = o_.upcast_half;
    lo.uses = &uses_;
    lo.matmul = o_.enabled_passes.contains("matmul");
    c.lowered = LowerGroup(g_, nodes, lo);
  } catch (const LowerError& e) {
    c.stage = "lower";
    c.code = e.code();
    c.message = e.what();
    return cache_[nodes] = c;
  }
  const auto& hint = c.lowered.graph;
  if (static_cast<int>(hint.nodes.size()) > o_.max_nodes) {
    c.code = "SIZE_LIMIT";
    c.message = std::to_string(hint.nodes.size()) + " AscIR nodes, more than the limit of " +
                std::to_string(o_.max_nodes);
    return cache_[nodes] = c;
  }
  if (static_cast<int>(c.lowered.inputs.size()) > o_.max_inputs) {
    c.code = "INPUT_LIMIT";
    c.message = std::to_string(c.lowered.inputs.size()) + " inputs, more than the limit of " +
                std::to_string(o_.max_inputs);
    return cache_[nodes] = c;
  }
  // The schedule and codegen see the hint graph only: groups that lower to the same graph (the
  // layers of a model) get the same answer, computed once.
  auto& bucket = staged_[ir::DumpText(hint)];
  auto seen =
      std::find_if(bucket.begin(), bucket.end(), [&](const auto& e) { return e.first == hint; });
  if (seen == bucket.end()) {
    bucket.emplace_back(hint, ScheduleAndGenerate(hint));
    seen = std::prev(bucket.end());
  }
  const Check& staged = seen->second;
  c.ok = staged.ok;
  c.stage = staged.stage;
  c.code = staged.code;
  c.message = staged.message;
  return cache_[nodes] = c;
}

Check Decider::ScheduleAndGenerate(const ir::Graph& hint) const {
  Check c;
  try {
    c.stage = "schedule";
    const schedule::GroupPartition part = schedule::PartitionGroups(hint);
    if (part.groups.empty()) {
      const auto s = schedule::Schedule(hint, profile_);
      c.stage = "codegen";
      (void)codegen::Generate(hint, s);
    } else {
      // Reductions over different axes: a multi-group kernel.
      const auto scheds = schedule::ScheduleGroups(part, profile_);
      std::vector<codegen::GroupMember> members;
      for (std::size_t q = 0; q < scheds.size(); ++q)
        members.push_back({&part.groups[q], &scheds[q]});
      c.stage = "codegen";
      (void)codegen::GenerateGroups(hint, part, members, {});
    }
  } catch (const schedule::ScheduleError& e) {
    c.code = e.code();
    c.message = e.what();
    return c;
  } catch (const codegen::CodegenError& e) {
    c.code = e.code();
    c.message = e.what();
    return c;
  } catch (const std::exception& e) {
    c.code = "INTERNAL";
    c.message = e.what();
    return c;
  }
  c.ok = true;
  c.stage.clear();
  c.code = "FUSED";
  return c;
}

template <typename F>
void Decider::ForSuccessors(int unit, F&& f) const {
  for (int id : Members(unit))
    for (int v : g_.node(id).outputs)
      for (int u : users_[static_cast<std::size_t>(v)])
        if (const int k = UnitOf(u); k != unit) f(k);
}

template <typename F>
void Decider::ForPredecessors(int unit, F&& f) const {
  for (int id : Members(unit))
    for (int v : reads_[static_cast<std::size_t>(id)]) {
      const auto& val = g_.value(v);
      if (val.origin != model::ValueOrigin::kNodeOutput || val.node < 0) continue;
      if (const int k = UnitOf(val.node); k != unit) f(k);
    }
}

// Whether group `from` reaches group `to` through at least one group other than a and b (a path
// that would become a cycle once a and b are one kernel). Nodes outside every group count as
// their own groups. Every unit on such a path lies strictly between the two in order_, so the
// search never leaves that window.
bool Decider::ReachesAvoiding(int from, int to, int a, int b) const {
  const int limit = order_[static_cast<std::size_t>(to)];
  if (order_[static_cast<std::size_t>(from)] >= limit) return false;
  std::vector<int> stack;
  std::set<int> seen;
  bool found = false;
  auto push = [&](int s) {
    if (s == a || s == b || order_[static_cast<std::size_t>(s)] >= limit) return;
    if (seen.insert(s).second) stack.push_back(s);
  };
  ForSuccessors(from, push);
  while (!stack.empty() && !found) {
    const int x = stack.back();
    stack.pop_back();
    ForSuccessors(x, [&](int s) {
      if (s == to) found = true;
      push(s);
    });
  }
  return found;
}

void Decider::MergeOrder(int a, int b, int keep) {
  const bool a_first = order_[static_cast<std::size_t>(a)] < order_[static_cast<std::size_t>(b)];
  const int lo = a_first ? a : b;
  const int hi = a_first ? b : a;
  const int lo_pos = order_[static_cast<std::size_t>(lo)];
  const int hi_pos = order_[static_cast<std::size_t>(hi)];
  // Before the merge (group_of_ still holds the two units apart): the window's units lo reaches
  // (forward) and those that reach hi (backward).
  auto collect = [&](int from, bool forward) {
    std::vector<int> found;
    std::set<int> seen;
    std::vector<int> stack{from};
    auto visit = [&](int s) {
      const int p = order_[static_cast<std::size_t>(s)];
      if (s == lo || s == hi || p <= lo_pos || p >= hi_pos) return;
      if (seen.insert(s).second) {
        stack.push_back(s);
        found.push_back(s);
      }
    };
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      if (forward) {
        ForSuccessors(x, visit);
      } else {
        ForPredecessors(x, visit);
      }
    }
    auto by_pos = [&](int x, int y) {
      return order_[static_cast<std::size_t>(x)] < order_[static_cast<std::size_t>(y)];
    };
    std::sort(found.begin(), found.end(), by_pos);
    return found;
  };
  const std::vector<int> after = collect(lo, true);
  const std::vector<int> before = collect(hi, false);
  std::vector<int> slots{lo_pos, hi_pos};
  for (int u : before)
    slots.push_back(order_[static_cast<std::size_t>(u)]);
  for (int u : after)
    slots.push_back(order_[static_cast<std::size_t>(u)]);
  std::sort(slots.begin(), slots.end());
  std::size_t i = 0;
  for (int u : before)
    order_[static_cast<std::size_t>(u)] = slots[i++];
  order_[static_cast<std::size_t>(keep)] = slots[i++];
  ++i;  // the merged unit needs one slot of its two
  for (int u : after)
    order_[static_cast<std::size_t>(u)] = slots[i++];
}

void Decider::InitAliases() {
  std::function<void(const model::Arg&)> out = [&](const model::Arg& a) {
    if (a.IsValue()) graph_outputs_.insert(a.value);
    for (const auto& it : a.items)
      out(it);
  };
  for (const auto& a : g_.outputs)
    out(a);
  // A view op's outputs share the storage of its first tensor argument (no bytes of their own).
  for (const auto& n : g_.nodes) {
    auto k = kinds_.find(n.id);
    if (k == kinds_.end() || k->second != OpKind::kView || n.args.empty()) continue;
    const auto& a0 = n.args[0];
    if (!a0.IsValue() || !g_.value(a0.value).type.IsTensor()) continue;
    for (int v : n.outputs)
      base_[v] = a0.value;
  }
  for (const auto& v : g_.values) {
    if (!v.type.IsTensor()) continue;
    int b = v.id;
    for (int guard = 0; base_.contains(b) && guard < 1000; ++guard)
      b = base_.at(b);
    aliases_[b].push_back(v.id);
  }
  // Bytes per storage, once: the sizes do not change during a run.
  for (const auto& [b, vals] : aliases_) {
    const auto bytes = BoundBytes(g_, b, sizes_, &unbound_);
    if (bytes) {
      base_bytes_[b] = *bytes;
      total_bytes_ += *bytes;
    }
  }
}

std::optional<double> Decider::PeakBytes(int a, int b, std::string* where,
                                         std::set<std::string>* unbound) const {
  if (!unbound_.empty() || base_bytes_.size() != aliases_.size()) {
    unbound->insert(unbound_.begin(), unbound_.end());
    return std::nullopt;
  }
  auto key = [&](int node) {
    const int grp = group_of_[static_cast<std::size_t>(node)];
    const int k = grp >= 0 ? grp : -1 - node;
    return k == b ? a : k;
  };
  // Units (a kernel, or one op/Python node outside every kernel) in a topological order that
  // runs each unit where its last node ran in the graph (Kahn's algorithm, smallest last node
  // first).
  std::map<int, int> last;  // unit -> its last node id
  std::map<int, std::vector<int>> members;
  for (const auto& n : g_.nodes) {
    const int k = key(n.id);
    last[k] = std::max(last.contains(k) ? last[k] : -1, n.id);
    members[k].push_back(n.id);
  }
  std::map<int, std::set<int>> succ;
  std::map<int, int> indeg;
  for (const auto& [k, l] : last)
    indeg[k] = 0;
  for (const auto& n : g_.nodes) {
    const int kn = key(n.id);
    for (int v : reads_[static_cast<std::size_t>(n.id)]) {
      const auto& val = g_.value(v);
      if (val.origin != model::ValueOrigin::kNodeOutput || val.node < 0) continue;
      const int kp = key(val.node);
      if (kp != kn && succ[kp].insert(kn).second) ++indeg[kn];
    }
  }
  using Item = std::pair<int, int>;  // (last node, unit)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (const auto& [k, d] : indeg)
    if (d == 0) ready.emplace(last[k], k);
  std::map<int, int> step;
  std::vector<int> order;
  while (!ready.empty()) {
    const int k = ready.top().second;
    ready.pop();
    step[k] = static_cast<int>(order.size());
    order.push_back(k);
    for (int s : succ[k])
      if (--indeg[s] == 0) ready.emplace(last[s], s);
  }
  if (order.size() != last.size()) {  // a cycle (the cycle check should have refused it)
    order.clear();
    step.clear();
    std::vector<Item> by_last;
    by_last.reserve(last.size());
    for (const auto& [k, l] : last)
      by_last.emplace_back(l, k);
    std::sort(by_last.begin(), by_last.end());
    for (const auto& [l, k] : by_last) {
      step[k] = static_cast<int>(order.size());
      order.push_back(k);
    }
  }
  const int end = static_cast<int>(order.size()) - 1;
  std::vector<double> delta(order.size() + 1, 0.0);
  for (const auto& [base, vals] : aliases_) {
    const auto& bv = g_.value(base);
    int start = 0;
    int stop = -1;
    if (bv.origin == model::ValueOrigin::kNodeOutput && bv.node >= 0) {
      const int p = key(bv.node);
      start = step.at(p);
      for (int v : vals) {
        if (graph_outputs_.contains(v)) stop = end;
        for (int u : users_[static_cast<std::size_t>(v)])
          if (key(u) != p) stop = std::max(stop, step.at(key(u)));
      }
      if (stop < 0) continue;  // never leaves its kernel (or is never read): not in GM
    } else {
      stop = end;  // graph inputs and constants stay with the caller for the whole graph
    }
    const double bytes = base_bytes_.at(base);
    delta[static_cast<std::size_t>(start)] += bytes;
    delta[static_cast<std::size_t>(stop) + 1] -= bytes;
  }
  double live = 0;
  double peak = 0;
  int at = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    live += delta[i];
    if (live > peak) {
      peak = live;
      at = static_cast<int>(i);
    }
  }
  if (where != nullptr && !order.empty()) {
    where->clear();
    for (int id : members[order[static_cast<std::size_t>(at)]])
      *where += (where->empty() ? "" : " ") + g_.node(id).name;
  }
  return peak;
}

std::optional<double> Decider::KernelUs(const std::vector<int>& nodes, std::string* why) {
  if (auto it = us_cache_.find(nodes); it != us_cache_.end()) {
    *why = us_why_[nodes];
    return it->second;
  }
  auto done = [&](std::optional<double> v, const std::string& w) {
    us_cache_[nodes] = v;
    us_why_[nodes] = w;
    *why = w;
    return v;
  };
  bool views_only = true;
  for (int id : nodes)
    views_only = views_only && kinds_.at(id) == OpKind::kView;
  if (views_only) return done(0.0, "");  // a view is no kernel (VIEW_ONLY)
  const Check chk = Validate(nodes);
  if (!chk.ok) return done(std::nullopt, "{" + Names(nodes).front() + "...} is no kernel alone");
  try {
    const att::KernelPrice p = att::PriceKernel(chk.lowered.graph, sizes_, profile_,
                                                att::SolverOptionsFrom(o_.solver_flags, profile_));
    if (!p.unbound.empty()) {
      const std::set<std::string> missing(p.unbound.begin(), p.unbound.end());
      return done(std::nullopt, "sizes " + Join(missing) + " unbound");
    }
    if (!p.Priced()) return done(std::nullopt, "no tiling: " + p.error);
    // A multi-group kernel pays a SyncAll before each group that reads the workspace.
    return done(*p.cycles / (facts_.clock_ghz * 1e3) + facts_.launch_us +
                    p.barriers * hw::kSyncAllAssumptionUs,
                "");
  } catch (const std::exception& e) {
    return done(std::nullopt, std::string("no tiling: ") + e.what());
  }
}

std::string Decider::SkipListed(const model::Node& n) const {
  if (o_.skip_names.contains(n.name))
    return "node " + n.name + " is listed under [ByNodeName] of --skip_node_names_cfg";
  for (const std::string& t : {n.op.ToString(), n.op.name}) {
    if (o_.skip_types.contains(t))
      return "op type " + t + " is listed under [ByNodeType] of --skip_node_names_cfg";
  }
  return {};
}

bool Decider::Guards(int a, int b, const std::vector<int>& all, const Check& chk, FusionRecord& rec,
                     std::string* notes) {
  // AutoFuse's max_proximity: the span of the fused ops in graph order (`all` is sorted).
  if (o_.max_proximity >= 0 && !all.empty() && all.back() - all.front() > o_.max_proximity) {
    rec.code = "PROXIMITY";
    rec.message = "the fused ops would span " + std::to_string(all.back() - all.front()) +
                  " graph positions, more than --max_proximity=" + std::to_string(o_.max_proximity);
    return false;
  }
  // AutoFuse's rule (max_output_memory_size_after_fusion): the bytes the fused kernel writes.
  if (o_.max_output_memory > 0) {
    std::set<std::string> unbound;
    double written = 0;
    bool bound = true;
    for (int v : chk.lowered.outputs) {
      const auto bytes = BoundBytes(g_, v, sizes_, &unbound);
      if (!bytes) {
        bound = false;
        continue;
      }
      written += *bytes;
    }
    if (!bound) {
      *notes += "; output-memory limit not applied (" + Unbound(unbound) + ")";
    } else if (written > static_cast<double>(o_.max_output_memory)) {
      rec.code = "OUTPUT_MEMORY";
      rec.message = "the fused kernel writes " + Num(written) + " bytes, more than the limit of " +
                    Num(static_cast<double>(o_.max_output_memory)) +
                    " bytes (AutoFuse max_output_memory_size_after_fusion)";
      return false;
    }
  }
  // Every size bound and all storages together within the limit: no grouping can exceed it, so
  // the modeled peak (a pass over the whole graph) is not needed.
  const bool peak_bounded = unbound_.empty() && base_bytes_.size() == aliases_.size() &&
                            total_bytes_ <= static_cast<double>(peak_limit_);
  if (peak_limit_ > 0 && !peak_bounded) {
    std::set<std::string> unbound;
    std::string where;
    const auto after = PeakBytes(a, b, &where, &unbound);
    if (!after) {
      *notes += "; peak-memory guard not applied (" + Unbound(unbound) + ")";
    } else if (*after > static_cast<double>(peak_limit_)) {
      std::string where_before;
      const auto before = PeakBytes(a, -1, &where_before, &unbound);
      rec.peak_after = *after;
      rec.peak_before = before ? *before : -1;
      if (before && *after > *before) {
        rec.code = "PEAK_MEMORY";
        rec.message = "fusing raises the modeled peak of live global memory from " + Num(*before) +
                      " bytes (at " + where_before + ") to " + Num(*after) + " bytes (at " + where +
                      "), above the limit of " + Num(static_cast<double>(peak_limit_)) + " bytes";
        return false;
      }
    }
  }
  auto views_only = [&](int grp) {
    for (int id : groups_.at(grp))
      if (kinds_.at(id) != OpKind::kView) return false;
    return true;
  };
  auto has_cube = [&](int grp) {
    return std::ranges::any_of(groups_.at(grp),
                               [&](int id) { return kinds_.at(id) == OpKind::kCube; });
  };
  // A matmul joins vector work only when the model says the cube + vector kernel is faster than
  // the parts (the matmul pass's rule; --autofuse_fusion_gain_check extends it to every fusion).
  const bool gain_check = o_.gain_check || has_cube(a) || has_cube(b);
  if (gain_check && (views_only(a) || views_only(b))) {
    // A view joins a kernel as a Load/Store view: no kernel of its own to save, nothing to time.
    *notes += "; gain check not applied (a part is views only)";
  } else if (gain_check) {
    std::string why;
    const auto fused = KernelUs(all, &why);
    std::optional<double> parts;
    if (fused) {
      std::string wa;
      std::string wb;
      const auto ua = KernelUs(groups_.at(a), &wa);
      const auto ub = KernelUs(groups_.at(b), &wb);
      if (ua && ub) parts = *ua + *ub;
      why = !ua ? wa : wb;
    }
    if (!fused || !parts) {
      *notes += "; gain check not applied (" + why + ")";
    } else {
      rec.fused_us = *fused;
      rec.parts_us = *parts;
      if (*fused * o_.min_gain >= *parts) {
        rec.code = "NO_MODELED_GAIN";
        rec.message = "the fused kernel is modeled at " + Us(*fused) + " us against " + Us(*parts) +
                      " us for its two parts (ATT cycles at " + Us(facts_.clock_ghz) +
                      " GHz plus " + Us(facts_.launch_us) + " us per launch" +
                      (o_.min_gain != 1.0 ? ", required gain " + Us(o_.min_gain) : "") + ")";
        return false;
      }
      *notes += "; modeled " + Us(*fused) + " us fused vs " + Us(*parts) + " us apart";
    }
  }
  return true;
}

// One group per op that can be fused; the others (and every op when AutoFuse is off) fall back.
void Decider::SeedGroups(std::map<int, Fallback>& fallback) {
  group_of_.assign(g_.nodes.size(), -1);
  for (const auto& n : g_.nodes) {
    if (n.kind != model::NodeKind::kOp) continue;
    bool tensor_out = false;
    for (int v : n.outputs)
      tensor_out = tensor_out || g_.value(v).type.IsTensor();
    if (!tensor_out) continue;
    const OpSupport s = CheckOp(g_, n, o_.enabled_passes.contains("matmul"));
    kinds_[n.id] = s.kind;
    if (!s.ok()) {
      fallback[n.id] = {n.id, s.code, "lower", s.message};
      continue;
    }
    if (const std::string why = SkipListed(n); !why.empty()) {
      fallback[n.id] = {n.id, "SKIP_NODE_CFG", "decider", why};
      continue;
    }
    group_of_[static_cast<std::size_t>(n.id)] = n.id;
    groups_[n.id] = {n.id};
  }
  if (!o_.enabled) {  // --enable_autofuse=false: AutoFuse takes no op
    for (const auto& [gid, nodes] : groups_) {
      for (int id : nodes)
        fallback[id] = {id, "AUTOFUSE_DISABLED", "decider",
                        "--enable_autofuse=false: the op runs as its own (non-AutoFuse) kernel"};
    }
    groups_.clear();
  }
}

FusionResult Decider::Run() {
  FusionResult r;
  std::map<int, Fallback> fallback;
  SeedGroups(fallback);
  InitAliases();
  std::map<std::pair<std::vector<int>, std::vector<int>>, bool> tried;
  for (int round = 1; round <= o_.max_rounds; ++round) {
    struct Cand {
      int a, b;
      int priority;
      double bytes;
      std::string kind;
    };
    std::vector<Cand> cands;
    std::map<std::pair<int, int>, std::size_t> index;
    auto add = [&](int a, int b, int prio, double bytes, const std::string& kind) {
      auto k = std::make_pair(std::min(a, b), std::max(a, b));
      if (auto it = index.find(k); it != index.end()) {
        Cand& c = cands[it->second];
        if (prio > c.priority) {
          c.priority = prio;
          c.kind = kind;
          c.bytes = bytes;
          c.a = a;
          c.b = b;
        } else if (prio == c.priority) {
          c.bytes += bytes;
        }
        return;
      }
      index[k] = cands.size();
      cands.push_back({a, b, prio, bytes, kind});
    };
    std::map<int, std::set<int>> readers;  // value -> groups reading it
    for (const auto& [gid, nodes] : groups_) {
      for (int id : nodes) {
        for (int v : reads_[static_cast<std::size_t>(id)]) {
          const auto& val = g_.value(v);
          const int prod = val.origin == model::ValueOrigin::kNodeOutput ? val.node : -1;
          const int pg = prod >= 0 ? group_of_[static_cast<std::size_t>(prod)] : -1;
          if (pg == gid) continue;
          readers[v].insert(gid);
          if (pg >= 0) add(pg, gid, 2, 2 * Bytes(g_, v, hints_), "vertical");
        }
      }
    }
    for (const auto& [v, gs] : readers) {
      std::vector<int> list(gs.begin(), gs.end());
      for (std::size_t i = 0; i + 1 < list.size(); ++i)
        add(list[i], list[i + 1], 1, Bytes(g_, v, hints_), "horizontal");
    }
    std::stable_sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) {
      if (x.priority != y.priority) return x.priority > y.priority;
      if (x.bytes != y.bytes) return x.bytes > y.bytes;
      return std::min(x.a, x.b) < std::min(y.a, y.b);
    });
    std::set<int> touched;
    int merged = 0;
    for (const auto& c : cands) {
      if (touched.contains(c.a) || touched.contains(c.b)) continue;
      const auto& na = groups_.at(c.a);
      const auto& nb = groups_.at(c.b);
      auto pair_key = std::make_pair(na, nb);
      if (tried.contains(pair_key)) continue;
      tried[pair_key] = true;
      FusionRecord rec;
      rec.round = round;
      rec.kind = c.kind;
      rec.first = Names(na);
      rec.second = Names(nb);
      rec.bytes_saved = c.bytes;
      std::vector<int> all(na);
      all.insert(all.end(), nb.begin(), nb.end());
      std::sort(all.begin(), all.end());
      if (ReachesAvoiding(c.a, c.b, c.a, c.b) || ReachesAvoiding(c.b, c.a, c.a, c.b)) {
        rec.code = "CYCLE";
        rec.stage = "decider";
        rec.message = "a path between the two groups runs through an op outside both";
        r.records.push_back(rec);
        continue;
      }
      const Check chk = Validate(all);
      rec.accepted = chk.ok;
      rec.code = chk.code;
      rec.stage = chk.stage;
      rec.message = chk.ok ? "fused into one kernel of " +
                                 std::to_string(chk.lowered.graph.nodes.size()) + " AscIR nodes"
                           : chk.message;
      std::string notes;
      if (chk.ok && !Guards(c.a, c.b, all, chk, rec, &notes)) {
        rec.accepted = false;
        rec.stage = "decider";
      }
      if (rec.accepted) rec.message += notes;
      r.records.push_back(rec);
      if (!rec.accepted) continue;
      const int keep = std::min(c.a, c.b);
      const int drop = std::max(c.a, c.b);
      MergeOrder(c.a, c.b, keep);
      groups_[keep] = all;
      groups_.erase(drop);
      for (int id : all)
        group_of_[static_cast<std::size_t>(id)] = keep;
      touched.insert(c.a);
      touched.insert(c.b);
      ++merged;
    }
    r.rounds = round;
    if (merged == 0) break;
  }
  for (const auto& [gid, nodes] : groups_) {
    bool views_only = true;
    for (int id : nodes)
      views_only = views_only && kinds_.at(id) == OpKind::kView;
    if (views_only) {  // no kernel of its own: a view moves no data until something reads it
      for (int id : nodes)
        fallback[id] = {id, "VIEW_ONLY", "decider",
                        "a view that joins no kernel stays a view of its input (no copy kernel)"};
      continue;
    }
    const bool lone_cube = std::all_of(nodes.begin(), nodes.end(), [&](int id) {
      return kinds_.at(id) == OpKind::kCube || kinds_.at(id) == OpKind::kView;
    });
    if (lone_cube) {  // the matmul pass takes a matmul only with vector work around it
      for (int id : nodes)
        fallback[id] = {id, "CUBE_NOT_FUSED", "decider",
                        "no vector work fused with this matmul: it runs as the cube library's "
                        "kernel (the matmul pass fuses a matmul only with its neighbours)"};
      continue;
    }
    const Check chk = Validate(nodes);
    if (chk.ok) {
      r.kernels.push_back({nodes, chk.lowered});
      continue;
    }
    for (int id : nodes)
      fallback[id] = {id, chk.code, chk.stage, chk.message};
  }
  for (const auto& [id, f] : fallback)
    r.fallbacks.push_back(f);
  return r;
}

}  // namespace

std::string Fallback::Text(const model::Graph& g) const {
  const auto& n = g.node(node);
  return "Fallback " + n.op.ToString() + " " + n.name + " reason: [" + code + "] " + message;
}

namespace {

// AutoFuse's skip list (.ini): `[ByNodeName]` / `[ByNodeType]` sections, one entry a line,
// blank lines and `#` comments skipped, other sections ignored. A file that cannot be opened
// leaves the lists empty (the flag checker has warned).
void ReadSkipNodeConfig(const std::string& path, FusionOptions* o) {
  std::ifstream in(path);
  std::set<std::string>* section = nullptr;
  std::string raw;
  while (std::getline(in, raw)) {
    const std::string line(TrimSpace(raw));
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      const std::string name(TrimSpace(std::string_view(line).substr(1, line.size() - 2)));
      section = name == "ByNodeName"   ? &o->skip_names
                : name == "ByNodeType" ? &o->skip_types
                                       : nullptr;
      continue;
    }
    if (section != nullptr) section->insert(line);
  }
}

}  // namespace

FusionOptions FusionOptionsFromFlags(const std::map<std::string, std::string>& flags,
                                     const std::string& soc) {
  FusionOptions o;
  o.soc = soc;
  if (soc == "ascend950") o.max_inputs = 14;
  auto num = [&](const char* key, int* out) {
    if (auto it = flags.find(key); it != flags.end()) {
      try {
        *out = std::stoi(it->second);
      } catch (const std::exception&) {
        throw LowerError("BAD_FLAG", std::string(key) + " needs an integer");
      }
    }
  };
  auto words = [](const std::string& s) {
    std::set<std::string> out;
    std::size_t p = 0;
    while (p <= s.size()) {
      const std::size_t q = std::min(s.find(',', p), s.size());
      std::string w = s.substr(p, q - p);
      if (!w.empty()) out.insert(w);
      p = q + 1;
    }
    return out;
  };
  if (auto it = flags.find("autofuse_enable_pass"); it != flags.end())
    o.enabled_passes = words(it->second);
  if (auto it = flags.find("autofuse_disable_pass"); it != flags.end()) {
    for (const auto& w : words(it->second))
      o.enabled_passes.erase(w);
  }
  if (auto it = flags.find("enable_autofuse"); it != flags.end())
    o.enabled = !(it->second == "false" || it->second == "0");
  // AutoFuse's internal config names first, ours (autofuse_*) win when both are given.
  num("max_fusion_size", &o.max_nodes);
  num("max_fuse_rounds", &o.max_rounds);
  num("autofuse_max_fusion_size", &o.max_nodes);
  num("autofuse_max_input_nums", &o.max_inputs);
  num("autofuse_max_fuse_rounds", &o.max_rounds);
  if (auto it = flags.find("max_proximity"); it != flags.end()) {
    try {
      o.max_proximity = std::stoll(it->second);
    } catch (const std::exception&) {
      throw LowerError("BAD_FLAG", "max_proximity needs an integer");
    }
  }
  if (auto it = flags.find("skip_node_names_cfg"); it != flags.end())
    ReadSkipNodeConfig(it->second, &o);
  auto bytes = [&](const char* key, std::int64_t* out) {
    if (auto it = flags.find(key); it != flags.end()) {
      try {
        std::size_t used = 0;
        const long long v = std::stoll(it->second, &used);
        if (used != it->second.size() || v < 0) throw std::invalid_argument("");
        *out = v;
      } catch (const std::exception&) {
        throw LowerError("BAD_FLAG", std::string(key) + " needs a byte count (0 = off), not '" +
                                         it->second + "'");
      }
    }
  };
  if (auto it = flags.find("autofuse_peak_memory_limit"); it != flags.end() && it->second == "-1") {
    o.peak_memory_limit = -1;  // the device's HBM (the default, written out)
  } else {
    bytes("autofuse_peak_memory_limit", &o.peak_memory_limit);
  }
  bytes("autofuse_max_output_memory", &o.max_output_memory);
  if (auto it = flags.find("autofuse_fusion_gain_check"); it != flags.end()) {
    const std::string& v = it->second;
    if (v == "1" || v == "true") {
      o.gain_check = true;
    } else if (v == "0" || v == "false") {
      o.gain_check = false;
    } else {
      throw LowerError("BAD_FLAG",
                       "autofuse_fusion_gain_check must be true or false, not '" + v + "'");
    }
  }
  if (auto it = flags.find("autofuse_fusion_min_gain"); it != flags.end()) {
    try {
      std::size_t used = 0;
      o.min_gain = std::stod(it->second, &used);
      if (used != it->second.size() || !(o.min_gain > 0)) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw LowerError(
          "BAD_FLAG", "autofuse_fusion_min_gain needs a positive number, not '" + it->second + "'");
    }
  }
  for (const auto& [k, v] : flags)  // the solver the gain check runs
    if (k.rfind("att_", 0) == 0 || k.rfind("autofuse_att_", 0) == 0) o.solver_flags[k] = v;
  return o;
}

FusionResult DecideFusion(const model::Graph& g, const FusionOptions& options) {
  Decider d(g, options);
  return d.Run();
}

std::string FusionJson(const model::Graph& g, const FusionResult& r, const FusionOptions& o,
                       const std::vector<std::string>& kernel_names) {
  json j;
  j["graph"] = g.file;
  j["options"] = {{"soc", o.soc},
                  {"enable_autofuse", o.enabled},
                  {"enabled_passes",
                   std::vector<std::string>(o.enabled_passes.begin(), o.enabled_passes.end())},
                  {"max_nodes", o.max_nodes},
                  {"max_inputs", o.max_inputs},
                  {"max_rounds", o.max_rounds},
                  {"peak_memory_limit", o.peak_memory_limit},
                  {"max_output_memory", o.max_output_memory},
                  {"gain_check", o.gain_check},
                  {"min_gain", o.min_gain}};
  j["rounds"] = r.rounds;
  json ks = json::array();
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    json nodes = json::array();
    json ops = json::array();
    for (int id : k.nodes) {
      nodes.push_back(g.node(id).name);
      ops.push_back(g.node(id).op.ToString());
    }
    json ins = json::array();
    for (int v : k.lowered.inputs)
      ins.push_back(g.value(v).name);
    json outs = json::array();
    for (int v : k.lowered.outputs)
      outs.push_back(g.value(v).name);
    ks.push_back({{"name", i < kernel_names.size() ? kernel_names[i] : k.lowered.graph.name},
                  {"nodes", nodes},
                  {"ops", ops},
                  {"inputs", ins},
                  {"outputs", outs},
                  {"ascir_nodes", k.lowered.graph.nodes.size()}});
  }
  j["kernels"] = ks;
  json fb = json::array();
  for (const auto& f : r.fallbacks) {
    fb.push_back({{"node", g.node(f.node).name},
                  {"op", g.node(f.node).op.ToString()},
                  {"code", f.code},
                  {"stage", f.stage},
                  {"message", f.message},
                  {"text", f.Text(g)}});
  }
  j["fallbacks"] = fb;
  json ds = json::array();
  for (const auto& d : r.records) {
    json rec = {{"round", d.round},   {"kind", d.kind},         {"first", d.first},
                {"second", d.second}, {"accepted", d.accepted}, {"code", d.code},
                {"stage", d.stage},   {"message", d.message},   {"bytes_saved", d.bytes_saved}};
    if (d.peak_after >= 0) {
      rec["peak_before"] = d.peak_before;
      rec["peak_after"] = d.peak_after;
    }
    if (d.fused_us >= 0) {
      rec["fused_us"] = d.fused_us;
      rec["parts_us"] = d.parts_us;
    }
    ds.push_back(rec);
  }
  j["decisions"] = ds;
  return j.dump(2) + "\n";
}

}  // namespace af::frontend
