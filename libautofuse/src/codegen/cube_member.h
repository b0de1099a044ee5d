// The cube group of a cube + vector kernel (schedule::CubeGroup) as a member of the multi-group
// kernel superkernel.cc emits: the pieces that stand where a vector member has its Context's
// tiling struct, solver and case functions (private to src/codegen).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "autofuse/schedule/groups.h"
#include "codegen_internal.h"

namespace af::codegen {

struct CubeMember {
  const schedule::CubeGroup& cube;
  std::uint64_t l0c_bytes;           // the SoC's L0C (af_tiling::CubeHw)
  std::vector<std::string> symbols;  // att::CubeSymbols, tiling-function order
  std::map<std::string, Expr, std::less<>> rename;

  // Throws CodegenError CUBE_BATCH_RANK (more than 4 batch dims) or CUBE_FP32_UNSUPPORTED.
  CubeMember(const schedule::CubeGroup& c, std::uint64_t l0c);
  std::string Cpp(const Expr& e) const;  // symbols renamed to s<i>
  // GM parameters of cube_run: x1, x2, the fp32 product's workspace tensor (and the output under
  // kFixpip).
  int NumParams() const;
  std::string TilingStruct() const;  // struct AutofuseTilingData
  std::string Solve() const;         // static int af_solve_tiling(...)
  std::string Function() const;      // cube_run(...), the AIC part
};

}  // namespace af::codegen
