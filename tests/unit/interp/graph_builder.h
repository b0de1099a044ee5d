// Builds small hint graphs in code for the interpreter tests: views are written as strings
// ("s0, s1" / "s1, 1") and parsed as expressions, one ORIGINAL axis per view dim.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/sym/expr.h"

namespace af::interp::testing {

inline std::vector<sym::Expr> Exprs(const std::string& csv) {
  std::vector<sym::Expr> out;
  std::stringstream ss(csv);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.find_first_not_of(' ') == std::string::npos) continue;
    out.push_back(sym::Parse(item));
  }
  return out;
}

class GraphBuilder {
 public:
  explicit GraphBuilder(const std::string& name, int rank = 0) {
    g_.name = name;
    for (int k = 0; k < rank; ++k) {
      const std::string s = "s" + std::to_string(k);
      g_.AddSizeVar(s);
      g_.AddAxis("z" + std::to_string(k), sym::Expr::Sym(s));
    }
  }

  static ir::Tensor View(ir::DType dtype, const std::string& repeats, const std::string& strides) {
    ir::Tensor t;
    t.dtype = dtype;
    t.repeats = Exprs(repeats);
    t.strides = Exprs(strides);
    for (std::size_t k = 0; k < t.repeats.size(); ++k)
      t.axis.push_back(static_cast<std::int64_t>(k));
    return t;
  }

  int Add(const std::string& type, const std::string& name, std::vector<int> inputs,
          const ir::Tensor& out) {
    ir::Node n;
    n.name = name;
    n.type = type;
    for (int i : inputs)
      n.inputs.push_back({i, 0});
    n.outputs = {out};
    n.sched.axis = out.axis;
    g_.nodes.push_back(n);
    return static_cast<int>(g_.nodes.size()) - 1;
  }
  int Add(const std::string& type, const std::string& name, std::vector<int> inputs,
          ir::DType dtype, const std::string& repeats, const std::string& strides) {
    return Add(type, name, std::move(inputs), View(dtype, repeats, strides));
  }
  int Data(const std::string& name, std::int64_t index, ir::DType dtype, const std::string& repeats,
           const std::string& strides) {
    const int n = Add("Data", name, {}, dtype, repeats, strides);
    g_.nodes.back().attrs["index"] = index;
    return n;
  }
  int Scalar(const std::string& name, ir::DType dtype, const std::string& value) {
    const int n = Add("Scalar", name, {}, dtype, "", "");
    g_.nodes.back().attrs["value"] = value;
    return n;
  }
  int Output(const std::string& name, std::int64_t index, int store, ir::DType dtype,
             const std::string& repeats, const std::string& strides) {
    const int n = Add("Output", name, {store}, dtype, repeats, strides);
    g_.nodes.back().attrs["index"] = index;
    return n;
  }
  void AddSizeVar(const std::string& s) { g_.AddSizeVar(s); }
  ir::Node& node(int i) { return g_.nodes[static_cast<std::size_t>(i)]; }
  const ir::Graph& graph() const { return g_; }

 private:
  ir::Graph g_;
};

}  // namespace af::interp::testing
