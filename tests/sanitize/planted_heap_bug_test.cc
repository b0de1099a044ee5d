// The sanitizer build's own test: a real HostArray test with, under AUTOFUSE_PLANT_HEAP_BUG, a
// read one element past the array's heap buffer. CTest expects AddressSanitizer to stop it with a
// heap-buffer-overflow report, so this fails when the sanitizer build stops catching heap bugs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "autofuse/data/host_array.h"

namespace af::data {
namespace {

// Sums the float32 elements of `a`, reading `extra` elements past its end.
double SumWithOverrun(const HostArray& a, std::int64_t extra) {
  double sum = 0;
  const std::uint8_t* p = a.bytes.data();
  for (std::int64_t i = 0; i < a.numel() + extra; ++i) {
    float v = 0;
    std::memcpy(&v, p + i * 4, 4);
    sum += v;
  }
  return sum;
}

TEST(PlantedHeapBug, ReadsPastTheEnd) {
  const HostArray a = FromDoubles(ir::DType::kFloat32, {5}, {1, 2, 3, 4, 5});
#ifdef AUTOFUSE_PLANT_HEAP_BUG
  const std::int64_t extra = 1;
#else
  const std::int64_t extra = 0;
#endif
  EXPECT_GE(SumWithOverrun(a, extra), 15.0);
}

}  // namespace
}  // namespace af::data
