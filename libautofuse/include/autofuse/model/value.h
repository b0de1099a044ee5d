// Values of the model graph: what flows along its edges. A value is a tensor (dtype, symbolic
// shape, strides and device when the input says them), a symbolic scalar (SymInt with its
// expression, SymFloat, SymBool), or not known. Every value has a stable id (order of
// appearance), a name, and a producer: a graph input, a module attribute, or output k of a node.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/dtype.h"
#include "autofuse/sym/expr.h"

namespace af::model {

enum class ValueKind : std::uint8_t {
  kUnknown,   // nothing is known (an opaque op without annotation, a module attribute)
  kTensor,    // dtype + shape (+ strides, device)
  kSymInt,    // a symbolic integer; `expr` holds it when it is an integer expression
  kSymFloat,  // a symbolic float; `text` holds it as written
  kSymBool,   // a symbolic boolean; `text` holds it as written
};

struct ValueType {
  ValueKind kind = ValueKind::kUnknown;
  // Tensors. `dtype_code` is the FX code ("f32", "c64"); it is what is compared, so dtypes the
  // IR lacks (dtype == kUndefined) still compare exactly.
  ir::DType dtype = ir::DType::kUndefined;
  std::string dtype_code;
  std::vector<sym::Expr> shape;
  std::optional<std::vector<sym::Expr>> strides;
  std::string device;  // "cpu", "cuda:0", "npu"; empty when not known
  // Symbolic scalars: the integer expression when there is one, and the text as written.
  std::optional<sym::Expr> expr;
  std::string text;

  static ValueType Tensor(ir::DType dtype, std::vector<sym::Expr> shape);
  static ValueType SymInt(sym::Expr e);
  static ValueType SymFloat(std::string text = "");
  static ValueType SymBool(std::string text = "");

  bool IsTensor() const { return kind == ValueKind::kTensor; }
  bool IsKnown() const { return kind != ValueKind::kUnknown; }
  std::size_t rank() const { return shape.size(); }
  // FX annotation form: "f32[s0, 3]", "f32[4, 8][8, 1]cpu", "Sym(s0)", "Sym(s2/(s4 - 1.0))", "?".
  std::string ToString() const;
};

// Checks an inferred type against an annotated one. Kinds, dtype codes and shapes must agree;
// strides and device are compared only when both sides have them; SymInt expressions only when
// both have one; SymFloat/SymBool texts are not compared (floats have no canonical form here).
// On disagreement returns false and says why in *why (when given).
bool SameType(const ValueType& inferred, const ValueType& annotated, std::string* why = nullptr);

// Where a value's type came from.
enum class TypeSource : std::uint8_t {
  kNone,        // not known
  kAnnotation,  // the file says it, nothing was inferred (opaque op, or input)
  kInferred,    // inferred, the file says nothing
  kChecked,     // inferred and annotated, and they agree
  kConflict,    // inferred and annotated, and they disagree (the annotation is kept)
};

enum class ValueOrigin : std::uint8_t {
  kInput,       // a graph input (placeholder)
  kAttr,        // a module attribute (get_attr: a constant tensor or submodule)
  kNodeOutput,  // output `index` of node `node`
};

struct Value {
  int id = -1;
  std::string name;
  ValueOrigin origin = ValueOrigin::kNodeOutput;
  int node = -1;   // producer node id for kNodeOutput
  int index = 0;   // output index for kNodeOutput
  ValueType type;  // what is known: the annotation when there is one, else the inferred type
  TypeSource source = TypeSource::kNone;
  std::optional<std::int64_t> hint;  // a concrete example value for symbolic inputs, when known
};

std::string_view TypeSourceName(TypeSource s);  // "none", "annotated", "inferred", ...

}  // namespace af::model
