// NPU-ARCH: 2201
// EXPECT-ERROR: was not declared|'trap'
// The public API is AscendC::Trap(); trap() is a compiler built-in our runtime does not offer.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  trap();
#else
  Trap();
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
