// Private to the front end: the op registry's entries (see autofuse/frontend/op_registry.h). Each
// aten/prims op the front end knows has one entry, keyed by its name: its kind, whether only the
// aten spelling has it, whether it runs on the cube unit or accumulates, and its lowering and
// evaluation rules (either may be absent: the cube ops are evaluated but not lowered, softmax is
// known only as an op that accumulates).
#pragma once

#include <string_view>

#include "autofuse/frontend/op_registry.h"

namespace af::frontend {

namespace lower_detail {
class Lowerer;
}
namespace eval_detail {
class Ctx;
}

using LowerRule = void (lower_detail::Lowerer::*)(const model::Node&);
using EvalRule = void (*)(const eval_detail::Ctx&);

struct OpRule {
  OpKind kind = OpKind::kOther;
  bool aten_only = false;    // prims has no op of this name the rules understand
  bool cube = false;         // runs on the cube unit
  bool accumulates = false;  // the result depends on the order of accumulation
  LowerRule lower = nullptr;
  EvalRule eval = nullptr;
};

// The entry for op name `name` (any namespace), or null.
const OpRule* FindOpRule(std::string_view name);

}  // namespace af::frontend
