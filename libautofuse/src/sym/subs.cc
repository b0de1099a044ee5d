// Tree walks: substitution (re-canonicalising bottom-up) and free-symbol collection.
// Both memoise on node identity so shared subexpressions are visited once.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "node.h"

namespace af::sym {
namespace detail {

Expr Rebuild(Kind kind, const std::vector<Expr>& args) {
  switch (kind) {
    case Kind::kAdd:
      return AddN(args);
    case Kind::kMul:
      return MulN(args);
    case Kind::kPow:
      return Pow(args[0], args[1].value().num);
    case Kind::kFloorDiv:
      return FloorDiv(args[0], args[1]);
    case Kind::kCeilDiv:
      return CeilDiv(args[0], args[1]);
    case Kind::kMod:
      return Mod(args[0], args[1]);
    case Kind::kMin:
    case Kind::kMax:
      return MinMaxN(kind, args);
    case Kind::kAlign:
      return Align(args[0], args[1]);
    case Kind::kConst:
    case Kind::kSymbol:
      break;
  }
  throw Error("Rebuild of a leaf node");
}

namespace {

class Substituter {
 public:
  explicit Substituter(const std::map<std::string, Expr, std::less<>>& m) : map_(m) {}

  Expr Run(const Expr& e) {
    if (e.IsConst()) return e;
    if (e.IsSymbol()) {
      auto it = map_.find(e.name());
      return it == map_.end() ? e : it->second;
    }
    auto memo = memo_.find(e.node());
    if (memo != memo_.end()) return memo->second;
    std::vector<Expr> args;
    args.reserve(e.args().size());
    bool changed = false;
    for (const Expr& a : e.args()) {
      args.push_back(Run(a));
      changed = changed || args.back() != a;
    }
    Expr out = changed ? Rebuild(e.kind(), args) : e;
    memo_.emplace(e.node(), out);
    return out;
  }

 private:
  const std::map<std::string, Expr, std::less<>>& map_;
  std::unordered_map<const Node*, Expr> memo_;
};

void CollectSymbols(const Expr& e, std::unordered_set<const Node*>& seen,
                    std::vector<std::string>& out) {
  if (!seen.insert(e.node()).second) return;
  if (e.IsSymbol()) {
    out.push_back(e.name());
    return;
  }
  for (const Expr& a : e.args()) {
    CollectSymbols(a, seen, out);
  }
}

}  // namespace
}  // namespace detail

Expr Expr::Subs(const std::map<std::string, Expr, std::less<>>& m) const {
  if (m.empty()) return *this;
  return detail::Substituter(m).Run(*this);
}

std::vector<std::string> Expr::FreeSymbols() const {
  std::unordered_set<const Node*> seen;
  std::vector<std::string> out;
  detail::CollectSymbols(*this, seen, out);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace af::sym
