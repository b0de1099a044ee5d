// The AscendC Cast conversions the vector unit has, and chains of them for the conversions it
// lacks. A hint graph may cast between any two dtypes (uint8 -> fp32, bf16 -> fp16, int32 -> int8,
// ...), but AscendC's Cast documents only some (source, destination) pairs on Atlas A2/A3 (the
// pairs of the CPU runtime's CastModes, libautofuse/runtime/include/af_cpu/vec_cast.h); the
// normalize pass split_casts turns every other Cast into a chain through documented pairs (found
// by the soak, docs/reliability.md). bool travels as uint8 (0/1).
#pragma once

#include <vector>

#include "autofuse/ir/dtype.h"

namespace af::schedule {

// Whether AscendC's Cast converts `from` to `to` directly (bool as uint8).
bool DocumentedCast(ir::DType from, ir::DType to);

// The dtypes a value goes through from `from` to `to`, each step a documented Cast, ending with
// `to`; the shortest such chain, preferring steps through fp32 and fp16 (exact for the small
// integers and halves involved), except that a float going to an integer is truncated to int32
// first (no rounding to fp16 before the truncation). Empty when the storage types are equal (a
// copy). Throws std::invalid_argument when no chain exists (e.g. fp64, which the vector unit
// lacks).
std::vector<ir::DType> CastChain(ir::DType from, ir::DType to);

}  // namespace af::schedule
