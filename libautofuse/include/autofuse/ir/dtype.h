// Element types of AscGraph tensors, with the two numberings found in files: the C++
// ge::DataType values AscGraphDef uses (DT_FLOAT=0, DT_FLOAT16=1, ... DT_BF16=27) and our names
// ("fp32", "fp16", "bf16", ...) used in text dumps and reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace af::ir {

enum class DType : std::uint8_t {
  kFloat32,
  kFloat16,
  kBFloat16,
  kFloat64,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kBool,
  kUndefined,
};

std::string_view DTypeName(DType t);                     // "fp32", "bf16", "bool", "undefined"
std::optional<DType> DTypeFromName(std::string_view s);  // accepts our names and "float32", ...
// The ONNX TensorProto.DataType number of a dtype (onnx.proto; 0 = UNDEFINED).
int OnnxDataType(DType t);
int DTypeBytes(DType t);  // 0 for kUndefined
bool IsFloat(DType t);
bool IsSignedInt(DType t);
bool IsUnsignedInt(DType t);

// ge::DataType (C++ enum, graph/c_types) <-> DType. Unknown values give std::nullopt.
std::optional<DType> DTypeFromGe(std::int64_t ge_value);
// The names GE's dumps print for ge::DataType ("DT_FLOAT", "DT_BF16", ...; ge_onnx descriptors,
// AutoFuse's DFX text). Unknown names give std::nullopt.
std::optional<DType> DTypeFromGeName(std::string_view name);
std::int64_t DTypeToGe(DType t);

}  // namespace af::ir
