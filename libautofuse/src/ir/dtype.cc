// Element types and their numberings.
#include "autofuse/ir/dtype.h"

#include <array>
#include <utility>

namespace af::ir {
namespace {

struct DTypeInfo {
  DType t;
  std::string_view name;
  std::string_view alt;  // torch / numpy style name
  int bytes;
  std::int64_t ge;  // ge::DataType C++ value (graph/c_types), per input-formats.md §4.2
};

constexpr std::array<DTypeInfo, 14> kInfo = {{
    {DType::kFloat32, "fp32", "float32", 4, 0},
    {DType::kFloat16, "fp16", "float16", 2, 1},
    {DType::kBFloat16, "bf16", "bfloat16", 2, 27},
    {DType::kFloat64, "fp64", "float64", 8, 11},
    {DType::kInt8, "int8", "i8", 1, 2},
    {DType::kInt16, "int16", "i16", 2, 6},
    {DType::kInt32, "int32", "i32", 4, 3},
    {DType::kInt64, "int64", "i64", 8, 9},
    {DType::kUInt8, "uint8", "u8", 1, 4},
    {DType::kUInt16, "uint16", "u16", 2, 7},
    {DType::kUInt32, "uint32", "u32", 4, 8},
    {DType::kUInt64, "uint64", "u64", 8, 10},
    {DType::kBool, "bool", "b8", 1, 12},
    {DType::kUndefined, "undefined", "none", 0, 28},
}};

const DTypeInfo& Info(DType t) {
  return kInfo[static_cast<std::size_t>(t)];
}

}  // namespace

std::string_view DTypeName(DType t) {
  return Info(t).name;
}

std::optional<DType> DTypeFromName(std::string_view s) {
  for (const auto& i : kInfo) {
    if (i.name == s || i.alt == s) return i.t;
  }
  if (s == "float" || s == "f32") return DType::kFloat32;
  if (s == "half" || s == "f16") return DType::kFloat16;
  if (s == "double") return DType::kFloat64;
  return std::nullopt;
}

int DTypeBytes(DType t) {
  return Info(t).bytes;
}

bool IsFloat(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat16 || t == DType::kBFloat16 ||
         t == DType::kFloat64;
}
bool IsSignedInt(DType t) {
  return t == DType::kInt8 || t == DType::kInt16 || t == DType::kInt32 || t == DType::kInt64;
}
bool IsUnsignedInt(DType t) {
  return t == DType::kUInt8 || t == DType::kUInt16 || t == DType::kUInt32 || t == DType::kUInt64 ||
         t == DType::kBool;
}

std::optional<DType> DTypeFromGe(std::int64_t ge_value) {
  for (const auto& i : kInfo) {
    if (i.ge == ge_value) return i.t;
  }
  return std::nullopt;
}

std::optional<DType> DTypeFromGeName(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, DType>, 13> kNames = {{
      {"DT_FLOAT", DType::kFloat32},
      {"DT_FLOAT16", DType::kFloat16},
      {"DT_BF16", DType::kBFloat16},
      {"DT_DOUBLE", DType::kFloat64},
      {"DT_INT8", DType::kInt8},
      {"DT_INT16", DType::kInt16},
      {"DT_INT32", DType::kInt32},
      {"DT_INT64", DType::kInt64},
      {"DT_UINT8", DType::kUInt8},
      {"DT_UINT16", DType::kUInt16},
      {"DT_UINT32", DType::kUInt32},
      {"DT_UINT64", DType::kUInt64},
      {"DT_BOOL", DType::kBool},
  }};
  for (const auto& [k, v] : kNames) {
    if (k == name) return v;
  }
  return std::nullopt;
}

std::int64_t DTypeToGe(DType t) {
  return Info(t).ge;
}

// onnx.proto's TensorProto.DataType values.
int OnnxDataType(DType t) {
  switch (t) {
    case DType::kFloat32:
      return 1;
    case DType::kUInt8:
      return 2;
    case DType::kInt8:
      return 3;
    case DType::kUInt16:
      return 4;
    case DType::kInt16:
      return 5;
    case DType::kInt32:
      return 6;
    case DType::kInt64:
      return 7;
    case DType::kBool:
      return 9;
    case DType::kFloat16:
      return 10;
    case DType::kFloat64:
      return 11;
    case DType::kUInt32:
      return 12;
    case DType::kUInt64:
      return 13;
    case DType::kBFloat16:
      return 16;
    case DType::kUndefined:
      break;
  }
  return 0;
}

}  // namespace af::ir
