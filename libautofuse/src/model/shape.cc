// Broadcasting and other shape arithmetic on symbolic sizes.
#include "autofuse/model/shape.h"

namespace af::model {

std::optional<Shape> BroadcastShapes(const Shape& a, const Shape& b, std::string* why) {
  const std::size_t n = std::max(a.size(), b.size());
  Shape out(n);
  const sym::Expr one(1);
  for (std::size_t i = 0; i < n; ++i) {
    const bool has_a = i < a.size();
    const bool has_b = i < b.size();
    const sym::Expr da = has_a ? a[a.size() - 1 - i] : one;
    const sym::Expr db = has_b ? b[b.size() - 1 - i] : one;
    sym::Expr r;
    if (da == db || db == one) {
      r = da;
    } else if (da == one) {
      r = db;
    } else {
      if (why != nullptr) {
        *why = "cannot broadcast " + ShapeToString(a) + " with " + ShapeToString(b) + ": size " +
               da.ToString() + " against " + db.ToString();
      }
      return std::nullopt;
    }
    out[n - 1 - i] = r;
  }
  return out;
}

std::optional<int> NormalizeDim(std::int64_t dim, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank == 0 ? 1 : rank);
  if (dim < -r || dim >= r) return std::nullopt;
  return static_cast<int>(dim < 0 ? dim + r : dim);
}

sym::Expr Numel(const Shape& s) {
  sym::Expr n(1);
  for (const auto& d : s)
    n = n * d;
  return n;
}

Shape ContiguousStrides(const Shape& s) {
  Shape st(s.size());
  sym::Expr acc(1);
  for (std::size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc = acc * s[i];
  }
  return st;
}

std::string ShapeToString(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0) out += ", ";
    out += s[i].ToString();
  }
  return out + "]";
}

}  // namespace af::model
