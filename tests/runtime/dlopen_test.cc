// The dlopen boundary: a kernel source (the shape autofuse generates) is compiled by the system
// compiler into .so files (C++17 and C++20) against the runtime headers, loaded side by side with
// RTLD_LOCAL and launched through the exported C entry point `af_launch`.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "kernel_operator.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kKernelSource =
    R"(// Generated-kernel template: one fused op as an AscendC kernel.
#include "kernel_operator.h"

using namespace AscendC;

struct AddReluTiling {
  uint32_t totalLength;  // elements per block
  uint32_t tileLength;   // elements per tile (32-byte multiple not required)
};

constexpr int32_t kBufferNum = 2;

class KernelAddRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddReluTiling& t) {
    tiling_ = t;
    const uint64_t base = GetBlockIdx() * t.totalLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + base, t.totalLength);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + base, t.totalLength);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + base, t.totalLength);
    pipe_.InitBuffer(inX_, kBufferNum, t.tileLength * sizeof(half));
    pipe_.InitBuffer(inY_, kBufferNum, t.tileLength * sizeof(half));
    pipe_.InitBuffer(out_, kBufferNum, t.tileLength * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < tiling_.totalLength; done += tiling_.tileLength) {
      const uint32_t n = tiling_.totalLength - done < tiling_.tileLength
                             ? tiling_.totalLength - done : tiling_.tileLength;
      CopyIn(done, n);
      Compute(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
    LocalTensor<half> x = inX_.AllocTensor<half>();
    LocalTensor<half> y = inY_.AllocTensor<half>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
    DataCopyPadExtParams<half> pad{false, 0, 0, 0};
    DataCopyPad(x, xGm_[offset], copy, pad);
    DataCopyPad(y, yGm_[offset], copy, pad);
    inX_.EnQue(x);
    inY_.EnQue(y);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<half> x = inX_.DeQue<half>();
    LocalTensor<half> y = inY_.DeQue<half>();
    LocalTensor<half> z = out_.AllocTensor<half>();
    Add(z, x, y, n);
    Relu(z, z, n);
    out_.EnQue<half>(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
    LocalTensor<half> z = out_.DeQue<half>();
    DataCopyPad(zGm_[offset], z, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
    out_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, kBufferNum> inX_;
  TQue<TPosition::VECIN, kBufferNum> inY_;
  TQue<TPosition::VECOUT, kBufferNum> out_;
  GlobalTensor<half> xGm_;
  GlobalTensor<half> yGm_;
  GlobalTensor<half> zGm_;
  AddReluTiling tiling_;
};

extern "C" __global__ __aicore__ void add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                               GM_ADDR tiling) {
  (void)workspace;
  const AddReluTiling t = *reinterpret_cast<__gm__ AddReluTiling*>(tiling);
  KernelAddRelu op;
  op.Init(x, y, z, t);
  op.Process();
}

#if defined(AF_CPU_RUNTIME)
AF_DEFINE_LAUNCH(add_relu)
#endif
)";

std::string FindCompiler() {
  if (const char* cxx = std::getenv("CXX"); cxx != nullptr && *cxx != '\0') return cxx;
  if (std::system("command -v c++ >/dev/null 2>&1") == 0) return "c++";
  return "g++";
}

// Compiles the kernel into `so`; returns the compiler output on failure, "" on success.
std::string Compile(const fs::path& src, const fs::path& so, const std::string& std_flag) {
  const fs::path log = so.string() + ".log";
  const std::string cmd = FindCompiler() + " " + std_flag +
                          " -O2 -fPIC -shared -Wall -Wextra -Werror -fvisibility=hidden"
                          " -fvisibility-inlines-hidden -I" AF_SOURCE_DIR
                          "/libautofuse/runtime/include "
                          "'" +
                          src.string() + "' -o '" + so.string() + "' -pthread > '" + log.string() +
                          "' 2>&1";
  if (std::system(cmd.c_str()) == 0) return "";
  std::ifstream in(log);
  return cmd + "\n" + std::string(std::istreambuf_iterator<char>(in), {});
}

struct Loaded {
  void* handle = nullptr;
  AfLaunchFn launch = nullptr;
  AfAbiVersionFn version = nullptr;
};

Loaded Open(const fs::path& so) {
  Loaded l;
  l.handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (l.handle == nullptr) return l;
  l.launch = reinterpret_cast<AfLaunchFn>(dlsym(l.handle, "af_launch"));
  l.version = reinterpret_cast<AfAbiVersionFn>(dlsym(l.handle, "af_abi_version"));
  return l;
}

struct Tiling {
  uint32_t totalLength;
  uint32_t tileLength;
};

int LaunchAddRelu(const Loaded& k, std::vector<half>& x, std::vector<half>& y, std::vector<half>& z,
                  Tiling tiling, uint32_t blocks, AfLaunchArgs* a) {
  uint8_t* ptrs[] = {reinterpret_cast<uint8_t*>(x.data()), reinterpret_cast<uint8_t*>(y.data()),
                     reinterpret_cast<uint8_t*>(z.data())};
  const uint64_t sizes[] = {x.size() * 2, y.size() * 2, z.size() * 2};
  *a = AfLaunchArgs{};
  a->abi_version = AF_LAUNCH_ABI_VERSION;
  a->block_dim = blocks;
  a->ub_bytes = 192 * 1024;
  a->num_gm = 3;
  a->gm_ptrs = ptrs;
  a->gm_sizes = sizes;
  a->tiling = reinterpret_cast<uint8_t*>(&tiling);
  a->tiling_size = sizeof(tiling);
  return k.launch(a);
}

TEST(DlopenTest, GeneratedKernelRunsAcrossTheDlopenBoundary) {
  const fs::path dir = af::test::TempDir("runtime_dlopen");
  const fs::path src = dir / "add_relu.cc";
  std::ofstream(src) << kKernelSource;
  const fs::path so17 = dir / "add_relu_cxx17.so";
  const fs::path so20 = dir / "add_relu_cxx20.so";
  ASSERT_EQ(Compile(src, so17, "-std=c++17"), "");
  ASSERT_EQ(Compile(src, so20, "-std=c++20"), "");

  const Loaded k17 = Open(so17);
  const Loaded k20 = Open(so20);
  ASSERT_NE(k17.handle, nullptr) << dlerror();
  ASSERT_NE(k20.handle, nullptr) << dlerror();
  ASSERT_NE(k17.launch, nullptr);
  ASSERT_NE(k20.launch, nullptr);
  EXPECT_EQ(k17.version(), AF_LAUNCH_ABI_VERSION);
  // Only the two C entry points are exported: the runtime inside each .so stays private.
  EXPECT_EQ(dlsym(k17.handle, "_ZN6af_cpu7g_blockE"), nullptr);

  constexpr uint32_t kBlocks = 5;
  const Tiling tiling{1000, 96};  // 10 full tiles of 96 and a tail of 40 per block
  std::vector<half> x(kBlocks * 1000);
  std::vector<half> y(kBlocks * 1000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = half(static_cast<float>(static_cast<int>(i % 23) - 11) * 0.25f);
    y[i] = half(static_cast<float>(i % 5) * 0.5f);
  }
  for (const Loaded* k : {&k17, &k20}) {
    std::vector<half> z(x.size(), half(-1.0f));
    AfLaunchArgs a;
    ASSERT_EQ(LaunchAddRelu(*k, x, y, z, tiling, kBlocks, &a), AF_STATUS_OK) << a.error;
    for (size_t i = 0; i < z.size(); ++i) {
      const float s = static_cast<float>(half(static_cast<float>(x[i]) + static_cast<float>(y[i])));
      ASSERT_EQ(static_cast<float>(z[i]), s < 0 ? 0.0f : s) << i;
    }
    EXPECT_EQ(a.mte2_bytes, 2u * x.size() * 2);
    EXPECT_EQ(a.mte3_bytes, uint64_t{x.size()} * 2);
    EXPECT_EQ(a.vec_repeats, uint64_t{kBlocks} * 2 * 11);  // Add + Relu per tile, <= 256 bytes each
    EXPECT_EQ(a.ub_peak_bytes, 3u * 2 * 192);
  }

  // A violation inside the .so comes back as status + message, naming kernel, block and API.
  std::vector<half> z(x.size());
  AfLaunchArgs a;
  EXPECT_EQ(LaunchAddRelu(k17, x, y, z, Tiling{1000, 100000}, kBlocks, &a), AF_STATUS_VIOLATION);
  EXPECT_NE(std::string(a.error).find("kernel 'add_relu' block "), std::string::npos) << a.error;
  EXPECT_NE(std::string(a.error).find("TPipe::InitBuffer: UB over capacity"), std::string::npos)
      << a.error;

  EXPECT_EQ(dlclose(k17.handle), 0);
  EXPECT_EQ(dlclose(k20.handle), 0);
}

}  // namespace
