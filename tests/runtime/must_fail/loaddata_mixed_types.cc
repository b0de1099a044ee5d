// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// LoadData (L1 -> L0A/L0B) takes dst and src of one element type (CANN's
// kernel_operator_mm_intf.h: LoadData(const LocalTensor<T>&, const LocalTensor<T>&,
// const LoadData2DParams&)).
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<half>& l0a, const LocalTensor<half>& l1,
                             const LocalTensor<float>& l1f) {
#ifdef AF_MUST_FAIL
  LoadData(l0a, l1f, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
#else
  LoadData(l0a, l1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
#endif
  (void)l1f;
}
