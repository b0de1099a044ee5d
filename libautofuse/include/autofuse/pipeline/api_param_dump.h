// AutoFuse's codegen API parameter dumps (codegen_api_param_dump.cpp), `api_param_<NNNNN>_<impl
// graph>.txt` in the codegen_compile_debug tree: per impl graph (tiling case) of a kernel, every
// node with the AscendC calls codegen wrote for it, so a user can check how each API call was
// assembled. Ours are read from the generated kernel source, whose case functions open with
// `// Impl graph <name> (<template>)` and mark each node's code with `// [i] <name> : <Type>`:
// each node lists the calls of its block verbatim (.api_calls), the first compute call's name
// (.api_name, synchronisation calls aside), its template arguments (.template_params) and the
// local tensor it writes (.output_params).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "autofuse/codegen/codegen.h"

namespace af::pipeline {

// (file name, text) per impl graph of the kernel source, in source order; numbered from `first`.
std::vector<std::pair<std::string, std::string>> ApiParamDumps(const codegen::GeneratedKernel& k,
                                                               int first = 0);

}  // namespace af::pipeline
