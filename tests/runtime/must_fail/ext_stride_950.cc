// NPU-ARCH: 3510
// EXPECT-ERROR: static assertion failed.*uint32_t
// DataCopyExtParams strides are int64_t on the 950 (not uint32_t).
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  static_assert(std::is_same_v<decltype(DataCopyExtParams{}.srcStride), uint32_t>,
                "strides are uint32_t");
#else
  DataCopyExtParams p{1, 64, int64_t{-1}, 0, 0};
  (void)p;
  static_assert(std::is_same_v<decltype(DataCopyExtParams{}.dstStride), int64_t>);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
