// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// Select (tensor-scalar mode) takes its scalar as T: an int for a float tensor is refused.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Select(f, m, f, 0, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
#else
  Select(f, m, f, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
