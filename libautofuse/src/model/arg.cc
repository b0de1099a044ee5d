// Arg constructors.
#include "autofuse/model/arg.h"

#include <utility>

namespace af::model {

Arg Arg::Value(int id) {
  Arg a;
  a.kind = Kind::kValue;
  a.value = id;
  return a;
}

Arg Arg::None() {
  return Arg{};
}

Arg Arg::Bool(bool v) {
  Arg a;
  a.kind = Kind::kBool;
  a.b = v;
  return a;
}

Arg Arg::Int(std::int64_t v) {
  Arg a;
  a.kind = Kind::kInt;
  a.i = v;
  return a;
}

Arg Arg::Float(double v, std::string text) {
  Arg a;
  a.kind = Kind::kFloat;
  a.f = v;
  a.text = std::move(text);
  return a;
}

Arg Arg::String(std::string s) {
  Arg a;
  a.kind = Kind::kString;
  a.text = std::move(s);
  return a;
}

Arg Arg::DType(ir::DType t, std::string text) {
  Arg a;
  a.kind = Kind::kDType;
  a.dtype = t;
  a.text = std::move(text);
  return a;
}

Arg Arg::Device(std::string d) {
  Arg a;
  a.kind = Kind::kDevice;
  a.text = std::move(d);
  return a;
}

Arg Arg::List(std::vector<Arg> items, bool is_tuple) {
  Arg a;
  a.kind = Kind::kList;
  a.items = std::move(items);
  a.tuple = is_tuple;
  return a;
}

std::optional<std::int64_t> Arg::AsInt() const {
  if (kind == Kind::kInt) return i;
  if (kind == Kind::kBool) return b ? 1 : 0;
  return std::nullopt;
}

}  // namespace af::model
