// PyTorch spellings of element types: the short codes of FX annotations ("f32", "bf16", "b8",
// "i64") and the torch names ("torch.float32", "float16", "bool"), mapped onto ir::DType. Codes
// the IR has no type for (complex "c64", float8 "f8e4m3fn", ...) map to DType::kUndefined; callers
// keep the code text so nothing is lost.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "autofuse/ir/dtype.h"

namespace af::model {

// "f32" -> kFloat32, "b8" -> kBool, "c64" -> kUndefined. nullopt when the text is not shaped like
// a dtype code at all (a letter followed by letters and digits).
std::optional<ir::DType> DTypeFromFxCode(std::string_view code);
// kFloat32 -> "f32" ... kBool -> "b8"; kUndefined -> "?".
std::string_view FxCode(ir::DType t);
// "torch.float32", "float32", "torch.float", "torch.half", "torch.long", "torch.bool" -> DType;
// nullopt for names that are not dtypes; kUndefined for dtypes the IR lacks ("torch.complex64").
std::optional<ir::DType> DTypeFromTorchName(std::string_view name);
// kFloat32 -> "torch.float32".
std::string TorchName(ir::DType t);

}  // namespace af::model
