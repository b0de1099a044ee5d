// Reproducer folders (see repro.h).
#include "autofuse/exporters/repro.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "autofuse/data/compare.h"
#include "autofuse/data/host_array.h"
#include "autofuse/data/npy.h"
#include "autofuse/hw/profile.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"
#include "autofuse/toolchain/compile.h"

namespace af::exporters {
namespace {

namespace fs = std::filesystem;

// Through a temporary file and a rename: a failed write leaves no half-written file.
void Write(const fs::path& p, const std::string& text) {
  WriteFileReplacing(p.string(), text);
}

// How main.cc reads an element as a double (dtype codes of the generated comparer).
int DTypeCode(ir::DType t) {
  switch (t) {
    case ir::DType::kFloat32:
      return 0;
    case ir::DType::kFloat16:
      return 1;
    case ir::DType::kBFloat16:
      return 2;
    case ir::DType::kFloat64:
      return 3;
    case ir::DType::kInt8:
      return 4;
    case ir::DType::kInt16:
      return 5;
    case ir::DType::kInt32:
      return 6;
    case ir::DType::kInt64:
      return 7;
    case ir::DType::kUInt8:
      return 8;
    case ir::DType::kUInt16:
      return 9;
    case ir::DType::kUInt32:
      return 10;
    case ir::DType::kUInt64:
      return 11;
    case ir::DType::kBool:
      return 8;
    case ir::DType::kUndefined:
      break;
  }
  throw InputError({}, "reproducer: an undefined dtype");
}

// The fixed part of main.cc: raw file reading, element decoding and the comparison.
constexpr char kMainHead[] =
    R"(// Reproducer main: computes the tiling with the generated tiling function, launches the kernel
// on the CPU AscendC runtime and compares its outputs with the reference (data/out*.bin).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "af_cpu/launch_abi.h"

extern "C" int af_launch(AfLaunchArgs* args);
extern "C" int af_compute_tiling_t(const int64_t*, uint32_t, uint32_t, uint64_t, int32_t, int32_t,
                                   void*, uint64_t);
extern "C" uint64_t af_tiling_data_size(void);
extern "C" uint64_t af_workspace_bytes(const void* tiling);

namespace {

std::vector<uint8_t> ReadBin(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s (run from the reproducer folder or its build/)\n",
                 path.c_str());
    std::exit(2);
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

double Half(uint16_t h) {
  const int e = (h >> 10) & 0x1f;
  const int m = h & 0x3ff;
  const double s = (h & 0x8000) != 0 ? -1.0 : 1.0;
  if (e == 0) return s * std::ldexp(m, -24);
  if (e == 31) return m == 0 ? s * INFINITY : NAN;
  return s * std::ldexp(m + 1024, e - 25);
}

double Element(const uint8_t* p, int code) {
  switch (code) {
    case 0: { float f; std::memcpy(&f, p, 4); return f; }
    case 1: { uint16_t h; std::memcpy(&h, p, 2); return Half(h); }
    case 2: { uint16_t h; std::memcpy(&h, p, 2); uint32_t u = uint32_t{h} << 16; float f; std::memcpy(&f, &u, 4); return f; }
    case 3: { double d; std::memcpy(&d, p, 8); return d; }
    case 4: return static_cast<int8_t>(*p);
    case 5: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case 6: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case 7: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case 8: return *p;
    case 9: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 10: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
  }
}

int Size(int code) {
  static const int kSizes[] = {4, 2, 2, 8, 1, 2, 4, 8, 1, 2, 4, 8};
  return kSizes[code];
}

}  // namespace
)";

std::string MainCc(const pipeline::Kernel& k, const pipeline::Options& o,
                   const std::vector<interp::TensorSpec>& ins,
                   const std::vector<interp::TensorSpec>& outs, bool reduces) {
  const hw::Profile& profile = hw::GetProfile(o.soc);
  std::ostringstream m;
  m << kMainHead << "\nint main() {\n  // Size symbols of " << k.code.kernel_name
    << " in tiling-data order.\n  const std::vector<int64_t> syms = {";
  for (std::size_t i = 0; i < k.code.symbols.size(); ++i)
    m << (i != 0 ? ", " : "") << o.bindings.at(k.code.symbols[i]);
  m << "};\n  const uint32_t core_num = " << profile.vector_cores << ";  // " << o.soc
    << "\n  const uint64_t ub_bytes = " << profile.ub_bytes << ";\n";
  m << "  std::vector<uint8_t> tiling(af_tiling_data_size());\n"
       "  if (af_compute_tiling_t(syms.data(), static_cast<uint32_t>(syms.size()), core_num, "
       "ub_bytes, -1, -1, tiling.data(), tiling.size()) != 0) {\n"
       "    std::printf(\"FAIL: the tiling function found no tiling\\n\");\n    return 1;\n  }\n"
       "  AfTilingHeader header{};\n  std::memcpy(&header, tiling.data(), sizeof header);\n"
       "  const uint32_t block_dim = header.block_dim;\n";
  m << "  std::vector<std::vector<uint8_t>> gm;\n";
  for (const auto& in : ins)
    m << "  gm.push_back(ReadBin(DATA \"/in" << in.index << ".bin\"));\n";
  m << "  struct Out { const char* name; int code; double atol, rtol; };\n  const Out outs[] = {";
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const auto tol = data::DefaultTolerance(outs[i].dtype, reduces);
    m << (i != 0 ? ", " : "") << "{\"out" << outs[i].index << "\", " << DTypeCode(outs[i].dtype)
      << ", " << tol.atol << ", " << tol.rtol << "}";
  }
  m << "};\n";
  m << R"(  std::vector<std::vector<uint8_t>> expected;
  for (const auto& o : outs) {
    expected.push_back(ReadBin(std::string(DATA "/") + o.name + ".bin"));
    gm.emplace_back(expected.back().size(), 0);
  }
  std::vector<uint8_t*> ptrs;
  std::vector<uint64_t> sizes;
  for (auto& b : gm) {
    ptrs.push_back(b.empty() ? nullptr : b.data());
    sizes.push_back(b.size());
  }
  std::vector<uint8_t> workspace(af_workspace_bytes(tiling.data()));
  AfLaunchArgs args{};
  args.abi_version = AF_LAUNCH_ABI_VERSION;
  args.block_dim = block_dim == 0 ? 1 : block_dim;
  args.ub_bytes = ub_bytes;
  args.num_gm = static_cast<uint32_t>(ptrs.size());
  args.gm_ptrs = ptrs.data();
  args.gm_sizes = sizes.data();
  args.workspace = workspace.empty() ? nullptr : workspace.data();
  args.workspace_size = workspace.size();
  args.tiling = tiling.data();
  args.tiling_size = tiling.size();
  if (af_launch(&args) != AF_STATUS_OK) {
    std::printf("FAIL: %s\n", args.error);
    return 1;
  }
  bool ok = true;
  const std::size_t first_out = gm.size() - expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& o = outs[i];
    const int es = Size(o.code);
    double max_abs = 0;
    std::size_t bad = 0;
    for (std::size_t e = 0; e + es <= expected[i].size(); e += es) {
      const double want = Element(expected[i].data() + e, o.code);
      const double got = Element(gm[first_out + i].data() + e, o.code);
      const double d = std::fabs(want - got);
      max_abs = d > max_abs ? d : max_abs;
      const bool same = (std::isnan(want) && std::isnan(got)) || want == got ||
                        d <= o.atol + o.rtol * std::fabs(want);
      if (!same) ++bad;
    }
    std::printf("%s: max_abs=%.3g, %zu elements out of tolerance (atol=%.3g rtol=%.3g)\n", o.name,
                max_abs, bad, o.atol, o.rtol);
    ok = ok && bad == 0;
  }
  std::printf("%s (tiling case %u, block_dim %u)\n", ok ? "PASS" : "FAIL", header.tiling_key,
              block_dim);
  return ok ? 0 : 1;
}
)";
  return m.str();
}

std::string CMakeText(const pipeline::Kernel& k) {
  std::ostringstream c;
  c << "# Reproducer of " << k.code.kernel_name
    << " on the CPU AscendC runtime: plain CMake, no autofuse needed.\n"
       "cmake_minimum_required(VERSION 3.16)\nproject(autofuse_repro CXX)\n"
       "set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
       "find_package(Threads REQUIRED)\n"
       "# The kernel as a shared library (as afc builds it), the runner linked against it.\n"
       "add_library(kernel SHARED kernel/"
    << k.code.main_file
    << ")\ntarget_include_directories(kernel PRIVATE runtime kernel)\n"
       "target_compile_options(kernel PRIVATE -O2)\n"
       "target_link_libraries(kernel PRIVATE Threads::Threads)\n"
       "add_executable(repro main.cc)\ntarget_include_directories(repro PRIVATE runtime)\n"
       "target_compile_definitions(repro PRIVATE DATA=\"${CMAKE_CURRENT_SOURCE_DIR}/data\")\n"
       "target_link_libraries(repro PRIVATE kernel Threads::Threads)\n";
  return c.str();
}

}  // namespace

void WriteRepro(const pipeline::Kernel& k, const pipeline::Options& options, const fs::path& dir,
                std::uint64_t seed) {
  if (!k.error.empty()) throw InputError({}, "kernel not compiled: " + k.error);
  for (const auto& s : k.code.symbols) {
    if (!options.bindings.contains(s)) {
      throw InputError({}, "size symbol '" + s + "' is unbound: pass --bind " + s + "=N");
    }
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    throw InputError({dir.string(), 0, 0},
                     "exists and is not an empty folder; not writing into it");
  }
  fs::create_directories(dir / "kernel", ec);
  fs::create_directories(dir / "data", ec);
  if (ec) throw InputError({dir.string(), 0, 0}, "cannot create the folder: " + ec.message());
  // Whatever codegen emitted, file by file, and whatever runtime headers exist.
  for (const auto& f : k.code.files)
    Write(dir / "kernel" / f.name, f.text);
  const fs::path runtime = toolchain::RuntimeIncludeDir(options.compile);
  fs::copy(runtime, dir / "runtime", fs::copy_options::recursive, ec);
  if (ec)
    throw InputError({runtime.string(), 0, 0}, "cannot copy the runtime headers: " + ec.message());
  // Seeded inputs (indices kept small and non-negative) and the reference interpreter's outputs.
  const auto ins = interp::InputShapes(k.hint, options.bindings);
  const auto outs = interp::OutputShapes(k.hint, options.bindings);
  std::vector<data::HostArray> inputs;
  for (const auto& s : ins) {
    const bool integer = !ir::IsFloat(s.dtype);
    inputs.push_back(data::RandomArray(s.dtype, s.shape,
                                       seed * 7919 + static_cast<std::uint64_t>(s.index),
                                       integer ? 0.0 : -1.0, 1.0));
    const std::string stem = "in" + std::to_string(s.index);
    data::WriteNpy((dir / "data" / (stem + ".npy")).string(), inputs.back());
    Write(dir / "data" / (stem + ".bin"),
          std::string(inputs.back().bytes.begin(), inputs.back().bytes.end()));
  }
  const auto expected = interp::Interpret(k.hint, options.bindings, inputs);
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::string stem = "out" + std::to_string(outs[i].index);
    data::WriteNpy((dir / "data" / (stem + ".npy")).string(), expected.at(i));
    Write(dir / "data" / (stem + ".bin"),
          std::string(expected[i].bytes.begin(), expected[i].bytes.end()));
  }
  const bool reduces =
      std::ranges::any_of(k.hint.nodes, [](const ir::Node& n) { return ir::IsReduceOp(n.type); });
  Write(dir / "main.cc", MainCc(k, options, ins, outs, reduces));
  Write(dir / "CMakeLists.txt", CMakeText(k));
  // The core architecture of the kernel's type: the AI Core (cube + vector, or a hard SyncAll)
  // or the AI Vector core alone.
  toolchain::BishengOptions bisheng;
  bisheng.arch = toolchain::BishengArch(hw::GetProfile(options.soc).npu_arch, k.code.mixed);
  Write(dir / "bisheng.txt",
        "# On a host with the CANN toolkit (ASCEND_HOME_PATH set), from kernel/:\n" +
            toolchain::BishengCommandLine(k.code.main_file, bisheng) + "\n");
}

}  // namespace af::exporters
