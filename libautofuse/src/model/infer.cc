// The inference driver: rule lookup, running one node, and checking a whole graph.
#include "autofuse/model/infer.h"

#include <algorithm>

#include "infer_ctx.h"

namespace af::model {
namespace {

using infer_detail::Rule;
using infer_detail::RuleTable;

const RuleTable& Rules() {
  static const RuleTable table = [] {
    RuleTable t;
    infer_detail::AddPointwiseRules(t);
    infer_detail::AddReductionRules(t);
    infer_detail::AddViewRules(t);
    infer_detail::AddLinalgRules(t);
    infer_detail::AddCreationRules(t);
    infer_detail::AddPythonRules(t);
    return t;
  }();
  return table;
}

const Rule* FindRule(const OpName& op) {
  const RuleTable& t = Rules();
  const std::string base = op.ns + "." + op.name;
  if (!op.overload.empty()) {
    if (auto it = t.find(base + "." + op.overload); it != t.end()) return &it->second;
  }
  if (auto it = t.find(base); it != t.end()) return &it->second;
  return nullptr;
}

// The device of the first tensor among the arguments (list items included).
std::string FirstDevice(const Graph& g, const std::vector<Arg>& args) {
  for (const auto& a : args) {
    if (a.IsValue() && a.value >= 0 && static_cast<std::size_t>(a.value) < g.values.size()) {
      const ValueType& t = g.value(a.value).type;
      if (t.IsTensor() && !t.device.empty()) return t.device;
    } else if (a.IsList()) {
      if (std::string d = FirstDevice(g, a.items); !d.empty()) return d;
    }
  }
  return "";
}

void AddDiag(Graph& g, const Node& n, Diagnostic::Kind kind, std::string message) {
  g.diagnostics.push_back(Diagnostic{kind, n.line, n.id, std::move(message)});
}

}  // namespace

InferResult InferNode(const Graph& g, const Node& n) {
  InferResult r;
  const Rule* rule = FindRule(n.op);
  if (rule == nullptr) {
    r.status = InferResult::Status::kNoRule;
    return r;
  }
  r.multi_output = rule->multi;
  try {
    infer_detail::Ctx ctx(g, n);
    r.outputs = rule->fn(ctx);
    r.status = InferResult::Status::kInferred;
  } catch (const infer_detail::UnknownInput&) {
    r.status = InferResult::Status::kUnknownInput;
    r.outputs.clear();
    return r;
  } catch (const infer_detail::RuleError& e) {
    r.status = InferResult::Status::kFailed;
    r.reason = e.reason;
    r.outputs.clear();
    return r;
  } catch (const sym::Error& e) {
    r.status = InferResult::Status::kFailed;
    r.reason = std::string("size arithmetic: ") + e.what();
    r.outputs.clear();
    return r;
  }
  const std::string device = FirstDevice(g, n.args);
  for (auto& t : r.outputs) {
    if (t.IsTensor() && t.device.empty()) t.device = device;
  }
  return r;
}

bool HasInferenceRule(const OpName& op) {
  return FindRule(op) != nullptr;
}

bool IsMultiOutputOp(const OpName& op) {
  const Rule* r = FindRule(op);
  return r != nullptr && r->multi;
}

void InferTypes(Graph& g) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    InferResult r = InferNode(g, g.nodes[i]);
    Node& n = g.nodes[i];
    switch (r.status) {
      case InferResult::Status::kNoRule:
        n.infer = InferState::kOpaque;
        continue;
      case InferResult::Status::kUnknownInput:
        n.infer = InferState::kUnknown;
        continue;
      case InferResult::Status::kFailed:
        n.infer = InferState::kFailed;
        AddDiag(g, n, Diagnostic::Kind::kInferFailed,
                n.name + " (" + n.op.ToString() + "): " + r.reason);
        continue;
      case InferResult::Status::kInferred:
        break;
    }
    if (r.multi_output != n.multi_output) {
      n.infer = InferState::kFailed;
      AddDiag(g, n, Diagnostic::Kind::kMismatch,
              n.name + " (" + n.op.ToString() + "): " +
                  (r.multi_output ? "returns a tuple but is used as one value"
                                  : "returns one value but is indexed like a tuple"));
      continue;
    }
    n.infer = InferState::kInferred;
    if (n.outputs.size() > r.outputs.size()) {
      AddDiag(g, n, Diagnostic::Kind::kMismatch,
              n.name + " (" + n.op.ToString() + "): the file uses output " +
                  std::to_string(n.outputs.size() - 1) + " but the op has " +
                  std::to_string(r.outputs.size()));
    }
    while (n.multi_output && n.outputs.size() < r.outputs.size()) {
      const int node_id = n.id;
      g.AddOutput(node_id, n.name + "[" + std::to_string(n.outputs.size()) + "]");
    }
    Node& node = g.nodes[i];  // AddOutput may not move nodes, but keep the reference fresh
    const std::size_t k = std::min(node.outputs.size(), r.outputs.size());
    for (std::size_t o = 0; o < k; ++o) {
      Value& v = g.value(node.outputs[o]);
      const ValueType& t = r.outputs[o];
      if (!t.IsKnown()) continue;
      if (v.source == TypeSource::kNone || !v.type.IsKnown()) {
        v.type = t;
        v.source = TypeSource::kInferred;
        g.NoteSymbols(t);
        continue;
      }
      std::string why;
      if (SameType(t, v.type, &why)) {
        v.source = TypeSource::kChecked;
        if (v.type.kind == ValueKind::kSymInt && !v.type.expr && t.expr) v.type.expr = t.expr;
      } else {
        v.source = TypeSource::kConflict;
        AddDiag(g, node, Diagnostic::Kind::kMismatch,
                node.name + " (" + node.op.ToString() + ") output " + std::to_string(o) + " '" +
                    v.name + "': " + why);
      }
    }
  }
}

std::vector<std::string> InferableOps() {
  std::vector<std::string> out;
  for (const auto& [k, rule] : Rules())
    out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace af::model
