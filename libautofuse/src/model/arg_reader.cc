// The shared argument reader (see arg_reader.h).
#include "autofuse/model/arg_reader.h"

namespace af::model {

const Arg* ArgAt(const Node& n, std::size_t pos, std::string_view key) {
  if (pos < n.args.size()) return &n.args[pos];
  return n.Kwarg(key);
}

std::optional<double> NumberOf(const Arg& a) {
  if (a.kind == Arg::Kind::kFloat) return a.f;
  if (auto v = a.AsInt()) return static_cast<double>(*v);
  return std::nullopt;
}

std::optional<sym::Expr> IntExprOf(const Graph& g, const Arg& a) {
  if (auto v = a.AsInt()) return sym::Expr(*v);
  if (a.IsValue()) {
    const ValueType& t = g.value(a.value).type;
    if (t.kind == ValueKind::kSymInt && t.expr) return *t.expr;
  }
  return std::nullopt;
}

}  // namespace af::model
