// Expression nodes: the global hash-consing table, leaf constructors and Expr accessors.
//
// The table is sharded by hash, each shard guarded by its own mutex. Nodes are never freed: an
// Expr is a plain pointer that stays valid for the whole process. The table itself is also leaked
// on purpose so that Exprs used by static destructors elsewhere remain valid.
#include <array>
#include <mutex>
#include <unordered_set>

#include "node.h"

namespace af::sym {
namespace detail {
namespace {

std::uint64_t Mix(std::uint64_t h, std::uint64_t v) {
  // splitmix64-style finaliser over the combined value; deterministic across runs.
  std::uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6U) + (h >> 2U));
  x ^= x >> 30U;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27U;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31U;
  return x;
}

std::uint64_t HashName(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::size_t HashNode(const Node& n) {
  std::uint64_t h = Mix(0, static_cast<std::uint64_t>(n.kind));
  switch (n.kind) {
    case Kind::kConst:
      h = Mix(h, static_cast<std::uint64_t>(n.value.num));
      h = Mix(h, static_cast<std::uint64_t>(n.value.den));
      break;
    case Kind::kSymbol:
      h = Mix(h, HashName(n.name));
      break;
    default:
      for (const Expr& a : n.args) {
        h = Mix(h, a.hash());
      }
      break;
  }
  return static_cast<std::size_t>(h);
}

struct NodeHash {
  std::size_t operator()(const Node* n) const { return n->hash; }
};
struct NodeEq {
  bool operator()(const Node* a, const Node* b) const {
    return a->kind == b->kind && a->value == b->value && a->name == b->name && a->args == b->args;
  }
};

struct Shard {
  std::mutex mu;
  std::unordered_set<const Node*, NodeHash, NodeEq> nodes;
};

constexpr std::size_t kShards = 64;

std::array<Shard, kShards>& Table() {
  static auto* table = new std::array<Shard, kShards>();  // leaked on purpose, see above
  return *table;
}

Expr Intern(Node&& candidate) {
  candidate.hash = HashNode(candidate);
  Shard& shard = Table()[candidate.hash % kShards];
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.nodes.find(&candidate);
  if (it != shard.nodes.end()) return Expr(*it);
  candidate.integral = ComputeIntegral(candidate);
  candidate.range = ComputeRange(candidate);
  const Node* node = new Node(std::move(candidate));
  shard.nodes.insert(node);
  return Expr(node);
}

constexpr std::int64_t kCacheLo = -64;
constexpr std::int64_t kCacheHi = 256;

Expr InternConst(Rational v) {
  Node n;
  n.kind = Kind::kConst;
  n.value = v;
  return Intern(std::move(n));
}

// Small integer constants are looked up without touching the table (leaked like the table).
const std::vector<Expr>& SmallInts() {
  static const auto* cache = [] {
    auto* v = new std::vector<Expr>();
    v->reserve(kCacheHi - kCacheLo + 1);
    for (std::int64_t i = kCacheLo; i <= kCacheHi; ++i) {
      v->push_back(InternConst(RInt(i)));
    }
    return v;
  }();
  return *cache;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

}  // namespace

Expr MakeConst(Rational v) {
  if (v.den == 1 && v.num >= kCacheLo && v.num <= kCacheHi) {
    return SmallInts()[static_cast<std::size_t>(v.num - kCacheLo)];
  }
  return InternConst(v);
}

Expr MakeRaw(Kind kind, std::vector<Expr> args) {
  Node n;
  n.kind = kind;
  n.args = std::move(args);
  return Intern(std::move(n));
}

Rational Checked(std::optional<Rational> r, const std::string& what) {
  if (!r) throw Error("integer overflow in " + what);
  return *r;
}

std::string Brief(const Expr& e) {
  constexpr std::size_t kMax = 160;
  std::string s = e.ToString();
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

}  // namespace detail

Expr::Expr() : Expr(detail::MakeConst(Rational{})) {}
Expr::Expr(std::int64_t value) : Expr(detail::MakeConst(detail::RInt(value))) {}

Expr Expr::Const(std::int64_t value) {
  return {value};
}

Expr Expr::Rat(std::int64_t num, std::int64_t den) {
  if (den == 0) throw Error("Rational(" + std::to_string(num) + ", 0): division by zero");
  auto r = detail::MakeRat(num, den);
  if (!r) {
    throw Error("Rational(" + std::to_string(num) + ", " + std::to_string(den) +
                "): integer overflow");
  }
  return detail::MakeConst(*r);
}

Expr Expr::Sym(std::string_view name) {
  if (!detail::IsIdentifier(name)) {
    throw Error("invalid symbol name '" + std::string(name) +
                "' (expected [A-Za-z_][A-Za-z0-9_]*)");
  }
  Node n;
  n.kind = Kind::kSymbol;
  n.name = std::string(name);
  return detail::Intern(std::move(n));
}

Kind Expr::kind() const {
  return node_->kind;
}
const std::vector<Expr>& Expr::args() const {
  return node_->args;
}
const std::string& Expr::name() const {
  return node_->name;
}
Rational Expr::value() const {
  return node_->kind == Kind::kConst ? node_->value : Rational{};
}
std::optional<std::int64_t> Expr::AsInt() const {
  if (node_->kind == Kind::kConst && node_->value.den == 1) return node_->value.num;
  return std::nullopt;
}
std::size_t Expr::hash() const {
  return node_->hash;
}

}  // namespace af::sym
