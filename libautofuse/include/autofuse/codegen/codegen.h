// AscendC code generation for one fused kernel: the kernel source (an `extern "C" __global__
// __aicore__` entry that reads the tiling data and dispatches on the tiling key to one function
// per impl graph), the tiling-data header, the tiling function (the same solver the compiler
// runs in-process, af_tiling/elementwise.h) and the infer-shape function.
//
// Nothing from input files reaches the generated text unsanitised: identifiers are generated
// (n<i>, q<i>, b<i>, s<i>), names appear only in comments after SafeComment, numbers are printed
// by us.
#pragma once

#include <string>
#include <vector>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/graph.h"
#include "autofuse/schedule/schedule.h"

namespace af::codegen {

struct GeneratedFile {
  std::string name;  // file name, [A-Za-z0-9_.]+
  std::string text;
};

struct GeneratedKernel {
  std::string kernel_name;           // autofused_<ops>_<hash>, a C identifier
  std::vector<GeneratedFile> files;  // tiling data header, kernel, tiling, infer-shape, all
  std::string main_file;             // the file that includes the others (compile this one)
  std::vector<std::string> symbols;  // size symbols in tiling-data order
  std::vector<int> input_nodes;      // Data nodes of the hint graph in parameter order
  std::vector<int> output_nodes;     // Output nodes of the hint graph in parameter order
  // The kernel type the kernel declares: a template that synchronises all cores (r_core's hard
  // SyncAll) makes it KERNEL_TYPE_MIX_AIV_1_0, else KERNEL_TYPE_AIV_ONLY.
  bool mixed = false;
};

// Raised when the schedule holds something codegen cannot emit yet; `code` is a reason code.
class CodegenError : public std::runtime_error {
 public:
  CodegenError(std::string code, const std::string& msg)
      : std::runtime_error(msg), code_(std::move(code)) {}
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// How the generated tiling function solves: the solver and its options (compiled in), and
// whether it keeps a per-thread cache of its last decisions (--autofuse_enable_tiling_cache).
struct TilingOptions {
  af_tiling::SolverOptions solver;
  bool cache = false;
  // The profile's vector cores and UB bytes: what inductor_npu_ext's AutofuseTiling entry uses
  // (it passes no core count or UB size of its own).
  std::uint32_t core_num = 0;
  std::uint64_t ub_size = 0;
  // The SoC's L0C bytes, for a cube + vector kernel's cube tiling (af_tiling::CubeHw).
  std::uint64_t cube_l0c_bytes = std::uint64_t{128} * 1024;
  // --autofuse_enable_pgo: the PGO result file the tiling function reads (af_tiling/pgo.h;
  // $AF_PGO_FILE overrides it at run time). Empty: no PGO.
  std::string pgo_file;
};

GeneratedKernel Generate(const ir::Graph& hint, const schedule::ScheduleResult& s,
                         const TilingOptions& tiling = TilingOptions{});

// Helpers shared with tests.
std::string SafeIdent(const std::string& s);    // [A-Za-z_][A-Za-z0-9_]*, never empty
std::string SafeComment(const std::string& s);  // printable ASCII without "*/", "\\", newlines
// A C string literal of any bytes: letters, digits and " /._-+=,:@" as they are, every other
// byte as a three-digit octal escape (so no quote, backslash, newline or trigraph gets through).
std::string CStringLiteral(const std::string& s);
std::string KernelName(const ir::Graph& hint);  // autofused_<op types>_<hash of the dump>

}  // namespace af::codegen
