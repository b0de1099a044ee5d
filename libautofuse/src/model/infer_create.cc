// Inference rules for tensor creation (full, zeros, empty, *_like, new_*, scalar_tensor,
// arange, iota, Inductor's random/seed prims) and for size queries (sym_size, sym_numel,
// sym_stride), which yield symbolic integers.
#include "autofuse/model/dtype_code.h"
#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using ir::DType;
using sym::Expr;

// The dtype a fill value implies when no dtype is given: bool, int64 or float32.
DType FillDType(const Ctx& c, const Arg& v) {
  return c.Operand(v).dtype;
}

ValueType Created(const Ctx& c, DType dt, Shape s, int device_pos = -1) {
  ValueType r = MakeTensor(dt, std::move(s));
  r.device = c.DeviceArg(device_pos, "device");
  return r;
}

std::vector<ValueType> Full(const Ctx& c) {
  const Arg& fill = c.Need(1, "fill_value");
  const DType dt = c.DTypeArg(-1, "dtype").value_or(FillDType(c, fill));
  return {Created(c, dt, c.SizeList(c.Need(0, "size")))};
}

// zeros / ones / empty / rand / randn (size, *, dtype=None -> float32).
std::vector<ValueType> Factory(const Ctx& c) {
  const DType dt = c.DTypeArg(-1, "dtype").value_or(DType::kFloat32);
  return {Created(c, dt, c.SizeList(c.Need(0, "size")))};
}

std::vector<ValueType> EmptyStrided(const Ctx& c) {
  const DType dt = c.DTypeArg(-1, "dtype").value_or(DType::kFloat32);
  ValueType r = Created(c, dt, c.SizeList(c.Need(0, "size")));
  r.strides = c.SizeList(c.Need(1, "stride"));
  if (r.strides->size() != r.shape.size()) Fail("size and stride lists differ in length");
  return {r};
}

// *_like(self, ..., *, dtype=None): the input's shape; its dtype unless one is given.
std::vector<ValueType> Like(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  ValueType r = WithShape(x, x.shape);
  if (auto d = c.DTypeArg(-1, "dtype")) r = MakeTensor(*d, x.shape);
  if (auto dev = c.DeviceArg(-1, "device"); !dev.empty()) r.device = dev;
  if (r.device.empty()) r.device = x.device;
  return {r};
}

// new_*(self, size, ...): the given size, the input's dtype unless one is given.
std::vector<ValueType> NewFactory(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  ValueType r = WithShape(x, c.SizeList(c.Need(1, "size")));
  if (auto d = c.DTypeArg(-1, "dtype")) {
    Shape s = r.shape;
    r = MakeTensor(*d, s);
    r.device = x.device;
  }
  if (c.op().name == "new_empty_strided") r.strides = c.SizeList(c.Need(2, "stride"));
  return {r};
}

std::vector<ValueType> ScalarTensor(const Ctx& c) {
  const DType dt = c.DTypeArg(-1, "dtype").value_or(DType::kFloat32);
  return {Created(c, dt, {})};
}

// arange(end) / arange(start, end[, step]): integer arguments give int64, floats float32.
std::vector<ValueType> Arange(const Ctx& c) {
  std::vector<const Arg*> nums;
  for (int i = 0; i < 3; ++i) {
    const Arg* a = c.Get(i);
    if (a != nullptr && !a->IsNone() && a->kind != Arg::Kind::kDType) nums.push_back(a);
  }
  if (nums.empty()) Fail("arange needs an end");
  bool floating = false;
  for (const Arg* a : nums)
    floating = floating || ir::IsFloat(c.Operand(*a).dtype);
  const DType dt = c.DTypeArg(-1, "dtype").value_or(floating ? DType::kFloat32 : DType::kInt64);
  if (floating) Fail("arange over floats is not inferred");
  const Expr start = nums.size() >= 2 ? c.Size(*nums[0]) : Expr(0);
  const Expr end = c.Size(*nums[nums.size() >= 2 ? 1 : 0]);
  const Expr step = nums.size() == 3 ? c.Size(*nums[2]) : Expr(1);
  auto st = step.AsInt();
  if (!st || *st == 0) Fail("arange step must be a nonzero constant");
  Expr len = *st > 0 ? sym::CeilDiv(end - start, step) : sym::CeilDiv(start - end, Expr(-*st));
  if (auto k = len.AsInt(); k && *k < 0) len = Expr(0);
  return {Created(c, dt, {len})};
}

std::vector<ValueType> Iota(const Ctx& c) {
  const DType dt = c.DTypeArg(-1, "dtype").value_or(DType::kInt64);
  return {Created(c, dt, {c.Size(c.Need(0, "length"))})};
}

std::vector<ValueType> SymSize(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", std::nullopt), x.rank());
  if (x.rank() == 0) Fail("sym_size of a 0-dim tensor");
  return {ValueType::SymInt(x.shape[static_cast<std::size_t>(d)])};
}

std::vector<ValueType> SymStride(const Ctx& c) {
  const ValueType& x = c.Tensor(0, "self");
  const int d = c.Dim(c.Int(1, "dim", std::nullopt), x.rank());
  if (!x.strides || x.rank() == 0) Fail("the strides of the input are not known");
  return {ValueType::SymInt((*x.strides)[static_cast<std::size_t>(d)])};
}

void Add(RuleTable& t, std::initializer_list<std::string_view> names, const RuleFn& fn) {
  for (auto n : names)
    t[std::string(n)] = Rule{fn, false};
}

}  // namespace

void AddCreationRules(RuleTable& t) {
  Add(t, {"aten.full"}, Full);
  Add(t,
      {"aten.zeros", "aten.ones", "aten.empty", "aten.rand", "aten.randn", "prims.empty",
       "aten.empty_permuted"},
      Factory);
  Add(t, {"aten.empty_strided", "prims.empty_strided"}, EmptyStrided);
  Add(t,
      {"aten.full_like", "aten.zeros_like", "aten.ones_like", "aten.empty_like", "aten.rand_like",
       "aten.randn_like"},
      Like);
  Add(t,
      {"aten.new_zeros", "aten.new_ones", "aten.new_empty", "aten.new_full",
       "aten.new_empty_strided"},
      NewFactory);
  Add(t, {"aten.scalar_tensor"}, ScalarTensor);
  Add(t, {"aten.arange"}, Arange);
  Add(t, {"prims.iota"}, Iota);
  // Inductor's random prims: (size, seed, mode) -> float32; randint -> int64; seeds.
  Add(t, {"prims.inductor_random"}, [](const Ctx& c) {
    return std::vector<ValueType>{MakeTensor(DType::kFloat32, c.SizeList(c.Need(0, "size")))};
  });
  Add(t, {"prims.inductor_randint"}, [](const Ctx& c) {
    return std::vector<ValueType>{MakeTensor(DType::kInt64, c.SizeList(c.Need(2, "size")))};
  });
  Add(t, {"prims.inductor_seeds"}, [](const Ctx& c) {
    ValueType r = MakeTensor(DType::kInt64, {c.Size(c.Need(0, "count"))});
    r.device = c.DeviceArg(1, "device");
    return std::vector<ValueType>{r};
  });
  Add(t, {"prims.inductor_lookup_seed"}, [](const Ctx& c) {
    const ValueType& seeds = c.Tensor(0, "seeds");
    ValueType r = MakeTensor(DType::kInt64, {});
    r.device = seeds.device;
    return std::vector<ValueType>{r};
  });
  Add(t, {"aten.sym_size"}, SymSize);
  Add(t, {"aten.sym_numel"}, [](const Ctx& c) {
    return std::vector<ValueType>{ValueType::SymInt(Numel(c.Tensor(0, "self").shape))};
  });
  Add(t, {"aten.sym_stride"}, SymStride);
}

}  // namespace af::model::infer_detail
