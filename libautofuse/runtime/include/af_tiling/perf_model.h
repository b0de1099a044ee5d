// The per-API cost tables of the ATT model, as data, one table per hardware generation, and the
// functions that turn one API call into cycles. Shared by the compiler and the generated tiling
// functions (C++17, no dependencies), so both price a tiling identically.
//
// Sources of the numbers (facts, not fitted by us):
//  * V1 (Atlas A2 "ascend910b" and A3 "ascend910_93", arch 2201): the vector-API linear models,
//    the load/store models and the pipe head costs of AutoFuse's ATT,
//    hicann/ge compiler/graph/optimize/autofuse/att/gen_model_info/api_perf_register/v1/
//    perf_param_v1.cpp and ascir_api_perf_v1.cpp (the formulas in the comments above LoadApi and
//    StoreApi), as summarised in ../shared/reference/autofuse-reference.md §5.3.
//  * V2 (ascend950, arch 3510): the load/store/head constants quoted in autofuse-reference.md
//    §5.3 and the MicroAPI (latency, throughput) table of v35/att/api_perf_register/
//    perf_param_v2.cpp (see kPerfV2 for the rows and the assumed ones).
// Where a table has no entry for an API we use, the entry says which published entry stands in
// for it and why ("assumed"); docs/tiling.md lists them.
#ifndef AF_TILING_PERF_MODEL_H_
#define AF_TILING_PERF_MODEL_H_

#include <cstdint>

namespace af_tiling {

// The pipes of a vector core the model prices (AutoFuse's AIV_MTE2, AIV_MTE3, AIV_VEC; SCALAR
// holds the scalar work the model knows about).
enum Pipe : int32_t { kPipeMte2 = 0, kPipeMte3 = 1, kPipeVec = 2, kPipeScalar = 3, kNumPipes = 4 };

// The vector APIs the generated kernels call, as indices into the tables.
enum Api : int32_t {
  kApiNone = 0,
  kApiAbs,
  kApiAdd,
  kApiAdds,
  kApiSub,
  kApiMul,
  kApiMuls,
  kApiDiv,
  kApiMax,
  kApiMaxs,
  kApiMin,
  kApiMins,
  kApiExp,
  kApiLn,
  kApiSqrt,
  kApiRsqrt,
  kApiReciprocal,
  kApiRelu,
  kApiSigmoid,
  kApiTanh,
  kApiErf,
  kApiSign,
  kApiPower,
  kApiCastF16F32,  // fp16/bf16 -> fp32
  kApiCastF32F16,  // fp32 -> fp16/bf16
  kApiCastOther,   // integer / bool casts
  kApiCompare,
  kApiSelect,
  kApiDuplicate,
  kApiBrcb,
  kApiCopy,  // UB -> UB copies (staging, broadcast rows)
  kApiGather,
  kApiReduceSum,
  kApiReduceMax,
  kApiReduceMin,
  kApiReduceProd,
  // The issue-22 math set, one row per cost class (ir/math_lowering.h names the calls).
  kApiAdvMath,   // adv_api math: trigonometric, hyperbolic, Erfc, Lgamma, Digamma, Log2/10, Gelu,
                 // Fmod, Hypot
  kApiRounding,  // Floor, Ceil, Round, Trunc
  kApiBitwise,   // BitwiseAnd/Or/Xor/Not
  kApiClassify,  // IsNan, IsInf, IsFinite, LogicalXor
  kApiLeakyRelu,
  kNumApis
};

// A SimpleLinear model: cycles = k * elements + b, for 16-bit and 32-bit element types.
struct Linear {
  double k16, b16, k32, b32;
};

// V2 MicroAPI instruction cost: latency + throughput * instructions (one per 256-byte repeat).
struct Micro {
  double latency, throughput;
};

// GM <-> UB data movement (LoadStoreFunc): cycles = bytes / (a + b / block_dim) + h per call;
// `small_*` replaces a/b below `small_bytes` (V1 loads: 25000 B). Strided moves add
// stride_k * rows * (stride_bytes mod 256).
struct Dma {
  double h, a, b;
  double small_bytes, small_a, small_b;
  double stride_k;
};

struct PerfTable {
  int32_t version;  // 1 or 2
  Dma load;
  Dma store;
  // MTE2 pipe head: k * block_dim + b, the "small" pair when the largest load is below
  // mte2_head_threshold bytes.
  double mte2_head_k, mte2_head_b, mte2_head_small_k, mte2_head_small_b, mte2_head_threshold;
  double mte3_head;
  double vec_head;  // V1: VEC pipe head; V2: VF head cost per vector call
  double op_head;   // per core used (head_cost = block_dim * op_head)
  // Runtime selection: candidates whose modeled cycles differ by less than this are compared by
  // UB ratio (PerfEffectVal), preferring ones at or above ub_ratio_threshold
  // (UbThresholdPerfValEffect).
  double perf_effect_val;
  double ub_ratio_threshold;
  Linear linear[kNumApis];  // V1
  Micro micro[kNumApis];    // V2
};

// V1: perf_param_v1.cpp (hicann/ge), "model_params" per API; entries marked "assumed" have no
// published V1 table entry.
inline constexpr PerfTable kPerfV1 = {
    1,
    // Load: h 27.01, T = 9.9074 + 15.8960/block_dim (>= 25000 B) or 7.9052 + 7.3100/block_dim
    // (LoadSmallBlk); LoadStride k 0.07.
    {27.01, 9.9074, 15.8960, 25000.0, 7.9052, 7.3100, 0.07},
    // Store: h 12.09, T = 9.96 + 3.79/block_dim; StoreStride k 0.02. (The table also has
    // Large/Middle/Small-block store variants whose size thresholds are not published; we use
    // the plain Store entry for every size.)
    {12.09, 9.96, 3.79, 0.0, 9.96, 3.79, 0.02},
    32.72,
    1575.03,
    15.89,
    882.09,
    25000.0,  // MTE2 head (GetMTE2PipeHead)
    497.36,   // MTE3 head
    37.37,    // VEC head
    300.0,    // GetOpHeadCost
    5000.0,   // PerfEffectVal (autofuse-reference.md §5.6)
    0.19,     // UbThresholdPerfValEffect
    {
        {0, 0, 0, 0},                          // none
        {0.0077, 20.0153, 0.0147, 20.0592},    // Abs
        {0.0103, 22.2173, 0.0206, 23.2225},    // Add
        {0.0071, 22.0938, 0.0141, 22.0936},    // Adds
        {0.0107, 22.1226, 0.0213, 22.1254},    // Sub
        {0.0110, 23.1243, 0.0206, 23.2291},    // Mul
        {0.0071, 23.1006, 0.0142, 23.0966},    // Muls
        {0.0460, 29.1233, 0.0454, 29.0892},    // Div
        {0.0111, 20.1200, 0.0215, 20.1333},    // Max
        {0.0071, 20.0912, 0.0141, 20.0887},    // Maxs
        {0.0111, 20.1104, 0.0215, 20.1271},    // Min
        {0.0071, 20.0896, 0.0142, 20.0876},    // Mins
        {0.0311, 28.0144, 0.0307, 28.0376},    // Exp
        {0.0311, 28.0144, 0.0307, 28.0376},    // Ln: assumed = Exp (no Ln entry)
        {0.0312, 29.0056, 0.0313, 28.9961},    // Sqrt
        {0.0071, 21.0970, 0.0143, 21.0979},    // Rsqrt
        {0.0078, 21.0076, 0.0146, 21.0639},    // Reciprocal
        {0.0077, 20.0173, 0.0154, 20.0189},    // Relu
        {0.1011, 116.0436, 0.1256, 115.9747},  // Sigmoid
        {0.1976, 181.6919, 0.1570, 153.9298},  // Tanh
        {0.6996, 478.4175, 0.6038, 458.2933},  // Erf
        {0.0855, 119.0821, 0.1701, 119.0656},  // Sign
        {0.6647, 2516.53, 0.6199, 730.11},     // Power (PowerAllTensor)
        {0.0147, 20.1204, 0.0147, 20.1204},    // Cast float16tofloat32
        {0.0087, 20.4393, 0.0087, 20.4393},    // Cast float32tofloat16
        {0.0083, 19.9408, 0.0332, 18.8690},    // Cast float16touint8 / int64toint32
        {0.0155, 21.0340, 0.0310, 21.0316},    // Compare: CompareEQAligned
        {0.0118, 45.9656, 0.0229, 43.9906},    // Select
        {0.0078, 16.9993, 0.0156, 16.9965},    // Duplicate
        {0.0074, 13.0572, 0.0146, 13.0732},    // Brcb
        {0.0078, 13.0049, 0.0157, 12.9966},    // Copy
        {0.1873, 17.0248, 0.1875, 15.0000},    // Gather
        {0.0547, 35.0021, 0.1094, 32.0029},    // WholeReduceSum
        {0.0547, 21.0027, 0.1094, 20.0051},    // WholeReduceMax
        {0.0547, 21.0056, 0.1094, 20.0068},    // WholeReduceMin
        {0.0547, 35.0021, 0.1094, 32.0029},    // ReduceProd: assumed = WholeReduceSum
        // The issue-22 rows: no published V1 entry for these APIs, each assumed as named.
        {0.6996, 478.4175, 0.6038, 458.2933},  // AdvMath: assumed = Erf (a polynomial adv API)
        {0.0083, 19.9408, 0.0332, 18.8690},    // Rounding: assumed = Cast (float <-> int)
        {0.0103, 22.2173, 0.0206, 23.2225},    // Bitwise: assumed = Add
        {0.0155, 21.0340, 0.0310, 21.0316},    // Classify: assumed = Compare
        {0.0077, 20.0173, 0.0154, 20.0189},    // LeakyRelu: assumed = Relu
    },
    {},
};

// V2 (ascend950): the load/store/head constants of autofuse-reference.md §5.3, and the MicroAPI
// (latency, throughput) pairs of AutoFuse's V2 instruction table (PerfParamTableV2's
// kVfInstructPerfTable in hicann/ge compiler/graph/optimize/autofuse/v35/att/api_perf_register/
// perf_param_v2.cpp, read at commit 74573e24), for the element types our kernels compute in
// (fp32; casts by their float row). A vector call costs VF head + latency + throughput x its
// 256-byte instructions. APIs the table has no row for are marked "assumed" below: composites
// priced as the instructions they are built from, the rest as Add.
inline constexpr PerfTable kPerfV2 = {
    2,
    {160.0, 11.8292, 6.6155, 256.0, 13.1355, 6.4088, 0.005},  // Load (+ small-block pair)
    {160.0, 11.774, 10.265, 0.0, 11.774, 10.265, 0.0385},     // Store
    0.0,
    1174.3,
    0.0,
    775.0,
    256.0,   // MTE2 head: 775.0 below 256 B tail blocks, else 1174.3
    571.0,   // MTE3 head
    20.0,    // VF head cost
    0.0,     // op head cost
    2000.0,  // PerfEffectVal
    0.05,    // UbThresholdPerfValEffect
    {},
    {
        {0, 0},    // none
        {2, 1},    // Abs (float)
        {4, 1},    // Add (float)
        {4, 2},    // Adds
        {4, 1},    // Sub (float)
        {5, 1},    // Mul (float)
        {5, 1},    // Muls (float)
        {14, 4},   // Div (fp32)
        {3, 1},    // Max
        {3, 1},    // Maxs
        {3, 1},    // Min
        {3, 1},    // Mins
        {13, 4},   // Exp (fp32)
        {15, 4},   // Ln (fp32)
        {14, 4},   // Sqrt (fp32)
        {28, 8},   // Rsqrt: assumed Sqrt then Div (no row)
        {14, 4},   // Reciprocal: assumed Div (no row)
        {2, 1},    // Relu
        {36, 11},  // Sigmoid: assumed Muls, Exp, Adds, Div (no row)
        {40, 13},  // Tanh: assumed Muls, Exp, Adds, Adds, Div (no row)
        {4, 1},    // Erf: assumed Add (no row; a polynomial on hardware, underestimated)
        {4, 1},    // Sign: assumed Add (no row)
        {33, 9},   // Power: assumed Ln, Mul, Exp (no row)
        {5, 2},    // Cast fp16/bf16 -> fp32 (float Cast row)
        {5, 2},    // Cast fp32 -> fp16/bf16 (float Cast row)
        {4, 2},    // Cast, integer types (integer Cast row)
        {3, 1},    // Compare (Eq/Ne/Lt/Gt/Ge/Le)
        {3, 1},    // Select
        {8, 1},    // Duplicate
        {4, 1},    // Brcb: assumed Add (no row)
        {0, 1},    // Copy: a VF Load (0, 0) then Store of 32-bit elements (0, 1)
        {4, 1},    // Gather: assumed Add (no row)
        {19, 1},   // ReduceSum: Vcadd (fp32)
        {3, 1},    // ReduceMax: assumed Max (no row)
        {3, 1},    // ReduceMin: assumed Min (no row)
        {5, 1},    // ReduceProd: assumed Mul (no row)
        {40, 13},  // AdvMath: assumed = Tanh's composite (no row)
        {4, 2},    // Rounding: assumed the integer Cast row
        {4, 2},    // Bitwise: assumed Add (int)
        {3, 1},    // Classify: assumed Compare
        {5, 1},    // LeakyRelu: assumed Muls (float)
    },
};

// Profile ids the generated tiling functions are compiled with.
inline const PerfTable& PerfTableFor(int32_t version) {
  return version == 2 ? kPerfV2 : kPerfV1;
}

// Bytes per cycle of a Dma model under `block_dim` contending cores: large and small blocks.
struct DmaRate {
  double large, small;
};
inline DmaRate RateOf(const Dma& d, double block_dim) {
  const double bd = block_dim < 1 ? 1 : block_dim;
  return DmaRate{d.a + d.b / bd, d.small_a + d.small_b / bd};
}

// One GM <-> UB call moving `bytes` in `rows` rows whose GM rows are `gap_bytes` apart beyond
// their length (0: contiguous), at the rates of the contending cores (RateOf, once per
// block_dim).
inline double DmaCyclesAt(const Dma& d, const DmaRate& r, double bytes, double rows,
                          double gap_bytes) {
  if (bytes <= 0) return 0;
  const double t = bytes < d.small_bytes ? r.small : r.large;
  double c = bytes / t + d.h;
  if (gap_bytes > 0) {
    const auto g = static_cast<int64_t>(gap_bytes);
    c += d.stride_k * rows * static_cast<double>(g % 256);
  }
  return c;
}

// One vector API call over `elems` elements of `esize` bytes.
inline double VecCycles(const PerfTable& t, int32_t api, double elems, int32_t esize) {
  if (api <= kApiNone || api >= kNumApis || elems <= 0) return 0;
  if (t.version == 2) {
    const int64_t repeats = (static_cast<int64_t>(elems) * esize + 255) / 256;  // whole repeats
    return t.vec_head + t.micro[api].latency +
           t.micro[api].throughput * static_cast<double>(repeats);
  }
  const Linear& l = t.linear[api];
  return esize <= 2 ? l.k16 * elems + l.b16 : l.k32 * elems + l.b32;
}

}  // namespace af_tiling

#endif  // AF_TILING_PERF_MODEL_H_
