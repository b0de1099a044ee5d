// Parts and pieces: the dim along which tensors have extents of their own, and those extents.
#include "parts.h"

#include <map>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/data_movement.h"

namespace af::schedule {

using ir::Graph;
using ir::Node;
using sym::Expr;

// Parts: finds the graph's Concat (at most one) and the dim along which tensors have extents of
// their own (its inputs, folded split pieces, slices), before the buffers are planned. Refuses
// what the templates cannot run: parts along two dims, or along the outermost dim (no dim
// before it to tile).
void FindParts(ScheduleResult& r) {
  const Graph& g = r.graph;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type != "Concat") continue;
    if (r.parts.concat) {
      throw ScheduleError("CONCAT_COUNT",
                          "graph '" + g.name + "' has more than one Concat ('" +
                              g.nodes[static_cast<std::size_t>(*r.parts.concat)].name + "', '" +
                              g.nodes[i].name + "'); the UB concat templates take one");
    }
    r.parts.concat = static_cast<int>(i);
  }
  std::string first;  // the first tensor with an extent of its own, for messages
  if (r.parts.concat) {
    const Node& cat = g.nodes[static_cast<std::size_t>(*r.parts.concat)];
    if (r.groups.passes > 0) {
      throw ScheduleError("CONCAT_WITH_REDUCE",
                          "Concat '" + cat.name +
                              "' in a graph with reductions: the reduce templates do not take a "
                              "Concat yet");
    }
    if (const auto dim = ir::ConcatDim(g, cat)) {
      if (cat.inputs.size() > static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("CONCAT_TOO_MANY_INPUTS",
                            "Concat '" + cat.name + "' has " + std::to_string(cat.inputs.size()) +
                                " inputs; the UB concat template takes at most " +
                                std::to_string(af_tiling::kMaxParts) +
                                ", and it could not become one store per input (decision "
                                "CONCAT_KEPT says why)");
      }
      if (*dim == 0) {
        throw ScheduleError(
            "CONCAT_FIRST_DIM",
            "Concat '" + cat.name + "' concatenates along the outermost loop dim (" +
                g.FindAxis(r.dims[0])->name +
                ") but could not become one store per input (GM concat; decision CONCAT_KEPT "
                "says why), and the UB concat needs a dim before it to tile");
      }
      r.parts.dim = static_cast<int>(*dim);
      for (std::size_t k = 0; k < cat.inputs.size(); ++k)
        r.parts.lens.push_back(ir::InputTensor(g, cat, k)->repeats.at(*dim));
      r.parts.cat_inputs = static_cast<int>(cat.inputs.size());
      first = "Concat '" + cat.name + "'";
    }
  }
  for (const auto& n : g.nodes) {
    if (n.type == "Data" || n.type == "Output" || n.outputs.empty()) continue;
    const ir::Tensor& t = n.outputs[0];
    if (t.axis.size() != r.dims.size()) continue;
    for (std::size_t j = 0; j < r.dims.size(); ++j) {
      const Expr& e = t.repeats[j];
      if (e == Expr(1) || ir::SameRepeat(e, g.FindAxis(r.dims[j])->size)) continue;
      if (r.parts.dim && static_cast<std::size_t>(*r.parts.dim) != j) {
        throw ScheduleError("PARTS_ALONG_TWO_DIMS",
                            "'" + n.name + "' has an extent of its own along " +
                                g.FindAxis(r.dims[j])->name + ", " + first + " along " +
                                g.FindAxis(r.dims[static_cast<std::size_t>(*r.parts.dim)])->name +
                                "; one dim can hold parts");
      }
      if (!r.parts.dim) {
        r.parts.dim = static_cast<int>(j);
        first = "'" + n.name + "'";
      }
      if (j == 0) continue;  // pieces: FindPieces
      bool known = false;
      for (const auto& l : r.parts.lens)
        known = known || ir::SameRepeat(l, e);
      if (known) continue;
      if (r.parts.lens.size() >= static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("TOO_MANY_PARTS", "more than " + std::to_string(af_tiling::kMaxParts) +
                                                  " distinct extents along " +
                                                  g.FindAxis(r.dims[j])->name);
      }
      r.parts.lens.push_back(e);
    }
  }
}

// Parts along the outermost dim (split pieces, a concat's stores, slices): the graph's values
// fall into pieces, the connected groups of nodes with an extent of their own along it, each
// one a loop nest of its own; the outer loop walks the pieces one after another, and the axis
// size becomes the sum of their extents. Nodes of extent 1 along it run for every piece.
void FindPieces(ScheduleResult& r) {
  Graph& g = r.graph;
  const int n = static_cast<int>(g.nodes.size());
  auto own = [&](int i) {
    const Node& node = g.nodes[static_cast<std::size_t>(i)];
    return node.type != "Data" && node.type != "Output" && !node.outputs.empty() &&
           !node.outputs[0].axis.empty() && node.outputs[0].repeats.at(0) != Expr(1);
  };
  std::vector<int> root(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    root[static_cast<std::size_t>(i)] = i;
  auto find = [&](int i) {
    while (root[static_cast<std::size_t>(i)] != i)
      i = root[static_cast<std::size_t>(i)] =
          root[static_cast<std::size_t>(root[static_cast<std::size_t>(i)])];
    return i;
  };
  for (int i = 0; i < n; ++i) {
    if (!own(i)) continue;
    for (const auto& in : g.nodes[static_cast<std::size_t>(i)].inputs) {
      if (own(in.node)) root[static_cast<std::size_t>(find(in.node))] = find(i);
    }
  }
  r.parts.lens.clear();
  r.parts.node_piece.assign(static_cast<std::size_t>(n), std::nullopt);
  std::map<int, int> piece_of_root;
  Expr total(0);
  std::string names;
  for (int i = 0; i < n; ++i) {
    if (!own(i)) continue;
    const Expr& e = g.nodes[static_cast<std::size_t>(i)].outputs[0].repeats[0];
    const auto [it, added] =
        piece_of_root.try_emplace(find(i), static_cast<int>(r.parts.lens.size()));
    if (added) {
      if (r.parts.lens.size() >= static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("TOO_MANY_PARTS", "more than " + std::to_string(af_tiling::kMaxParts) +
                                                  " pieces along " + g.FindAxis(r.dims[0])->name);
      }
      r.parts.lens.push_back(e);
      total = total + e;
      names += std::string(names.empty() ? "" : ", ") + e.ToString() + " ('" +
               g.nodes[static_cast<std::size_t>(i)].name + "')";
    } else if (!ir::SameRepeat(r.parts.lens[static_cast<std::size_t>(it->second)], e)) {
      throw ScheduleError("PIECE_EXTENTS_DIFFER",
                          "'" + g.nodes[static_cast<std::size_t>(i)].name + "' has extent " +
                              e.ToString() + " along " + g.FindAxis(r.dims[0])->name +
                              " but reads values of extent " +
                              r.parts.lens[static_cast<std::size_t>(it->second)].ToString());
    }
    r.parts.node_piece[static_cast<std::size_t>(i)] = it->second;
  }
  // Each piece's nodes in one run (after the nodes every piece runs, which read none of
  // them), so the kernel runs each piece's nodes under one `if`.
  std::vector<int> order;
  for (int p = -1; p < static_cast<int>(r.parts.lens.size()); ++p) {
    for (int i = 0; i < n; ++i) {
      if (r.parts.node_piece[static_cast<std::size_t>(i)].value_or(-1) == p &&
          g.nodes[static_cast<std::size_t>(i)].type != "Output") {
        order.push_back(i);
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (g.nodes[static_cast<std::size_t>(i)].type == "Output") order.push_back(i);
  }
  std::vector<int> at(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    at[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  auto permute = [&](auto& v) {
    auto old = v;
    for (int k = 0; k < n && static_cast<std::size_t>(k) < old.size(); ++k)
      v[static_cast<std::size_t>(k)] =
          old[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
  };
  permute(g.nodes);
  permute(r.parts.node_piece);
  permute(r.groups.avail);
  permute(r.groups.r_invariant);
  for (auto& node : g.nodes) {
    for (auto& in : node.inputs)
      in.node = at[static_cast<std::size_t>(in.node)];
  }
  ir::Axis* a = g.FindAxis(r.dims[0]);
  r.decisions.push_back({"templates", "PIECES",
                         std::to_string(r.parts.lens.size()) +
                             " piece(s) along the outermost dim " + a->name +
                             ", one after another in its loop: " + names +
                             "; nodes of extent 1 along it run for "
                             "every piece"});
  a->size = total;
}

int PartOf(const ScheduleResult& s, const ir::Tensor& t) {
  if (!s.parts.dim || *s.parts.dim == 0 || t.axis.empty()) return af_tiling::kPartFull;
  const auto dim = static_cast<std::size_t>(*s.parts.dim);
  const Expr& e = t.repeats.at(dim);
  if (e == Expr(1) || e == s.graph.FindAxis(s.dims[dim])->size) {
    return af_tiling::kPartFull;
  }
  for (std::size_t k = 0; k < s.parts.lens.size(); ++k) {
    if (ir::SameRepeat(s.parts.lens[k], e)) return af_tiling::kPartInput(static_cast<int>(k));
  }
  return af_tiling::kPartFull;
}

int NodePart(const ScheduleResult& s, int i) {
  if (s.parts.dim == 0) {
    const std::optional<int> p = s.parts.node_piece.at(static_cast<std::size_t>(i));
    return p ? af_tiling::kPartInput(*p) : af_tiling::kPartFull;
  }
  const auto& n = s.graph.nodes.at(static_cast<std::size_t>(i));
  return n.outputs.empty() ? af_tiling::kPartFull : PartOf(s, n.outputs[0]);
}

}  // namespace af::schedule
