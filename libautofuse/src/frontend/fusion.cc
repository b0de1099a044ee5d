// The fusion decider (see fusion.h): greedy rounds over ranked candidate pairs of groups.
#include "autofuse/frontend/fusion.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <queue>

#include "autofuse/codegen/codegen.h"
#include "autofuse/hw/profile.h"
#include "autofuse/schedule/schedule.h"

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
      : g_(g), o_(o), profile_(hw::GetProfile(o.soc)) {
    for (const auto& v : g.values)
      if (v.hint && !v.name.empty()) {
        const auto& t = v.type;
        if (t.kind == model::ValueKind::kSymInt && t.expr && t.expr->IsSymbol())
          hints_[t.expr->name()] = *v.hint;
      }
    for (const auto& n : g.nodes)
      for (int v : ReadValues(g, n))
        users_[v].insert(n.id);
  }

  FusionResult Run();

 private:
  std::vector<std::string> Names(const std::vector<int>& nodes) const {
    std::vector<std::string> r;
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
      if (name == "slice" || name == "select") p.insert("slice");
      if (name == "permute" || name == "transpose" || name == "t") p.insert("transpose");
    }
    return p;
  }
  Check Validate(const std::vector<int>& nodes);
  bool ReachesAvoiding(int from, int to, int a, int b) const;

  const model::Graph& g_;
  const FusionOptions& o_;
  const hw::Profile& profile_;
  std::map<std::string, std::int64_t> hints_;
  std::map<int, OpKind> kinds_;
  std::vector<int> group_of_;                // node id -> group id, -1 when outside every group
  std::map<int, std::vector<int>> groups_;   // group id -> node ids (sorted)
  std::map<std::vector<int>, Check> cache_;  // validated node sets
  std::map<int, std::set<int>> users_;       // value -> consumer nodes
};

Check Decider::Validate(const std::vector<int>& nodes) {
  if (auto it = cache_.find(nodes); it != cache_.end()) return it->second;
  Check c;
  c.stage = "decider";
  for (const auto& p : Passes(nodes)) {
    if (!o_.enabled_passes.count(p)) {
      c.code = "PASS_DISABLED";
      c.message = "the '" + p + "' fusion kind is not enabled (--autofuse_enable_pass=" + p + ")";
      return cache_[nodes] = c;
    }
  }
  try {
    LowerOptions lo;
    lo.upcast_half = o_.upcast_half;
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
  try {
    c.stage = "schedule";
    const auto s = schedule::Schedule(hint, profile_);
    c.stage = "codegen";
    (void)codegen::Generate(hint, s);
  } catch (const schedule::ScheduleError& e) {
    c.code = e.code();
    c.message = e.what();
    return cache_[nodes] = c;
  } catch (const codegen::CodegenError& e) {
    c.code = e.code();
    c.message = e.what();
    return cache_[nodes] = c;
  } catch (const std::exception& e) {
    c.code = "INTERNAL";
    c.message = e.what();
    return cache_[nodes] = c;
  }
  c.ok = true;
  c.stage.clear();
  c.code = "FUSED";
  return cache_[nodes] = c;
}

// Whether group `from` reaches group `to` through at least one group other than a and b (a path
// that would become a cycle once a and b are one kernel). Nodes outside every group count as
// their own groups.
bool Decider::ReachesAvoiding(int from, int to, int a, int b) const {
  // group-level successors, computed on the fly over node edges
  auto key = [&](int node) {
    return group_of_[static_cast<std::size_t>(node)] >= 0
               ? group_of_[static_cast<std::size_t>(node)]
               : -1 - node;
  };
  std::map<int, std::vector<int>> members;
  for (const auto& n : g_.nodes)
    members[key(n.id)].push_back(n.id);
  auto succ = [&](int grp) {
    std::set<int> s;
    for (int id : members[grp])
      for (int v : g_.node(id).outputs) {
        auto it = users_.find(v);
        if (it == users_.end()) continue;
        for (int u : it->second)
          if (key(u) != grp) s.insert(key(u));
      }
    return s;
  };
  std::set<int> seen;
  std::queue<int> q;
  for (int s : succ(from))
    if (s != a && s != b) q.push(s);
  while (!q.empty()) {
    const int x = q.front();
    q.pop();
    if (x == to) return true;
    if (!seen.insert(x).second) continue;
    for (int s : succ(x))
      if (s != a && s != b)
        q.push(s);
      else if (s == to)
        return true;
  }
  return false;
}

FusionResult Decider::Run() {
  FusionResult r;
  group_of_.assign(g_.nodes.size(), -1);
  std::map<int, Fallback> fallback;
  for (const auto& n : g_.nodes) {
    if (n.kind != model::NodeKind::kOp) continue;
    bool tensor_out = false;
    for (int v : n.outputs)
      tensor_out = tensor_out || g_.value(v).type.IsTensor();
    if (!tensor_out) continue;
    const OpSupport s = CheckOp(g_, n);
    kinds_[n.id] = s.kind;
    if (!s.ok()) {
      fallback[n.id] = {n.id, s.code, "lower", s.message};
      continue;
    }
    group_of_[static_cast<std::size_t>(n.id)] = n.id;
    groups_[n.id] = {n.id};
  }
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
        for (int v : ReadValues(g_, g_.node(id))) {
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
      if (touched.count(c.a) || touched.count(c.b)) continue;
      const auto& na = groups_.at(c.a);
      const auto& nb = groups_.at(c.b);
      auto pair_key = std::make_pair(na, nb);
      if (tried.count(pair_key)) continue;
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
      r.records.push_back(rec);
      if (!chk.ok) continue;
      const int keep = std::min(c.a, c.b);
      const int drop = std::max(c.a, c.b);
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
  if (auto it = flags.find("autofuse_enable_pass"); it != flags.end()) {
    o.enabled_passes.clear();
    std::string s = it->second;
    std::size_t p = 0;
    while (p <= s.size()) {
      const std::size_t q = std::min(s.find(',', p), s.size());
      std::string w = s.substr(p, q - p);
      if (!w.empty()) o.enabled_passes.insert(w);
      p = q + 1;
    }
  }
  num("autofuse_max_fusion_size", &o.max_nodes);
  num("autofuse_max_input_nums", &o.max_inputs);
  num("autofuse_max_fuse_rounds", &o.max_rounds);
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
                  {"enabled_passes",
                   std::vector<std::string>(o.enabled_passes.begin(), o.enabled_passes.end())},
                  {"max_nodes", o.max_nodes},
                  {"max_inputs", o.max_inputs},
                  {"max_rounds", o.max_rounds}};
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
    ds.push_back({{"round", d.round},
                  {"kind", d.kind},
                  {"first", d.first},
                  {"second", d.second},
                  {"accepted", d.accepted},
                  {"code", d.code},
                  {"stage", d.stage},
                  {"message", d.message},
                  {"bytes_saved", d.bytes_saved}});
  }
  j["decisions"] = ds;
  return j.dump(2) + "\n";
}

}  // namespace af::frontend
