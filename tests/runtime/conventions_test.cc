// The kernel conventions of af_cpu/kernel_conventions.h, as generated kernels use them: the tiling
// data read with REGISTER_TILING_DEFAULT/GET_TILING_DATA, the case chosen with TILING_KEY_IS (the
// key comes from the tiling data's header), and the kernel type that a hard SyncAll needs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace {

struct ConvTiling {
  uint32_t block_dim;
  uint32_t tiling_key;
  float value;
};

}  // namespace

// Writes the tiling's value (key 0) or its negation (key 1) to out[block].
extern "C" __global__ __aicore__ void af_conv_key_kernel(GM_ADDR out, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(ConvTiling);
  GET_TILING_DATA(t, tiling);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), t.block_dim);
  if (TILING_KEY_IS(0)) {
    g.SetValue(AscendC::GetBlockIdx(), t.value);
  } else if (TILING_KEY_IS(1)) {
    g.SetValue(AscendC::GetBlockIdx(), -t.value);
  }
}

// A hard SyncAll in a kernel declared AIV-only.
extern "C" __global__ __aicore__ void af_conv_aiv_sync_kernel(GM_ADDR out, GM_ADDR workspace,
                                                              GM_ADDR tiling) {
  (void)out;
  (void)workspace;
  (void)tiling;
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  AscendC::SyncAll();
}

// The same sync in a kernel declared mixed for tiling key 1 only.
extern "C" __global__ __aicore__ void af_conv_keyed_sync_kernel(GM_ADDR out, GM_ADDR workspace,
                                                                GM_ADDR tiling) {
  (void)out;
  (void)workspace;
  (void)tiling;
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KERNEL_TASK_TYPE(1, KERNEL_TYPE_MIX_AIV_1_0);
  AscendC::SyncAll();
}

// A super kernel's reading: a header with the member's offset, then the member's struct read at
// that offset with GET_TILING_DATA_WITH_STRUCT (the offset travels in the tiling data).
struct ConvSuperHeader {
  uint32_t block_dim;
  uint32_t tiling_key;
  uint64_t member_offset;
};

extern "C" __global__ __aicore__ void af_conv_offset_kernel(GM_ADDR out, GM_ADDR workspace,
                                                            GM_ADDR tiling) {
  (void)workspace;
  REGISTER_TILING_DEFAULT(ConvSuperHeader);
  GET_TILING_DATA(h, tiling);
  GET_TILING_DATA_WITH_STRUCT(ConvTiling, m, tiling + h.member_offset);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), h.block_dim);
  g.SetValue(AscendC::GetBlockIdx(), m.value);
}

namespace {

struct Launched {
  int status = 0;
  std::string error;
  std::vector<float> out;
};

Launched LaunchConv(void (*kernel)(GM_ADDR, GM_ADDR, GM_ADDR), uint32_t key, uint64_t tiling_size,
                    uint32_t blocks = 4) {
  Launched l;
  l.out.assign(blocks, 0.0f);
  ConvTiling t{blocks, key, 2.5f};
  std::vector<uint8_t> tiling(sizeof(t) + 16, 0);
  std::memcpy(tiling.data(), &t, sizeof(t));
  uint8_t* gm[] = {reinterpret_cast<uint8_t*>(l.out.data())};
  const uint64_t sizes[] = {blocks * sizeof(float)};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = blocks;
  a.ub_bytes = 1024;
  a.num_gm = 1;
  a.gm_ptrs = gm;
  a.gm_sizes = sizes;
  a.tiling = tiling.data();
  a.tiling_size = tiling_size;
  l.status = af_cpu::Launch(kernel, &a, "conv_kernel");
  l.error = a.error;
  return l;
}

TEST(ConventionsTest, TilingKeyChoosesTheCaseAndGetTilingDataCopiesTheStruct) {
  auto l = LaunchConv(af_conv_key_kernel, 0, sizeof(ConvTiling));
  ASSERT_EQ(l.status, AF_STATUS_OK) << l.error;
  EXPECT_EQ(l.out, std::vector<float>(4, 2.5f));
  l = LaunchConv(af_conv_key_kernel, 1, sizeof(ConvTiling));
  ASSERT_EQ(l.status, AF_STATUS_OK) << l.error;
  EXPECT_EQ(l.out, std::vector<float>(4, -2.5f));
  l = LaunchConv(af_conv_key_kernel, 7, sizeof(ConvTiling));  // no case: nothing written
  ASSERT_EQ(l.status, AF_STATUS_OK) << l.error;
  EXPECT_EQ(l.out, std::vector<float>(4, 0.0f));
}

TEST(ConventionsTest, GetTilingDataRefusesAShortTilingBuffer) {
  const auto l = LaunchConv(af_conv_key_kernel, 0, sizeof(ConvTiling) - 4);
  EXPECT_EQ(l.status, AF_STATUS_VIOLATION);
  EXPECT_NE(l.error.find("GET_TILING_DATA: the tiling buffer holds 8 bytes but the tiling struct "
                         "needs 12"),
            std::string::npos)
      << l.error;
}

// The member struct at an offset inside the buffer is read; one past the end, or one whose bytes
// run past the end, is refused.
TEST(ConventionsTest, GetTilingDataWithStructReadsAtAnOffsetInsideTheBuffer) {
  auto launch = [](uint64_t offset, uint64_t tiling_size) {
    Launched l;
    l.out.assign(2, 0.0f);
    std::vector<uint8_t> tiling(64, 0);
    const ConvSuperHeader h{2, 0, offset};
    std::memcpy(tiling.data(), &h, sizeof h);
    const ConvTiling m{2, 0, 7.5f};
    if (offset + sizeof m <= tiling.size()) std::memcpy(tiling.data() + offset, &m, sizeof m);
    uint8_t* gm[] = {reinterpret_cast<uint8_t*>(l.out.data())};
    const uint64_t sizes[] = {2 * sizeof(float)};
    AfLaunchArgs a{};
    a.abi_version = AF_LAUNCH_ABI_VERSION;
    a.block_dim = 2;
    a.ub_bytes = 1024;
    a.num_gm = 1;
    a.gm_ptrs = gm;
    a.gm_sizes = sizes;
    a.tiling = tiling.data();
    a.tiling_size = tiling_size;
    l.status = af_cpu::Launch(af_conv_offset_kernel, &a, "conv_offset");
    l.error = a.error;
    return l;
  };
  auto l = launch(24, 64);
  ASSERT_EQ(l.status, AF_STATUS_OK) << l.error;
  EXPECT_EQ(l.out, std::vector<float>(2, 7.5f));
  l = launch(64, 64);  // at the end: outside the buffer
  EXPECT_EQ(l.status, AF_STATUS_VIOLATION);
  EXPECT_NE(l.error.find("GET_TILING_DATA: the tiling argument is not inside the launch's tiling "
                         "buffer"),
            std::string::npos)
      << l.error;
  l = launch(56, 64);  // inside, but the 12-byte struct runs past the end
  EXPECT_EQ(l.status, AF_STATUS_VIOLATION);
  EXPECT_NE(l.error.find("holds 8 bytes from offset 56 but the tiling struct needs 12"),
            std::string::npos)
      << l.error;
}

TEST(ConventionsTest, HardSyncAllNeedsAMixedKernelType) {
  auto l = LaunchConv(af_conv_aiv_sync_kernel, 0, sizeof(ConvTiling));
  EXPECT_EQ(l.status, AF_STATUS_VIOLATION);
  EXPECT_NE(l.error.find("SyncAll: hard SyncAll() in a kernel whose type is not a mixed type"),
            std::string::npos)
      << l.error;
  EXPECT_NE(l.error.find("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0)"), std::string::npos);
  // Per tiling key: key 1 is mixed, key 0 falls back to the AIV-only default.
  l = LaunchConv(af_conv_keyed_sync_kernel, 1, sizeof(ConvTiling));
  EXPECT_EQ(l.status, AF_STATUS_OK) << l.error;
  l = LaunchConv(af_conv_keyed_sync_kernel, 0, sizeof(ConvTiling));
  EXPECT_EQ(l.status, AF_STATUS_VIOLATION);
}

}  // namespace
