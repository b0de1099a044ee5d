// Small graphs built in code for the IR tests.
#pragma once

#include "autofuse/ir/graph.h"

namespace af::ir::testing {

// x[s0, s1] -> Load -> Abs -> Store -> Output, fp32, contiguous.
inline Graph AbsGraph() {
  Graph g;
  g.name = "abs";
  g.AddSizeVar("s0");
  g.AddSizeVar("s1");
  const auto z0 = g.AddAxis("z0", Expr::Sym("s0"));
  const auto z1 = g.AddAxis("z1", Expr::Sym("s1"));
  Tensor t;
  t.axis = {z0, z1};
  t.repeats = {Expr::Sym("s0"), Expr::Sym("s1")};
  t.strides = {Expr::Sym("s1"), Expr(1)};
  auto add = [&](const std::string& name, const std::string& type, std::vector<InputRef> in) {
    Node n;
    n.name = name;
    n.type = type;
    n.inputs = std::move(in);
    n.outputs = {t};
    if (type != "Data" && type != "Output") {
      n.sched.axis = {z0, z1};
      n.sched.loop_axis = z1;
    }
    g.nodes.push_back(n);
    return static_cast<int>(g.nodes.size()) - 1;
  };
  const int x = add("x", "Data", {});
  g.nodes[x].attrs["index"] = std::int64_t{0};
  const int ld = add("load", "Load", {{x, 0}});
  const int ab = add("abs", "Abs", {{ld, 0}});
  const int st = add("store", "Store", {{ab, 0}});
  const int out = add("y", "Output", {{st, 0}});
  g.nodes[out].attrs["index"] = std::int64_t{0};
  return g;
}

}  // namespace af::ir::testing
