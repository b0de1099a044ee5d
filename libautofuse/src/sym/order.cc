// The deterministic total order on canonical expressions (never by pointer address).
//
// Kinds compare in enum order (constants first); constants by value; symbols by "natural" name
// order (s2 < s10), ties broken by plain string order; other nodes lexicographically by args.
// Distinct interned nodes never compare equal, so the order is total.
#include <algorithm>

#include "node.h"

namespace af::sym {
namespace detail {
namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

int NaturalCompare(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (IsDigit(a[i]) && IsDigit(b[j])) {
      std::size_t ie = i;
      std::size_t je = j;
      while (ie < a.size() && IsDigit(a[ie]))
        ++ie;
      while (je < b.size() && IsDigit(b[je]))
        ++je;
      std::size_t is = i;
      std::size_t js = j;
      while (is + 1 < ie && a[is] == '0')
        ++is;
      while (js + 1 < je && b[js] == '0')
        ++js;
      std::size_t la = ie - is;
      std::size_t lb = je - js;
      if (la != lb) return la < lb ? -1 : 1;
      int c = a.compare(is, la, b, js, lb);
      if (c != 0) return c < 0 ? -1 : 1;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) {
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
    }
    ++i;
    ++j;
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  int c = a.compare(b);  // equal naturally (e.g. s01 vs s1): fall back to plain order
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

int Compare(const Expr& a, const Expr& b) {
  if (a == b) return 0;
  const Node& x = *a.node();
  const Node& y = *b.node();
  if (x.kind != y.kind) return x.kind < y.kind ? -1 : 1;
  switch (x.kind) {
    case Kind::kConst:
      return RCmp(x.value, y.value);
    case Kind::kSymbol:
      return NaturalCompare(x.name, y.name);
    default:
      break;
  }
  std::size_t n = std::min(x.args.size(), y.args.size());
  for (std::size_t i = 0; i < n; ++i) {
    int c = Compare(x.args[i], y.args[i]);
    if (c != 0) return c;
  }
  if (x.args.size() != y.args.size()) return x.args.size() < y.args.size() ? -1 : 1;
  return 0;  // unreachable for distinct interned nodes
}

int CompareFactors(std::span<const Expr> a, std::span<const Expr> b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    int c = Compare(a[i], b[i]);
    if (c != 0) return c;
  }
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return 0;
}

}  // namespace detail

bool operator<(const Expr& a, const Expr& b) {
  return detail::Compare(a, b) < 0;
}

}  // namespace af::sym
