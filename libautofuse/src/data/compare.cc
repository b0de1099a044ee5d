// Tolerance-based array comparison.
#include "autofuse/data/compare.h"

#include <cmath>
#include <sstream>

namespace af::data {

Tolerance DefaultTolerance(ir::DType t, bool after_reduction) {
  switch (t) {
    case ir::DType::kFloat32:
      return after_reduction ? Tolerance{1e-4, 1e-4} : Tolerance{1e-6, 1e-5};
    case ir::DType::kFloat16:
      return {1e-3, 1e-3};
    case ir::DType::kBFloat16:
      return {1.6e-2, 1.6e-2};
    case ir::DType::kFloat64:
      return after_reduction ? Tolerance{1e-9, 1e-9} : Tolerance{1e-12, 1e-12};
    default:
      return {0, 0};
  }
}

CompareResult CompareArrays(const HostArray& expected, const HostArray& actual, double atol,
                            double rtol, bool integers_within_tolerance) {
  CompareResult r;
  if (expected.shape != actual.shape) {
    r.ok = false;
    r.message = "shape mismatch: expected " + ShapeToString(expected.shape) + ", got " +
                ShapeToString(actual.shape);
    return r;
  }
  if (expected.dtype != actual.dtype) {
    r.ok = false;
    r.message = "dtype mismatch: expected " + std::string(ir::DTypeName(expected.dtype)) +
                ", got " + std::string(ir::DTypeName(actual.dtype));
    return r;
  }
  const std::int64_t n = expected.numel();
  const bool exact_ints = !ir::IsFloat(expected.dtype);
  std::ostringstream first;
  for (std::int64_t i = 0; i < n; ++i) {
    bool match = true;
    if (exact_ints) {
      const std::int64_t e = expected.GetAsInt(i);
      const std::int64_t a = actual.GetAsInt(i);
      const double diff = std::fabs(static_cast<double>(e) - static_cast<double>(a));
      r.max_abs = std::max(r.max_abs, diff);
      if (e != 0) r.max_rel = std::max(r.max_rel, diff / std::fabs(static_cast<double>(e)));
      match = integers_within_tolerance ? diff <= atol + rtol * std::fabs(static_cast<double>(e))
                                        : e == a;
      if (!match && r.first_mismatch_index < 0) first << "expected " << e << ", got " << a;
    } else {
      const double e = expected.GetAsDouble(i);
      const double a = actual.GetAsDouble(i);
      if (std::isnan(e) || std::isnan(a)) {
        match = std::isnan(e) && std::isnan(a);
      } else if (std::isinf(e) || std::isinf(a)) {
        match = e == a;
      } else {
        const double diff = std::fabs(a - e);
        r.max_abs = std::max(r.max_abs, diff);
        if (e != 0) r.max_rel = std::max(r.max_rel, diff / std::fabs(e));
        match = diff <= atol + rtol * std::fabs(e);
      }
      if (!match && r.first_mismatch_index < 0) {
        first.precision(9);
        first << "expected " << e << ", got " << a;
      }
    }
    if (!match) {
      if (r.first_mismatch_index < 0) r.first_mismatch_index = i;
      ++r.mismatches;
    }
  }
  if (r.mismatches > 0) {
    r.ok = false;
    std::ostringstream m;
    m << r.mismatches << " of " << n << " elements differ (atol " << atol << ", rtol " << rtol
      << "); first at flat index " << r.first_mismatch_index << ": " << first.str()
      << "; max abs error " << r.max_abs << ", max rel error " << r.max_rel;
    r.message = m.str();
  }
  return r;
}

CompareResult CompareArrays(const HostArray& expected, const HostArray& actual,
                            bool after_reduction) {
  const Tolerance t = DefaultTolerance(expected.dtype, after_reduction);
  return CompareArrays(expected, actual, t.atol, t.rtol);
}

}  // namespace af::data
