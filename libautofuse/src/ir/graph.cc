// Graph, axis and node helpers.
#include "autofuse/ir/graph.h"

#include <algorithm>
#include <array>

namespace af::ir {
namespace {
constexpr std::array<std::string_view, 6> kAxisTypeNames = {"ORIGINAL", "BLOCK_OUT", "BLOCK_IN",
                                                            "TILE_OUT", "TILE_IN",   "MERGED"};
constexpr std::array<std::string_view, 6> kAllocNames = {"GLOBAL", "L1",    "L2",
                                                         "BUFFER", "QUEUE", "INVALID"};
constexpr std::array<std::string_view, 5> kPositionNames = {"GM", "VECIN", "VECOUT", "VECCALC",
                                                            "INVALID"};
constexpr std::array<std::string_view, 3> kHardwareNames = {"GM", "UB", "INVALID"};
}  // namespace

std::string_view AxisTypeName(AxisType t) {
  return kAxisTypeNames[static_cast<std::size_t>(t)];
}

std::optional<AxisType> AxisTypeFromName(std::string_view s) {
  for (std::size_t i = 0; i < kAxisTypeNames.size(); ++i) {
    if (kAxisTypeNames[i] == s) return static_cast<AxisType>(i);
  }
  return std::nullopt;
}

std::string_view AllocTypeName(AllocType t) {
  return kAllocNames[static_cast<std::size_t>(t)];
}
std::string_view PositionName(Position p) {
  return kPositionNames[static_cast<std::size_t>(p)];
}
std::string_view HardwareName(Hardware h) {
  return kHardwareNames[static_cast<std::size_t>(h)];
}

const AttrValue* Node::FindAttr(const std::string& key) const {
  const auto it = attrs.find(key);
  return it == attrs.end() ? nullptr : &it->second;
}

std::optional<std::int64_t> Node::IntAttr(const std::string& key) const {
  const AttrValue* v = FindAttr(key);
  if (v == nullptr) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(v)) return *i;
  if (const auto* e = std::get_if<Expr>(v)) return e->AsInt();
  return std::nullopt;
}

const Axis* Graph::FindAxis(std::int64_t id) const {
  for (const auto& a : axes) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

Axis* Graph::FindAxis(std::int64_t id) {
  for (auto& a : axes) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

const Axis* Graph::FindAxisByName(const std::string& n) const {
  for (const auto& a : axes) {
    if (a.name == n) return &a;
  }
  return nullptr;
}

int Graph::FindNode(const std::string& n) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].name == n) return static_cast<int>(i);
  }
  return -1;
}

std::int64_t Graph::NextAxisId() const {
  std::int64_t next = 0;
  for (const auto& a : axes)
    next = std::max(next, a.id + 1);
  return next;
}

std::int64_t Graph::AddAxis(const std::string& axis_name, const Expr& size) {
  Axis a;
  a.id = NextAxisId();
  a.name = axis_name;
  a.size = size;
  axes.push_back(a);
  return a.id;
}

void Graph::AddSizeVar(const std::string& var, std::optional<std::int64_t> const_value) {
  for (const auto& v : size_vars) {
    if (v.name == var) return;
  }
  size_vars.push_back({var, const_value});
}

std::vector<std::vector<std::pair<int, int>>> Graph::Consumers() const {
  std::vector<std::vector<std::pair<int, int>>> out(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (std::size_t s = 0; s < nodes[i].inputs.size(); ++s) {
      const int p = nodes[i].inputs[s].node;
      if (p >= 0 && static_cast<std::size_t>(p) < nodes.size()) {
        out[p].emplace_back(static_cast<int>(i), static_cast<int>(s));
      }
    }
  }
  return out;
}

std::vector<int> Graph::TopoOrder() const {
  const int n = static_cast<int>(nodes.size());
  std::vector<int> indeg(n, 0);
  const auto consumers = Consumers();
  for (int i = 0; i < n; ++i) {
    for (const auto& in : nodes[i].inputs) {
      if (in.node >= 0 && in.node < n) ++indeg[i];
    }
  }
  // Kahn's algorithm, smallest index first so file order is kept where possible.
  std::vector<int> ready;
  for (int i = n - 1; i >= 0; --i) {
    if (indeg[i] == 0) ready.push_back(i);
  }
  std::vector<int> order;
  while (!ready.empty()) {
    const int i = ready.back();
    ready.pop_back();
    order.push_back(i);
    std::vector<int> next;
    for (const auto& [c, slot] : consumers[i]) {
      if (--indeg[c] == 0) next.push_back(c);
    }
    ready.insert(ready.end(), next.begin(), next.end());
    std::sort(ready.begin(), ready.end(), std::greater<>());
  }
  if (static_cast<int>(order.size()) != n) return {};
  return order;
}

}  // namespace af::ir
