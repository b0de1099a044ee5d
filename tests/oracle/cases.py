"""PyTorch oracle cases: CASES = {name: (fn, make_inputs)} for samples/torch/make_case.py, and
FLAGS = {name: "--flags for afc run"} for the cases that need them, and EXPECT_FUSED = {name:
[aten ops]} for the cases whose point is fusion, EXPECT_TEMPLATE = {name: template} for those whose
point is the tiling template chosen (tests/oracle/run_case.py).

Shapes are deliberately odd: primes, 1-sized dims, and rows longer than the unified buffer
(fp32 rows of 60000 elements are 240 KB, more than the 192 KB UB of an Atlas A2 vector core).
"""
import torch
import torch.nn.functional as F


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape).to(dtype)


def abs_add_relu_casts(x, y):  # the seeds' abs + add + relu with casts (fp16)
    return torch.relu(torch.abs(x.float()) + y.float()).half()


def add_ge(x, y):  # the seeds' add + ge
    return (x + y) >= 0.5


def mul_reducesum(x, y):  # the seeds' mul + reducesum
    return (x * y).sum(-1)


def pointwise_chain(x, y):
    return torch.tanh(x) * torch.sigmoid(y) + 1.0 - torch.exp(-torch.abs(x))


def bcast_leading(x, y):
    return x + y


def bcast_middle(x, b):
    return torch.maximum(x + b, x)


def bcast_trailing(x, c):
    return x * c - c


def sum_outer(x):
    return x.sum(0)


def mean_last(x):
    return x.mean(-1, keepdim=True)


def amax_keepdim(x):
    return torch.amax(x, dim=-1, keepdim=True)


def var_mean_stats(x):
    v, m = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
    return v, m


def softmax(x):
    return torch.softmax(x, dim=-1)


def softmax_colsum(x):  # multi-group: row softmax, then the column sums of the probabilities
    p = torch.softmax(x, dim=-1)
    return p, p.sum(0)


def norm_colsum(x):  # multi-group: row statistics, then a column reduction of the normalised rows
    c = x - x.mean(-1, keepdim=True)
    return (c * torch.rsqrt((c * c).mean(-1, keepdim=True) + 1e-5)).amax(0)


def log_softmax(x):
    return torch.log_softmax(x, dim=-1)


def layernorm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)


def rmsnorm(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w).to(x.dtype)


def gelu_erf(x):
    return F.gelu(x)


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def swiglu(a, b):
    return F.silu(a) * b


def fp16_casts(x, y):
    return (torch.sqrt(torch.abs(x.float())) * y).half()


def bf16_mul_add(x, y, z):
    return x * y + z


def permute_read(x, y):
    return x.permute(1, 0) + y


def hc_post(x, residual, post, comb):
    # DeepSeek-V4 hyper-connections post step (our reading): for each of the 4 streams i,
    # out[b, i] = post[b, i] * x[b] + sum_j comb[b, i, j] * residual[b, j]; computed in fp32.
    mixed = (comb.unsqueeze(-1) * residual.float().unsqueeze(1)).sum(2)
    return (post.unsqueeze(-1) * x.float().unsqueeze(1) + mixed).to(torch.bfloat16)


def hc_post_literal(x, residual, post, comb):
    # The seeds' formula taken literally: residual.unsqueeze(-2) is indexed by the output row i
    # (dim 1) and broadcast along the summed axis j, so out[b, i] = post[b, i] * x[b] +
    # residual[b, i] * sum_j comb[b, i, j].
    mixed = torch.sum(comb.unsqueeze(-1) * residual.float().unsqueeze(-2), dim=2)
    return (post.unsqueeze(-1) * x.float().unsqueeze(1) + mixed).to(torch.bfloat16)


def matmul_epilogue(x, w, b):
    return torch.relu(x @ w + b)



# The matmul pass (cube + vector kernels, docs/frontend.md "The matmul pass"): bf16, as torch 1.13's
# CPU has no fp16 matmul. Each matmul fuses with its epilogue into one MIX_AIC_1_2 kernel.
def linear_gelu_bf16(x, w, b):
    return torch.nn.functional.gelu(torch.nn.functional.linear(x, w, b))


def bmm_scale_bf16(q, k):
    return torch.bmm(q, k.transpose(1, 2)) * 0.125


def linear_residual_bf16(h, w, b, r):
    # a transformer's projection: [B * T, C] addmm viewed back as [B, T, C], then the residual
    return r + torch.nn.functional.linear(h, w, b).view(r.shape)


def mm_relu_bf16(x, w):
    return torch.relu(x @ w)  # the fixpipe's ReLU and rounding (kFixpip)


def attention_scores_bf16(qkv):
    # ViT's q @ k^T * scale on the heads of a fused qkv projection ([B, T, 3 * H * D])
    b, t, _ = qkv.shape
    q, k, _ = qkv.view(b, t, 3, 4, 16).permute(2, 0, 3, 1, 4).unbind(0)
    return (q @ k.transpose(-2, -1)) * 0.25


def in_fp32(fn):
    """fn on fp32 copies of its inputs, rounded back to bf16: the cube's fp32 accumulation. torch
    1.13's CPU bf16 matmul accumulates in bf16 (max error 2.1 against float64 at K = 200, where
    the fp32 product rounded once is within 0.13), so it cannot be the expectation."""
    def ref(*xs):
        out = fn(*[x.float() for x in xs])
        return out.to(torch.bfloat16)
    return ref

def compare_where(x, y):
    return torch.where(x > y, x, y * 2.0), x <= y


def clamp_pow_rsqrt(x):
    return torch.rsqrt(torch.clamp(x, 0.1, 4.0).pow(2) + 1.0)


def long_rows(x, y):
    return torch.relu(x - y) * 0.5


def slice_select(x, y):
    return x[:, 3:40] + y[1]


def any_all(x):
    return (x > 0).any(-1), (x > -3).all(-1)


def prod_dim(x):
    return x.prod(1)


def size1_dims(x, y):
    return torch.exp(x) + y


def expand_unsqueeze(x, y):
    return x.unsqueeze(1).expand(-1, 5, -1) * y


def permute_add(x, y):
    return x.permute(0, 2, 1) + y


def transposed_output(t, s):  # MNIST backward's log_softmax grad: x and x.T both returned
    sub = t - torch.exp(s) * t.sum(1, keepdim=True)
    return sub, sub.permute(1, 0), sub.sum(0, keepdim=True).view(-1)


def cat_heads(h0, h1, h2, h3, b):
    return torch.cat([h0, h1 * 2.0, h2, h3], -1) + b


def rotary(x, cos, sin):  # rotate_half: cat((-x2, x1)) * sin + x * cos
    half = x.shape[-1] // 2
    x1 = x[..., :half]
    x2 = x[..., half:]
    return torch.cat((-x2, x1), -1) * sin + x * cos


def embedding_gather(idx, w, s):
    return F.embedding(idx, w) * s


def index_select_last(x, idx):  # a take along the innermost dim (Gather on the 950)
    return torch.index_select(x, -1, idx) * 2.0


def index_last_negative(x, idx):  # x[:, idx] with negative indices (negative_index_support)
    return torch.relu(x[:, idx])


def cat_softmax(a, b):  # multi-group: a Concat group, then the softmax of the concatenated rows
    return torch.softmax(torch.cat([a, -b], -1), -1)


def embedding_rmsnorm(idx, w, pos):  # multi-group: a Gather group, then the RMS norm of its rows
    e = F.embedding(idx, w) + pos
    return e * torch.rsqrt(e.pow(2).mean(-1, keepdim=True) + 1e-6)


def split_pad(x):
    a, b, c = torch.split(torch.exp(x), [3, 5, 9], dim=1)
    return a * 2.0, F.pad(torch.relu(b), (1, 2), value=0.5), c


def cat_rows(a, b, c):  # a concat along the outermost dim: one store per input (GM concat)
    return torch.cat([a, b * 2.0], 0) * c + 1.0


def split_rows(x, bias):  # a split along the outermost dim: pieces run one after another
    a, b = torch.split(torch.exp(x), [3, 8], dim=0)
    return a + bias, torch.relu(b)


def rotary_qk(q, k, cos, sin):  # q's and k's rotary (the front end gives each its own kernel)
    return rotary(q, cos, sin), rotary(k, cos, sin)


def cat_many(*xs):  # more inputs than the UB concat takes: one store per input
    return torch.abs(torch.cat(xs, 1))


# The math set (issue 22): one case per aten family, every op of it fused into one kernel.
def math_trig(x):  # x in (-0.9, 0.9)
    return (torch.sin(x) + torch.cos(x) + torch.tan(x) + torch.asin(x) + torch.acos(x) +
            torch.atan(x) + torch.sinh(x) + torch.cosh(x) + torch.asinh(x) + torch.atanh(x))


def math_exp_log(x, y):  # y > 0.5
    return (torch.exp2(x) + torch.expm1(x) + torch.log2(y) + torch.log10(y) + torch.log1p(y) +
            torch.erfc(x) + torch.lgamma(y) + torch.acosh(y + 1.0) + torch.hypot(x, y))


def math_rounding(x, y):  # y away from 0, x / y never near an integer
    return (torch.floor(x) + torch.ceil(x) + torch.round(x) + torch.trunc(x) +
            torch.floor_divide(x, y) + torch.remainder(x, y) + torch.fmod(x, y) +
            torch.div(x, y, rounding_mode="floor") + torch.div(x, y, rounding_mode="trunc"))


def math_predicates(x):  # x holds nan and +-inf; where with scalars (aten.scalar_tensor)
    z = torch.where(torch.isnan(x), 0.0, x)
    z = torch.where(torch.isinf(z), -1.0, z)
    return z, torch.isinf(x) | torch.isnan(x)


def math_activations(x, m):
    return (F.leaky_relu(x, 0.2) + F.gelu(x, approximate="tanh") + torch.clamp(x, -0.5, 0.7)
            + x.masked_fill(m, 3.0))


def math_bitwise(a, b):
    return (a & b) | b, a ^ b


def math_sign(x, y):  # x, y hold signed zeros, +-inf and nan of both signs
    return torch.atan2(x, y) + torch.copysign(x, y), torch.signbit(x)


def math_special2(a, x, w):  # a, x > 0; zeta's s = x + 1 > 1, q = a; w > -2 (PyTorch's airy_ai
    # is up to 3e-6 off in (-2.5, -2.09), past the oracle's tolerance; docs/ir.md)
    sp = torch.special
    return sp.gammainc(a, x), sp.gammaincc(a, x), sp.zeta(x + 1, a), sp.airy_ai(w)


def math_special2_fp16(a, x):  # fp16: computed in fp32 (AutoFuse's are fp32 only; PyTorch's CPU
    # zeta has no half kernel)
    return torch.special.gammaincc(a, x), torch.special.gammainc(x, a) * a


def math_shifts(a, n, u, m):  # counts in [0, width): PyTorch before 2.1 leaves others undefined
    return (torch.bitwise_left_shift(a, n), torch.bitwise_right_shift(a, n),
            torch.bitwise_left_shift(u, m) ^ torch.bitwise_right_shift(u, m))


def math_int_sign(a, b):  # signbit on int32; copysign of int32 operands promotes to float32
    return torch.signbit(a), torch.copysign(a, b)


def math_poly(x, z, w):  # the orthogonal polynomials with number degrees (fp32 only: PyTorch's
    # CPU kernels have no half); x in (-0.2, 1.2) around the shifted interval [0, 1], w in (-1, 1).
    # Moderate degrees: PyTorch's fp32 recurrences drift past the oracle's tolerance for high ones
    # (W_30 outside [0, 1]: 2e-4 relative); e2e math_poly checks degree 30 against float64.
    sp = torch.special
    return (sp.shifted_chebyshev_polynomial_t(x, 3), sp.shifted_chebyshev_polynomial_u(x, 7),
            sp.shifted_chebyshev_polynomial_v(x, 2) + sp.shifted_chebyshev_polynomial_w(x, 4),
            sp.laguerre_polynomial_l(z, 5), sp.legendre_polynomial_p(w, 12),
            sp.legendre_polynomial_p(w, -1) + sp.laguerre_polynomial_l(z, 1.0))


def argmax_rows(x):  # ties (few distinct values), keepdim both ways; the index is int64
    return torch.argmax(x, dim=-1), torch.argmax(x, dim=1, keepdim=True)


def argmax_long_rows(x):  # a few long rows: r_core (each row's tiles over several cores)
    return torch.argmax(x, dim=-1)


def _long_rows():
    x = _ties(3, 150001)
    x[0, [50000, 100000, 150000]] = 9.0  # ties in different cores' shares: the first wins
    x[1, 20000] = 9.0
    x[1, 140000] = float("nan")  # NaN in a later share than the maximum: NaN wins
    return [x]


def softmax_argmax(x):  # a classifier's softmax, then the predicted class
    return torch.argmax(torch.softmax(x, dim=-1), dim=-1)


def argmax_embedding(x, emb):  # greedy decoding: the predicted class's embedding row
    return F.embedding(torch.argmax(x, dim=1), emb)


def argmax_index_keepdim(x, emb):  # x[..., classes]: a 2-D index (keepdim), then an add
    return emb[torch.argmax(x, dim=-1, keepdim=True)] + 1.0


def argmax_index_select_last(x, t):  # columns picked by each row's argmax (innermost, the 950)
    return torch.index_select(t, 1, torch.argmax(x, dim=-1))


def _ties(*shape, dtype=torch.float32):
    return (torch.randint(-3, 4, shape).float() * 0.5).to(dtype)


def _away_from_int(n, m):
    y = (torch.rand(n, m) * 1.5 + 0.5) * torch.where(torch.rand(n, m) < 0.5, -1.0, 1.0)
    q = torch.randint(-4, 5, (n, m)) + torch.rand(n, m) * 0.6 + 0.2
    return [y * q, y]


def _signed(n, m, k):
    x = randn(n, m)
    x[k::3, ::2] = 0.0
    x[k::3, 1::4] = -0.0
    x[(k + 1) % 3::3, ::5] = float("inf")
    x[(k + 1) % 3::3, 1::5] = -float("inf")
    x[(k + 2) % 3::3, ::7] = float("nan")
    x[(k + 2) % 3::3, 3::7] = -float("nan")
    return x


def _specials(n, m):
    x = randn(n, m)
    x[::3, ::2] = float("nan")
    x[1::3, ::5] = float("inf")
    x[2::3, 1::4] = -float("inf")
    return [x]


CASES = {
    "abs_add_relu_casts": (abs_add_relu_casts,
                           lambda: [randn(192, 128, dtype=torch.float16),
                                    randn(128, dtype=torch.float16)]),
    "add_ge": (add_ge, lambda: [randn(31, 97), randn(31, 97)]),
    "mul_reducesum": (mul_reducesum, lambda: [randn(17, 257), randn(17, 257)]),
    "pointwise_chain": (pointwise_chain, lambda: [randn(5, 7, 11), randn(5, 7, 11)]),
    "bcast_leading": (bcast_leading, lambda: [randn(1, 263), randn(13, 263)]),
    "bcast_middle": (bcast_middle, lambda: [randn(3, 29, 61), randn(3, 1, 61)]),
    "bcast_trailing": (bcast_trailing, lambda: [randn(41, 67), randn(41, 1)]),
    "sum_outer": (sum_outer, lambda: [randn(23, 129)]),
    "mean_last": (mean_last, lambda: [randn(19, 301)]),
    "amax_keepdim": (amax_keepdim, lambda: [randn(7, 513)]),
    "var_mean_stats": (var_mean_stats, lambda: [randn(2, 16, 64)]),
    "softmax": (softmax, lambda: [randn(8, 1000)]),
    "log_softmax": (log_softmax, lambda: [randn(6, 131)]),
    "softmax_colsum": (softmax_colsum, lambda: [randn(37, 1001)]),
    "norm_colsum": (norm_colsum, lambda: [randn(129, 67)]),
    "layernorm": (layernorm, lambda: [randn(4, 9, 96), randn(96), randn(96)]),
    "rmsnorm_bf16": (rmsnorm, lambda: [randn(11, 256, dtype=torch.bfloat16), randn(256)]),
    "gelu_erf": (gelu_erf, lambda: [randn(37, 101)]),
    "gelu_tanh": (gelu_tanh, lambda: [randn(37, 101)]),
    "swiglu": (swiglu, lambda: [randn(9, 173), randn(9, 173)]),
    "fp16_casts": (fp16_casts, lambda: [randn(29, 64, dtype=torch.float16), randn(29, 64)]),
    "bf16_mul_add": (bf16_mul_add, lambda: [randn(13, 80, dtype=torch.bfloat16),
                                            randn(13, 80, dtype=torch.bfloat16),
                                            randn(80, dtype=torch.bfloat16)]),
    "permute_read": (permute_read, lambda: [randn(64, 48), randn(48, 64)]),
    "hc_post": (hc_post, lambda: [randn(8, 256, dtype=torch.bfloat16),
                                  randn(8, 4, 256, dtype=torch.bfloat16),
                                  randn(8, 4), randn(8, 4, 4)]),
    "hc_post_literal": (hc_post_literal, lambda: [randn(8, 256, dtype=torch.bfloat16),
                                                  randn(8, 4, 256, dtype=torch.bfloat16),
                                                  randn(8, 4), randn(8, 4, 4)]),
    "matmul_epilogue": (matmul_epilogue, lambda: [randn(16, 32), randn(32, 24), randn(24)]),
    "compare_where": (compare_where, lambda: [randn(21, 55), randn(21, 55)]),
    "linear_gelu_bf16_fused": (linear_gelu_bf16,
                               lambda: [randn(37, 96, dtype=torch.bfloat16),
                                        randn(130, 96, dtype=torch.bfloat16),
                                        randn(130, dtype=torch.bfloat16)]),
    "bmm_scale_bf16_fused": (bmm_scale_bf16, lambda: [randn(6, 33, 64, dtype=torch.bfloat16),
                                                      randn(6, 47, 64, dtype=torch.bfloat16)]),
    "linear_residual_bf16_fused": (linear_residual_bf16,
                                   lambda: [randn(2 * 29, 80, dtype=torch.bfloat16),
                                            randn(80, 80, dtype=torch.bfloat16),
                                            randn(80, dtype=torch.bfloat16),
                                            randn(2, 29, 80, dtype=torch.bfloat16)]),
    "attention_scores_bf16_fused": (attention_scores_bf16,
                                    lambda: [randn(2, 37, 192, dtype=torch.bfloat16)]),
    "mm_relu_bf16_fused": (mm_relu_bf16, lambda: [randn(50, 200, dtype=torch.bfloat16),
                                                  randn(200, 70, dtype=torch.bfloat16)]),
    "clamp_pow_rsqrt": (clamp_pow_rsqrt, lambda: [randn(3, 5, 7, 9)]),
    "long_rows": (long_rows, lambda: [randn(3, 60000), randn(3, 60000)]),
    "slice_select": (slice_select, lambda: [randn(12, 50), randn(3, 12, 37)]),
    "any_all": (any_all, lambda: [randn(10, 33)]),
    "prod_dim": (prod_dim, lambda: [randn(6, 5, 7) * 0.5 + 1.0]),
    "size1_dims": (size1_dims, lambda: [randn(1, 47, 1), randn(5, 47, 1)]),
    "expand_unsqueeze": (expand_unsqueeze, lambda: [randn(6, 31), randn(6, 5, 31)]),
    "permute_add": (permute_add, lambda: [randn(4, 24, 40), randn(4, 40, 24)]),
    "cat_heads": (cat_heads, lambda: [randn(2, 9, 16), randn(2, 9, 16), randn(2, 9, 16),
                                      randn(2, 9, 16), randn(64)]),
    "cat_heads_fused": (cat_heads, lambda: [randn(2, 9, 16), randn(2, 9, 16), randn(2, 9, 16),
                                            randn(2, 9, 16), randn(64)]),
    "rotary": (rotary, lambda: [randn(2, 3, 7, 32), randn(7, 32), randn(7, 32)]),
    "rotary_fused": (rotary, lambda: [randn(2, 3, 7, 32), randn(7, 32), randn(7, 32)]),
    "embedding_gather": (embedding_gather, lambda: [torch.randint(0, 50, (3, 5)), randn(50, 24),
                                                    randn(24)]),
    "embedding_gather_fused": (embedding_gather, lambda: [torch.randint(0, 50, (3, 5)),
                                                          randn(50, 24), randn(24)]),
    "split_pad_fused": (split_pad, lambda: [randn(6, 17)]),
    "cat_softmax_fused": (cat_softmax, lambda: [randn(37, 101), randn(37, 58)]),
    "embedding_rmsnorm_fused": (embedding_rmsnorm, lambda: [torch.randint(0, 50, (3, 5)),
                                                            randn(50, 24), randn(3, 5, 24)]),
    "cat_rows_fused": (cat_rows, lambda: [randn(5, 33), randn(7, 33), randn(12, 33)]),
    "split_rows_fused": (split_rows, lambda: [randn(11, 37), randn(37)]),
    "rotary_qk_fused": (rotary_qk, lambda: [randn(2, 3, 7, 32), randn(2, 3, 7, 32), randn(7, 32),
                                            randn(7, 32)]),
    "cat_many_fused": (cat_many, lambda: [randn(4, 3 if k % 2 else 5) for k in range(50)]),
    "math_trig": (math_trig, lambda: [torch.rand(29, 67) * 1.8 - 0.9]),
    "math_exp_log": (math_exp_log, lambda: [torch.rand(23, 71) * 2 - 1,
                                            torch.rand(23, 71) * 3 + 0.5]),
    "math_rounding": (math_rounding, lambda: _away_from_int(17, 53)),
    "math_predicates": (math_predicates, lambda: _specials(19, 41)),
    "math_activations": (math_activations, lambda: [randn(13, 97), torch.rand(13, 97) < 0.5]),
    "math_bitwise": (math_bitwise, lambda: [torch.randint(-1000, 1000, (11, 37), dtype=torch.int32),
                                            torch.randint(-1000, 1000, (11, 37), dtype=torch.int32)]),
    "math_sign": (math_sign, lambda: [_signed(17, 43, 0), _signed(17, 43, 1)]),
    "math_special2": (math_special2, lambda: [torch.rand(7, 61) * 12 + 0.05,
                                              torch.rand(7, 61) * 15 + 0.05,
                                              torch.rand(7, 61) * 12 - 2]),
    "math_special2_fp16": (math_special2_fp16, lambda: [(torch.rand(5, 33) * 8 + 0.1).half(),
                                                        (torch.rand(5, 33) * 8).half()]),
    "math_shifts": (math_shifts, lambda: [
        torch.randint(-2 ** 31, 2 ** 31 - 1, (19, 53), dtype=torch.int32),
        torch.randint(0, 32, (19, 53), dtype=torch.int32),
        torch.randint(0, 256, (7, 131), dtype=torch.uint8),
        torch.randint(0, 8, (7, 131), dtype=torch.uint8)]),
    "math_int_sign": (math_int_sign, lambda: [
        torch.randint(-1000, 1000, (13, 61), dtype=torch.int32),
        torch.randint(-1000, 1000, (13, 61), dtype=torch.int32)]),
    "math_poly": (math_poly, lambda: [torch.rand(7, 61) * 1.4 - 0.2, torch.rand(7, 61) * 9 - 1,
                                      torch.rand(7, 61) * 2 - 1]),
    "transposed_output": (transposed_output, lambda: [randn(37, 13), randn(37, 13)]),
    "argmax_rows": (argmax_rows, lambda: [_ties(37, 101)]),
    "argmax_rows_fp16": (argmax_rows, lambda: [_ties(5, 3001, dtype=torch.float16)]),
    "softmax_argmax": (softmax_argmax, lambda: [randn(13, 1000)]),
    "argmax_long_rows": (argmax_long_rows, _long_rows),
    # ArgMax, then a Gather of the rows it picks: one kernel of two groups (the indices cross a
    # GM workspace, which is where AutoFuse's Gather reads them).
    "argmax_embedding_fused": (argmax_embedding, lambda: [_ties(13, 1000), randn(1000, 64)]),
    "argmax_index_keepdim_fused": (argmax_index_keepdim,
                                   lambda: [_ties(4, 5, 257), randn(257, 33)]),
    "argmax_index_select_last_fused": (argmax_index_select_last,
                                       lambda: [_ties(7, 300), randn(5, 300)]),
    "index_select_last_fused": (index_select_last, lambda: [randn(13, 301),
                                                            torch.randint(0, 301, (37,))]),
    "index_last_negative_fused": (index_last_negative,
                                  lambda: [randn(7, 1001),
                                           torch.randint(-1001, 1001, (5, 3))]),
}

# `afc run --flags` per case (default: none). The *_fused cases enable the data-movement passes
# (AutoFuse leaves concat and gather off by default, and so do we).
DATA_MOVEMENT = "--autofuse_enable_pass=reduce,slice,transpose,concat,gather,pad"
MATMUL = "--autofuse_enable_pass=reduce,slice,transpose,matmul"
FLAGS = {
    "cat_heads_fused": DATA_MOVEMENT,
    "rotary_fused": DATA_MOVEMENT,
    "embedding_gather_fused": DATA_MOVEMENT,
    "index_select_last_fused": DATA_MOVEMENT,
    "index_last_negative_fused": DATA_MOVEMENT,
    "split_pad_fused": DATA_MOVEMENT,
    "cat_rows_fused": DATA_MOVEMENT,
    "cat_softmax_fused": DATA_MOVEMENT,
    "embedding_rmsnorm_fused": DATA_MOVEMENT,
    "split_rows_fused": DATA_MOVEMENT,
    "rotary_qk_fused": DATA_MOVEMENT,
    # The default limits (AutoFuse's 64 AscIR nodes and 8 inputs per fused kernel) keep a
    # 50-input cat out of every kernel.
    "argmax_embedding_fused": DATA_MOVEMENT,
    "linear_gelu_bf16_fused": MATMUL,
    "bmm_scale_bf16_fused": MATMUL,
    "linear_residual_bf16_fused": MATMUL,
    "mm_relu_bf16_fused": MATMUL,
    "attention_scores_bf16_fused": MATMUL,
    "argmax_index_keepdim_fused": DATA_MOVEMENT,
    "argmax_index_select_last_fused": DATA_MOVEMENT,
    "cat_many_fused": DATA_MOVEMENT + ";--autofuse_max_fusion_size=256;--autofuse_max_input_nums=64",
}

# Ops that must end up inside a fused kernel that compiled (every node of each listed aten op,
# e.g. "cat" for aten.cat.default), checked from `afc compile`'s report.json: numerics alone pass
# just as well when the op falls back to the reference evaluator.
EXPECT_FUSED = {
    "cat_heads_fused": ["cat"],
    "rotary_fused": ["slice", "cat"],
    "embedding_gather_fused": ["embedding"],
    "split_pad_fused": ["split_with_sizes", "constant_pad_nd"],
    "cat_rows_fused": ["cat"],
    "cat_softmax_fused": ["cat", "amax", "exp", "sum", "div"],
    "embedding_rmsnorm_fused": ["embedding", "add", "pow", "mean", "rsqrt", "mul"],
    "split_rows_fused": ["split_with_sizes"],
    "rotary_qk_fused": ["cat"],
    "cat_many_fused": ["cat"],
    "matmul_epilogue": ["add", "relu"],
    "permute_read": ["permute"],
    "permute_add": ["permute"],
    "gelu_tanh": ["gelu"],
    "math_trig": ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh"],
    "math_exp_log": ["exp2", "expm1", "log2", "log10", "log1p", "erfc", "lgamma", "acosh",
                     "hypot"],
    "math_rounding": ["floor", "ceil", "round", "trunc", "floor_divide", "remainder", "fmod",
                      "div"],
    "math_predicates": ["isnan", "isinf", "where", "scalar_tensor", "bitwise_or"],
    "math_activations": ["leaky_relu", "gelu", "clamp", "masked_fill"],
    "math_bitwise": ["bitwise_and", "bitwise_or", "bitwise_xor"],
    "math_sign": ["atan2", "copysign", "signbit"],
    "math_special2": ["igamma", "igammac", "special_zeta", "special_airy_ai"],
    "math_special2_fp16": ["igammac", "igamma", "mul"],
    "math_poly": ["special_shifted_chebyshev_polynomial_t", "special_shifted_chebyshev_polynomial_u",
                  "special_shifted_chebyshev_polynomial_v", "special_shifted_chebyshev_polynomial_w",
                  "special_laguerre_polynomial_l", "special_legendre_polynomial_p"],
    "math_shifts": ["bitwise_left_shift", "bitwise_right_shift", "bitwise_xor"],
    "math_int_sign": ["signbit", "copysign"],
    "transposed_output": ["exp", "sub"],  # fused; the transposed store is refused, not wrong
    # Reductions over different dims in one multi-group kernel (docs/schedule.md "Multi-group").
    "softmax_colsum": ["amax", "exp", "sum", "div"],
    "norm_colsum": ["mean", "amax", "rsqrt"],
    "argmax_rows": ["argmax"],
    "argmax_rows_fp16": ["argmax"],
    "softmax_argmax": ["argmax", "exp"],
    "argmax_long_rows": ["argmax"],
    "index_select_last_fused": ["index_select", "mul"],
    "index_last_negative_fused": ["index", "relu"],
    "argmax_embedding_fused": ["argmax", "embedding"],
    "argmax_index_keepdim_fused": ["argmax", "index", "add"],
    "argmax_index_select_last_fused": ["argmax", "index_select"],
    "linear_gelu_bf16_fused": ["addmm", "gelu"],
    "bmm_scale_bf16_fused": ["bmm", "mul"],
    "linear_residual_bf16_fused": ["addmm", "add"],
    "mm_relu_bf16_fused": ["mm", "relu"],
    "attention_scores_bf16_fused": ["bmm", "mul"],
}

# The expected outputs of a case when not fn's own in eager PyTorch (same inputs).
REFERENCE = {
    "linear_gelu_bf16_fused": in_fp32(linear_gelu_bf16),
    "bmm_scale_bf16_fused": in_fp32(bmm_scale_bf16),
    "linear_residual_bf16_fused": in_fp32(linear_residual_bf16),
    "mm_relu_bf16_fused": in_fp32(mm_relu_bf16),
    "attention_scores_bf16_fused": in_fp32(attention_scores_bf16),
}

# Ops (of EXPECT_FUSED) whose nodes must all be in one fused kernel, not only each in some kernel:
# two fused kernels would pass EXPECT_FUSED just as well.
EXPECT_ONE_KERNEL = {
    "argmax_embedding_fused": ["argmax", "embedding"],
    "argmax_index_keepdim_fused": ["argmax", "index", "add"],
    "argmax_index_select_last_fused": ["argmax", "index_select"],
    "softmax_argmax": ["argmax", "exp"],
    "embedding_rmsnorm_fused": ["embedding", "mean", "mul"],
    "linear_gelu_bf16_fused": ["addmm", "gelu"],
    "bmm_scale_bf16_fused": ["bmm", "mul"],
    "linear_residual_bf16_fused": ["addmm", "add"],
    "mm_relu_bf16_fused": ["mm", "relu"],
    "attention_scores_bf16_fused": ["bmm", "mul"],
}

# The profile (`afc --soc`) a case runs and compiles on, other than afc's default (ascend910b):
# Gathers along the params' innermost dim are scheduled on the 950 only (docs/schedule.md).
SOC = {
    "index_select_last_fused": "ascend950",
    "index_last_negative_fused": "ascend950",
    "argmax_index_select_last_fused": "ascend950",
}

# The template the tiling must choose for every fused kernel of the case (run_case.py).
EXPECT_TEMPLATE = {
    "argmax_long_rows": "r_core",
}
