// Private to the reference evaluator: host tensors in double, the helpers its rules share
// (strided gather and scatter, broadcasting, rounding into a dtype), the context a rule runs in
// (one node: its operands, its outputs, elementwise maps over broadcast operands) and the rules,
// split by op family the way model/infer_*.cc is (eval_pointwise.cc, eval_view.cc,
// eval_data.cc, eval_reduce.cc, eval_linalg.cc). Which rule evaluates which op is in the op
// registry (op_rules.h). Rules throw af::InputError through Fail.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "autofuse/frontend/evaluator.h"
#include "autofuse/model/arg_reader.h"

namespace af::frontend::eval_detail {

using ir::DType;
using model::Arg;
using model::ArgAt;
using model::NumberOf;
using Shape = std::vector<std::int64_t>;

// A host tensor: dtype, dense row-major shape and values in double.
struct T {
  DType dt = DType::kFloat32;
  Shape shape;
  std::vector<double> v;
};

[[noreturn]] void Fail(const model::Node& n, const std::string& why);
std::int64_t Numel(const Shape& s);
Shape Strides(const Shape& s);
T FromHost(const data::HostArray& a);
// Strided gather: out[i] = in[offset + sum i_k * strides[k]] over `shape`.
std::vector<double> Gather(const std::vector<double>& in, const Shape& shape, const Shape& strides,
                           std::int64_t offset);
// Writes the dense array `x` into `out` (strides `ost`) starting at `offset`.
void Scatter(std::vector<double>* out, const Shape& ost, std::int64_t offset, const T& x);
Shape BroadcastShape(const model::Node& n, const std::vector<Shape>& shapes);
// `a` expanded to `shape` (right-aligned broadcasting).
std::vector<double> Expand(const T& a, const Shape& shape);
double RoundTo(double x, DType dt);

using ElementFn = std::function<double(const std::vector<double>&)>;

// One node being evaluated.
class Ctx {
 public:
  Ctx(Evaluator& ev, const model::Graph& g, const sym::Bindings& b, const model::Node& n);
  const model::Node& node() const { return n_; }
  const std::string& name() const { return n_.op.name; }
  const model::Graph& graph() const { return g_; }
  // The dtype of output 0.
  DType out_dt() const { return out_dt_; }

  // Argument `i` (or keyword `kw`) as a tensor; fails for anything else.
  T Tensor(std::size_t i, std::string_view kw) const;
  // A tensor or Python-number operand as a T (numbers as rank-0).
  T FromArg(const Arg* a) const;
  T Operand(std::size_t i, std::string_view kw) const { return FromArg(ArgAt(n_, i, kw)); }
  // An integer argument: a literal or a size symbol's bound value; `dflt` when absent or None.
  std::int64_t IntAt(std::size_t i, std::string_view kw, std::int64_t dflt) const;
  // The `dim` argument at `i`, normalised against `rank`.
  std::size_t DimAt(std::size_t i, std::size_t rank) const;
  // A computed value as a T, and the concrete shape of a value.
  T Value(int value) const;
  Shape ShapeOf(int value) const { return ev_.ShapeOf(value); }
  // Sets output `k`.
  void Set(std::size_t k, const T& t) const;
  // Elementwise over broadcast operands; operands are first rounded into `compute`.
  T Map(std::vector<T> in, DType compute, DType result, const ElementFn& f) const;

 private:
  Evaluator& ev_;
  const model::Graph& g_;
  const sym::Bindings& b_;
  const model::Node& n_;
  DType out_dt_;
};

// ---- the rules
// pointwise (eval_pointwise.cc)
void EvalUnary(const Ctx& c);  // abs, neg, exp, ..., silu, square
void EvalGelu(const Ctx& c);
void EvalPredicate(const Ctx& c);  // isfinite, isinf, isnan
void EvalLeakyRelu(const Ctx& c);
void EvalPolynomial(const Ctx& c);  // special_shifted_chebyshev_polynomial_t, ...
void EvalScalarTensor(const Ctx& c);
void EvalCompare(const Ctx& c);
void EvalBinary(const Ctx& c);
void EvalLogicalNot(const Ctx& c);  // logical_not, bitwise_not
void EvalLogicalAndOr(const Ctx& c);
void EvalWhere(const Ctx& c);
void EvalMaskedFill(const Ctx& c);
void EvalClamp(const Ctx& c);
void EvalCopy(const Ctx& c);  // casts, clone, alias, contiguous
// views (eval_view.cc)
void EvalReshape(const Ctx& c);  // view, reshape, unsqueeze, squeeze
void EvalExpand(const Ctx& c);
void EvalPermute(const Ctx& c);  // permute, transpose, t
void EvalSlice(const Ctx& c);    // slice, select
// data movement (eval_data.cc)
void EvalCat(const Ctx& c);
void EvalSplit(const Ctx& c);  // split, split_with_sizes, chunk, unbind
void EvalIndex(const Ctx& c);  // index_select, embedding, index
void EvalGather(const Ctx& c);
void EvalPad(const Ctx& c);
// reductions (eval_reduce.cc)
void EvalReduce(const Ctx& c);
// matmul family (eval_linalg.cc)
void EvalMatmul(const Ctx& c);

}  // namespace af::frontend::eval_detail
