// ValueType construction, printing and comparison.
#include "autofuse/model/value.h"

#include "autofuse/model/dtype_code.h"
#include "autofuse/model/shape.h"

namespace af::model {

ValueType ValueType::Tensor(ir::DType dtype, std::vector<sym::Expr> shape) {
  ValueType t;
  t.kind = ValueKind::kTensor;
  t.dtype = dtype;
  t.dtype_code = std::string(FxCode(dtype));
  t.shape = std::move(shape);
  return t;
}

ValueType ValueType::SymInt(sym::Expr e) {
  ValueType t;
  t.kind = ValueKind::kSymInt;
  t.text = e.ToString();
  t.expr = e;
  return t;
}

ValueType ValueType::SymFloat(std::string text) {
  ValueType t;
  t.kind = ValueKind::kSymFloat;
  t.text = std::move(text);
  return t;
}

ValueType ValueType::SymBool(std::string text) {
  ValueType t;
  t.kind = ValueKind::kSymBool;
  t.text = std::move(text);
  return t;
}

std::string ValueType::ToString() const {
  switch (kind) {
    case ValueKind::kUnknown:
      return "?";
    case ValueKind::kTensor: {
      std::string s = dtype_code.empty() ? "?" : dtype_code;
      s += ShapeToString(shape);
      if (strides) s += ShapeToString(*strides);
      return s + device;
    }
    case ValueKind::kSymInt:
      return "Sym(" + (expr ? expr->ToString() : text.empty() ? std::string("?") : text) + ")";
    case ValueKind::kSymFloat:
    case ValueKind::kSymBool:
      return "Sym(" +
             (text.empty() ? std::string(kind == ValueKind::kSymFloat ? "float" : "bool") : text) +
             ")";
  }
  return "?";
}

bool SameType(const ValueType& inferred, const ValueType& annotated, std::string* why) {
  auto fail = [&](const std::string& reason) {
    if (why != nullptr) {
      *why = "inferred " + inferred.ToString() + ", annotated " + annotated.ToString() + " (" +
             reason + ")";
    }
    return false;
  };
  if (inferred.kind != annotated.kind) return fail("kind differs");
  switch (inferred.kind) {
    case ValueKind::kUnknown:
    case ValueKind::kSymFloat:
    case ValueKind::kSymBool:
      return true;
    case ValueKind::kSymInt:
      if (inferred.expr && annotated.expr && !(*inferred.expr == *annotated.expr)) {
        return fail("value differs");
      }
      return true;
    case ValueKind::kTensor:
      break;
  }
  if (inferred.dtype_code != annotated.dtype_code) return fail("dtype differs");
  if (inferred.shape.size() != annotated.shape.size()) return fail("rank differs");
  for (std::size_t i = 0; i < inferred.shape.size(); ++i) {
    if (!(inferred.shape[i] == annotated.shape[i])) {
      return fail("size of dim " + std::to_string(i) + " differs");
    }
  }
  if (inferred.strides && annotated.strides && *inferred.strides != *annotated.strides) {
    return fail("strides differ");
  }
  if (!inferred.device.empty() && !annotated.device.empty() &&
      inferred.device != annotated.device) {
    return fail("device differs");
  }
  return true;
}

std::string_view TypeSourceName(TypeSource s) {
  switch (s) {
    case TypeSource::kNone:
      return "unknown";
    case TypeSource::kAnnotation:
      return "annotated";
    case TypeSource::kInferred:
      return "inferred";
    case TypeSource::kChecked:
      return "checked";
    case TypeSource::kConflict:
      return "CONFLICT";
  }
  return "?";
}

}  // namespace af::model
