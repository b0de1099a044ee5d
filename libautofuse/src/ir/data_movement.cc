// View rules of Transpose, Concat, Split and Gather (see the header and docs/ir.md).
#include "autofuse/ir/data_movement.h"

#include <algorithm>
#include <set>

#include "autofuse/ir/op_registry.h"

namespace af::ir {

bool SameRepeat(const Expr& a, const Expr& b) {
  return a == b || sym::ProveEq(a, b) == sym::Tri::kTrue;
}

const Tensor* InputTensor(const Graph& g, const Node& n, std::size_t slot) {
  if (slot >= n.inputs.size()) return nullptr;
  const InputRef& r = n.inputs[slot];
  if (r.node < 0 || r.node >= static_cast<int>(g.nodes.size())) return nullptr;
  const Node& p = g.nodes[static_cast<std::size_t>(r.node)];
  if (r.output < 0 || r.output >= static_cast<int>(p.outputs.size())) return nullptr;
  return &p.outputs[static_cast<std::size_t>(r.output)];
}

std::optional<std::vector<std::size_t>> TransposePerm(const Tensor& in, const Tensor& out) {
  if (in.axis.size() != out.axis.size()) return std::nullopt;
  std::vector<std::size_t> perm;
  std::set<std::size_t> used;
  for (const std::int64_t id : out.axis) {
    const auto it = std::find(in.axis.begin(), in.axis.end(), id);
    if (it == in.axis.end()) return std::nullopt;
    const auto k = static_cast<std::size_t>(it - in.axis.begin());
    if (!used.insert(k).second) return std::nullopt;
    perm.push_back(k);
  }
  return perm;
}

std::optional<sym::Expr> ViewOffset(const Node& n) {
  const AttrValue* a = n.FindAttr("offset");
  if (a == nullptr) return sym::Expr(0);
  if (const auto* e = std::get_if<sym::Expr>(a)) return *e;
  if (const auto* i = std::get_if<std::int64_t>(a)) return sym::Expr(*i);
  return std::nullopt;
}

std::optional<std::size_t> ConcatDim(const Graph& g, const Node& concat) {
  if (concat.outputs.empty()) return std::nullopt;
  const Tensor& out = concat.outputs[0];
  std::vector<const Tensor*> ins;
  for (std::size_t s = 0; s < concat.inputs.size(); ++s) {
    const Tensor* t = InputTensor(g, concat, s);
    if (t == nullptr || t->repeats.size() != out.repeats.size()) return std::nullopt;
    ins.push_back(t);
  }
  for (std::size_t k = 0; k < out.repeats.size(); ++k) {
    for (const Tensor* t : ins) {
      if (!SameRepeat(t->repeats[k], out.repeats[k])) return k;
    }
  }
  return std::nullopt;
}

namespace {

std::optional<std::int64_t> Gid(const Node& n) {
  return n.FindAttr("gid") == nullptr ? std::nullopt : n.IntAttr("gid");
}

}  // namespace

std::vector<int> SplitGroup(const Graph& g, int split) {
  const Node& self = g.nodes[static_cast<std::size_t>(split)];
  const std::optional<std::int64_t> gid = Gid(self);
  if (!gid || self.inputs.size() != 1) return {split};
  std::vector<int> group;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const OpDef* op = FindOp(n.type);
    if (op == nullptr || op->code != OpCode::kSplit || Gid(n) != gid) continue;
    if (n.inputs.size() != 1 || !(n.inputs[0] == self.inputs[0])) continue;
    group.push_back(static_cast<int>(i));
  }
  std::stable_sort(group.begin(), group.end(), [&](int a, int b) {
    const auto ia = g.nodes[static_cast<std::size_t>(a)].IntAttr("index").value_or(a);
    const auto ib = g.nodes[static_cast<std::size_t>(b)].IntAttr("index").value_or(b);
    return ia < ib;
  });
  return group;
}

std::vector<SplitPiece> SplitPieces(const Graph& g, int split) {
  std::vector<SplitPiece> pieces;
  for (const int i : SplitGroup(g, split)) {
    const Node& n = g.nodes[static_cast<std::size_t>(i)];
    for (std::size_t o = 0; o < n.outputs.size(); ++o)
      pieces.push_back({i, static_cast<int>(o)});
  }
  return pieces;
}

std::optional<std::size_t> SplitDim(const Graph& g, int split) {
  const Node& self = g.nodes[static_cast<std::size_t>(split)];
  const Tensor* in = InputTensor(g, self, 0);
  if (in == nullptr) return std::nullopt;
  std::vector<const Tensor*> outs;
  for (const SplitPiece& p : SplitPieces(g, split)) {
    const Tensor& t =
        g.nodes[static_cast<std::size_t>(p.node)].outputs[static_cast<std::size_t>(p.output)];
    if (t.repeats.size() != in->repeats.size()) return std::nullopt;
    outs.push_back(&t);
  }
  for (std::size_t k = 0; k < in->repeats.size(); ++k) {
    for (const Tensor* t : outs) {
      if (!SameRepeat(t->repeats[k], in->repeats[k])) return k;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> GatherAxis(const Node& gather, std::size_t params_rank) {
  const std::optional<std::int64_t> a = gather.IntAttr("axis");
  if (!a) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(params_rank);
  const std::int64_t v = *a < 0 ? *a + rank : *a;
  if (v < 0 || v >= rank) return std::nullopt;
  return static_cast<std::size_t>(v);
}

bool NegativeIndexSupport(const Node& gather) {
  const AttrValue* v = gather.FindAttr("negative_index_support");
  if (v == nullptr) return false;
  if (const auto* b = std::get_if<bool>(v)) return *b;
  const std::optional<std::int64_t> i = gather.IntAttr("negative_index_support");
  return i.has_value() && *i != 0;
}

bool GatherInnermost(const Node& gather) {
  const AttrValue* v = gather.FindAttr("gather_innermost");
  const auto* b = v != nullptr ? std::get_if<bool>(v) : nullptr;
  return b != nullptr && *b;
}

std::vector<std::size_t> GatherIndexDims(const Tensor& params, const Tensor& indices) {
  std::vector<std::size_t> dims;
  for (std::size_t j = 0; j < indices.repeats.size(); ++j) {
    const bool on_params =
        j < indices.axis.size() &&
        std::find(params.axis.begin(), params.axis.end(), indices.axis[j]) != params.axis.end();
    if (!on_params || indices.repeats[j] != Expr(1)) dims.push_back(j);
  }
  return dims;
}

std::vector<Expr> GatherOutputRepeats(const Tensor& params, const Tensor& indices,
                                      std::size_t axis) {
  std::vector<Expr> r(params.repeats.begin(),
                      params.repeats.begin() + static_cast<std::ptrdiff_t>(axis));
  for (const std::size_t j : GatherIndexDims(params, indices))
    r.push_back(indices.repeats[j]);
  r.insert(r.end(), params.repeats.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
           params.repeats.end());
  return r;
}

}  // namespace af::ir
