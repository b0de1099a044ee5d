// Evaluation rule for the matmul family (mm, bmm, addmm, matmul, linear): accumulates in double
// and rounds once.
#include "eval_rules.h"

namespace af::frontend::eval_detail {

void EvalMatmul(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T a = c.Tensor(name == "addmm" ? 1 : 0, "mat1");
  T b = c.Tensor(name == "addmm" ? 2 : 1, "mat2");
  if (name == "linear") {  // x @ w.t()
    if (b.shape.size() != 2) Fail(n, "linear weight must be 2-D");
    const Shape bs = {b.shape[1], b.shape[0]};
    b = {b.dt, bs, Gather(b.v, bs, {1, b.shape[1]}, 0)};
  }
  if (a.shape.size() < 2 || b.shape.size() < 2) Fail(n, "matmul of vectors is not supported");
  const std::int64_t m = a.shape[a.shape.size() - 2];
  const std::int64_t k = a.shape.back();
  const std::int64_t nn = b.shape.back();
  if (b.shape[b.shape.size() - 2] != k) Fail(n, "inner sizes differ");
  const Shape abatch(a.shape.begin(), a.shape.end() - 2);
  const Shape bbatch(b.shape.begin(), b.shape.end() - 2);
  const Shape batch = BroadcastShape(n, {abatch, bbatch});
  const std::int64_t nb = Numel(batch);
  Shape as = batch;
  as.push_back(m);
  as.push_back(k);
  Shape bs = batch;
  bs.push_back(k);
  bs.push_back(nn);
  const auto av = Expand(a, as);
  const auto bv = Expand(b, bs);
  Shape os = batch;
  os.push_back(m);
  os.push_back(nn);
  T r{c.out_dt(), os, std::vector<double>(static_cast<std::size_t>(Numel(os)))};
  for (std::int64_t p = 0; p < nb; ++p)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < nn; ++j) {
        double s = 0;
        for (std::int64_t q = 0; q < k; ++q)
          s += av[static_cast<std::size_t>((p * m + i) * k + q)] *
               bv[static_cast<std::size_t>((p * k + q) * nn + j)];
        r.v[static_cast<std::size_t>((p * m + i) * nn + j)] = s;
      }
  if (name == "addmm" ||
      (name == "linear" && ArgAt(n, 2, "bias") != nullptr && ArgAt(n, 2, "bias")->IsValue())) {
    T bias = c.Tensor(name == "addmm" ? 0 : 2, name == "addmm" ? "self" : "bias");
    const auto bv2 = Expand(bias, os);
    for (std::size_t i = 0; i < r.v.size(); ++i)
      r.v[i] += bv2[i];
  }
  c.Set(0, r);
}

}  // namespace af::frontend::eval_detail
