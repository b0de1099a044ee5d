// Private to the inference rules: reading a node's arguments by position or keyword, as typed
// values (tensors, sizes, dims, dtypes), and the rule table the rule files fill. Rules signal
// "an input's type is not known" by throwing UnknownInput and "cannot decide" by calling Fail.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "autofuse/model/graph.h"
#include "autofuse/model/promotion.h"
#include "autofuse/model/shape.h"

namespace af::model::infer_detail {

struct UnknownInput {};
struct RuleError {
  std::string reason;
};
[[noreturn]] void Fail(std::string reason);

class Ctx {
 public:
  Ctx(const Graph& g, const Node& n) : g_(g), n_(n) {}
  const Graph& graph() const { return g_; }
  const Node& node() const { return n_; }
  const OpName& op() const { return n_.op; }

  // Positional argument `pos` when given, else keyword `name`; null when neither is there.
  const Arg* Get(int pos, std::string_view name = {}) const;
  // Present and not None.
  bool Has(int pos, std::string_view name = {}) const;
  // The argument; fails when absent.
  const Arg& Need(int pos, std::string_view name = {}) const;

  // The type of a value argument (UnknownInput when not known); fails for constants.
  const ValueType& TypeOf(const Arg& a) const;
  // A required tensor argument.
  const ValueType& Tensor(int pos, std::string_view name = {}) const;
  const ValueType& TensorArg(const Arg& a) const;
  // The tensor behind `a`, or null when `a` is a constant or a symbolic scalar.
  const ValueType* TensorOrNull(const Arg& a) const;

  std::int64_t Int(int pos, std::string_view name, std::optional<std::int64_t> def) const;
  bool Bool(int pos, std::string_view name, bool def) const;
  // A size: an int constant or a SymInt value with a known expression.
  sym::Expr Size(const Arg& a) const;
  // A list of sizes (a single size counts as a list of one).
  Shape SizeList(const Arg& a) const;
  // A list of integer constants (a single int counts as a list of one).
  std::vector<std::int64_t> IntList(const Arg& a) const;
  // Dimensions normalised against `rank`, in the order given; nullopt when the argument is
  // absent or None.
  std::optional<std::vector<int>> Dims(const Arg* a, std::size_t rank) const;
  // A dimension to index a shape with: normalised; fails when out of range or when rank is 0.
  int Dim(std::int64_t d, std::size_t rank) const;
  // Like Dim, but a 0-dim tensor accepts -1 and 0 (softmax, gather, cumsum on scalars).
  int DimOrScalar(std::int64_t d, std::size_t rank) const;
  // A dtype argument; nullopt when absent or None.
  std::optional<ir::DType> DTypeArg(int pos, std::string_view name) const;
  // A device argument as text ("cpu", "cuda:0"); empty when absent or None.
  std::string DeviceArg(int pos, std::string_view name) const;
  // The promotion class and dtype of a tensor or scalar argument.
  PromotionOperand Operand(const Arg& a) const;

 private:
  const Graph& g_;
  const Node& n_;
};

// A tensor like `like` (dtype, device) with another shape; strides are dropped.
ValueType WithShape(const ValueType& like, Shape shape);
// A tensor of `dtype` with `shape`, device taken from `like` when given.
ValueType MakeTensor(ir::DType dtype, Shape shape);
// Promotion result, failing with a message when there is none.
ir::DType Promote(const Ctx& c, const std::vector<const Arg*>& operands);
// Broadcast of the tensor arguments among `operands`.
Shape BroadcastArgs(const Ctx& c, const std::vector<const Arg*>& operands);
// int/bool -> float32 (the default dtype); floats unchanged.
ir::DType ToFloating(ir::DType t);

using RuleFn = std::function<std::vector<ValueType>(const Ctx&)>;
struct Rule {
  RuleFn fn;
  bool multi = false;  // returns a tuple
};
// Keyed by "ns.name" (all overloads) or "ns.name.overload" (that overload only; looked up first).
using RuleTable = std::unordered_map<std::string, Rule>;

void AddPointwiseRules(RuleTable& t);
void AddReductionRules(RuleTable& t);
void AddViewRules(RuleTable& t);
void AddLinalgRules(RuleTable& t);
void AddCreationRules(RuleTable& t);
void AddPythonRules(RuleTable& t);

}  // namespace af::model::infer_detail
