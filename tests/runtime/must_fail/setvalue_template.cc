// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function|template argument
// LocalTensor::SetValue takes the value type as its template parameter S.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  h.SetValue<float, int>(0, 1.0f);
#else
  h.SetValue<float>(0, 1.0f);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
