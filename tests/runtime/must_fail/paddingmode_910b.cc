// NPU-ARCH: 2201
// EXPECT-ERROR: PaddingMode|was not declared|no matching function
// DataCopyPad has no PaddingMode template parameter before the 950.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  DataCopyPad<float, PaddingMode::Normal>(g, f, DataCopyExtParams(1, 64, 0, 0, 0));
#else
  DataCopyPad<float>(g, f, DataCopyExtParams(1, 64, 0, 0, 0));
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
