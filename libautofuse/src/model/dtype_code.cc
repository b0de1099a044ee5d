// PyTorch dtype spellings <-> ir::DType.
#include "autofuse/model/dtype_code.h"

#include <cctype>
#include <utility>

namespace af::model {
namespace {

using ir::DType;

struct CodeEntry {
  std::string_view code;
  DType dtype;
};

// Codes as torch's FX printer writes them (dtype_abbrs).
constexpr CodeEntry kCodes[] = {
    {"f32", DType::kFloat32}, {"f16", DType::kFloat16}, {"bf16", DType::kBFloat16},
    {"f64", DType::kFloat64}, {"i8", DType::kInt8},     {"i16", DType::kInt16},
    {"i32", DType::kInt32},   {"i64", DType::kInt64},   {"u8", DType::kUInt8},
    {"u16", DType::kUInt16},  {"u32", DType::kUInt32},  {"u64", DType::kUInt64},
    {"b8", DType::kBool},
};

struct NameEntry {
  std::string_view name;
  DType dtype;
};

constexpr NameEntry kNames[] = {
    {"float32", DType::kFloat32}, {"float", DType::kFloat32},     {"float16", DType::kFloat16},
    {"half", DType::kFloat16},    {"bfloat16", DType::kBFloat16}, {"float64", DType::kFloat64},
    {"double", DType::kFloat64},  {"int8", DType::kInt8},         {"int16", DType::kInt16},
    {"short", DType::kInt16},     {"int32", DType::kInt32},       {"int", DType::kInt32},
    {"int64", DType::kInt64},     {"long", DType::kInt64},        {"uint8", DType::kUInt8},
    {"uint16", DType::kUInt16},   {"uint32", DType::kUInt32},     {"uint64", DType::kUInt64},
    {"bool", DType::kBool},
};

// Torch dtypes the IR has no type for.
constexpr std::string_view kOtherNames[] = {
    "complex32",
    "complex64",
    "complex128",
    "cfloat",
    "cdouble",
    "chalf",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float4_e2m1fn_x2",
    "qint8",
    "quint8",
    "qint32",
    "quint4x2",
    "quint2x4",
    "bits8",
    "bits16",
    "bits1x8",
    "bits2x4",
    "bits4x2",
    "int1",
    "int2",
    "int3",
    "int4",
    "int5",
    "int6",
    "int7",
    "uint1",
    "uint2",
    "uint3",
    "uint4",
    "uint5",
    "uint6",
    "uint7",
};

}  // namespace

std::optional<DType> DTypeFromFxCode(std::string_view code) {
  for (const auto& e : kCodes) {
    if (e.code == code) return e.dtype;
  }
  if (code.empty() || std::isalpha(static_cast<unsigned char>(code[0])) == 0) return std::nullopt;
  for (char c : code) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return std::nullopt;
  }
  return DType::kUndefined;
}

std::string_view FxCode(DType t) {
  for (const auto& e : kCodes) {
    if (e.dtype == t) return e.code;
  }
  return "?";
}

std::optional<DType> DTypeFromTorchName(std::string_view name) {
  if (name.substr(0, 6) == "torch.") name.remove_prefix(6);
  for (const auto& e : kNames) {
    if (e.name == name) return e.dtype;
  }
  for (const auto& n : kOtherNames) {
    if (n == name) return DType::kUndefined;
  }
  return std::nullopt;
}

std::string TorchName(DType t) {
  for (const auto& e : kNames) {
    if (e.dtype == t) return "torch." + std::string(e.name);
  }
  return "torch.undefined";
}

}  // namespace af::model
