// NPU-ARCH: 3510
// EXPECT-ERROR: no matching function|Compact|template argument
// On the 950 DataCopyPad takes a PaddingMode; a number is not one.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  DataCopyPad<float, 7>(g, f, DataCopyExtParams(1, 64, 0, 0, 0));
#else
  DataCopyPad<float, PaddingMode::Normal>(g, f, DataCopyExtParams(1, 64, 0, 0, 0));
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
