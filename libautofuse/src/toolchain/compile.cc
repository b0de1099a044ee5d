// Kernel compilation with an on-disk cache: hash the inputs, write the sources into the folder
// named by the hash, run the host compiler there (no shell), rename the result into place, dlopen.
#include "autofuse/toolchain/compile.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "autofuse/toolchain/source_key.h"
#include "process.h"

#ifndef AF_RUNTIME_INCLUDE_DIR
#define AF_RUNTIME_INCLUDE_DIR ""
#endif
#ifndef AF_RUNTIME_INCLUDE_FROM_BIN
#define AF_RUNTIME_INCLUDE_FROM_BIN ""
#endif

namespace af::toolchain {
namespace {

namespace fs = std::filesystem;

// Bumped whenever the command line or cache layout changes in a way the hash would not see.
// 2: sources are keyed without their comments (source_key.h).
constexpr std::string_view kCacheLayout = "autofuse-toolchain-2";
constexpr const char* kLibraryName = "kernel.so";
// The library's content digest, written after a successful build and checked before a cached
// library is loaded: a damaged entry (a truncated or altered kernel.so) is rebuilt, never run.
constexpr const char* kDigestName = "kernel.so.digest";
constexpr const char* kCommandFile = "compile_command.txt";
constexpr const char* kBishengScript = "bisheng_command.sh";
constexpr size_t kShownOutputLines = 20;
constexpr size_t kShownErrors = 20;

// FNV-1a, 64 bit. Every piece is preceded by its length so that ("ab","c") != ("a","bc").
class Hasher {
 public:
  void Bytes(std::string_view s) {
    for (const char c : s) {
      h_ ^= static_cast<unsigned char>(c);
      h_ *= 0x100000001b3ull;
    }
  }
  void Add(std::string_view s) {
    const std::string len = std::to_string(s.size()) + ":";
    Bytes(len);
    Bytes(s);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

// The plain FNV-1a digest of `bytes`.
uint64_t Fnv(std::string_view bytes) {
  Hasher h;
  h.Bytes(bytes);
  return h.value();
}

std::string Hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string ReadWholeFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw ToolchainError("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Getenv(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

std::vector<std::string> SplitWords(const std::string& s) {
  std::vector<std::string> words;
  std::istringstream in(s);
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

std::string JoinQuoted(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    out += ShellQuote(a);
  }
  return out;
}

// The compiler as an argv prefix whose first word is an absolute path (or a path with '/').
std::vector<std::string> ResolveCompiler(const std::string& requested) {
  auto resolve = [](std::vector<std::string> words) -> std::vector<std::string> {
    if (words.empty()) return {};
    const std::string found = FindProgram(words[0]);
    if (found.empty()) return {};
    words[0] = found;
    return words;
  };
  if (!requested.empty()) {
    std::vector<std::string> r = resolve({requested});
    if (r.empty()) {
      throw ToolchainError("C++ compiler '" + requested + "' not found" +
                           (requested.find('/') != std::string::npos
                                ? std::string(" (no executable file at that path)")
                                : std::string(" on PATH")));
    }
    return r;
  }
  if (const std::string env = Getenv("CXX"); !env.empty()) {
    std::vector<std::string> r = resolve(SplitWords(env));
    if (r.empty()) throw ToolchainError("C++ compiler from $CXX ('" + env + "') not found");
    return r;
  }
  for (const char* name : {"c++", "g++", "clang++"}) {
    std::vector<std::string> r = resolve({name});
    if (!r.empty()) return r;
  }
  throw ToolchainError(
      "no C++ compiler found: $CXX is not set and none of c++, g++, clang++ is "
      "on PATH");
}

// The first line of `<compiler> --version`, once per process and compiler.
std::string CompilerVersion(const std::vector<std::string>& compiler) {
  static std::mutex mu;
  static std::map<std::vector<std::string>, std::string> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(compiler); it != cache.end()) return it->second;
  std::vector<std::string> argv = compiler;
  argv.emplace_back("--version");
  const ProcessResult r = RunProcess(argv, {"LC_ALL=C"}, 60);
  if (!r.started) {
    throw ToolchainError("could not run the C++ compiler '" + compiler[0] + "': " + r.error);
  }
  if (r.timed_out || r.exit_code != 0) {
    throw ToolchainError("the C++ compiler failed to report its version: " + JoinQuoted(argv) +
                         "\n" + r.output.substr(0, 2000));
  }
  std::string line = r.output.substr(0, r.output.find('\n'));
  cache.emplace(compiler, line);
  return line;
}

// A hash of every file under the runtime include folder (names and contents), once per process.
uint64_t RuntimeHeadersHash(const fs::path& dir) {
  static std::mutex mu;
  static std::map<std::string, uint64_t> cache;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache.find(dir.string()); it != cache.end()) return it->second;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), dir));
  }
  if (ec)
    throw ToolchainError("cannot list the runtime headers in " + dir.string() + ": " +
                         ec.message());
  std::sort(files.begin(), files.end());
  Hasher h;
  for (const fs::path& f : files) {
    h.Add(f.generic_string());
    h.Add(ReadWholeFile(dir / f));
  }
  cache.emplace(dir.string(), h.value());
  return h.value();
}

// A name unique to this process, thread and call, for temporary files.
std::string UniqueSuffix() {
  static std::atomic<uint64_t> counter{0};
  const size_t tid = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return std::to_string(::getpid()) + "." + Hex(tid).substr(8) + "." + std::to_string(counter++);
}

// Writes `text` to dir/name through a temporary file and a rename.
void WriteFileAtomic(const fs::path& dir, const std::string& name, const std::string& text,
                     bool executable = false) {
  const fs::path tmp = dir / (".tmp." + UniqueSuffix() + "." + name);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw ToolchainError("cannot write " + tmp.string());
    }
  }
  if (executable) ::chmod(tmp.c_str(), 0755);
  std::error_code ec;
  fs::rename(tmp, dir / name, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw ToolchainError("cannot rename a file into " + (dir / name).string() + ": " +
                         ec.message());
  }
}

std::vector<Diagnostic> ParseDiagnostics(const std::string& output) {
  static const std::regex kLine(
      R"(^(.+?):([0-9]+):(?:([0-9]+):)? (fatal error|error|warning|note): (.*)$)");
  std::vector<Diagnostic> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (!std::regex_match(line, m, kLine)) continue;
    Diagnostic d;
    d.file = m[1].str();
    d.line = std::atoi(m[2].str().c_str());
    d.col = m[3].matched ? std::atoi(m[3].str().c_str()) : 0;
    d.severity = m[4].str();
    d.message = m[5].str();
    out.push_back(std::move(d));
  }
  return out;
}

std::string FailureMessage(const std::string& main_file, const fs::path& folder,
                           const std::string& reason, const std::vector<Diagnostic>& diags,
                           const std::string& output, const std::string& command) {
  std::string msg =
      "kernel '" + main_file + "' failed to compile (" + reason + ") in " + folder.string() + "\n";
  size_t errors = 0;
  for (const Diagnostic& d : diags) {
    if (d.severity != "error" && d.severity != "fatal error") continue;
    if (errors++ >= kShownErrors) continue;
    if (errors == 1) msg += "errors:\n";
    msg += "  " + d.file + ":" + std::to_string(d.line);
    if (d.col > 0) msg += ":" + std::to_string(d.col);
    msg += ": " + d.severity + ": " + d.message + "\n";
  }
  if (errors > kShownErrors) {
    msg += "  (" + std::to_string(errors - kShownErrors) + " more errors)\n";
  }
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  if (!lines.empty()) {
    msg += "compiler output";
    if (lines.size() > kShownOutputLines) {
      msg += " (first " + std::to_string(kShownOutputLines) + " of " +
             std::to_string(lines.size()) + " lines)";
    }
    msg += ":\n";
    for (size_t i = 0; i < lines.size() && i < kShownOutputLines; ++i)
      msg += "  " + lines[i] + "\n";
  }
  msg += "command: " + command;
  return msg;
}

// The runtime headers of the install tree the running program is in (afc in <prefix>/bin finds
// <prefix>/include/autofuse/runtime); empty when there are none there (a build-tree afc, a test).
fs::path InstalledRuntimeInclude() {
  static const fs::path found = [] {
    const fs::path from_bin = AF_RUNTIME_INCLUDE_FROM_BIN;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (from_bin.empty() || ec) return fs::path();
    const fs::path dir = (exe.parent_path() / from_bin).lexically_normal();
    return fs::is_regular_file(dir / "kernel_operator.h", ec) ? dir : fs::path();
  }();
  return found;
}

fs::path ResolveRuntimeInclude(const CompileOptions& o) {
  fs::path dir = o.runtime_include;
  if (dir.empty()) dir = InstalledRuntimeInclude();
  if (dir.empty()) dir = AF_RUNTIME_INCLUDE_DIR;
  if (dir.empty()) {
    throw ToolchainError("no runtime include folder: set CompileOptions::runtime_include");
  }
  std::error_code ec;
  if (!fs::is_regular_file(dir / "kernel_operator.h", ec)) {
    throw ToolchainError("the runtime include folder " + dir.string() +
                         " has no kernel_operator.h");
  }
  return fs::absolute(dir).lexically_normal();
}

// Opens a kernel library; nullptr and `error` set on failure.
void* OpenLibrary(const fs::path& so, std::string* error) {
  void* handle = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* e = ::dlerror();
    *error = e != nullptr ? e : "unknown dlopen error";
  }
  return handle;
}

double MillisecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The flags between -std and the fixed ones: AF_KERNEL_CXXFLAGS (split at spaces) replaces the
// default -O2 when the caller kept the default (the soak compiles at -O0: the runtime's checks
// are in the headers' code, not in the optimiser, so they all stay on).
std::vector<std::string> ExtraFlags(const CompileOptions& o) {
  const std::string env = Getenv("AF_KERNEL_CXXFLAGS");
  if (env.empty() || o.flags != CompileOptions{}.flags) return o.flags;
  return SplitWords(env);
}

// The file of the prebuilt runtime object inside a PrecompiledRuntime folder.
constexpr const char* kRuntimeObject = "af_cpu_runtime.o";

// Runs one compile of PrecompiledRuntime's into `out` (through a temporary file in `dir`);
// false when it fails in any way.
bool BuildInto(std::vector<std::string> argv, const fs::path& dir, const fs::path& out,
               int timeout_s) {
  const fs::path tmp = dir / (".tmp." + UniqueSuffix() + out.extension().string());
  argv.emplace_back("-o");
  argv.push_back(tmp.string());
  const ProcessResult r = RunProcess(argv, {"LC_ALL=C"}, timeout_s);
  std::error_code ec;
  if (!r.started || r.timed_out || r.signal != 0 || r.exit_code != 0 ||
      !fs::is_regular_file(tmp, ec)) {
    fs::remove(tmp, ec);
    return false;
  }
  fs::rename(tmp, out, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

// The part of every kernel compile that does not depend on the kernel, done once per GCC, flags
// and runtime into <cache>/pch-<hash>/: a precompiled kernel_operator.h (next to a copy of the
// header: GCC resolves later includes of a header it took from a .gch in that folder, where the
// copy's #pragma once ends them) and the runtime's out-of-line functions as one object
// (af_cpu/runtime_impl.h), both with AF_CPU_PREBUILT_RUNTIME. A kernel compile then parses no
// runtime header and generates no launcher code: measured on one kernel at -O0, 1.9 -> 0.9 CPU-s
// (docs/toolchain.md). Returns the folder, to be searched first with `-include kernel_operator.h`
// and -DAF_CPU_PREBUILT_RUNTIME, the object linked; or empty, and the kernel is built header-only
// as before: no source includes kernel_operator.h (a tiling function alone, which the pipeline
// tests build by the thousand, would load the whole .gch for nothing), not GCC (clang wants
// -include-pch), AF_KERNEL_PCH is not 1 (opt-in: building the two costs about two kernel compiles,
// which pays only where many kernels share one cache folder, as in the suite and the soak), or a
// build failed.
fs::path PrecompiledRuntime(const std::vector<const SourceFile*>& sources,
                            const std::vector<std::string>& compiler, const std::string& version,
                            const std::vector<std::string>& flags, const fs::path& runtime_include,
                            const fs::path& cache_dir, int timeout_s) {
  // GCC's --version line names the driver ("g++ (Debian 12.2.0-14) 12.2.0"); clang's says clang.
  if (Getenv("AF_KERNEL_PCH") != "1" || version.find("clang") != std::string::npos) return {};
  if (std::none_of(sources.begin(), sources.end(), [](const SourceFile* s) {
        return s->text.find("kernel_operator.h") != std::string::npos;
      }))
    return {};
  Hasher h;
  h.Add(kCacheLayout);
  h.Add("pch+runtime");
  for (const std::string& w : compiler)
    h.Add(w);
  h.Add(version);
  for (const std::string& f : flags)
    h.Add(f);
  h.Add(Hex(RuntimeHeadersHash(runtime_include)));
  fs::path dir = cache_dir / ("pch-" + Hex(h.value()));
  const fs::path gch = dir / "kernel_operator.h.gch";
  const fs::path object = dir / kRuntimeObject;
  std::error_code ec;
  if (fs::is_regular_file(gch, ec) && fs::is_regular_file(object, ec)) return dir;
  fs::create_directories(dir, ec);
  if (ec) return {};
  try {
    WriteFileAtomic(dir, "kernel_operator.h", ReadWholeFile(runtime_include / "kernel_operator.h"));
    WriteFileAtomic(dir, "af_cpu_runtime.cc",
                    "// autofuse: the CPU runtime's out-of-line functions, built once per cache\n"
                    "#include \"kernel_operator.h\"\n");
  } catch (const ToolchainError&) {
    return {};
  }
  std::vector<std::string> base = compiler;
  for (const std::string& f : flags)
    if (f != "-shared") base.push_back(f);
  base.emplace_back("-DAF_CPU_PREBUILT_RUNTIME");
  std::vector<std::string> header = base;
  for (const std::string& a : {"-I" + runtime_include.string(), std::string("-x"),
                               std::string("c++-header"), (dir / "kernel_operator.h").string()})
    header.push_back(a);
  // The object sees the real runtime folder only: the copy of kernel_operator.h and its .gch in
  // `dir` are built without the out-of-line functions.
  std::vector<std::string> runtime = base;
  for (const std::string& a :
       {std::string("-DAF_CPU_RUNTIME_OBJECT"), "-I" + runtime_include.string(), std::string("-c"),
        (dir / "af_cpu_runtime.cc").string()})
    runtime.push_back(a);
  if (!fs::is_regular_file(gch, ec) && !BuildInto(header, dir, gch, timeout_s)) return {};
  if (!fs::is_regular_file(object, ec) && !BuildInto(runtime, dir, object, timeout_s)) return {};
  return dir;
}

}  // namespace

CompileError::CompileError(const std::string& what, std::vector<Diagnostic> diagnostics,
                           std::string command_line, std::string output)
    : ToolchainError(what),
      diagnostics_(std::move(diagnostics)),
      command_line_(std::move(command_line)),
      output_(std::move(output)) {}

KernelLibrary::KernelLibrary(void* handle, std::filesystem::path path, bool cache_hit,
                             double compile_ms)
    : handle_(handle), path_(std::move(path)), cache_hit_(cache_hit), compile_ms_(compile_ms) {
  launch_ = reinterpret_cast<AfLaunchFn>(Symbol("af_launch"));
  if (auto version = reinterpret_cast<AfAbiVersionFn>(Symbol("af_abi_version"))) {
    abi_version_ = version();
  }
}

KernelLibrary::~KernelLibrary() {
  if (handle_ != nullptr) ::dlclose(handle_);
}

void* KernelLibrary::Symbol(const char* name) const {
  if (handle_ == nullptr || name == nullptr) return nullptr;
  return ::dlsym(handle_, name);
}

int KernelLibrary::Launch(AfLaunchArgs* args) const {
  if (args == nullptr) return AF_STATUS_BAD_ARGS;
  std::string problem;
  if (launch_ == nullptr) {
    problem = path_.string() + " does not export af_launch (no AF_DEFINE_LAUNCH in the kernel?)";
  } else if (abi_version_ != 0 && abi_version_ != AF_LAUNCH_ABI_VERSION) {
    problem = path_.string() + " was built for launch ABI " + std::to_string(abi_version_) +
              " but the caller uses " + std::to_string(AF_LAUNCH_ABI_VERSION);
  }
  if (problem.empty()) return launch_(args);
  args->status = AF_STATUS_BAD_ARGS;
  args->failed_block = -1;
  const size_t n = std::min(problem.size(), sizeof(args->error) - 1);
  std::memcpy(args->error, problem.data(), n);
  args->error[n] = '\0';
  return AF_STATUS_BAD_ARGS;
}

void CheckSourceName(const std::string& name) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument("bad kernel source file name '" + name + "': " + why);
  };
  if (name.empty()) bad("empty");
  if (name.size() > 200) bad("longer than 200 characters");
  for (const char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) bad("only letters, digits, '_', '.' and '-' are allowed");
  }
  if (name == "." || name.find("..") != std::string::npos) bad("'.' and '..' are not allowed");
  if (name[0] == '-') bad("must not start with '-'");
  if (name == kLibraryName || name == kCommandFile || name == kBishengScript ||
      name.rfind(".tmp.", 0) == 0 || name.rfind("kernel.so.", 0) == 0) {
    bad("reserved for the cache folder's own files");
  }
}

// The digest of a built library's bytes, as written into kDigestName.
std::string LibraryDigest(const fs::path& so) {
  return Hex(Fnv(ReadWholeFile(so))) + "\n";
}

// Whether the cached library `so` has a digest file matching its bytes.
bool CacheEntryIntact(const fs::path& so) {
  try {
    return ReadWholeFile(so.parent_path() / kDigestName) == LibraryDigest(so);
  } catch (const ToolchainError&) {
    return false;  // a missing digest or an unreadable library: not intact
  }
}

fs::path DefaultCacheDir() {
  if (const std::string d = Getenv("AF_CACHE_DIR"); !d.empty()) return d;
  if (const std::string d = Getenv("XDG_CACHE_HOME"); !d.empty()) return fs::path(d) / "autofuse";
  if (const std::string d = Getenv("HOME"); !d.empty()) return fs::path(d) / ".cache" / "autofuse";
  return fs::temp_directory_path() / ("autofuse-cache-" + std::to_string(::getuid()));
}

std::shared_ptr<KernelLibrary> CompileKernel(const std::vector<SourceFile>& sources,
                                             const std::string& main_file,
                                             const CompileOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();

  // Check the arguments before touching the file system.
  std::vector<const SourceFile*> sorted;
  for (const SourceFile& s : sources) {
    CheckSourceName(s.name);
    sorted.push_back(&s);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const SourceFile* a, const SourceFile* b) { return a->name < b->name; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i]->name == sorted[i - 1]->name) {
      throw std::invalid_argument("kernel source file '" + sorted[i]->name + "' is given twice");
    }
  }
  if (std::none_of(sources.begin(), sources.end(),
                   [&](const SourceFile& s) { return s.name == main_file; })) {
    throw std::invalid_argument("main file '" + main_file + "' is not among the kernel sources");
  }
  if (options.timeout_s <= 0) throw std::invalid_argument("CompileOptions::timeout_s must be > 0");

  const std::vector<std::string> compiler = ResolveCompiler(options.cxx);
  const std::string version = CompilerVersion(compiler);
  const fs::path runtime_include = ResolveRuntimeInclude(options);

  // Everything on the command line except the paths inside the cache folder.
  std::vector<std::string> flags = {"-std=" + options.std};
  const std::vector<std::string> extra = ExtraFlags(options);
  flags.insert(flags.end(), extra.begin(), extra.end());
  // The AI Core architecture, as CANN's compiler defines it for --npu-arch (the runtime's API
  // signatures follow it).
  flags.push_back("-D__NPU_ARCH__=" + std::to_string(options.npu_arch));
  for (const char* f : {"-shared", "-fPIC", "-pthread", "-fdiagnostics-color=never"})
    flags.emplace_back(f);

  Hasher h;
  h.Add(kCacheLayout);
  for (const std::string& w : compiler)
    h.Add(w);
  h.Add(version);
  h.Add(std::to_string(flags.size()));
  for (const std::string& f : flags)
    h.Add(f);
  h.Add(Hex(RuntimeHeadersHash(runtime_include)));
  h.Add(main_file);
  h.Add(std::to_string(sorted.size()));
  for (const SourceFile* s : sorted) {
    h.Add(s->name);
    h.Add(StripComments(s->text));  // kernels differing only in comments share one object
  }

  const fs::path cache_dir =
      fs::absolute(options.cache_dir.empty() ? DefaultCacheDir() : options.cache_dir);
  const fs::path folder = cache_dir / Hex(h.value());
  const fs::path so = folder / kLibraryName;

  std::error_code ec;
  std::string load_error;
  if (fs::is_regular_file(so, ec) && CacheEntryIntact(so)) {
    if (void* handle = OpenLibrary(so, &load_error)) {
      return std::make_shared<KernelLibrary>(handle, so, true, MillisecondsSince(t0));
    }
  }
  // A cached library that fails its digest or does not load (a damaged cache) is rebuilt below:
  // its digest goes first, so a build interrupted from here on leaves no entry that looks valid.
  fs::remove(folder / kDigestName, ec);

  fs::create_directories(folder, ec);
  if (ec)
    throw ToolchainError("cannot create the kernel cache folder " + folder.string() + ": " +
                         ec.message());
  for (const SourceFile* s : sorted)
    WriteFileAtomic(folder, s->name, s->text);

  std::vector<std::string> argv = compiler;
  argv.insert(argv.end(), flags.begin(), flags.end());
  const fs::path pch = PrecompiledRuntime(sorted, compiler, version, flags, runtime_include,
                                          cache_dir, options.timeout_s);
  if (!pch.empty()) {
    for (const std::string& a : {std::string("-DAF_CPU_PREBUILT_RUNTIME"), "-I" + pch.string(),
                                 std::string("-include"), std::string("kernel_operator.h")})
      argv.push_back(a);
  }
  argv.push_back("-I" + runtime_include.string());
  argv.push_back("-I" + folder.string());
  argv.push_back((folder / main_file).string());
  if (!pch.empty()) argv.push_back((pch / kRuntimeObject).string());
  argv.emplace_back("-o");
  std::vector<std::string> shown = argv;
  shown.push_back(so.string());
  WriteFileAtomic(folder, kCommandFile, JoinQuoted(shown) + "\n");

  BishengOptions bisheng_options;
  bisheng_options.arch = options.bisheng_arch;
  if (!FindProgram("bisheng").empty()) {
    WriteFileAtomic(folder, kBishengScript,
                    "#!/bin/sh\n"
                    "# Builds this kernel for an Ascend device with CANN's bisheng. Written by\n"
                    "# autofuse and NOT tested by it (no CANN or NPU there); see "
                    "docs/toolchain.md.\n"
                    "# Needs ASCEND_HOME_PATH (source CANN's set_env.sh first).\n"
                    "set -e\n"
                    "cd \"$(dirname \"$0\")\"\n" +
                        BishengCommandLine(main_file, bisheng_options) + "\n",
                    true);
  }

  const fs::path tmp = folder / (std::string(kLibraryName) + ".tmp." + UniqueSuffix());
  argv.push_back(tmp.string());
  const std::string command = JoinQuoted(argv);
  const ProcessResult r = RunProcess(argv, {"LC_ALL=C"}, options.timeout_s);
  if (!r.started) {
    throw ToolchainError("could not run the C++ compiler '" + compiler[0] + "': " + r.error +
                         "\ncommand: " + command);
  }
  std::string reason;
  if (r.timed_out) {
    reason = "timed out after " + std::to_string(options.timeout_s) + " s";
  } else if (r.signal != 0) {
    reason = std::string("compiler killed by signal ") + std::to_string(r.signal);
  } else if (r.exit_code != 0) {
    reason = "exit code " + std::to_string(r.exit_code);
  } else if (!fs::is_regular_file(tmp, ec)) {
    reason = "the compiler reported success but wrote no library";
  }
  if (!reason.empty()) {
    fs::remove(tmp, ec);
    std::vector<Diagnostic> diags = ParseDiagnostics(r.output);
    const std::string what = FailureMessage(main_file, folder, reason, diags, r.output, command);
    throw CompileError(what, std::move(diags), command, r.output);
  }
  fs::rename(tmp, so, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw ToolchainError("cannot rename the compiled kernel into " + so.string() + ": " +
                         ec.message());
  }
  WriteFileAtomic(folder, kDigestName, LibraryDigest(so));
  void* handle = OpenLibrary(so, &load_error);
  if (handle == nullptr) {
    throw ToolchainError("cannot load the compiled kernel " + so.string() + ": " + load_error);
  }
  return std::make_shared<KernelLibrary>(handle, so, false, MillisecondsSince(t0));
}

std::string ShellQuote(const std::string& arg) {
  if (arg.empty()) return "''";
  const bool plain = std::all_of(arg.begin(), arg.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           std::strchr("_./=:+,@%-", c) != nullptr;
  });
  if (plain) return arg;
  std::string out = "'";
  for (const char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

int NpuArchNumber(const std::string& npu_arch) {
  const std::string prefix = "dav-";
  const std::string digits = npu_arch.substr(std::min(prefix.size(), npu_arch.size()));
  if (npu_arch.rfind(prefix, 0) != 0 || digits.empty() || digits.size() > 6 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument("NPU arch '" + npu_arch + "' is not of the form dav-<number>");
  }
  return std::stoi(digits);
}

std::string BishengArch(const std::string& npu_arch, bool mixed) {
  // dav-c220 is the Atlas A2/A3 AI Core (DAV_C220, NPU arch 2201), dav-c310 the Ascend 950's
  // (DAV_C310, NPU arch 3510): the __DAV_C220__/__DAV_C310__ and __NPU_ARCH__ values of CANN's
  // public AscendC headers (docs/toolchain.md).
  std::string base;
  if (npu_arch == "dav-2201") {
    base = "dav-c220";
  } else if (npu_arch == "dav-3510") {
    base = "dav-c310";
  } else {
    throw std::invalid_argument("no bisheng core architecture is known for NPU arch '" + npu_arch +
                                "'");
  }
  return mixed ? base : base + "-vec";
}

std::filesystem::path RuntimeIncludeDir(const CompileOptions& options) {
  return ResolveRuntimeInclude(options);
}

std::string BishengCommandLine(const std::string& main_file, const BishengOptions& o) {
  const std::string home =
      o.ascend_home.empty() ? std::string("\"${ASCEND_HOME_PATH}\"") : ShellQuote(o.ascend_home);
  std::string cmd = ShellQuote(o.bisheng) + " -x cce " + ShellQuote("--cce-aicore-arch=" + o.arch) +
                    " " + ShellQuote("-std=" + o.std);
  for (const std::string& f : o.flags)
    cmd += " " + ShellQuote(f);
  for (const char* sub :
       {"compiler/tikcpp", "compiler/tikcpp/tikcfw", "compiler/tikcpp/tikcfw/impl",
        "compiler/tikcpp/tikcfw/interface", "include"}) {
    cmd += " -I" + home + "/" + sub;
  }
  cmd += " -I. -c " + ShellQuote(main_file) + " -o " + ShellQuote(o.object);
  return cmd;
}

}  // namespace af::toolchain
