// Arguments of model-graph nodes: a reference to a graph value, or a constant (None, bool, int,
// float, string, dtype, device, layout, memory format), or a list/tuple of arguments. Float
// constants keep the text they were written with, so dumps reproduce the input exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::model {

struct Arg {
  enum class Kind : std::uint8_t {
    kValue,         // a graph value: `value` is its id
    kNone,          // None
    kBool,          // True / False: `b`
    kInt,           // `i`
    kFloat,         // `f`, written as `text` ("1e-06", "inf", "-inf", "nan")
    kString,        // `text` (unquoted contents)
    kDType,         // `dtype` (kUndefined for dtypes the IR lacks), `text` = "torch.complex64"
    kDevice,        // `text`: "cpu", "cuda:0"
    kLayout,        // `text`: "torch.strided"
    kMemoryFormat,  // `text`: "torch.contiguous_format"
    kList,          // `items`; `tuple` tells a tuple from a list
    kOther,         // anything else, kept as `text` (e.g. an integer too large for int64)
  };
  Kind kind = Kind::kNone;
  int value = -1;
  bool b = false;
  std::int64_t i = 0;
  double f = 0.0;
  std::string text;
  ir::DType dtype = ir::DType::kUndefined;
  std::vector<Arg> items;
  bool tuple = false;

  static Arg Value(int id);
  static Arg None();
  static Arg Bool(bool v);
  static Arg Int(std::int64_t v);
  static Arg Float(double v, std::string text = "");
  static Arg String(std::string s);
  static Arg DType(ir::DType t, std::string text = "");
  static Arg Device(std::string d);
  static Arg List(std::vector<Arg> items, bool is_tuple = false);

  bool IsValue() const { return kind == Kind::kValue; }
  bool IsNone() const { return kind == Kind::kNone; }
  bool IsList() const { return kind == Kind::kList; }
  // The integer when this is an int (or a bool, as Python treats it).
  std::optional<std::int64_t> AsInt() const;
};

}  // namespace af::model
