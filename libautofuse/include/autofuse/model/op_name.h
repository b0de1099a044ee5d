// Operator names of the model graph: namespace + name + overload, as PyTorch spells them
// ("aten.mul.Tensor", "prims.convert_element_type.default", "aten.sym_size" in torch 2.0 files,
// "operator.mul" for Python arithmetic on symbolic sizes). The model graph is op-set agnostic: an
// OpName is just a name; what is known about an op lives in the inference rules (infer.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace af::model {

struct OpName {
  std::string ns;        // "aten", "prims", "operator", "torch", ...
  std::string name;      // "mul"
  std::string overload;  // "Tensor", "default"; empty when the text gives none

  // "aten.mul.Tensor", "aten.sym_size", "operator.mul".
  std::string ToString() const;
  bool Is(std::string_view ns_, std::string_view name_) const { return ns == ns_ && name == name_; }
  friend bool operator==(const OpName&, const OpName&) = default;
};

// Reads "torch.ops.aten.mul.Tensor", "aten.mul.Tensor", "prims.iota.default", "aten.sym_size"
// (no overload) and "operator.getitem". A leading "torch.ops." is dropped; after it two or three
// dotted identifiers are required. Without that prefix, the last part is the name, a third-last
// part makes the last one the overload only when there are exactly three parts
// ("aten.mul.Tensor"); longer paths ("torch._C._nn.pad") keep everything before the name as the
// namespace. Returns nullopt for text that is not a dotted identifier path.
std::optional<OpName> ParseOpName(std::string_view text);

}  // namespace af::model
