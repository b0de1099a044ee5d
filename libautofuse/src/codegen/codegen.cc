// Kernel naming, sanitising, the generation context, and the host sources (tiling data, tiling
// function, infer-shape).
#include "autofuse/codegen/codegen.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "af_cpu/launch_abi.h"
#include "autofuse/att/tiling.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"
#include "codegen_internal.h"
#include "loop_nest.h"

namespace af::codegen {

std::string SafeIdent(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    out += (std::isalnum(c) != 0 || c == '_') && c < 0x80 ? static_cast<char>(c) : '_';
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0) out = "x" + out;
  if (out.size() > 64) out.resize(64);
  return out;
}

std::string SafeComment(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    // Letters, digits and a few harmless marks only: no comment terminators, preprocessor
    // characters, quotes, backslashes or control characters can pass.
    const bool ok = std::isalnum(c) != 0 || c == '_' || c == ' ' || c == '.' || c == ':' ||
                    c == ',' || c == '(' || c == ')' || c == '=' || c == '+' || c == '-';
    out += ok ? static_cast<char>(c) : '_';
  }
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

std::string CStringLiteral(const std::string& s) {
  std::string out = "\"";
  for (const unsigned char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == ' ' || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' ||
                       c == '=' || c == ',' || c == ':' || c == '@';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      const char oct[5] = {'\\', static_cast<char>('0' + ((c >> 6) & 7)),
                           static_cast<char>('0' + ((c >> 3) & 7)),
                           static_cast<char>('0' + (c & 7)), '\0'};
      out += oct;
    }
  }
  return out + "\"";
}

std::string KernelName(const ir::Graph& hint) {
  std::vector<std::string> ops;
  for (const auto& n : hint.nodes) {
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op == nullptr || op->compute == ir::ComputeType::kBuffer ||
        op->compute == ir::ComputeType::kLoad || op->compute == ir::ComputeType::kStore) {
      continue;
    }
    std::string t;
    for (char c : op->type)
      t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::find(ops.begin(), ops.end(), t) == ops.end()) ops.push_back(t);
  }
  std::string name = "autofused";
  for (std::size_t i = 0; i < ops.size() && i < 4; ++i)
    name += "_" + ops[i];
  if (ops.size() > 4) name += "_etc";
  // FNV-1a 64 of the graph's canonical text: stable across runs and machines.
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : ir::DumpText(hint)) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%08llx", static_cast<unsigned long long>(h & 0xffffffffULL));
  return SafeIdent(name + "_" + buf);
}

std::string CType(ir::DType t) {
  switch (t) {
    case ir::DType::kFloat32:
      return "float";
    case ir::DType::kFloat16:
      return "half";
    case ir::DType::kBFloat16:
      return "bfloat16_t";
    case ir::DType::kFloat64:
      return "double";
    case ir::DType::kInt8:
      return "int8_t";
    case ir::DType::kInt16:
      return "int16_t";
    case ir::DType::kInt32:
      return "int32_t";
    case ir::DType::kInt64:
      return "int64_t";
    case ir::DType::kUInt8:
      return "uint8_t";
    case ir::DType::kUInt16:
      return "uint16_t";
    case ir::DType::kUInt32:
      return "uint32_t";
    case ir::DType::kUInt64:
      return "uint64_t";
    case ir::DType::kBool:
      return "uint8_t";
    case ir::DType::kUndefined:
      break;
  }
  throw CodegenError("BAD_DTYPE", "undefined dtype in a generated tensor");
}

std::string ScalarOf(const std::string& ty, const std::string& literal) {
  if (ty == "half" || ty == "bfloat16_t") {
    return ty + "(static_cast<float>(" + literal + "))";
  }
  return "static_cast<" + ty + ">(" + literal + ")";
}

Context::Context(const ir::Graph& h, const schedule::ScheduleResult& sr)
    : hint(h), s(sr), kernel(KernelName(h)), symbols(att::KernelSymbols(sr)) {
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    rename[symbols[i]] = Expr::Sym("s" + std::to_string(i));
  }
  // Parameters: inputs by Data index, then outputs by Output index (file order breaks ties).
  auto ordered = [&](const char* type) {
    std::vector<std::pair<std::int64_t, int>> v;
    for (std::size_t i = 0; i < s.graph.nodes.size(); ++i) {
      const auto& n = s.graph.nodes[i];
      if (n.type != type) continue;
      v.emplace_back(n.IntAttr("index").value_or(static_cast<std::int64_t>(v.size())),
                     static_cast<int>(i));
    }
    std::stable_sort(v.begin(), v.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return v;
  };
  for (const auto& [idx, node] : ordered("Data"))
    params.push_back(node);
  num_inputs = static_cast<int>(params.size());
  for (const auto& [idx, node] : ordered("Output"))
    params.push_back(node);
  const auto consumers = s.graph.Consumers();
  last_use.assign(s.graph.nodes.size(), -1);
  for (std::size_t i = 0; i < s.graph.nodes.size(); ++i) {
    for (const auto& [c, slot] : consumers[i])
      last_use[i] = std::max(last_use[i], c);
    if (s.graph.nodes[i].type == "Store") {
      for (const auto& [c, slot] : consumers[i]) {
        if (s.graph.nodes[c].type == "Output") store_output[static_cast<int>(i)] = c;
      }
      if (!store_output.contains(static_cast<int>(i))) {
        throw CodegenError("STORE_WITHOUT_OUTPUT",
                           "store '" + SafeComment(s.graph.nodes[i].name) + "' feeds no Output");
      }
    }
  }
}

std::string Context::Cpp(const Expr& e) const {
  for (const auto& v : e.FreeSymbols()) {
    if (rename.find(v) == rename.end()) {
      throw CodegenError("UNKNOWN_SYMBOL", "expression uses symbol " + SafeComment(v) +
                                               ", which is not a size symbol of the kernel");
    }
  }
  return "(" + e.Subs(rename).ToCpp() + ")";
}

std::string Context::ParamList() const {
  std::string out;
  for (std::size_t i = 0; i < params.size(); ++i) {
    out += (i != 0u ? ", " : "") + ("GM_ADDR p" + std::to_string(i));
  }
  return out;
}

std::string Context::ArgList() const {
  std::string out;
  for (std::size_t i = 0; i < params.size(); ++i)
    out += (i != 0u ? ", " : "") + ("p" + std::to_string(i));
  return out;
}

int Context::ParamOf(int node) const {
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i] == node) return static_cast<int>(i);
  }
  throw CodegenError("INTERNAL", "node is not a kernel parameter");
}

std::string Context::SymField(std::size_t i) const {
  return "sym_" + SafeIdent(symbols.at(i));
}

std::string Context::TileField(const schedule::ImplCase& c) const {
  return "c" + std::to_string(&c - s.cases.data()) + "_" + SafeIdent(ReadLoopNest(s, c).tile_var);
}

std::string Context::BlockField(const schedule::ImplCase& c) const {
  return "c" + std::to_string(&c - s.cases.data()) + "_" + SafeIdent(ReadLoopNest(s, c).block_var);
}

std::string TilingDataHeader(const Context& ctx) {
  return "// Generated by autofuse: tiling data of kernel " + ctx.kernel + ".\n" +
         TilingDataPreamble() + TilingStructSource(ctx) + TilingHelpersSource();
}

std::string TilingDataPreamble() {
  std::ostringstream o;
  o << "#pragma once\n#include <cstdint>\n\n";
  // Read by the host tiling function and the device kernel: the helpers are __aicore__ for the
  // kernel (kernel_operator.h defines the qualifier first); a host compile without the AscendC
  // headers sees no qualifier, as CANN's generated tiling headers arrange it.
  o << "#ifndef __aicore__\n#define __aicore__\n#endif\n\n";
  o << "#ifndef AF_TILING_EXPORT\n#define AF_TILING_EXPORT "
       "__attribute__((visibility(\"default\")))\n"
       "#endif\n\n";
  return o.str();
}

std::string TilingStructSource(const Context& ctx) {
  std::ostringstream o;
  o << "struct AutofuseTilingData {\n";
  o << "  uint32_t block_dim;\n  uint32_t tiling_key;\n";
  for (std::size_t i = 0; i < ctx.symbols.size(); ++i) {
    o << "  int64_t " << ctx.SymField(i) << ";  // " << SafeComment(ctx.symbols[i]) << "\n";
  }
  for (const auto& c : ctx.s.cases) {
    o << "  int64_t " << ctx.TileField(c) << ";   // tile size of " << SafeComment(c.name) << "\n";
    o << "  int64_t " << ctx.BlockField(c) << ";  // tiles per block of " << SafeComment(c.name)
      << "\n";
  }
  for (const auto& b : ctx.s.buffers) {
    o << "  uint32_t " << b.Name() << "_size;  // bytes, " << schedule::BufKindName(b.kind) << "\n";
  }
  o << "  int64_t ub_bytes;\n";
  o << "  int64_t r_split;          // r_core: cores sharing one A iteration's R iterations\n";
  o << "  int64_t r_per_block;      // r_core: R iterations per core\n";
  o << "  int64_t workspace_bytes;  // GM workspace the kernel needs\n";
  o << "};\n\n";
  return o.str();
}

std::string TilingHelpersSource() {
  std::ostringstream o;
  o << "// Integer helpers of the generated expressions: floor semantics like the compiler's.\n";
  o << "__aicore__ static inline int64_t af_floordiv(int64_t a, int64_t b) {\n"
       "  int64_t q = a / b;\n  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;\n  return q;\n}\n";
  o << "__aicore__ static inline int64_t af_ceildiv(int64_t a, int64_t b) { return "
       "-af_floordiv(-a, b); }\n";
  o << "__aicore__ static inline int64_t af_mod(int64_t a, int64_t b) { return a - af_floordiv(a, "
       "b) * b; }\n";
  o << "__aicore__ static inline int64_t af_min(int64_t a, int64_t b) { return a < b ? a : b; }\n";
  o << "__aicore__ static inline int64_t af_max(int64_t a, int64_t b) { return a > b ? a : b; }\n";
  o << "__aicore__ static inline int64_t af_align(int64_t a, int64_t b) { return af_ceildiv(a, b) "
       "* b; }\n";
  o << "__aicore__ static inline int64_t af_pow(int64_t b, int64_t e) {\n"
       "  int64_t r = 1;\n  for (int64_t i = 0; i < e; ++i) r *= b;\n  return r;\n}\n";
  // Compiler built-ins (GCC, clang and CANN's clang-based compiler) instead of <limits>, which
  // device code cannot include.
  o << "__aicore__ static inline float af_inf() { return __builtin_inff(); }\n";
  o << "__aicore__ static inline float af_nan() { return __builtin_nanf(\"\"); }\n";
  return o.str();
}

namespace {

// The cost model's view of each case: its API call sites (af_tiling::PerfNode), one constant
// table per case.
void EmitPerfNodeTables(const Context& ctx, const att::CaseSet& set, std::ostringstream& o) {
  const auto& s = ctx.s;
  o << "namespace {\n";
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    const auto& nodes = set.nodes[c];
    if (nodes.empty()) continue;
    o << "// " << SafeComment(s.cases[c].name) << ": kind, api, esize, one_mask, compact, when, "
      << "sweeps, gap_bytes, split, align_elems, skip_first, max_tile, run, row_stride_mask, "
      << "row_stride_const, once, doubling, part, len_buffer\n";
    o << "const af_tiling::PerfNode kNodes" << c << "[] = {\n";
    for (const auto& n : nodes) {
      o << "    {" << n.kind << ", " << n.api << ", " << n.esize << ", " << n.one_mask << "u, "
        << n.compact << ", " << n.when << ", " << n.sweeps << ", " << n.gap_bytes << ", " << n.split
        << ", " << n.align_elems << ", " << n.skip_first << ", " << n.max_tile << ", " << n.run
        << ", " << n.row_stride_mask << "u, " << n.row_stride_const << "LL, " << n.once << ", "
        << n.doubling << ", " << n.part << ", " << n.len_buffer << "},\n";
    }
    o << "};\n";
  }
  o << "}  // namespace\n\n";
}

// The constant parameters of case `c` (the dims are filled in at run time).
void EmitCaseParams(const Context& ctx, const att::CaseSet& set, std::size_t c,
                    std::ostringstream& o) {
  const auto& s = ctx.s;
  const std::string p = "  cases[" + std::to_string(c) + "].";
  o << p << "n_dims = " << s.dims.size() << ";\n";
  o << p << "tile_dim = " << ReadLoopNest(s, s.cases[c]).tile_dim << ";\n";
  for (std::size_t j = 0; j < s.dims.size(); ++j)
    o << p << "dims[" << j << "] = D" << j << ";\n";
  o << p << "row_align = " << s.row_align << ";\n";
  o << p << "n_buffers = " << s.buffers.size() << ";\n";
  for (std::size_t b = 0; b < s.buffers.size(); ++b) {
    o << p << "buf_esize[" << b << "] = " << s.buffers[b].esize << ";\n";
  }
  const auto& nodes = set.nodes[c];
  const auto& cp = set.params[c];
  for (std::size_t b = 0; b < s.buffers.size(); ++b) {
    o << p << "buf_num[" << b << "] = " << cp.buf_num[b] << ";\n";
    o << p << "buf_one_mask[" << b << "] = " << cp.buf_one_mask[b] << "u;\n";
    o << p << "buf_compact[" << b << "] = " << static_cast<int>(cp.buf_compact[b]) << ";\n";
    if (cp.buf_run[b] != af_tiling::kRunInner) {
      o << p << "buf_run[" << b << "] = " << static_cast<int>(cp.buf_run[b]) << ";\n";
    }
    if (cp.buf_part[b] != af_tiling::kPartFull) {
      o << p << "buf_part[" << b << "] = " << static_cast<int>(cp.buf_part[b]) << ";\n";
    }
    if (const auto& fixed = s.buffers[b].fixed_elems) {
      o << p << "buf_fixed[" << b << "] = " << ctx.Cpp(*fixed) << ";\n";
    }
  }
  o << p << "compact = " << cp.compact << ";\n";
  if (s.parts.dim) {
    o << p << "part_dim = " << cp.part_dim << ";\n";
    o << p << "n_parts = " << cp.n_parts << ";\n";
    o << p << "cat_inputs = " << cp.cat_inputs << ";\n";
    o << p << "cat_esize = " << cp.cat_esize << ";\n";
    o << p << "cat_aligned_only = " << cp.cat_aligned_only << ";\n";
    for (std::size_t k = 0; k < s.parts.lens.size(); ++k)
      o << p << "part_len[" << k << "] = " << ctx.Cpp(s.parts.lens[k]) << ";\n";
  }
  o << p << "vec_align = " << cp.vec_align << ";\n";
  o << p << "r_mask = " << cp.r_mask << "u;\n";
  o << p << "passes = " << cp.passes << ";\n";
  o << p << "r_core = " << cp.r_core << ";\n";
  o << p << "templ = " << cp.templ << ";\n";
  o << p << "partial_buffer = " << cp.partial_buffer << ";\n";
  o << p << "n_reduces = " << cp.n_reduces << ";\n";
  o << p << "n_nodes = " << nodes.size() << ";\n";
  o << p << "nodes = " << (nodes.empty() ? std::string("nullptr") : "kNodes" + std::to_string(c))
    << ";\n";
}

// The solver and its options, fixed when the kernel was compiled.
void EmitSolverOptions(const Context& ctx, std::ostringstream& o) {
  char buf[64];
  const auto& so = ctx.tiling.solver;
  o << "  af_tiling::SolverOptions opt;\n";
  o << "  opt.algorithm = " << so.algorithm << ";  // " << att::AlgorithmName(so.algorithm) << "\n";
  o << "  opt.perf_version = " << so.perf_version << ";\n";
  o << "  opt.tradeoff = " << so.tradeoff << ";\n";
  std::snprintf(buf, sizeof buf, "%.17g", so.ub_threshold);
  o << "  opt.ub_threshold = " << buf << ";\n";
  std::snprintf(buf, sizeof buf, "%.17g", so.corenum_threshold);
  o << "  opt.corenum_threshold = " << buf << ";\n";
  o << "  opt.accuracy_level = " << so.accuracy_level << ";\n";
  o << "  opt.exhaustive_guard = " << so.exhaustive_guard << ";\n";
  o << "  opt.heuristic_iterations = " << so.heuristic_iterations << ";\n";
}

// af_solve_tiling: the bound sizes, every case's parameters, the case choice, and the tiling
// data of the chosen case.
void EmitSolve(const Context& ctx, const att::CaseSet& set, std::ostringstream& o) {
  const auto& s = ctx.s;
  o << "// forced_template >= 0 restricts the choice to that template's cases "
       "(--force_schedule_result).\n";
  o << "static int af_solve_tiling(const int64_t* syms, uint32_t nsyms, "
       "uint32_t core_num, uint64_t ub_size, int32_t forced_case, int32_t forced_template, "
       "void* out, uint64_t out_size) {\n";
  o << "  if (nsyms != " << ctx.symbols.size()
    << "u || out == nullptr || out_size < sizeof(AutofuseTilingData)) return -1;\n";
  o << "  (void)syms;\n";
  for (std::size_t i = 0; i < ctx.symbols.size(); ++i) {
    o << "  const int64_t s" << i << " = syms[" << i << "];\n";
    o << "  if (s" << i << " < 0) return -3;\n";
  }
  for (std::size_t j = 0; j < s.dims.size(); ++j) {
    o << "  const int64_t D" << j << " = " << ctx.Cpp(s.graph.FindAxis(s.dims[j])->size) << ";\n";
  }
  o << "  af_tiling::CaseParams cases[" << s.cases.size() << "];\n";
  for (std::size_t c = 0; c < s.cases.size(); ++c)
    EmitCaseParams(ctx, set, c, o);
  EmitSolverOptions(ctx, o);
  o << "  af_tiling::CaseSolution best;\n";
  o << "  " << (ctx.tiling.pgo_file.empty() ? "const int" : "int")
    << " chosen = af_tiling::SelectCase(cases, " << s.cases.size()
    << ", core_num, static_cast<int64_t>(ub_size), forced_case, &best, forced_template, opt);\n";
  o << "  if (chosen < 0) return -2;\n";
  if (!ctx.tiling.pgo_file.empty()) {
    o << "  // The searched tiling for these sizes, cores and UB, when the PGO file has a feasible "
         "one.\n";
    o << "  af_tiling::ApplyPgo(af_tiling::PgoPath(kAfPgoFile), cases, " << s.cases.size()
      << ", syms, nsyms, core_num, static_cast<int64_t>(ub_size), forced_case, forced_template, "
         "opt, &chosen, &best);\n";
  }
  o << "  AutofuseTilingData* t = static_cast<AutofuseTilingData*>(out);\n";
  o << "  *t = AutofuseTilingData{};\n";
  o << "  t->block_dim = best.block_dim;\n  t->tiling_key = static_cast<uint32_t>(chosen);\n";
  for (std::size_t i = 0; i < ctx.symbols.size(); ++i) {
    o << "  t->" << ctx.SymField(i) << " = s" << i << ";\n";
  }
  o << "  switch (chosen) {\n";
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    o << "    case " << c << ":\n";
    o << "      t->" << ctx.TileField(s.cases[c]) << " = best.tile;\n";
    o << "      t->" << ctx.BlockField(s.cases[c]) << " = best.tiles_per_block;\n";
    o << "      break;\n";
  }
  o << "    default:\n      break;\n  }\n";
  o << "  int64_t buf_bytes[af_tiling::kMaxBuffers] = {};\n";
  o << "  af_tiling::UbBytes(cases[chosen], best.tile, buf_bytes);\n";
  for (std::size_t b = 0; b < s.buffers.size(); ++b) {
    o << "  t->" << s.buffers[b].Name() << "_size = static_cast<uint32_t>(buf_bytes[" << b
      << "]);\n";
  }
  o << "  t->ub_bytes = best.ub_bytes;\n";
  o << "  t->r_split = best.r_split;\n  t->r_per_block = best.r_per_block;\n";
  o << "  t->workspace_bytes = best.workspace_bytes;\n  return 0;\n}\n\n";
}

// The exported entry points, with the names and signatures af_cpu/launch_abi.h declares
// (af_compute_tiling_t with the optional decision cache, af_compute_tiling, af_workspace_bytes,
// af_tiling_data_size, af_num_symbols).
void EmitEntryPoints(const Context& ctx, std::ostringstream& o) {
  const std::size_t nsym = ctx.symbols.size();
  if (ctx.tiling.cache) {
    // --autofuse_enable_tiling_cache: the last 8 decisions per thread, keyed by the bound sizes,
    // the core count, the UB size and the overrides.
    o << "namespace {\nstruct AfTilingCacheEntry {\n  bool valid;\n  int64_t syms[" << nsym + 1
      << "];\n  uint32_t core_num;\n  uint64_t ub_size;\n  int32_t forced_case;\n"
         "  int32_t forced_template;\n  AutofuseTilingData data;\n};\n"
         "thread_local AfTilingCacheEntry af_cache[8];\nthread_local unsigned af_cache_next = 0;\n"
         "}  // namespace\n\n";
  }
  o << "extern \"C\" AF_TILING_EXPORT int " AF_COMPUTE_TILING_SYMBOL
       "(const int64_t* syms, uint32_t nsyms, "
       "uint32_t core_num, uint64_t ub_size, int32_t forced_case, int32_t forced_template, "
       "void* out, uint64_t out_size) {\n";
  if (ctx.tiling.cache) {
    o << "  if (nsyms == " << nsym
      << "u && out != nullptr && out_size >= sizeof(AutofuseTilingData)) {\n"
         "    for (const AfTilingCacheEntry& e : af_cache) {\n"
         "      if (!e.valid || e.core_num != core_num || e.ub_size != ub_size ||\n"
         "          e.forced_case != forced_case || e.forced_template != forced_template)\n"
         "        continue;\n"
         "      bool same = true;\n"
         "      for (uint32_t i = 0; i < nsyms; ++i) same = same && e.syms[i] == syms[i];\n"
         "      if (!same) continue;\n"
         "      *static_cast<AutofuseTilingData*>(out) = e.data;\n"
         "      return 0;\n"
         "    }\n"
         "  }\n";
    o << "  const int rc = af_solve_tiling(syms, nsyms, core_num, ub_size, forced_case, "
         "forced_template, out, out_size);\n"
         "  if (rc != 0) return rc;\n"
         "  AfTilingCacheEntry& e = af_cache[af_cache_next++ % 8u];\n"
         "  e.valid = true;\n"
         "  for (uint32_t i = 0; i < nsyms; ++i) e.syms[i] = syms[i];\n"
         "  e.core_num = core_num;\n  e.ub_size = ub_size;\n  e.forced_case = forced_case;\n"
         "  e.forced_template = forced_template;\n"
         "  e.data = *static_cast<const AutofuseTilingData*>(out);\n  return 0;\n}\n\n";
  } else {
    o << "  return af_solve_tiling(syms, nsyms, core_num, ub_size, forced_case, forced_template, "
         "out, out_size);\n}\n\n";
  }
  o << "extern \"C\" AF_TILING_EXPORT int " AF_COMPUTE_TILING_CASE_SYMBOL
       "(const int64_t* syms, uint32_t nsyms, "
       "uint32_t core_num, uint64_t ub_size, int32_t forced_case, void* out, uint64_t out_size) "
       "{\n  return " AF_COMPUTE_TILING_SYMBOL
       "(syms, nsyms, core_num, ub_size, forced_case, -1, out, "
       "out_size);\n}\n\n";
  o << "extern \"C\" AF_TILING_EXPORT uint64_t " AF_WORKSPACE_BYTES_SYMBOL
       "(const void* tiling) {\n"
       "  return static_cast<uint64_t>(static_cast<const AutofuseTilingData*>(tiling)->"
       "workspace_bytes);\n}\n";
  o << "extern \"C\" AF_TILING_EXPORT uint64_t " AF_TILING_SIZE_SYMBOL
       "(void) { return "
       "sizeof(AutofuseTilingData); }\n";
  o << "extern \"C\" AF_TILING_EXPORT uint32_t " AF_NUM_SYMBOLS_SYMBOL "(void) { return "
    << ctx.symbols.size() << "u; }\n";
}

// inductor_npu_ext's tiling entry: its wrapper dlopens the kernel library and calls
// AutofuseTiling(<sizes>, tiling_data, workspace_size, block_dim, resource_limit), the sizes as
// int64_t in the order of their sorted names. resource_limit's layout is not public: it is not
// read, and the profile's core count and UB size are used (docs/formats.md).
void EmitNpuExtTiling(const Context& ctx, std::ostringstream& o) {
  std::vector<std::size_t> order(ctx.symbols.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return ctx.symbols[a] < ctx.symbols[b]; });
  std::vector<std::string> arg(ctx.symbols.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    arg[order[k]] = "size" + std::to_string(k);
  o << "\n// inductor_npu_ext's entry point; the sizes in the sorted order of their names:";
  for (const std::size_t i : order)
    o << " " << SafeComment(ctx.symbols[i]);
  o << ".\n";
  o << "extern \"C\" AF_TILING_EXPORT int64_t AutofuseTiling(";
  for (std::size_t k = 0; k < order.size(); ++k)
    o << "int64_t size" << k << ", ";
  o << "AutofuseTilingData* tiling_data, uint32_t* workspace_size, uint32_t* block_dim, "
       "void* resource_limit) {\n";
  o << "  (void)resource_limit;  // layout not public: the profile's cores and UB are used\n";
  o << "  if (tiling_data == nullptr || workspace_size == nullptr || block_dim == nullptr) "
       "return -1;\n";
  o << "  const int64_t syms[" << std::max<std::size_t>(1, arg.size()) << "] = {";
  for (std::size_t i = 0; i < arg.size(); ++i)
    o << (i != 0u ? ", " : "") << arg[i];
  if (arg.empty()) o << "0";
  o << "};\n";
  o << "  const int rc = " AF_COMPUTE_TILING_SYMBOL "(syms, " << arg.size() << "u, "
    << ctx.tiling.core_num << "u, " << ctx.tiling.ub_size
    << "u, -1, -1, tiling_data, sizeof(AutofuseTilingData));\n";
  o << "  if (rc != 0) return rc;\n";
  o << "  *workspace_size = static_cast<uint32_t>(tiling_data->workspace_bytes);\n";
  o << "  *block_dim = tiling_data->block_dim;\n  return 0;\n}\n";
}

}  // namespace

std::string TilingSource(const Context& ctx) {
  const auto& s = ctx.s;
  std::ostringstream o;
  o << "// Generated by autofuse: tiling function of kernel " << ctx.kernel << ".\n";
  o << "// It runs the same solver as the compiler (af_tiling/elementwise.h) on the bound sizes.\n";
  o << "#include \"" << ctx.kernel << "_tiling_data.h\"\n#include \"af_tiling/elementwise.h\"\n";
  if (!ctx.tiling.pgo_file.empty()) {
    // --autofuse_enable_pgo: the result file of the compiler's search (af_tiling/pgo.h).
    o << "#include \"af_tiling/pgo.h\"\n\nstatic const char kAfPgoFile[] = "
      << CStringLiteral(ctx.tiling.pgo_file) << ";\n";
  }
  o << "\n";
  // The cases' constant parameters and cost nodes (the dims are filled in at run time).
  const att::CaseSet set = att::BuildCases(s, std::vector<std::int64_t>(s.dims.size(), 1));
  EmitPerfNodeTables(ctx, set, o);
  EmitSolve(ctx, set, o);
  EmitEntryPoints(ctx, o);
  EmitNpuExtTiling(ctx, o);
  return o.str();
}

std::string TilingSolveSource(const Context& ctx) {
  std::ostringstream o;
  const att::CaseSet set = att::BuildCases(ctx.s, std::vector<std::int64_t>(ctx.s.dims.size(), 1));
  EmitPerfNodeTables(ctx, set, o);
  EmitSolve(ctx, set, o);
  return o.str();
}

std::string InferShapeSource(const Context& ctx) {
  std::ostringstream o;
  o << "// Generated by autofuse: output shapes of kernel " << ctx.kernel << " from its sizes.\n";
  o << "#include \"" << ctx.kernel << "_tiling_data.h\"\n\n";
  o << "extern \"C\" AF_TILING_EXPORT int af_infer_shape(const int64_t* syms, uint32_t nsyms, "
       "uint32_t output, int64_t* dims, uint32_t max_dims) {\n";
  o << "  if (nsyms != " << ctx.symbols.size() << "u) return -1;\n  (void)syms;\n";
  for (std::size_t i = 0; i < ctx.symbols.size(); ++i) {
    o << "  const int64_t s" << i << " = syms[" << i << "];\n  (void)s" << i << ";\n";
  }
  o << "  switch (output) {\n";
  for (auto k = static_cast<std::size_t>(ctx.num_inputs); k < ctx.params.size(); ++k) {
    const auto& t = ctx.s.graph.nodes[ctx.params[k]].outputs.at(0);
    // The hint graph's Output view (before axes were merged) gives the user-visible shape.
    const int hint_node = ctx.hint.FindNode(ctx.s.graph.nodes[ctx.params[k]].name);
    const auto& ht = hint_node >= 0 ? ctx.hint.nodes[hint_node].outputs.at(0) : t;
    o << "    case " << (k - ctx.num_inputs) << ":\n";
    o << "      if (max_dims < " << ht.repeats.size() << "u) return -1;\n";
    for (std::size_t d = 0; d < ht.repeats.size(); ++d) {
      o << "      dims[" << d << "] = " << ctx.Cpp(ht.repeats[d]) << ";\n";
    }
    o << "      return " << ht.repeats.size() << ";\n";
  }
  o << "    default:\n      return -1;\n  }\n}\n";
  return o.str();
}

GeneratedKernel Generate(const ir::Graph& hint, const schedule::ScheduleResult& s,
                         const TilingOptions& tiling) {
  Context ctx(hint, s);
  ctx.tiling = tiling;
  GeneratedKernel k;
  k.kernel_name = ctx.kernel;
  k.symbols = ctx.symbols;
  k.mixed = KernelSyncsAllCores(ctx);
  for (std::size_t i = 0; i < ctx.params.size(); ++i) {
    const int h = hint.FindNode(s.graph.nodes[ctx.params[i]].name);
    (i < static_cast<std::size_t>(ctx.num_inputs) ? k.input_nodes : k.output_nodes).push_back(h);
  }
  k.files.push_back({ctx.kernel + "_tiling_data.h", TilingDataHeader(ctx)});
  k.files.push_back({ctx.kernel + "_kernel.cc", KernelSource(ctx)});
  k.files.push_back({ctx.kernel + "_tiling.cc", TilingSource(ctx)});
  k.files.push_back({ctx.kernel + "_infershape.cc", InferShapeSource(ctx)});
  AddCpuTranslationUnit(k);
  return k;
}

void AddCpuTranslationUnit(GeneratedKernel& k) {
  std::string all = "// Generated by autofuse: one translation unit for the CPU build of " +
                    k.kernel_name + ".\n";
  for (std::size_t f = 1; f < k.files.size(); ++f)
    all += "#include \"" + k.files[f].name + "\"\n";
  k.main_file = k.kernel_name + "_all.cc";
  k.files.push_back({k.main_file, all});
}

}  // namespace af::codegen
