// Turning generated AscendC kernel sources into something we can run. We have no NPU, so a kernel
// is compiled by the host C++ compiler against the CPU AscendC runtime
// (libautofuse/runtime/include) into a shared library that exports `af_launch` (see
// af_cpu/launch.h), and then dlopen'ed. Builds are cached on disk by a hash of everything that
// affects the result, so re-running the same kernel costs a dlopen, not a compile.
//
// Cache layout: <cache_dir>/<16 hex digits>/ holds the sources as given, `kernel.so`,
// `compile_command.txt` and, when CANN's `bisheng` is on PATH, `bisheng_command.sh`. Every file is
// written to a temporary name and renamed into place, so concurrent processes and threads
// compiling the same kernel never see a half-written file (the last rename wins; all copies are
// equivalent).
//
// Errors: bad arguments (a hostile file name, an unknown main file) throw std::invalid_argument;
// environment problems (no compiler, unwritable cache, dlopen failure) throw ToolchainError; a
// kernel that does not compile throws CompileError, whose message lists the diagnostics with the
// generated file's path and line, the first lines of the compiler output, and the command line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "af_cpu/launch_abi.h"

namespace af::toolchain {

// One generated file. `name` is a plain file name: [A-Za-z0-9_.-]+, no "..", not one of the
// names the cache folder uses itself (kernel.so, compile_command.txt, bisheng_command.sh).
struct SourceFile {
  std::string name;
  std::string text;
};

struct CompileOptions {
  // The host compiler: a path or a name looked up on PATH. Empty: $CXX (split at spaces, so
  // "ccache g++" works), then c++, g++, clang++ on PATH.
  std::string cxx;
  // Extra flags, after -std and before the fixed ones (-shared -fPIC -pthread -I...).
  std::vector<std::string> flags = {"-O2"};
  // Empty: DefaultCacheDir().
  std::filesystem::path cache_dir;
  // The CPU runtime headers (the folder with kernel_operator.h). Empty: those of the install tree
  // the running program is in (<prefix>/include/autofuse/runtime for <prefix>/bin/afc), else the
  // source tree's libautofuse/runtime/include, as configured by CMake.
  std::filesystem::path runtime_include;
  // The value of -std=.
  std::string std = "c++17";
  // The compiler is killed (its whole process group) after this many seconds.
  int timeout_s = 300;
  // __NPU_ARCH__ for the kernel: 2201 (Atlas A2/A3) or 3510 (Ascend 950); NpuArchNumber.
  int npu_arch = 2201;
  // The --cce-aicore-arch of the bisheng_command.sh written next to the sources (BishengArch).
  std::string bisheng_arch = "dav-c220-vec";
};

// Something outside the kernel source went wrong: no compiler, cache not writable, dlopen failed.
class ToolchainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One diagnostic parsed from the compiler output ("path:line:col: severity: message").
struct Diagnostic {
  std::string file;      // as printed by the compiler: the path in the cache folder
  int line = 0;          // 1-based
  int col = 0;           // 1-based; 0 if not printed
  std::string severity;  // "error", "fatal error", "warning" or "note"
  std::string message;
};

// The generated code did not compile (or the compiler crashed or timed out). Generated code that
// does not compile is a bug in autofuse, not in the user's input, hence not an af::InputError.
class CompileError : public ToolchainError {
 public:
  CompileError(const std::string& what, std::vector<Diagnostic> diagnostics,
               std::string command_line, std::string output);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::string& command_line() const { return command_line_; }  // shell-quoted
  const std::string& output() const { return output_; }              // stdout + stderr, whole

 private:
  std::vector<Diagnostic> diagnostics_;
  std::string command_line_;
  std::string output_;
};

// A loaded kernel shared library. Closes it (dlclose) when the last reference goes away.
class KernelLibrary {
 public:
  KernelLibrary(void* handle, std::filesystem::path path, bool cache_hit, double compile_ms);
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  // dlsym; nullptr when the library has no such symbol.
  void* Symbol(const char* name) const;
  // Calls the library's `af_launch`. When the library exports `af_abi_version` and it differs
  // from AF_LAUNCH_ABI_VERSION, or there is no `af_launch`, nothing runs: args->status and
  // args->error say why and AF_STATUS_BAD_ARGS is returned. A null `args` returns
  // AF_STATUS_BAD_ARGS.
  int Launch(AfLaunchArgs* args) const;
  // af_abi_version() of the library, 0 if it does not export it.
  uint32_t abi_version() const { return abi_version_; }

  const std::filesystem::path& path() const { return path_; }  // .../<hash>/kernel.so
  std::filesystem::path dir() const { return path_.parent_path(); }
  bool cache_hit() const { return cache_hit_; }
  // Wall time of the CompileKernel call that produced this library (hashing, writing, compiling
  // and loading; on a cache hit only hashing and loading), in milliseconds.
  double compile_ms() const { return compile_ms_; }

 private:
  void* handle_;
  std::filesystem::path path_;
  bool cache_hit_;
  double compile_ms_;
  AfLaunchFn launch_ = nullptr;
  uint32_t abi_version_ = 0;
};

// Compiles `main_file` (one of `sources`) into a kernel .so, or reuses a cached one, and loads it
// with dlopen(RTLD_NOW | RTLD_LOCAL). The command is
//   <cxx> -std=<std> <flags...> -shared -fPIC -pthread -fdiagnostics-color=never
//         -I<runtime_include> -I<cache folder> <cache folder>/<main_file> -o <temp>
// run directly (no shell), with LC_ALL=C so diagnostics can be parsed. The cache key hashes
// (FNV-1a 64) the compiler's path and `--version` line, the whole command's flags, every file
// under runtime_include, and all source names and texts. Thread-safe.
std::shared_ptr<KernelLibrary> CompileKernel(const std::vector<SourceFile>& sources,
                                             const std::string& main_file,
                                             const CompileOptions& options = {});

// $AF_CACHE_DIR, else $XDG_CACHE_HOME/autofuse, else $HOME/.cache/autofuse, else
// <temp dir>/autofuse-cache-<uid>.
std::filesystem::path DefaultCacheDir();

// Throws std::invalid_argument unless `name` is a valid SourceFile name (see SourceFile).
void CheckSourceName(const std::string& name);

// The command that would build a kernel for the device with CANN's bisheng compiler. It is NOT
// tested here (we have no CANN install); CompileKernel writes it to bisheng_command.sh when
// `bisheng` is on PATH, as a starting point for trying a kernel on real hardware. The text is
//   bisheng -x cce --cce-aicore-arch=<arch> -std=<std> <flags...>
//           -I<home>/compiler/tikcpp -I<home>/compiler/tikcpp/tikcfw
//           -I<home>/compiler/tikcpp/tikcfw/impl -I<home>/compiler/tikcpp/tikcfw/interface
//           -I<home>/include -I. -c <main_file> -o <object>
// where <home> is `ascend_home` shell-quoted, or "${ASCEND_HOME_PATH}" when it is empty (so the
// script uses the environment set up by CANN's set_env.sh). Paths are relative to the folder
// holding the sources; arguments are shell-quoted where needed.
struct BishengOptions {
  std::string bisheng = "bisheng";
  std::string arch = "dav-c220-vec";  // Atlas A2 AI Vector core
  std::string ascend_home;            // empty: ${ASCEND_HOME_PATH}
  std::string std = "c++17";
  std::vector<std::string> flags = {"-O2"};
  std::string object = "kernel.o";
};
std::string BishengCommandLine(const std::string& main_file, const BishengOptions& options = {});

// The bisheng core architecture of a kernel: the profile's NPU arch ("dav-2201": Atlas A2/A3,
// "dav-3510": Ascend 950) and whether the kernel is of a mixed type (MIX_AIV_1_0 needs the mixed
// arch, which builds the AI Core's cube and vector parts; "-vec" builds the vector core only).
// Throws std::invalid_argument for an arch it does not know.
std::string BishengArch(const std::string& npu_arch, bool mixed);

// The __NPU_ARCH__ number of a profile's NPU arch ("dav-2201" -> 2201); throws
// std::invalid_argument for another form.
int NpuArchNumber(const std::string& npu_arch);

// The CPU runtime headers' folder CompileKernel uses (the one with kernel_operator.h): options'
// runtime_include, else the install tree's, else the source tree's. Throws ToolchainError.
std::filesystem::path RuntimeIncludeDir(const CompileOptions& options = {});

// Quotes `arg` for a POSIX shell when it contains anything but [A-Za-z0-9_./=:+,@%-].
std::string ShellQuote(const std::string& arg);

}  // namespace af::toolchain
