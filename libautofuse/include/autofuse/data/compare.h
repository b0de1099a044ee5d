// Comparing an actual array (a kernel's or the interpreter's output) with an expected one under
// per-dtype tolerances. This is the verdict every correctness check prints, so it reports more
// than pass/fail: the largest absolute and relative errors, how many elements are off and where
// the first one is.
//
// An element matches when |actual - expected| <= atol + rtol * |expected| (NumPy's isclose), NaN
// matches NaN, an infinity matches only the same infinity. Integer and bool arrays compare
// exactly as integers whatever the tolerances, unless the caller asks for the tolerances on them
// too (`integers_within_tolerance`: integers truncated from floats that agree only within a
// tolerance, docs/reliability.md). A shape or dtype mismatch fails with a message.
#pragma once

#include <cstdint>
#include <string>

#include "autofuse/data/host_array.h"
#include "autofuse/ir/dtype.h"

namespace af::data {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// Defaults: fp32 rtol 1e-5 / atol 1e-6 (after a reduction 1e-4 / 1e-4), fp16 1e-3 / 1e-3,
// bf16 1.6e-2 / 1.6e-2, fp64 1e-12 / 1e-12 (1e-9 / 1e-9 after a reduction), integers and bool
// exact.
Tolerance DefaultTolerance(ir::DType t, bool after_reduction = false);

struct CompareResult {
  bool ok = true;
  double max_abs = 0;  // largest |actual - expected| over finite pairs
  double max_rel = 0;  // largest |actual - expected| / |expected| over finite pairs, expected != 0
  std::int64_t mismatches = 0;
  std::int64_t first_mismatch_index = -1;  // flat C-order index
  std::string message;                     // empty when ok; else what failed and where
};

CompareResult CompareArrays(const HostArray& expected, const HostArray& actual, double atol,
                            double rtol, bool integers_within_tolerance = false);
// With DefaultTolerance(expected.dtype, after_reduction).
CompareResult CompareArrays(const HostArray& expected, const HostArray& actual,
                            bool after_reduction = false);

}  // namespace af::data
