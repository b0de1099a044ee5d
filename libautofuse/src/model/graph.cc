// Graph lookup and building helpers.
#include "autofuse/model/graph.h"

#include <algorithm>

namespace af::model {

const Arg* Node::Kwarg(std::string_view key) const {
  for (const auto& [k, v] : kwargs) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string_view DiagnosticKindName(Diagnostic::Kind k) {
  switch (k) {
    case Diagnostic::Kind::kMismatch:
      return "mismatch";
    case Diagnostic::Kind::kInferFailed:
      return "infer-failed";
    case Diagnostic::Kind::kAnnotation:
      return "annotation";
  }
  return "?";
}

const Node* Graph::FindNode(std::string_view n) const {
  for (const auto& node : nodes) {
    if (node.name == n) return &node;
  }
  return nullptr;
}

const Value* Graph::FindValue(std::string_view n) const {
  for (const auto& v : values) {
    if (v.name == n) return &v;
  }
  return nullptr;
}

int Graph::CountNodes(NodeKind k) const {
  return static_cast<int>(
      std::count_if(nodes.begin(), nodes.end(), [k](const Node& n) { return n.kind == k; }));
}

int Graph::CountDiagnostics(Diagnostic::Kind k) const {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                        [k](const Diagnostic& d) { return d.kind == k; }));
}

int Graph::AddInput(std::string n, ValueType type, TypeSource source) {
  Value v;
  v.id = static_cast<int>(values.size());
  v.name = std::move(n);
  v.origin = ValueOrigin::kInput;
  if (type.IsKnown()) {
    NoteSymbols(type);
    v.source = source;
  }
  v.type = std::move(type);
  values.push_back(std::move(v));
  inputs.push_back(values.back().id);
  return values.back().id;
}

int Graph::AddAttr(std::string n) {
  Value v;
  v.id = static_cast<int>(values.size());
  v.name = std::move(n);
  v.origin = ValueOrigin::kAttr;
  values.push_back(std::move(v));
  attrs.push_back(values.back().id);
  return values.back().id;
}

int Graph::AddNode(std::string n, OpName op, std::vector<Arg> args,
                   std::vector<std::pair<std::string, Arg>> kwargs, int n_outputs, NodeKind kind) {
  Node node;
  node.id = static_cast<int>(nodes.size());
  node.name = std::move(n);
  node.kind = kind;
  node.op = std::move(op);
  node.args = std::move(args);
  node.kwargs = std::move(kwargs);
  node.multi_output = n_outputs != 1;
  nodes.push_back(std::move(node));
  const int id = nodes.back().id;
  for (int k = 0; k < n_outputs; ++k) {
    const std::string& base = nodes.back().name;
    AddOutput(id, n_outputs == 1 ? base : base + "[" + std::to_string(k) + "]");
  }
  return id;
}

int Graph::AddOutput(int node_id, std::string n) {
  Value v;
  v.id = static_cast<int>(values.size());
  v.name = std::move(n);
  v.origin = ValueOrigin::kNodeOutput;
  v.node = node_id;
  v.index = static_cast<int>(node(node_id).outputs.size());
  values.push_back(std::move(v));
  node(node_id).outputs.push_back(values.back().id);
  return values.back().id;
}

void Graph::NoteSymbols(const ValueType& t) {
  auto note = [this](const sym::Expr& e) {
    for (const auto& s : e.FreeSymbols()) {
      if (std::find(symbols.begin(), symbols.end(), s) == symbols.end()) symbols.push_back(s);
    }
  };
  for (const auto& d : t.shape)
    note(d);
  if (t.strides) {
    for (const auto& d : *t.strides)
      note(d);
  }
  if (t.expr) note(*t.expr);
}

}  // namespace af::model
