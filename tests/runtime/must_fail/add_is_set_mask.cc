// NPU-ARCH: 2201
// EXPECT-ERROR: no matching function
// The count forms of Add/Sub/Mul/Div/Max/Min have one template parameter: isSetMask belongs to
// the mask forms.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Check(const LocalTensor<float>& f, const LocalTensor<half>& h,
                             const LocalTensor<uint8_t>& m, const GlobalTensor<float>& g) {
#ifdef AF_MUST_FAIL
  Add<float, false>(f, f, f, 64);
#else
  Add<float>(f, f, f, 64);
#endif
  (void)f;
  (void)h;
  (void)m;
  (void)g;
}
