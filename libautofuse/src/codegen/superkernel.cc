// SuperKernel code generation (see superkernel.h).
#include "autofuse/codegen/superkernel.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

#include "af_cpu/launch_abi.h"
#include "codegen_internal.h"
#include "cube_member.h"

namespace af::codegen {
namespace {

std::string Ns(std::size_t i) {
  return "af_m" + std::to_string(i);
}

// The members' generation contexts and the union of their size symbols.
struct SuperContext {
  const SuperKernelSpec& spec;
  std::vector<std::unique_ptr<Context>> members;   // nullptr for the cube member
  std::vector<std::unique_ptr<CubeMember>> cubes;  // the cube member's, else nullptr
  int cube = -1;                                   // the cube member (a cube + vector kernel)
  std::vector<std::string> symbols;                // union, first appearance order
  std::string kernel;
  bool syncs = false;
  bool hard_sync_cases = false;

  SuperContext(const SuperKernelSpec& sp, const TilingOptions& tiling) : spec(sp) {
    if (sp.members.size() < 2) {
      throw CodegenError("SUPERKERNEL_PARAMS", "a super kernel needs at least two kernels");
    }
    std::string key;
    for (std::size_t i = 0; i < sp.members.size(); ++i) {
      const SuperMember& m = sp.members[i];
      if (m.cube != nullptr) {
        if (cube >= 0) throw CodegenError("SUPERKERNEL_PARAMS", "two cube members");
        cube = static_cast<int>(i);
        auto cm = std::make_unique<CubeMember>(*m.cube, tiling.cube_l0c_bytes);
        if (static_cast<int>(m.params.size()) != cm->NumParams()) {
          throw CodegenError("SUPERKERNEL_PARAMS",
                             "the cube member takes " + std::to_string(cm->NumParams()) +
                                 " GM buffers, the map gives " + std::to_string(m.params.size()));
        }
        for (const auto& s : cm->symbols)
          if (std::find(symbols.begin(), symbols.end(), s) == symbols.end()) symbols.push_back(s);
        syncs = syncs || (i > 0 && m.sync_before);
        key += std::string("cube:") + (m.cube->mm.transpose_x1 ? "t" : "n") +
               (m.cube->mm.transpose_x2 ? "t" : "n") + (m.cube->fixpipe ? "f" : "") + "|";
        for (const int p : m.params)
          key += std::to_string(p) + ",";
        members.push_back(nullptr);
        cubes.push_back(std::move(cm));
        continue;
      }
      cubes.push_back(nullptr);
      auto ctx = std::make_unique<Context>(*m.hint, *m.schedule);
      ctx->tiling = tiling;
      // Cases that synchronise all cores are compiled in but never dispatched: the combined
      // tiling refuses a choice of one (their SyncAll needs the mixed kernel type).
      hard_sync_cases = hard_sync_cases || KernelSyncsAllCores(*ctx);
      if (m.params.size() != ctx->params.size()) {
        throw CodegenError("SUPERKERNEL_PARAMS", "kernel " + ctx->kernel + " takes " +
                                                     std::to_string(ctx->params.size()) +
                                                     " GM buffers, the map gives " +
                                                     std::to_string(m.params.size()));
      }
      const int n_params = sp.num_buffers + static_cast<int>(sp.workspace_tensor_bytes.size());
      for (const int p : m.params) {
        if (p < 0 || p >= n_params) {
          throw CodegenError("SUPERKERNEL_PARAMS", "kernel " + ctx->kernel +
                                                       ": a GM buffer index outside the super "
                                                       "kernel's parameters");
        }
      }
      for (const auto& s : ctx->symbols)
        if (std::find(symbols.begin(), symbols.end(), s) == symbols.end()) symbols.push_back(s);
      syncs = syncs || (i > 0 && m.sync_before);
      key += ctx->kernel + (m.sync_before ? "|s" : "|");
      for (const int p : m.params)
        key += std::to_string(p) + ",";
      members.push_back(std::move(ctx));
    }
    // FNV-1a 64 of the members and their wiring: stable across runs and machines.
    std::uint64_t h = 1469598103934665603ULL;
    for (const unsigned char c : key) {
      h ^= c;
      h *= 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%08llx", static_cast<unsigned long long>(h & 0xffffffffULL));
    kernel = sp.name.empty() ? std::string("autofused_super_") + buf : sp.name;
    for (const auto& b : sp.workspace_tensor_bytes) {
      for (const auto& v : b.FreeSymbols()) {
        if (std::find(symbols.begin(), symbols.end(), v) == symbols.end()) {
          throw CodegenError("SUPERKERNEL_PARAMS", "a workspace tensor's size uses symbol " +
                                                       SafeComment(v) +
                                                       ", which no member kernel has");
        }
      }
    }
  }

  // The member's size symbols (a vector member's Context's, the cube member's own).
  const std::vector<std::string>& SymbolsOf(std::size_t i) const {
    return members[i] ? members[i]->symbols : cubes[i]->symbols;
  }
  std::string KernelOf(std::size_t i) const {
    return members[i] ? members[i]->kernel : std::string("cube group");
  }
  bool Mixed() const { return cube >= 0; }

  std::size_t SymbolIndex(const std::string& s) const {
    return static_cast<std::size_t>(std::find(symbols.begin(), symbols.end(), s) - symbols.begin());
  }
};

std::string TilingDataHeaderOf(const SuperContext& sc) {
  std::ostringstream o;
  o << "// Generated by autofuse: tiling data of super kernel " << sc.kernel << " ("
    << sc.members.size() << " kernels).\n";
  o << TilingDataPreamble() << TilingHelpersSource() << "\n";
  for (std::size_t i = 0; i < sc.members.size(); ++i) {
    o << "// Member " << i << ": " << (sc.members[i] ? "kernel " : "the ") << sc.KernelOf(i)
      << ".\n";
    o << "namespace " << Ns(i) << " {\n"
      << (sc.members[i] ? TilingStructSource(*sc.members[i]) : sc.cubes[i]->TilingStruct())
      << "}  // namespace " << Ns(i) << "\n\n";
  }
  const std::size_t n = sc.members.size();
  o << "// The combined tiling data: this header (AfTilingHeader first), then each member's "
       "struct at\n// member_offset[i], 8-byte aligned; member i's GM workspace starts "
       "member_workspace[i] bytes\n// into the launch's workspace.\n";
  o << "struct " << kSuperTilingStruct << " {\n";
  o << "  uint32_t block_dim;   // the largest of the members'\n";
  o << "  uint32_t tiling_key;  // 0: the members dispatch on their own keys\n";
  o << "  uint32_t n_members;\n  uint32_t reserved;\n";
  o << "  int64_t ub_bytes;         // the largest of the members'\n";
  o << "  int64_t workspace_bytes;  // the members' workspaces, one after another\n";
  o << "  uint64_t member_offset[" << n << "];\n";
  o << "  uint64_t member_workspace[" << n << "];\n";
  if (!sc.spec.workspace_tensor_bytes.empty()) {
    o << "  // Where each GM tensor passed between members starts in the workspace.\n";
    o << "  uint64_t tensor_offset[" << sc.spec.workspace_tensor_bytes.size() << "];\n";
  }
  o << "};\n";
  return o.str();
}

// Inside member i's block: its tiling struct (t<i>) and workspace (ws<i>); returns its GM
// arguments ("b3, b1, ").
std::string EmitMemberPreamble(const SuperContext& sc, std::size_t i, std::ostringstream& o) {
  const std::string I = std::to_string(i);
  o << "    GET_TILING_DATA_WITH_STRUCT(" << Ns(i) << "::AutofuseTilingData, t" << I
    << ", tiling + h.member_offset[" << I << "]);\n";
  o << "    GM_ADDR ws" << I << " = workspace == nullptr ? workspace : workspace + "
    << "h.member_workspace[" << I << "];\n";
  std::string args;
  for (const int p : sc.spec.members[i].params)
    args += "b" + std::to_string(p) + ", ";
  return args;
}

// The cube member's call: cube_run on the AICs.
void EmitCubeCall(const SuperContext& sc, std::size_t i, std::ostringstream& o) {
  const std::string I = std::to_string(i);
  o << "  // Member " << i << ": the cube group (AIC; tiling_key 0 kCommon, 1 kFixpip).\n";
  o << "  if ASCEND_IS_AIC {\n";
  const std::string args = EmitMemberPreamble(sc, i, o);
  o << "    " << Ns(i) << "::cube_run(" << args << "ws" << I << ", &t" << I << ");\n";
  o << "  }\n";
}

void EmitMemberCall(const SuperContext& sc, std::size_t i, std::ostringstream& o) {
  if (!sc.members[i]) {
    EmitCubeCall(sc, i, o);
    return;
  }
  const Context& ctx = *sc.members[i];
  const std::string I = std::to_string(i);
  o << "  // Member " << i << ": kernel " << ctx.kernel << " (" << ctx.s.cases.size()
    << " tiling cases" << (sc.Mixed() ? ", AIV" : "") << ").\n";
  o << (sc.Mixed() ? "  if ASCEND_IS_AIV {\n" : "  {\n");
  const std::string args = EmitMemberPreamble(sc, i, o);
  bool first = true;
  for (std::size_t c = 0; c < ctx.s.cases.size(); ++c) {
    if (CaseSyncsAllCores(ctx.s.cases[c])) continue;  // never chosen (the tiling refuses it)
    o << "    " << (!first ? "} else if" : "if") << " (t" << I << ".tiling_key == " << c
      << "u) {\n";
    o << "      " << Ns(i) << "::case" << c << "(" << args << "ws" << I << ", &t" << I << ");\n";
    first = false;
  }
  o << (first ? "    (void)t" + I + ";\n" + "    (void)ws" + I + ";\n  }\n" : "    }\n  }\n");
}

// The epilogue member of a cube + vector kernel runs only under kCommon (kFixpip did its work).
bool SkippedUnderFixpip(const SuperContext& sc, std::size_t i) {
  if (sc.cube < 0) return false;
  const schedule::CubeGroup& c = *sc.spec.members[static_cast<std::size_t>(sc.cube)].cube;
  return c.fixpipe && static_cast<std::size_t>(c.epilogue_group) == i;
}

std::string KernelSourceOf(const SuperContext& sc) {
  std::ostringstream o;
  o << "// Generated by autofuse: AscendC super kernel " << sc.kernel << " (" << sc.members.size()
    << " kernels in one launch).\n";
  o << "#include \"kernel_operator.h\"\n";
  o << "#include \"" << sc.kernel << "_tiling_data.h\"\n\n";
  o << "using namespace AscendC;\n\n";
  // SyncAll between members is the hard all-core sync: a mixed kernel type (as for r_core); a
  // cube + vector kernel runs its cube member on the AICs beside two AIVs per AI Core.
  o << "KERNEL_TASK_TYPE_DEFAULT("
    << (sc.Mixed()                       ? "KERNEL_TYPE_MIX_AIC_1_2"
        : sc.syncs || sc.hard_sync_cases ? "KERNEL_TYPE_MIX_AIV_1_0"
                                         : "KERNEL_TYPE_AIV_ONLY")
    << ");\n\n";
  for (std::size_t i = 0; i < sc.members.size(); ++i) {
    o << "namespace " << Ns(i) << " {\n\n"
      << (sc.members[i] ? KernelCaseFunctions(*sc.members[i]) : sc.cubes[i]->Function())
      << "}  // namespace " << Ns(i) << "\n\n";
  }
  o << "extern \"C\" __global__ __aicore__ void " << sc.kernel << "(";
  for (int b = 0; b < sc.spec.num_buffers; ++b)
    o << "GM_ADDR b" << b << ", ";
  o << "GM_ADDR workspace, GM_ADDR tiling) {\n";
  o << "  REGISTER_TILING_DEFAULT(" << kSuperTilingStruct << ");\n";
  o << "  GET_TILING_DATA(h, tiling);\n";
  for (std::size_t j = 0; j < sc.spec.workspace_tensor_bytes.size(); ++j) {
    o << "  GM_ADDR b" << (static_cast<std::size_t>(sc.spec.num_buffers) + j)
      << " = workspace + h.tensor_offset[" << j << "];  // workspace tensor " << j << "\n";
  }
  const std::string sync = sc.Mixed() ? "SyncAll<false>();" : "SyncAll();";
  for (std::size_t i = 0; i < sc.members.size(); ++i) {
    const bool skip = SkippedUnderFixpip(sc, i);
    if (skip) {
      const std::string C = std::to_string(sc.cube);
      o << "  // Member " << i << " is the cube group's epilogue: kFixpip did it already.\n";
      o << "  GET_TILING_DATA_WITH_STRUCT(" << Ns(static_cast<std::size_t>(sc.cube))
        << "::AutofuseTilingData, tc, tiling + h.member_offset[" << C << "]);\n";
      o << "  if (tc.tiling_key == 0u) {\n";
    }
    if (i > 0 && sc.spec.members[i].sync_before) {
      o << "  // Member " << i << " reads what an earlier member wrote: every core waits.\n";
      o << "  " << sync << "\n";
    } else if (i > 0) {
      o << "  // Member " << i
        << " reads nothing written since the last barrier: no wait (early start).\n";
    }
    EmitMemberCall(sc, i, o);
    if (skip) o << "  }\n";
  }
  o << "}\n\n";
  o << "#if defined(AF_CPU_RUNTIME)\n";
  o << "AF_DEFINE_LAUNCH(" << sc.kernel << ")\n";
  o << "#endif\n";
  return o.str();
}

// The workspace tensors' offsets (first in the workspace), from their sizes over the symbols.
void EmitWorkspaceTensors(const SuperContext& sc, std::ostringstream& o) {
  const auto& bytes = sc.spec.workspace_tensor_bytes;
  if (bytes.empty()) return;
  std::map<std::string, sym::Expr, std::less<>> rename;
  o << "  {  // GM tensors passed between members\n";
  for (std::size_t k = 0; k < sc.symbols.size(); ++k) {
    rename[sc.symbols[k]] = sym::Expr::Sym("s" + std::to_string(k));
    o << "    const int64_t s" << k << " = syms[" << k << "];\n    (void)s" << k << ";\n";
  }
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    o << "    h->tensor_offset[" << j << "] = ws;\n";
    o << "    ws += af_align8(static_cast<uint64_t>(" << bytes[j].Subs(rename).ToCpp() << "));\n";
  }
  o << "  }\n";
}

// The combined tiling function: every member's solver on its own symbols, the header filled in.
void EmitCombinedSolve(const SuperContext& sc, std::ostringstream& o) {
  const std::size_t n = sc.members.size();
  o << "namespace {\n";
  o << "constexpr uint64_t af_align8(uint64_t b) { return (b + 7u) / 8u * 8u; }\n";
  o << "constexpr uint64_t kSuperTilingBytes = af_align8(sizeof(" << kSuperTilingStruct << "))";
  for (std::size_t i = 0; i < n; ++i)
    o << " +\n    af_align8(sizeof(" << Ns(i) << "::AutofuseTilingData))";
  o << ";\n}  // namespace\n";
  o << "static_assert(offsetof(" << kSuperTilingStruct
    << ", member_offset) == " << kSuperMemberOffsetsAt
    << ", \"the runner reads member_offset there\");\n\n";
  o << "extern \"C\" AF_TILING_EXPORT int " AF_COMPUTE_GROUP_TILING_SYMBOL
       "(const int64_t* syms, uint32_t nsyms, uint32_t core_num, uint64_t ub_size, "
       "const int32_t* forced_cases, uint32_t n_forced, int32_t forced_template, void* out, "
       "uint64_t out_size) {\n";
  o << "  if (nsyms != " << sc.symbols.size()
    << "u || out == nullptr || out_size < kSuperTilingBytes) return -1;\n";
  o << "  if ((n_forced != 0u && n_forced != " << n
    << "u) || (n_forced != 0u && forced_cases == nullptr)) return -1;\n";
  o << "  (void)syms;\n";
  o << "  uint8_t* base = static_cast<uint8_t*>(out);\n";
  o << "  for (uint64_t i = 0; i < kSuperTilingBytes; ++i) base[i] = 0;\n";
  o << "  " << kSuperTilingStruct << "* h = reinterpret_cast<" << kSuperTilingStruct
    << "*>(base);\n";
  o << "  h->n_members = " << n << "u;\n";
  o << "  uint64_t off = af_align8(sizeof(" << kSuperTilingStruct << "));\n";
  o << "  uint64_t ws = 0;\n  uint32_t block_dim = 1;\n  int64_t ub = 0;\n";
  EmitWorkspaceTensors(sc, o);
  if (sc.Mixed()) o << "  uint32_t aic_dim = 1;\n  uint32_t cube_key = 0;\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<std::string>& member_symbols = sc.SymbolsOf(i);
    const std::string I = std::to_string(i);
    o << "  {  // member " << i << ": " << sc.KernelOf(i) << "\n";
    if (SkippedUnderFixpip(sc, i)) {
      o << "    // The cube group's epilogue: solved (and given its workspace) under kCommon "
           "only.\n";
      o << "    if (cube_key == 1u) {\n      h->member_offset[" << I << "] = off;\n"
        << "      h->member_workspace[" << I << "] = ws;\n      off += af_align8(sizeof(" << Ns(i)
        << "::AutofuseTilingData));\n    } else {\n";
    }
    o << "    const int64_t s[" << std::max<std::size_t>(1, member_symbols.size()) << "] = {";
    for (std::size_t k = 0; k < member_symbols.size(); ++k)
      o << (k != 0u ? ", " : "") << "syms[" << sc.SymbolIndex(member_symbols[k]) << "]";
    if (member_symbols.empty()) o << "0";
    o << "};\n";
    o << "    const int rc = " << Ns(i) << "::af_solve_tiling(s, " << member_symbols.size()
      << "u, core_num, ub_size, n_forced != 0u ? forced_cases[" << I
      << "] : -1, forced_template, base + off, sizeof(" << Ns(i) << "::AutofuseTilingData));\n";
    o << "    if (rc != 0) return rc;\n";
    o << "    const " << Ns(i) << "::AutofuseTilingData* t = reinterpret_cast<const " << Ns(i)
      << "::AutofuseTilingData*>(base + off);\n";
    std::string sync_keys;
    const std::size_t n_cases = sc.members[i] ? sc.members[i]->s.cases.size() : 0;
    for (std::size_t c = 0; c < n_cases; ++c)
      if (CaseSyncsAllCores(sc.members[i]->s.cases[c]))
        sync_keys +=
            (sync_keys.empty() ? "" : " || ") + ("t->tiling_key == " + std::to_string(c) + "u");
    if (!sync_keys.empty()) {
      o << "    // A case that synchronises all cores cannot run inside a super kernel.\n";
      o << "    if (" << sync_keys << ") return -4;\n";
    }
    o << "    h->member_offset[" << I << "] = off;\n";
    o << "    h->member_workspace[" << I << "] = ws;\n";
    o << "    ws += af_align8(static_cast<uint64_t>(t->workspace_bytes));\n";
    if (!sc.members[i]) {
      // The AICs: one per AI Core of the launch.
      o << "    aic_dim = t->block_dim;\n    cube_key = t->tiling_key;\n";
    } else if (sc.Mixed()) {
      // The AIVs: two per AI Core of the launch (KERNEL_TYPE_MIX_AIC_1_2).
      o << "    if ((t->block_dim + 1u) / 2u > block_dim) block_dim = (t->block_dim + 1u) / 2u;\n";
    } else {
      o << "    if (t->block_dim > block_dim) block_dim = t->block_dim;\n";
    }
    o << "    if (t->ub_bytes > ub) ub = t->ub_bytes;\n";
    o << "    off += af_align8(sizeof(" << Ns(i) << "::AutofuseTilingData));\n";
    if (SkippedUnderFixpip(sc, i)) o << "    }\n";
    o << "  }\n";
  }
  if (sc.Mixed()) o << "  if (aic_dim > block_dim) block_dim = aic_dim;\n";
  o << "  h->block_dim = block_dim;\n  h->tiling_key = 0;\n";
  o << "  h->ub_bytes = ub;\n  h->workspace_bytes = static_cast<int64_t>(ws);\n  return 0;\n}\n\n";
  o << "extern \"C\" AF_TILING_EXPORT int " AF_COMPUTE_TILING_SYMBOL
       "(const int64_t* syms, uint32_t nsyms, uint32_t core_num, uint64_t ub_size, "
       "int32_t forced_case, int32_t forced_template, void* out, uint64_t out_size) {\n";
  o << "  const int32_t forced[" << n << "] = {";
  for (std::size_t i = 0; i < n; ++i)
    o << (i != 0u ? ", " : "") << "forced_case";
  o << "};\n";
  o << "  return " AF_COMPUTE_GROUP_TILING_SYMBOL "(syms, nsyms, core_num, ub_size, forced, " << n
    << "u, forced_template, out, out_size);\n}\n\n";
}

std::string TilingSourceOf(const SuperContext& sc) {
  std::ostringstream o;
  o << "// Generated by autofuse: tiling function of super kernel " << sc.kernel << ".\n";
  o << "// Each member's solver (the compiler's, af_tiling/elementwise.h) on its own sizes.\n";
  o << "#include \"" << sc.kernel << "_tiling_data.h\"\n#include \"af_tiling/elementwise.h\"\n"
    << (sc.Mixed() ? "#include \"af_tiling/cube.h\"\n" : "") << "#include <cstddef>\n\n";
  for (std::size_t i = 0; i < sc.members.size(); ++i) {
    o << "namespace " << Ns(i) << " {\n\n"
      << (sc.members[i] ? TilingSolveSource(*sc.members[i]) : sc.cubes[i]->Solve())
      << "}  // namespace " << Ns(i) << "\n\n";
  }
  EmitCombinedSolve(sc, o);
  o << "extern \"C\" AF_TILING_EXPORT int " AF_COMPUTE_TILING_CASE_SYMBOL
       "(const int64_t* syms, uint32_t nsyms, uint32_t core_num, uint64_t ub_size, "
       "int32_t forced_case, void* out, uint64_t out_size) {\n"
       "  return " AF_COMPUTE_TILING_SYMBOL
       "(syms, nsyms, core_num, ub_size, forced_case, -1, out, out_size);\n}\n\n";
  o << "extern \"C\" AF_TILING_EXPORT uint64_t " AF_WORKSPACE_BYTES_SYMBOL
       "(const void* tiling) {\n  return static_cast<uint64_t>(static_cast<const "
    << kSuperTilingStruct << "*>(tiling)->workspace_bytes);\n}\n";
  o << "extern \"C\" AF_TILING_EXPORT uint64_t " AF_TILING_SIZE_SYMBOL
       "(void) { return kSuperTilingBytes; }\n";
  o << "extern \"C\" AF_TILING_EXPORT uint32_t " AF_NUM_SYMBOLS_SYMBOL "(void) { return "
    << sc.symbols.size() << "u; }\n";
  o << "// The size symbols in order:";
  for (const auto& s : sc.symbols)
    o << " " << SafeComment(s);
  o << ".\n";
  return o.str();
}

}  // namespace

std::string SuperMemberRefusal(const ir::Graph& hint, const schedule::ScheduleResult& s,
                               int chosen_case) {
  if (chosen_case >= 0 && static_cast<std::size_t>(chosen_case) < s.cases.size()) {
    return CaseSyncsAllCores(s.cases[static_cast<std::size_t>(chosen_case)])
               ? "SUPERKERNEL_HARD_SYNC"
               : "";
  }
  const Context ctx(hint, s);
  return KernelSyncsAllCores(ctx) ? "SUPERKERNEL_HARD_SYNC" : "";
}

GeneratedKernel GenerateSuper(const SuperKernelSpec& spec, const TilingOptions& tiling) {
  const SuperContext sc(spec, tiling);
  GeneratedKernel k;
  k.kernel_name = sc.kernel;
  k.symbols = sc.symbols;
  k.mixed = sc.syncs;
  k.files.push_back({sc.kernel + "_tiling_data.h", TilingDataHeaderOf(sc)});
  k.files.push_back({sc.kernel + "_kernel.cc", KernelSourceOf(sc)});
  k.files.push_back({sc.kernel + "_tiling.cc", TilingSourceOf(sc)});
  AddCpuTranslationUnit(k);
  return k;
}

GeneratedKernel GenerateGroups(const ir::Graph& hint, const schedule::GroupPartition& partition,
                               const std::vector<GroupMember>& groups,
                               const TilingOptions& tiling) {
  SuperKernelSpec spec;
  spec.num_buffers = partition.num_params;
  spec.name = KernelName(hint);
  for (const auto& w : partition.workspace)
    spec.workspace_tensor_bytes.push_back(w.elements * sym::Expr(ir::DTypeBytes(w.dtype)));
  for (const auto& g : groups)
    spec.members.push_back({&g.group->graph, g.schedule, g.group->params, g.group->reads_workspace,
                            g.group->cube ? &*g.group->cube : nullptr});
  GeneratedKernel k = GenerateSuper(spec, tiling);
  for (std::size_t i = 0; i < hint.nodes.size(); ++i) {
    const ir::Node& n = hint.nodes[i];
    if (n.type != "Data" && n.type != "Output") continue;
    auto& list = n.type == "Data" ? k.input_nodes : k.output_nodes;
    const auto at = static_cast<std::size_t>(n.IntAttr("index").value_or(0));
    if (list.size() <= at) list.resize(at + 1, -1);
    list[at] = static_cast<int>(i);
  }
  return k;
}

}  // namespace af::codegen
