// FX type annotations: "f32[s0, 3]", "f32[4, 8][8, 1]cpu" (with strides and device, as
// inductor_post_grad_graph prints them), "Sym(s0)", "Sym(s2/(s4 - 1.0))", quoted (torch >= 2.1) or
// bare (2.0). Private to the FX importer.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "autofuse/model/value.h"

namespace af::importers::fx {

struct AnnotationError {
  std::string message;
  std::size_t offset = 0;  // in the annotation text
};

// The type an annotation states. nullopt when the text is not an annotation form we know
// ("torch.Tensor", "List[int]"): the caller records a diagnostic. Throws AnnotationError when the
// text has the tensor or Sym form but a size in it does not parse.
std::optional<model::ValueType> ParseAnnotation(std::string_view text);

}  // namespace af::importers::fx
