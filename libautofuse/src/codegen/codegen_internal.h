// Shared state of one kernel's code generation (private to src/codegen).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "autofuse/codegen/codegen.h"
#include "autofuse/schedule/schedule.h"

namespace af::codegen {

using sym::Expr;

std::string CType(ir::DType t);  // float, half, bfloat16_t, int32_t, uint8_t (bool) ...
// A scalar of C++ type `ty` from a numeric literal (through float for half/bfloat16_t).
std::string ScalarOf(const std::string& ty, const std::string& literal);

struct Context {
  const ir::Graph& hint;
  const schedule::ScheduleResult& s;
  std::string kernel;
  std::vector<std::string> symbols;                 // original names, tiling-data order
  std::map<std::string, Expr, std::less<>> rename;  // original -> s<i>
  std::vector<int> params;                          // normalised node index of each GM parameter
  int num_inputs = 0;
  std::vector<int> last_use;        // per node: last consumer index
  std::map<int, int> store_output;  // store node -> Output node
  TilingOptions tiling;             // solver and cache of the generated tiling function

  Context(const ir::Graph& h, const schedule::ScheduleResult& sr);
  std::string Cpp(const Expr& e) const;  // symbols renamed to s<i>
  std::string ParamList() const;         // "GM_ADDR p0, GM_ADDR p1"
  std::string ArgList() const;           // "p0, p1"
  int ParamOf(int node) const;
  std::string SymField(std::size_t i) const;  // tiling-data field of symbol i
  std::string TileField(const schedule::ImplCase& c) const;
  std::string BlockField(const schedule::ImplCase& c) const;
};

std::string KernelSource(const Context& ctx);
// Whether a case of the kernel synchronises all cores (then its kernel type is mixed).
bool KernelSyncsAllCores(const Context& ctx);
std::string TilingDataHeader(const Context& ctx);
std::string TilingSource(const Context& ctx);
// The pieces of the tiling-data header and the tiling function, for a super kernel that holds
// several kernels' structs and solvers in namespaces of their own (superkernel.cc): the
// qualifier/export macros, the AutofuseTilingData struct, the integer helpers, and the cases'
// constant tables with af_solve_tiling.
std::string TilingDataPreamble();
std::string TilingStructSource(const Context& ctx);
std::string TilingHelpersSource();
std::string TilingSolveSource(const Context& ctx);
// Whether one tiling case's template synchronises all cores (r_core).
bool CaseSyncsAllCores(const schedule::ImplCase& c);
// The kernel's case functions (caseN), without includes, kernel type or entry.
std::string KernelCaseFunctions(const Context& ctx);
std::string InferShapeSource(const Context& ctx);
// Appends <kernel>_all.cc, the one translation unit of the CPU build that includes every file
// after the tiling-data header, and makes it the kernel's main file.
void AddCpuTranslationUnit(GeneratedKernel& k);

}  // namespace af::codegen
