// The kernel toolchain: compiling generated sources into a cached .so, loading and launching it,
// reporting compiler errors with file and line, rejecting bad file names, and the bisheng text.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "autofuse/toolchain/compile.h"
#include "autofuse/toolchain/source_key.h"
#include "fixtures.h"
#include "kernel_operator.h"

namespace {

namespace fs = std::filesystem;
using af::toolchain::BishengCommandLine;
using af::toolchain::BishengOptions;
using af::toolchain::CompileError;
using af::toolchain::CompileKernel;
using af::toolchain::CompileOptions;
using af::toolchain::KernelLibrary;
using af::toolchain::ShellQuote;
using af::toolchain::SourceFile;
using af::toolchain::ToolchainError;

// The tiling struct lives in its own header to exercise multi-file kernels.
constexpr const char* kTilingHeader = R"(#pragma once
#include <cstdint>
struct AddReluTiling {
  uint32_t totalLength;  // elements per block
  uint32_t tileLength;   // elements per tile
};
)";

constexpr const char* kAddReluSource = R"(// add + relu, the shape of a generated kernel.
#include "kernel_operator.h"
#include "tiling.h"

using namespace AscendC;

constexpr int32_t kBufferNum = 2;

class KernelAddRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddReluTiling& t) {
    tiling_ = t;
    const uint64_t base = GetBlockIdx() * t.totalLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base, t.totalLength);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + base, t.totalLength);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + base, t.totalLength);
    pipe_.InitBuffer(inX_, kBufferNum, t.tileLength * sizeof(float));
    pipe_.InitBuffer(inY_, kBufferNum, t.tileLength * sizeof(float));
    pipe_.InitBuffer(out_, kBufferNum, t.tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < tiling_.totalLength; done += tiling_.tileLength) {
      const uint32_t n = tiling_.totalLength - done < tiling_.tileLength
                             ? tiling_.totalLength - done : tiling_.tileLength;
      LocalTensor<float> x = inX_.AllocTensor<float>();
      LocalTensor<float> y = inY_.AllocTensor<float>();
      DataCopyExtParams copy{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
      DataCopyPadExtParams<float> pad{false, 0, 0, 0};
      DataCopyPad(x, xGm_[done], copy, pad);
      DataCopyPad(y, yGm_[done], copy, pad);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<float>();
      y = inY_.DeQue<float>();
      LocalTensor<float> z = out_.AllocTensor<float>();
      Add(z, x, y, n);
      Relu(z, z, n);
      out_.EnQue<float>(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = out_.DeQue<float>();
      DataCopyPad(zGm_[done], z, copy);
      out_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<TPosition::VECIN, kBufferNum> inX_;
  TQue<TPosition::VECIN, kBufferNum> inY_;
  TQue<TPosition::VECOUT, kBufferNum> out_;
  GlobalTensor<float> xGm_;
  GlobalTensor<float> yGm_;
  GlobalTensor<float> zGm_;
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

// A kernel library without the runtime: fast to compile. Writes VALUE into the first GM byte.
std::string TinySource(int value) {
  return R"(#include "af_cpu/launch_abi.h"
extern "C" uint32_t af_abi_version(void) { return AF_LAUNCH_ABI_VERSION; }
extern "C" int af_launch(AfLaunchArgs* a) {
  a->gm_ptrs[0][0] = )" +
         std::to_string(value) + R"(;
  a->status = AF_STATUS_OK;
  return AF_STATUS_OK;
}
)";
}

CompileOptions Options(const fs::path& cache) {
  CompileOptions o;
  o.cache_dir = cache;
  return o;
}

int RunTiny(const KernelLibrary& lib) {
  uint8_t byte = 0;
  uint8_t* ptrs[] = {&byte};
  const uint64_t sizes[] = {1};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = 1;
  a.num_gm = 1;
  a.gm_ptrs = ptrs;
  a.gm_sizes = sizes;
  EXPECT_EQ(lib.Launch(&a), AF_STATUS_OK) << a.error;
  return byte;
}

// Kernel entries in a cache folder (not the shared precompiled-header folders, pch-<hash>).
size_t CountEntries(const fs::path& dir) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().rfind("pch-", 0) == 0 ? 0 : 1;
  return n;
}

bool HasTempFiles(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  }
  return false;
}

TEST(ToolchainTest, CompilesLaunchesAndCachesARealKernel) {
  const fs::path cache = af::test::TempDir("toolchain_cache");
  const std::vector<SourceFile> sources = {{"add_relu.cc", kAddReluSource},
                                           {"tiling.h", kTilingHeader}};
  const auto miss = CompileKernel(sources, "add_relu.cc", Options(cache));
  ASSERT_NE(miss, nullptr);
  EXPECT_FALSE(miss->cache_hit());
  EXPECT_EQ(miss->path().filename(), "kernel.so");
  EXPECT_EQ(miss->dir().parent_path(), cache);
  EXPECT_TRUE(fs::is_regular_file(miss->dir() / "add_relu.cc"));
  EXPECT_TRUE(fs::is_regular_file(miss->dir() / "tiling.h"));
  EXPECT_TRUE(fs::is_regular_file(miss->dir() / "compile_command.txt"));
  EXPECT_FALSE(HasTempFiles(cache));
  EXPECT_EQ(miss->abi_version(), AF_LAUNCH_ABI_VERSION);
  EXPECT_NE(miss->Symbol("af_launch"), nullptr);
  EXPECT_NE(miss->Symbol("add_relu"), nullptr);
  EXPECT_EQ(miss->Symbol("no_such_symbol"), nullptr);

  constexpr uint32_t kBlocks = 3;
  constexpr uint32_t kPerBlock = 1000;
  struct {
    uint32_t total;
    uint32_t tile;
  } tiling{kPerBlock, 64};  // 15 full tiles of 64 and a tail of 40 per block
  std::vector<float> x(kBlocks * kPerBlock);
  std::vector<float> y(x.size());
  std::vector<float> z(x.size(), -1.0f);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.5f;
    y[i] = static_cast<float>(i % 3);
  }
  uint8_t* ptrs[] = {reinterpret_cast<uint8_t*>(x.data()), reinterpret_cast<uint8_t*>(y.data()),
                     reinterpret_cast<uint8_t*>(z.data())};
  const uint64_t bytes = x.size() * sizeof(float);
  const uint64_t sizes[] = {bytes, bytes, bytes};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = kBlocks;
  a.ub_bytes = 192 * 1024;
  a.num_gm = 3;
  a.gm_ptrs = ptrs;
  a.gm_sizes = sizes;
  a.tiling = reinterpret_cast<uint8_t*>(&tiling);
  a.tiling_size = sizeof(tiling);
  ASSERT_EQ(miss->Launch(&a), AF_STATUS_OK) << a.error;
  for (size_t i = 0; i < z.size(); ++i) {
    const float s = x[i] + y[i];
    ASSERT_EQ(z[i], s < 0 ? 0.0f : s) << i;
  }
  EXPECT_EQ(a.mte2_bytes, 2 * bytes);
  EXPECT_EQ(a.mte3_bytes, bytes);
  EXPECT_EQ(a.vec_repeats, uint64_t{kBlocks} * 16 * 2);  // Add + Relu per tile, one repeat each
  EXPECT_EQ(a.ub_peak_bytes, 3u * 2 * 64 * sizeof(float));

  // The same sources again: a cache hit, much faster than the compile.
  const auto hit = CompileKernel(sources, "add_relu.cc", Options(cache));
  EXPECT_TRUE(hit->cache_hit());
  EXPECT_EQ(hit->path(), miss->path());
  EXPECT_LT(hit->compile_ms() * 5, miss->compile_ms())
      << "hit " << hit->compile_ms() << " ms, miss " << miss->compile_ms() << " ms";
  std::fill(z.begin(), z.end(), -1.0f);
  ASSERT_EQ(hit->Launch(&a), AF_STATUS_OK) << a.error;
  EXPECT_EQ(z[3], 0.0f);          // -2.5 + 0
  EXPECT_EQ(z[16], 4.0f + 1.0f);  // 4 + 1
  EXPECT_EQ(CountEntries(cache), 1u);
}

// Sets an environment variable for one scope, restoring what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      ::setenv(name_, old_.c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// Launches the add_relu kernel over 2 blocks of 100 elements with `ub_bytes` of UB per block;
// returns the status and, when it ran, checks z = relu(x + y).
int LaunchAddRelu(const KernelLibrary& lib, uint64_t ub_bytes, std::string* error) {
  struct {
    uint32_t total;
    uint32_t tile;
  } tiling{100, 64};
  std::vector<float> x(200);
  std::vector<float> y(200, 1.0f);
  std::vector<float> z(200, -1.0f);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
  uint8_t* ptrs[] = {reinterpret_cast<uint8_t*>(x.data()), reinterpret_cast<uint8_t*>(y.data()),
                     reinterpret_cast<uint8_t*>(z.data())};
  const uint64_t bytes = x.size() * sizeof(float);
  const uint64_t sizes[] = {bytes, bytes, bytes};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = 2;
  a.ub_bytes = ub_bytes;
  a.num_gm = 3;
  a.gm_ptrs = ptrs;
  a.gm_sizes = sizes;
  a.tiling = reinterpret_cast<uint8_t*>(&tiling);
  a.tiling_size = sizeof(tiling);
  const int rc = lib.Launch(&a);
  *error = a.error;
  if (rc != AF_STATUS_OK) return rc;
  for (size_t i = 0; i < z.size(); ++i)
    EXPECT_EQ(z[i], std::max(0.0f, x[i] + y[i])) << i;
  EXPECT_EQ(a.mte3_bytes, bytes);
  return rc;
}

// AF_KERNEL_PCH=1: the first kernel compile of a cache folder builds the precompiled
// kernel_operator.h and the runtime's out-of-line functions (af_cpu/runtime_impl.h) into one
// pch-<hash> folder; every kernel links that object instead of generating the launcher itself,
// and runs and reports violations as a header-only build does. Without it, header-only.
TEST(ToolchainTest, PrecompiledRuntimeIsBuiltOnceAndLinked) {
  const fs::path cache = af::test::TempDir("toolchain_prebuilt");
  CompileOptions o = Options(cache);
  o.flags = {"-O0"};
  const auto variant = [](const char* extra) {
    std::string src = kAddReluSource;
    src.replace(src.find("op.Process();"), 13, std::string("op.Process();") + extra);
    return std::vector<SourceFile>{{"add_relu.cc", src}, {"tiling.h", kTilingHeader}};
  };
  std::vector<fs::path> folders;
  const auto pch_folders = [&] {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(cache))
      if (e.path().filename().string().rfind("pch-", 0) == 0) out.push_back(e.path());
    return out;
  };
  std::string error;
  {
    const ScopedEnv pch("AF_KERNEL_PCH", "1");
    const auto first = CompileKernel(variant(""), "add_relu.cc", o);
    const std::string command = af::test::ReadFile(first->dir() / "compile_command.txt");
    EXPECT_NE(command.find("-DAF_CPU_PREBUILT_RUNTIME"), std::string::npos) << command;
    EXPECT_NE(command.find("af_cpu_runtime.o"), std::string::npos) << command;
    folders = pch_folders();
    ASSERT_EQ(folders.size(), 1u);
    EXPECT_TRUE(fs::is_regular_file(folders[0] / "kernel_operator.h.gch"));
    ASSERT_TRUE(fs::is_regular_file(folders[0] / "af_cpu_runtime.o"));
    const auto built = fs::last_write_time(folders[0] / "af_cpu_runtime.o");
    EXPECT_EQ(LaunchAddRelu(*first, 192 * 1024, &error), AF_STATUS_OK) << error;
    // A violation raised inside the prebuilt object (CarveUb) is reported as usual.
    EXPECT_EQ(LaunchAddRelu(*first, 1024, &error), AF_STATUS_VIOLATION);
    EXPECT_NE(error.find("UB over capacity"), std::string::npos) << error;
    // A second kernel reuses both.
    const auto second = CompileKernel(variant("\n  (void)0;"), "add_relu.cc", o);
    EXPECT_FALSE(second->cache_hit());
    EXPECT_EQ(pch_folders(), folders);
    EXPECT_EQ(fs::last_write_time(folders[0] / "af_cpu_runtime.o"), built);
    EXPECT_EQ(LaunchAddRelu(*second, 192 * 1024, &error), AF_STATUS_OK) << error;
  }
  const ScopedEnv no_pch("AF_KERNEL_PCH", nullptr);
  const auto plain = CompileKernel(variant("\n  (void)1;"), "add_relu.cc", o);
  const std::string command = af::test::ReadFile(plain->dir() / "compile_command.txt");
  EXPECT_EQ(command.find("af_cpu_runtime.o"), std::string::npos) << command;
  EXPECT_EQ(command.find("AF_CPU_PREBUILT_RUNTIME"), std::string::npos) << command;
  EXPECT_EQ(LaunchAddRelu(*plain, 192 * 1024, &error), AF_STATUS_OK) << error;
  EXPECT_EQ(LaunchAddRelu(*plain, 1024, &error), AF_STATUS_VIOLATION);
  EXPECT_NE(error.find("UB over capacity"), std::string::npos) << error;
}

TEST(ToolchainTest, ChangingOneCharacterOrOneOptionMisses) {
  const fs::path cache = af::test::TempDir("toolchain_key");
  const auto first = CompileKernel({{"k.cc", TinySource(42)}}, "k.cc", Options(cache));
  EXPECT_FALSE(first->cache_hit());
  EXPECT_EQ(RunTiny(*first), 42);

  const auto again = CompileKernel({{"k.cc", TinySource(42)}}, "k.cc", Options(cache));
  EXPECT_TRUE(again->cache_hit());

  const auto changed = CompileKernel({{"k.cc", TinySource(43)}}, "k.cc", Options(cache));
  EXPECT_FALSE(changed->cache_hit());
  EXPECT_NE(changed->dir(), first->dir());
  EXPECT_EQ(RunTiny(*changed), 43);
  EXPECT_EQ(RunTiny(*first), 42);  // both stay loaded side by side

  // The file name, an extra (unused) source, the flags and the standard are part of the key.
  EXPECT_FALSE(CompileKernel({{"k2.cc", TinySource(42)}}, "k2.cc", Options(cache))->cache_hit());
  EXPECT_FALSE(
      CompileKernel({{"k.cc", TinySource(42)}, {"unused.h", "// x\n"}}, "k.cc", Options(cache))
          ->cache_hit());
  CompileOptions o1 = Options(cache);
  o1.flags = {"-O1"};
  EXPECT_FALSE(CompileKernel({{"k.cc", TinySource(42)}}, "k.cc", o1)->cache_hit());
  CompileOptions cxx20 = Options(cache);
  cxx20.std = "c++20";
  EXPECT_FALSE(CompileKernel({{"k.cc", TinySource(42)}}, "k.cc", cxx20)->cache_hit());
  EXPECT_TRUE(CompileKernel({{"k.cc", TinySource(42)}}, "k.cc", cxx20)->cache_hit());
  EXPECT_EQ(CountEntries(cache), 6u);
}

TEST(ToolchainTest, CommentsAreNotPartOfTheKey) {
  const fs::path cache = af::test::TempDir("toolchain_comments");
  const auto first = CompileKernel({{"k.cc", "// Impl graph fused_19\n" + TinySource(42)}}, "k.cc",
                                   Options(cache));
  EXPECT_FALSE(first->cache_hit());
  // The same kernel generated for another group: only its comments differ.
  const auto other =
      CompileKernel({{"k.cc", "// Impl graph fused_43\n/* group B0Y0 */" + TinySource(42)}}, "k.cc",
                    Options(cache));
  EXPECT_TRUE(other->cache_hit());
  EXPECT_EQ(RunTiny(*other), 42);
  EXPECT_FALSE(
      CompileKernel({{"k.cc", "// Impl graph fused_43\n" + TinySource(43)}}, "k.cc", Options(cache))
          ->cache_hit());
  EXPECT_EQ(CountEntries(cache), 2u);
}

TEST(SourceKeyTest, StripsCommentsButNotLiterals) {
  using af::toolchain::StripComments;
  EXPECT_EQ(StripComments("int a; // note\nint b;"), "int a;\nint b;");
  EXPECT_EQ(StripComments("a /* x\ny */ b"), "a b");
  EXPECT_EQ(StripComments("  if (x)\t\t{  \n"), "if (x) {\n");
  EXPECT_EQ(StripComments(R"(const char* s = "// not  a comment"; // one)"),
            R"(const char* s = "// not  a comment";)");
  EXPECT_EQ(StripComments(R"(s = "a\"/*b*/"; c = '/'; )"), R"(s = "a\"/*b*/"; c = '/';)");
  EXPECT_EQ(StripComments("int n = 1'000; // x"), "int n = 1'000;");
  EXPECT_EQ(StripComments("auto r = R\"d(/* kept */)d\"; /* gone */"),
            "auto r = R\"d(/* kept */)d\";");
  EXPECT_EQ(StripComments("// a \\\n still comment\nx"), "\nx");
  EXPECT_EQ(StripComments("x /* unterminated"), "x");
  EXPECT_NE(StripComments("s = \"1\";"), StripComments("s = \"2\";"));
}

TEST(ToolchainTest, SyntaxErrorNamesTheGeneratedFileAndLine) {
  const fs::path cache = af::test::TempDir("toolchain_syntax");
  const std::string bad =
      "#include \"af_cpu/launch_abi.h\"\n"  // line 1
      "extern \"C\" int af_launch(AfLaunchArgs* a) {\n"
      "  (void)a;\n"
      "  return 0\n"  // line 4: missing ';'
      "}\n";
  try {
    CompileKernel({{"broken_kernel.cc", bad}}, "broken_kernel.cc", Options(cache));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("broken_kernel.cc"), std::string::npos) << msg;
    EXPECT_NE(msg.find("failed to compile (exit code"), std::string::npos) << msg;
    EXPECT_NE(msg.find("command: "), std::string::npos) << msg;
    ASSERT_FALSE(e.diagnostics().empty()) << msg;
    const auto& d = e.diagnostics().front();
    EXPECT_EQ(fs::path(d.file).filename(), "broken_kernel.cc");
    EXPECT_EQ(d.severity, "error");
    // GCC points at the line after the missing ';' (the '}'), Clang at the end of line 4.
    EXPECT_TRUE(d.line == 4 || d.line == 5) << d.line;
    // The parsed errors come first, then the raw output.
    EXPECT_NE(msg.find("\nerrors:\n  " + d.file + ":" + std::to_string(d.line) + ":"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("\ncompiler output:\n"), std::string::npos) << msg;
    EXPECT_NE(e.command_line().find("-shared"), std::string::npos);
    EXPECT_FALSE(e.output().empty());
  }
  EXPECT_FALSE(HasTempFiles(cache));
}

TEST(ToolchainTest, ErrorInAnIncludedHeaderNamesThatHeader) {
  const fs::path cache = af::test::TempDir("toolchain_header");
  const std::string header = "#pragma once\n\nint Helper() { return undeclared_name; }\n";
  try {
    CompileKernel({{"main.cc", "#include \"helper.h\"\nint Use() { return Helper(); }\n"},
                   {"helper.h", header}},
                  "main.cc", Options(cache));
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("helper.h:3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared_name"), std::string::npos) << msg;
  }
}

TEST(ToolchainTest, MissingCompilerIsAClearError) {
  CompileOptions o = Options(af::test::TempDir("toolchain_nocxx"));
  o.cxx = "/nonexistent/c++";
  try {
    CompileKernel({{"k.cc", TinySource(1)}}, "k.cc", o);
    FAIL() << "expected a ToolchainError";
  } catch (const CompileError& e) {
    FAIL() << "not a compile error: " << e.what();
  } catch (const ToolchainError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("C++ compiler '/nonexistent/c++' not found"), std::string::npos) << msg;
  }
  o.cxx = "no-such-compiler-af";
  EXPECT_THROW(CompileKernel({{"k.cc", TinySource(1)}}, "k.cc", o), ToolchainError);
}

TEST(ToolchainTest, HostileFileNamesAreRejected) {
  const CompileOptions o = Options(af::test::TempDir("toolchain_names"));
  for (const std::string& name : std::vector<std::string>{
           "../escape.cc", "a/b.cc", "/etc/passwd", "..", ".", "", "x..y.cc", "a b.cc", "k;rm.cc",
           "$(id).cc", "-o", "kernel.so", "compile_command.txt", "bisheng_command.sh", "k\n.cc",
           std::string("k\0.cc", 5), std::string(300, 'a')}) {
    EXPECT_THROW(CompileKernel({{name, TinySource(1)}}, name, o), std::invalid_argument) << name;
  }
  EXPECT_THROW(af::toolchain::CheckSourceName("a/../b"), std::invalid_argument);
  EXPECT_NO_THROW(af::toolchain::CheckSourceName("Kernel_v2-fp16.cc"));
  // The main file must be one of the sources; names must be unique.
  EXPECT_THROW(CompileKernel({{"k.cc", TinySource(1)}}, "other.cc", o), std::invalid_argument);
  EXPECT_THROW(CompileKernel({{"k.cc", TinySource(1)}, {"k.cc", ""}}, "k.cc", o),
               std::invalid_argument);
  EXPECT_EQ(CountEntries(o.cache_dir), 0u);
}

TEST(ToolchainTest, ConcurrentCompilesOfTheSameSourcesAgree) {
  const fs::path cache = af::test::TempDir("toolchain_threads");
  constexpr int kThreads = 4;
  std::vector<std::shared_ptr<KernelLibrary>> libs(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      try {
        libs[i] = CompileKernel({{"k.cc", TinySource(77)}}, "k.cc", Options(cache));
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_NE(libs[i], nullptr) << errors[i];
    EXPECT_EQ(libs[i]->path(), libs[0]->path());
    EXPECT_EQ(RunTiny(*libs[i]), 77);
  }
  EXPECT_EQ(CountEntries(cache), 1u);
  EXPECT_FALSE(HasTempFiles(cache));
  EXPECT_TRUE(CompileKernel({{"k.cc", TinySource(77)}}, "k.cc", Options(cache))->cache_hit());
}

TEST(ToolchainTest, LaunchChecksTheEntryPointsAndAbiVersion) {
  const fs::path cache = af::test::TempDir("toolchain_abi");
  const auto plain =
      CompileKernel({{"p.cc", "extern \"C\" int seven() { return 7; }\n"}}, "p.cc", Options(cache));
  using Fn = int (*)();
  ASSERT_NE(plain->Symbol("seven"), nullptr);
  EXPECT_EQ(reinterpret_cast<Fn>(plain->Symbol("seven"))(), 7);
  EXPECT_EQ(plain->abi_version(), 0u);
  AfLaunchArgs a{};
  EXPECT_EQ(plain->Launch(&a), AF_STATUS_BAD_ARGS);
  EXPECT_NE(std::string(a.error).find("does not export af_launch"), std::string::npos) << a.error;
  EXPECT_EQ(plain->Launch(nullptr), AF_STATUS_BAD_ARGS);

  const auto future = CompileKernel({{"f.cc",
                                      "#include <cstdint>\n"
                                      "extern \"C\" uint32_t af_abi_version() { return 99; }\n"
                                      "extern \"C\" int af_launch(void*) { return 0; }\n"}},
                                    "f.cc", Options(cache));
  EXPECT_EQ(future->abi_version(), 99u);
  a = AfLaunchArgs{};
  EXPECT_EQ(future->Launch(&a), AF_STATUS_BAD_ARGS);
  EXPECT_NE(std::string(a.error).find("launch ABI 99"), std::string::npos) << a.error;
}

// Writes an executable shell script.
void WriteScript(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  ::chmod(p.c_str(), 0755);
}

TEST(ToolchainTest, HangingCompilerIsKilledAfterTheTimeout) {
  const fs::path dir = af::test::TempDir("toolchain_hang");
  const fs::path fake = dir / "slow-cxx";
  WriteScript(fake,
              "#!/bin/sh\n"
              "if [ \"$1\" = --version ]; then echo 'slow-cxx 1.0'; exit 0; fi\n"
              "sleep 60\n");
  CompileOptions o = Options(dir / "cache");
  o.cxx = fake.string();
  o.timeout_s = 1;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    CompileKernel({{"k.cc", TinySource(1)}}, "k.cc", o);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("timed out after 1 s"), std::string::npos) << e.what();
  }
  // The shell's child `sleep` was killed with it (the whole process group), or this would wait.
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

TEST(ToolchainTest, BishengCommandLineText) {
  EXPECT_EQ(BishengCommandLine("kernel.cc"),
            "bisheng -x cce --cce-aicore-arch=dav-c220-vec -std=c++17 -O2"
            " -I\"${ASCEND_HOME_PATH}\"/compiler/tikcpp"
            " -I\"${ASCEND_HOME_PATH}\"/compiler/tikcpp/tikcfw"
            " -I\"${ASCEND_HOME_PATH}\"/compiler/tikcpp/tikcfw/impl"
            " -I\"${ASCEND_HOME_PATH}\"/compiler/tikcpp/tikcfw/interface"
            " -I\"${ASCEND_HOME_PATH}\"/include -I. -c kernel.cc -o kernel.o");
  BishengOptions o;
  o.ascend_home = "/opt/my cann";
  o.arch = "dav-m200";
  o.flags = {"-O3", "-DTILING_KEY=1"};
  o.object = "out.o";
  EXPECT_EQ(BishengCommandLine("add.cc", o),
            "bisheng -x cce --cce-aicore-arch=dav-m200 -std=c++17 -O3 -DTILING_KEY=1"
            " -I'/opt/my cann'/compiler/tikcpp -I'/opt/my cann'/compiler/tikcpp/tikcfw"
            " -I'/opt/my cann'/compiler/tikcpp/tikcfw/impl"
            " -I'/opt/my cann'/compiler/tikcpp/tikcfw/interface -I'/opt/my cann'/include"
            " -I. -c add.cc -o out.o");
  EXPECT_EQ(ShellQuote("plain-1.cc"), "plain-1.cc");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("it's $HOME"), "'it'\\''s $HOME'");
}

TEST(ToolchainTest, BishengScriptIsWrittenWhenBishengIsOnPath) {
  const fs::path dir = af::test::TempDir("toolchain_bisheng");
  fs::create_directories(dir / "bin");
  WriteScript(dir / "bin" / "bisheng", "#!/bin/sh\nexit 1\n");
  const std::string old_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", ((dir / "bin").string() + ":" + old_path).c_str(), 1);
  std::shared_ptr<KernelLibrary> lib;
  try {
    lib = CompileKernel({{"k.cc", TinySource(5)}}, "k.cc", Options(dir / "cache"));
  } catch (...) {
    ::setenv("PATH", old_path.c_str(), 1);
    throw;
  }
  ::setenv("PATH", old_path.c_str(), 1);
  const fs::path script = lib->dir() / "bisheng_command.sh";
  ASSERT_TRUE(fs::is_regular_file(script));
  EXPECT_EQ(fs::status(script).permissions() & fs::perms::owner_exec, fs::perms::owner_exec);
  const std::string text = af::test::ReadFile(script);
  EXPECT_EQ(text.rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(text.find(BishengCommandLine("k.cc") + "\n"), std::string::npos) << text;
}

// The bisheng core arch per profile and kernel type, and the __NPU_ARCH__ number of a profile.
TEST(ToolchainTest, BishengArchFollowsTheProfileAndTheKernelType) {
  EXPECT_EQ(af::toolchain::BishengArch("dav-2201", false), "dav-c220-vec");
  EXPECT_EQ(af::toolchain::BishengArch("dav-2201", true), "dav-c220");
  EXPECT_EQ(af::toolchain::BishengArch("dav-3510", false), "dav-c310-vec");
  EXPECT_EQ(af::toolchain::BishengArch("dav-3510", true), "dav-c310");
  EXPECT_THROW(af::toolchain::BishengArch("dav-9999", false), std::invalid_argument);
  EXPECT_EQ(af::toolchain::NpuArchNumber("dav-2201"), 2201);
  EXPECT_EQ(af::toolchain::NpuArchNumber("dav-3510"), 3510);
  for (const char* bad : {"", "dav-", "2201", "dav-22x1", "dav-12345678"}) {
    EXPECT_THROW(af::toolchain::NpuArchNumber(bad), std::invalid_argument) << bad;
  }
  // The script written next to a mixed 950 kernel names the mixed arch.
  const fs::path dir = af::test::TempDir("toolchain_bisheng_arch");
  fs::create_directories(dir / "bin");
  WriteScript(dir / "bin" / "bisheng", "#!/bin/sh\nexit 1\n");
  const std::string old_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", ((dir / "bin").string() + ":" + old_path).c_str(), 1);
  std::shared_ptr<KernelLibrary> lib;
  auto o = Options(dir / "cache");
  o.bisheng_arch = af::toolchain::BishengArch("dav-3510", true);
  o.npu_arch = 3510;
  try {
    lib = CompileKernel({{"k.cc", TinySource(6)}}, "k.cc", o);
  } catch (...) {
    ::setenv("PATH", old_path.c_str(), 1);
    throw;
  }
  ::setenv("PATH", old_path.c_str(), 1);
  const std::string text = af::test::ReadFile(lib->dir() / "bisheng_command.sh");
  EXPECT_NE(text.find("--cce-aicore-arch=dav-c310 "), std::string::npos) << text;
  EXPECT_NE(af::test::ReadFile(lib->dir() / "compile_command.txt").find("-D__NPU_ARCH__=3510"),
            std::string::npos);
}

TEST(ToolchainTest, DefaultCacheDirFollowsTheEnvironment) {
  const char* old = std::getenv("AF_CACHE_DIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("AF_CACHE_DIR", "/tmp/af-cache-test", 1);
  EXPECT_EQ(af::toolchain::DefaultCacheDir(), fs::path("/tmp/af-cache-test"));
  ::unsetenv("AF_CACHE_DIR");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg != nullptr && *xdg != '\0') {
    EXPECT_EQ(af::toolchain::DefaultCacheDir(), fs::path(xdg) / "autofuse");
  } else if (home != nullptr && *home != '\0') {
    EXPECT_EQ(af::toolchain::DefaultCacheDir(), fs::path(home) / ".cache" / "autofuse");
  }
  if (old != nullptr) ::setenv("AF_CACHE_DIR", saved.c_str(), 1);
}

}  // namespace
