// Purpose-built bad kernels: every check of the runtime must fire, stop the launch, and name the
// kernel, the block, the API and the offending offset/size.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using namespace AscendC;  // NOLINT(google-build-using-namespace): kernel-style test code
using af::rt_test::GmOf;
using af::rt_test::RunKernel;
using af::rt_test::RunResult;

void ExpectViolation(const RunResult& r, const std::string& fragment, int block = 0,
                     uint32_t block_dim = 1) {
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION) << r.error;
  EXPECT_EQ(r.failed_block, block) << r.error;
  const std::string prefix = "kernel 'test_kernel' block " + std::to_string(block) + "/" +
                             std::to_string(block_dim) + ": ";
  EXPECT_EQ(r.error.rfind(prefix, 0), 0u) << r.error;
  EXPECT_NE(r.error.find(fragment), std::string::npos)
      << "missing '" << fragment << "' in: " << r.error;
}

TEST(ChecksTest, UbOverCapacity) {
  const auto r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> q;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 100 * 1024);
        pipe.InitBuffer(q, 2, 50 * 1024);
      },
      {});
  ExpectViolation(r,
                  "TPipe::InitBuffer: UB over capacity: num=2 x len=51200 (102400 bytes, "
                  "32-byte aligned) at UB offset 102400 ends at byte 204800 but the UB has "
                  "196608 bytes");
}

TEST(ChecksTest, UbUsageAndBufferCountAreTracked) {
  const auto r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b[65];
        for (auto& x : b)
          pipe.InitBuffer(x, 1);  // each rounds up to 32 bytes
      },
      {});
  ExpectViolation(
      r,
      "TPipe::InitBuffer: more than 64 buffers in one kernel (64 already allocated, 1 requested)");
  EXPECT_EQ(r.ub_peak, 64u * 32);
}

TEST(ChecksTest, MisalignedDataCopyLength) {
  std::vector<float> in(64);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(in.data());
        DataCopy(b.Get<float>(), g, 7);
      },
      {GmOf(in)});
  ExpectViolation(r, "DataCopy: count 7 x 4 bytes = 28 bytes is not a multiple of 32");
}

TEST(ChecksTest, MisalignedUbAddress) {
  std::vector<float> in(64);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 64);  // second buffer: UB address 64 onwards
        TBuf<TPosition::VECCALC> c;
        pipe.InitBuffer(c, 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(in.data());
        DataCopy(c.Get<float>()[3], g, 8);
      },
      {GmOf(in)});
  ExpectViolation(r, "DataCopy: dst starts at UB address 76, which is not 32-byte aligned");
}

TEST(ChecksTest, MisalignedVectorOperand) {
  const auto r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        auto t = b.Get<half>();
        Add(t[16], t[48], t[5], 16);
      },
      {});
  ExpectViolation(r, "Add: src1 starts at UB address 10, which is not 32-byte aligned");
}

TEST(ChecksTest, GmReadOutOfBounds) {
  std::vector<float> in(100);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(in.data());
        DataCopyPad(b.Get<float>(), g[90], DataCopyExtParams(1, 64, 0, 0, 0),
                    DataCopyPadExtParams<float>());
      },
      {GmOf(in)});
  ExpectViolation(r,
                  "DataCopyPad: GM read of 64 bytes (src) at offset 360 of gm[0] (400 bytes) "
                  "runs out of bounds: bytes [360, 424)");
}

TEST(ChecksTest, GmWriteOutOfBounds) {
  std::vector<float> in(8);
  std::vector<float> out(40);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(out.data());
        DataCopy(g[GetBlockIdx() * 16], b.Get<float>(), 16);
      },
      {GmOf(in), GmOf(out)}, 3);
  ExpectViolation(r,
                  "DataCopy: GM write of 64 bytes (dst) at offset 128 of gm[1] (160 bytes) runs "
                  "out of bounds: bytes [128, 192)",
                  2, 3);
}

TEST(ChecksTest, GmScalarAccessOutOfBounds) {
  std::vector<int32_t> v(4);
  auto r = RunKernel(
      [&] {
        GlobalTensor<int32_t> g;
        g.SetGlobalBuffer(v.data(), 4);
        g.SetValue(3, 1);
        g.SetValue(4, 1);
      },
      {GmOf(v)});
  ExpectViolation(r, "GlobalTensor::SetValue: GM write of 4 bytes (tensor) at offset 16 of gm[0]");
  int32_t stray = 0;
  r = RunKernel(
      [&] {
        GlobalTensor<int32_t> g;
        g.SetGlobalBuffer(&stray, 1);
        (void)g.GetValue(0);
      },
      {GmOf(v)});
  ExpectViolation(r, "GlobalTensor::GetValue: GM read of 4 bytes (tensor) at address");
  EXPECT_NE(r.error.find("is outside every registered GM buffer"), std::string::npos) << r.error;
}

TEST(ChecksTest, LocalAccessOutsideItsBuffer) {
  auto r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(b, 256);
        auto t = a.Get<float>();
        Exp(t, t, 65);  // 260 bytes in a 256-byte buffer
      },
      {});
  ExpectViolation(r, "Exp: dst accesses UB bytes [0, 260) outside its buffer [0, 256)");
  r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        (void)a.Get<float>().GetValue(16);
      },
      {});
  ExpectViolation(
      r, "LocalTensor::GetValue: tensor accesses UB bytes [64, 68) outside its buffer [0, 64)");
  r = RunKernel([] { (void)LocalTensor<float>().GetValue(0); }, {});
  ExpectViolation(r, "LocalTensor::GetValue: tensor is an unbound LocalTensor");
}

TEST(ChecksTest, QueueMisuse) {
  // More AllocTensor than buffers.
  auto r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> q;
        pipe.InitBuffer(q, 2, 256);
        (void)q.AllocTensor<float>();
        (void)q.AllocTensor<float>();
        (void)q.AllocTensor<float>();
      },
      {});
  ExpectViolation(r,
                  "TQue::AllocTensor: no free buffer: all 2 buffers of this queue are allocated");
  // DeQue on an empty queue.
  r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 256);
        (void)q.DeQue<float>();
      },
      {});
  ExpectViolation(r, "TQue::DeQue: the queue is empty");
  // FreeTensor of a tensor from another queue.
  r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q1;
        TQue<TPosition::VECOUT, 1> q2;
        pipe.InitBuffer(q1, 1, 256);
        pipe.InitBuffer(q2, 1, 256);
        auto t = q1.AllocTensor<float>();
        q2.FreeTensor(t);
      },
      {});
  ExpectViolation(
      r, "TQue::FreeTensor: the tensor at UB address 0 is not the start of a buffer of this queue");
  // Double free and freeing an enqueued tensor.
  r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 256);
        auto t = q.AllocTensor<float>();
        q.FreeTensor(t);
        q.FreeTensor(t);
      },
      {});
  ExpectViolation(r, "TQue::FreeTensor: the tensor at UB address 0 is free and cannot be freed");
  r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 256);
        auto t = q.AllocTensor<float>();
        q.EnQue(t);
        q.FreeTensor(t);
      },
      {});
  ExpectViolation(r,
                  "TQue::FreeTensor: the tensor at UB address 0 is enqueued and cannot be freed");
  // EnQue of a tensor that was not allocated; use before InitBuffer.
  r = RunKernel(
      [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 256);
        auto t = q.AllocTensor<float>();
        q.EnQue(t);
        q.EnQue(t);
      },
      {});
  ExpectViolation(r, "TQue::EnQue: the tensor at UB address 0 is enqueued, only an allocated");
  r = RunKernel(
      [] {
        TQue<TPosition::VECIN, 1> q;
        (void)q.AllocTensor<float>();
      },
      {});
  ExpectViolation(r, "TQue::AllocTensor: the queue has no buffers (TPipe::InitBuffer not called)");
}

TEST(ChecksTest, PartialOverlapAndAdvancedApiOverlap) {
  auto r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        auto t = b.Get<float>();
        Add(t[8], t, t, 64);
      },
      {});
  ExpectViolation(r, "Add: dst UB bytes [32, 288) and src0 UB bytes [0, 256) overlap partially");
  r = RunKernel(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 1024);
        auto t = b.Get<float>();
        Sigmoid(t, t, 64);
      },
      {});
  ExpectViolation(r,
                  "Sigmoid: dst UB bytes [0, 256) and src UB bytes [0, 256) overlap (this API "
                  "forbids any overlap)");
}

TEST(ChecksTest, WaitFlagWithoutSetFlag) {
  const auto r = RunKernel(
      [] {
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
      },
      {});
  ExpectViolation(r, "WaitFlag: event 7 id 1 has no pending SetFlag");
}

TEST(ChecksTest, ViolationInOneBlockStopsTheLaunch) {
  std::vector<float> out(4 * 8, 0.0f);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, GetBlockIdx() == 2 ? 300000 : 256);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(out.data() + GetBlockIdx() * 8, 8);
        auto t = b.Get<float>();
        Duplicate(t, 1.0f, 8);
        DataCopy(g, t, 8);
      },
      {GmOf(out)}, 4);
  ExpectViolation(r, "TPipe::InitBuffer: UB over capacity", 2, 4);
}

TEST(ChecksTest, SyncAllMismatchIsReported) {
  auto r = RunKernel(
      [] {
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
        if (GetBlockIdx() != 1) SyncAll();
      },
      {}, 3);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION) << r.error;
  EXPECT_NE(r.error.find("SyncAll"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("every block must call SyncAll equally often"), std::string::npos)
      << r.error;
  // More blocks than can be resident at once.
  r = RunKernel([] { SyncAll(); }, {}, 4, af::rt_test::kUb, 2);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("SyncAll: SyncAll needs all 4 blocks resident at once but only 2 run "
                         "concurrently"),
            std::string::npos)
      << r.error;
}

TEST(ChecksTest, ApiOutsideALaunchThrows) {
  EXPECT_THROW((void)GetBlockIdx(), af_cpu::Violation);
}

}  // namespace
