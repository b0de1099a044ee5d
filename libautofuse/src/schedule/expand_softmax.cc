// Softmax as the ops the templates schedule (see expand_softmax.h).
#include "expand_softmax.h"

#include <set>
#include <string>

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

// `t` with its innermost axis reduced to extent 1, laid out densely (stride 0 on extent-1
// axes, as the hint graphs write reduced dims).
ir::Tensor Reduced(const ir::Tensor& t) {
  ir::Tensor r = t;
  if (!r.repeats.empty()) r.repeats.back() = Expr(1);
  r.strides.assign(r.repeats.size(), Expr(0));
  Expr run(1);
  for (std::size_t j = r.repeats.size(); j-- > 0;) {
    if (r.repeats[j] == Expr(1)) continue;
    r.strides[j] = run;
    run = run * r.repeats[j];
  }
  return r;
}

std::string Fresh(std::set<std::string>& names, const std::string& base) {
  std::string n = base;
  for (int k = 1; names.contains(n); ++k)
    n = base + "_" + std::to_string(k);
  names.insert(n);
  return n;
}

}  // namespace

void ExpandSoftmax(Graph& g, std::vector<Decision>* d) {
  bool any = false;
  for (const Node& n : g.nodes)
    any = any || n.type == "Softmax";
  if (!any) return;
  std::set<std::string> names;
  for (const Node& n : g.nodes)
    names.insert(n.name);
  std::vector<Node> out;
  std::vector<int> at(g.nodes.size(), -1);  // old node -> new node
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node n = g.nodes[i];
    for (auto& in : n.inputs)
      in.node = at.at(static_cast<std::size_t>(in.node));
    if (n.type != "Softmax" || n.inputs.size() != 1 || n.outputs.size() != 1) {
      at[i] = static_cast<int>(out.size());
      out.push_back(std::move(n));
      continue;
    }
    const ir::Tensor& full = n.outputs[0];
    const ir::Tensor reduced = Reduced(full);
    const auto add = [&](const char* type, const char* suffix, std::vector<ir::InputRef> ins,
                         const ir::Tensor& t) {
      Node m;
      m.name = Fresh(names, n.name + suffix);
      m.type = type;
      m.inputs = std::move(ins);
      m.outputs = {t};
      m.sched = n.sched;
      out.push_back(std::move(m));
      return ir::InputRef{static_cast<int>(out.size() - 1), 0};
    };
    const ir::InputRef x = n.inputs[0];
    const ir::InputRef mx = add("Max", "_max", {x}, reduced);
    const ir::InputRef mxb = add("Broadcast", "_max_b", {mx}, full);
    const ir::InputRef sh = add("Sub", "_shift", {x, mxb}, full);
    const ir::InputRef e = add("Exp", "_exp", {sh}, full);
    const ir::InputRef sm = add("Sum", "_sum", {e}, reduced);
    const ir::InputRef smb = add("Broadcast", "_sum_b", {sm}, full);
    Node div = n;
    div.type = "Div";
    div.inputs = {e, smb};
    div.attrs.clear();
    at[i] = static_cast<int>(out.size());
    out.push_back(std::move(div));
    if (d != nullptr) {
      d->push_back({"normalize", "SOFTMAX_EXPANDED",
                    "Softmax '" + n.name +
                        "' along its innermost axis: Max, Sub, Exp, Sum and Div (a norm-like "
                        "graph the reduce templates schedule)"});
    }
  }
  g.nodes = std::move(out);
}

}  // namespace af::schedule
