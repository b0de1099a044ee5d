// The cube group of a cube + vector kernel as a member of the multi-group kernel (see
// cube_member.h): its tiling struct, its solver (af_tiling/cube.h, the template choice of
// att/cube.h) and its AIC function. The kernel shape is the one tests/runtime/cube_cv_test.cc
// checks by hand: per tile of the batch x ceil(M / base_m) x ceil(N / base_n) grid, K in base_k
// chunks — DataCopy (Nd2Nz) GM -> L1, LoadData L1 -> L0A (Zz) / L0B (Zn), Mmad into L0C — then
// one Fixpipe of the fp32 tile: to the GM workspace (kCommon) or, with its ReLU and cast, to the
// output (kFixpip). Nothing from input files reaches the text: the names are our own, sizes
// appear as expressions over renamed symbols s<i>.
#include "cube_member.h"

#include <sstream>

#include "autofuse/att/cube.h"
#include "autofuse/ir/dtype.h"

namespace af::codegen {
namespace {

// Batch dims the tiling struct holds.
constexpr std::size_t kMaxBatchDims = 4;

std::string Quant(ir::DType t) {
  switch (t) {
    case ir::DType::kFloat16:
      return "QuantMode_t::F322F16";
    case ir::DType::kBFloat16:
      return "QuantMode_t::F322BF16";
    default:
      return "QuantMode_t::NoQuant";
  }
}

}  // namespace

CubeMember::CubeMember(const schedule::CubeGroup& c, std::uint64_t l0c) : cube(c), l0c_bytes(l0c) {
  if (c.batch.size() > kMaxBatchDims) {
    throw CodegenError("CUBE_BATCH_RANK", "the product has " + std::to_string(c.batch.size()) +
                                              " batch dims; the cube group takes up to " +
                                              std::to_string(kMaxBatchDims));
  }
  if (c.in_dtype != ir::DType::kFloat16 && c.in_dtype != ir::DType::kBFloat16) {
    throw CodegenError("CUBE_FP32_UNSUPPORTED", "the cube group takes fp16 or bf16 operands");
  }
  symbols = att::CubeSymbols(c);
  for (std::size_t i = 0; i < symbols.size(); ++i)
    rename[symbols[i]] = sym::Expr::Sym("s" + std::to_string(i));
}

std::string CubeMember::Cpp(const sym::Expr& e) const {
  return e.Subs(rename).ToCpp();
}

int CubeMember::NumParams() const {
  return cube.fixpipe ? 4 : 3;
}

std::string CubeMember::TilingStruct() const {
  std::ostringstream o;
  o << "// The cube group: its template (tiling_key 0 kCommon, 1 kFixpip) and cube tiling.\n";
  o << "struct AutofuseTilingData {\n";
  o << "  uint32_t block_dim;   // AIC cores\n  uint32_t tiling_key;\n";
  o << "  int64_t batch;\n  int64_t m;\n  int64_t n;\n  int64_t k;\n";
  o << "  int64_t base_m;\n  int64_t base_n;\n  int64_t base_k;\n  int64_t tiles;\n";
  o << "  int64_t batch_dims;\n";
  o << "  int64_t batch_ext[" << kMaxBatchDims << "];\n";
  o << "  int64_t x1_batch_stride[" << kMaxBatchDims << "];  // elements, 0: broadcast\n";
  o << "  int64_t x2_batch_stride[" << kMaxBatchDims << "];\n";
  o << "  int64_t ub_bytes;         // 0: the AIC has no UB\n";
  o << "  int64_t workspace_bytes;  // 0: the product's workspace tensor is the kernel's\n";
  o << "};\n\n";
  return o.str();
}

std::string CubeMember::Solve() const {
  const schedule::CubeGroup& c = cube;
  std::ostringstream o;
  o << "// The cube tiling (af_tiling::SolveCube) and the template: kFixpip when offered, as the\n"
       "// compiler's att::SolveCubeGroup; forced_case 0/1 forces kCommon/kFixpip.\n";
  o << "static int af_solve_tiling(const int64_t* syms, uint32_t nsyms, uint32_t core_num, "
       "uint64_t ub_size, int32_t forced_case, int32_t forced_template, void* out, "
       "uint64_t out_size) {\n";
  o << "  if (nsyms != " << symbols.size()
    << "u || out == nullptr || out_size < sizeof(AutofuseTilingData)) return -1;\n";
  o << "  (void)syms;\n  (void)ub_size;\n  (void)forced_template;\n";
  for (std::size_t i = 0; i < symbols.size(); ++i)
    o << "  const int64_t s" << i << " = syms[" << i << "];\n";
  o << "  AutofuseTilingData* t = static_cast<AutofuseTilingData*>(out);\n";
  o << "  *t = AutofuseTilingData{};\n";
  o << "  t->m = " << Cpp(c.m) << ";\n  t->n = " << Cpp(c.n) << ";\n  t->k = " << Cpp(c.k) << ";\n";
  o << "  t->batch = 1;\n  t->batch_dims = " << c.batch.size() << ";\n";
  for (std::size_t d = 0; d < c.batch.size(); ++d) {
    o << "  t->batch_ext[" << d << "] = " << Cpp(c.batch[d]) << ";\n";
    o << "  t->x1_batch_stride[" << d << "] = " << Cpp(c.x1_batch_stride[d]) << ";\n";
    o << "  t->x2_batch_stride[" << d << "] = " << Cpp(c.x2_batch_stride[d]) << ";\n";
    o << "  t->batch *= t->batch_ext[" << d << "];\n";
  }
  o << "  // The Nd2Nz and Fixpipe strides are 16-bit.\n";
  o << "  if (t->m <= 0 || t->n <= 0 || t->k <= 0 || t->batch <= 0 || t->m > 65535 || "
       "t->n > 65535 || t->k > 65535) return -3;\n";
  o << "  const bool fixpipe = " << (c.fixpipe ? "true" : "false") << ";\n";
  o << "  if (forced_case > 1 || (forced_case == 1 && !fixpipe)) return -2;\n";
  o << "  t->tiling_key = forced_case >= 0 ? static_cast<uint32_t>(forced_case) : (fixpipe ? 1u "
       ": 0u);\n";
  o << "  af_tiling::CubeProblem p;\n  p.batch = t->batch;\n  p.m = t->m;\n  p.n = t->n;\n"
       "  p.k = t->k;\n";
  o << "  p.in_bytes = " << ir::DTypeBytes(c.in_dtype) << "u;\n";
  o << "  p.out_bytes = t->tiling_key == 1u ? " << ir::DTypeBytes(c.fix_dtype) << "u : 4u;\n";
  o << "  af_tiling::CubeHw hw;\n  hw.l0c_bytes = " << l0c_bytes << "u;\n";
  o << "  hw.cube_cores = core_num / 2u > 0u ? core_num / 2u : 1u;\n";
  o << "  const af_tiling::CubeTiling ct = af_tiling::SolveCube(p, hw);\n";
  o << "  if (!ct.feasible) return -3;\n";
  o << "  t->base_m = ct.base_m;\n  t->base_n = ct.base_n;\n  t->base_k = ct.base_k;\n";
  o << "  t->tiles = ct.tiles;\n  t->block_dim = ct.block_dim;\n  return 0;\n}\n\n";
  return o.str();
}

std::string CubeMember::Function() const {
  const schedule::CubeGroup& c = cube;
  const std::string T = CType(c.in_dtype);
  const std::string sz = "static_cast<uint32_t>(sizeof(" + T + "))";
  std::ostringstream o;
  o << "__aicore__ inline uint32_t af_up16(int64_t v) { return static_cast<uint32_t>((v + 15) / "
       "16 * 16); }\n\n";
  o << "// The cube group (AIC): x1" << (c.mm.transpose_x1 ? "^T" : "") << " x x2"
    << (c.mm.transpose_x2 ? "^T" : "") << " in fp32, tile by tile.\n";
  o << "__aicore__ inline void cube_run(GM_ADDR x1, GM_ADDR x2, GM_ADDR acc, "
    << (c.fixpipe ? "GM_ADDR y, " : "") << "GM_ADDR workspace, const AutofuseTilingData* t) {\n";
  o << "  (void)workspace;\n";
  o << "  const int64_t blk = static_cast<int64_t>(GetBlockIdx());\n";
  o << "  if (blk >= static_cast<int64_t>(t->block_dim)) return;\n";
  o << "  const int64_t M = t->m;\n  const int64_t N = t->n;\n  const int64_t K = t->k;\n";
  o << "  const uint32_t bm = static_cast<uint32_t>(t->base_m);\n"
       "  const uint32_t bn = static_cast<uint32_t>(t->base_n);\n"
       "  const uint32_t bk = static_cast<uint32_t>(t->base_k);\n";
  o << "  int64_t x1_n = M * K;\n  int64_t x2_n = K * N;\n";
  o << "  for (int64_t d = 0; d < t->batch_dims; ++d) {\n"
       "    x1_n += (t->batch_ext[d] - 1) * t->x1_batch_stride[d];\n"
       "    x2_n += (t->batch_ext[d] - 1) * t->x2_batch_stride[d];\n  }\n";
  o << "  GlobalTensor<" << T << "> g1;\n  GlobalTensor<" << T << "> g2;\n";
  o << "  g1.SetGlobalBuffer(reinterpret_cast<__gm__ " << T
    << "*>(x1), static_cast<uint64_t>(x1_n));\n";
  o << "  g2.SetGlobalBuffer(reinterpret_cast<__gm__ " << T
    << "*>(x2), static_cast<uint64_t>(x2_n));\n";
  o << "  GlobalTensor<float> gacc;\n";
  o << "  gacc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(acc), "
       "static_cast<uint64_t>(t->batch "
       "* M * N));\n";
  if (c.fixpipe) {
    const std::string O = CType(c.fix_dtype);
    o << "  GlobalTensor<" << O << "> gy;\n";
    o << "  gy.SetGlobalBuffer(reinterpret_cast<__gm__ " << O
      << "*>(y), static_cast<uint64_t>(t->batch * M * N));\n";
  }
  o << "  TPipe pipe;\n";
  o << "  TQue<TPosition::A1, 1> qa1;\n  TQue<TPosition::B1, 1> qb1;\n"
       "  TQue<TPosition::A2, 1> qa2;\n  TQue<TPosition::B2, 1> qb2;\n"
       "  TQue<TPosition::CO1, 1> qc;\n";
  o << "  pipe.InitBuffer(qa1, 1, bm * bk * " << sz << ");\n";
  o << "  pipe.InitBuffer(qb1, 1, bk * bn * " << sz << ");\n";
  o << "  pipe.InitBuffer(qa2, 1, bm * bk * " << sz << ");\n";
  o << "  pipe.InitBuffer(qb2, 1, bk * bn * " << sz << ");\n";
  o << "  pipe.InitBuffer(qc, 1, bm * bn * static_cast<uint32_t>(sizeof(float)));\n";
  o << "  const int64_t tiles_m = (M + bm - 1) / bm;\n  const int64_t tiles_n = (N + bn - 1) / "
       "bn;\n";
  o << "  for (int64_t tile = blk; tile < t->tiles; tile += static_cast<int64_t>(t->block_dim)) "
       "{\n";
  o << "    const int64_t b = tile / (tiles_m * tiles_n);\n";
  o << "    const int64_t r = tile % (tiles_m * tiles_n);\n";
  o << "    const int64_t m0 = r / tiles_n * bm;\n    const int64_t n0 = r % tiles_n * bn;\n";
  o << "    int64_t off1 = 0;\n    int64_t off2 = 0;\n    int64_t rest = b;\n";
  o << "    for (int64_t d = t->batch_dims - 1; d >= 0; --d) {\n"
       "      const int64_t i = rest % t->batch_ext[d];\n"
       "      rest /= t->batch_ext[d];\n"
       "      off1 += i * t->x1_batch_stride[d];\n"
       "      off2 += i * t->x2_batch_stride[d];\n    }\n";
  o << "    const uint32_t tm = static_cast<uint32_t>(M - m0 < bm ? M - m0 : bm);\n";
  o << "    const uint32_t tn = static_cast<uint32_t>(N - n0 < bn ? N - n0 : bn);\n";
  o << "    LocalTensor<float> lc = qc.AllocTensor<float>();\n";
  o << "    for (int64_t k0 = 0; k0 < K; k0 += bk) {\n";
  o << "      const uint32_t kc = static_cast<uint32_t>(K - k0 < bk ? K - k0 : bk);\n";
  o << "      const uint32_t kb = af_up16(kc) / 16;\n";
  o << "      const uint32_t mb = af_up16(tm) / 16;\n";
  o << "      const uint32_t nb = af_up16(tn) / 16;\n";
  o << "      LocalTensor<" << T << "> a1 = qa1.AllocTensor<" << T << ">();\n";
  o << "      LocalTensor<" << T << "> b1 = qb1.AllocTensor<" << T << ">();\n";
  // GM -> L1 (Nd2Nz): the operand's rows as stored.
  if (!c.mm.transpose_x1) {
    o << "      DataCopy(a1, g1[static_cast<uint64_t>(off1 + m0 * K + k0)], Nd2NzParams(1, "
         "static_cast<uint16_t>(tm), static_cast<uint16_t>(kc), 0, static_cast<uint16_t>(K), "
         "static_cast<uint16_t>(af_up16(tm)), 1, 0));\n";
  } else {
    o << "      DataCopy(a1, g1[static_cast<uint64_t>(off1 + k0 * M + m0)], Nd2NzParams(1, "
         "static_cast<uint16_t>(kc), static_cast<uint16_t>(tm), 0, static_cast<uint16_t>(M), "
         "static_cast<uint16_t>(af_up16(kc)), 1, 0));\n";
  }
  if (!c.mm.transpose_x2) {
    o << "      DataCopy(b1, g2[static_cast<uint64_t>(off2 + k0 * N + n0)], Nd2NzParams(1, "
         "static_cast<uint16_t>(kc), static_cast<uint16_t>(tn), 0, static_cast<uint16_t>(N), "
         "static_cast<uint16_t>(af_up16(kc)), 1, 0));\n";
  } else {
    o << "      DataCopy(b1, g2[static_cast<uint64_t>(off2 + n0 * K + k0)], Nd2NzParams(1, "
         "static_cast<uint16_t>(tn), static_cast<uint16_t>(kc), 0, static_cast<uint16_t>(K), "
         "static_cast<uint16_t>(af_up16(tn)), 1, 0));\n";
  }
  o << "      SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);\n";
  o << "      WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);\n";
  o << "      LocalTensor<" << T << "> a2 = qa2.AllocTensor<" << T << ">();\n";
  o << "      LocalTensor<" << T << "> b2 = qb2.AllocTensor<" << T << ">();\n";
  // L1 -> L0A: Zz fractals (16 m x 16 k), m-block major.
  o << "      for (uint32_t i = 0; i < mb; ++i) {\n";
  if (!c.mm.transpose_x1) {
    o << "        LoadData(a2[i * kb * 256], a1[i * 256], LoadData2DParams(0, "
         "static_cast<uint8_t>(kb), static_cast<uint16_t>(mb), 0, 0, false, 0));\n";
  } else {
    o << "        LoadData(a2[i * kb * 256], a1[i * kb * 256], LoadData2DParams(0, "
         "static_cast<uint8_t>(kb), 1, 0, 0, true, 0));\n";
  }
  o << "      }\n";
  // L1 -> L0B: Zn fractals (16 n x 16 k), k-block major.
  o << "      for (uint32_t j = 0; j < kb; ++j) {\n";
  if (!c.mm.transpose_x2) {
    o << "        LoadData(b2[j * nb * 256], b1[j * 256], LoadData2DParams(0, "
         "static_cast<uint8_t>(nb), static_cast<uint16_t>(kb), 0, 0, true, 0));\n";
  } else {
    o << "        LoadData(b2[j * nb * 256], b1[j * nb * 256], LoadData2DParams(0, "
         "static_cast<uint8_t>(nb), 1, 0, 0, false, 0));\n";
  }
  o << "      }\n";
  o << "      qa1.FreeTensor(a1);\n      qb1.FreeTensor(b1);\n";
  o << "      SetFlag<HardEvent::MTE1_M>(EVENT_ID0);\n";
  o << "      WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);\n";
  o << "      Mmad(lc, a2, b2, MmadParams(static_cast<uint16_t>(tm), static_cast<uint16_t>(tn), "
       "static_cast<uint16_t>(kc), 0, false, k0 == 0));\n";
  o << "      qa2.FreeTensor(a2);\n      qb2.FreeTensor(b2);\n";
  o << "    }\n";
  o << "    SetFlag<HardEvent::M_FIX>(EVENT_ID0);\n";
  o << "    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);\n";
  o << "    const uint64_t at = static_cast<uint64_t>(b * M * N + m0 * N + n0);\n";
  const std::string params_common =
      "static_cast<uint16_t>(tn), static_cast<uint16_t>(tm), static_cast<uint16_t>(af_up16(tm)), "
      "static_cast<uint32_t>(N), ";
  if (c.fixpipe) {
    o << "    if (t->tiling_key == 1u) {  // kFixpip: ReLU and cast on the way out\n";
    o << "      Fixpipe<" << CType(c.fix_dtype) << ", float, CFG_ROW_MAJOR>(gy[at], lc, "
      << "FixpipeParamsV220(" << params_common << (c.fix_relu ? "true" : "false") << ", "
      << Quant(c.fix_dtype) << ", 0, 1, 0, 0, 0));\n";
    o << "    } else {\n  ";
  }
  o << "    Fixpipe<float, float, CFG_ROW_MAJOR>(gacc[at], lc, FixpipeParamsV220(" << params_common
    << "false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));\n";
  if (c.fixpipe) o << "    }\n";
  o << "    qc.FreeTensor(lc);\n";
  o << "  }\n}\n\n";
  return o.str();
}

}  // namespace af::codegen
