// Documented AscendC Cast pairs and the shortest chains through them (breadth-first search).
#include "cast_chain.h"

#include <algorithm>
#include <array>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

namespace af::schedule {
namespace {

using ir::DType;

// bool is stored as uint8 (0/1) in the kernel.
DType Storage(DType t) {
  return t == DType::kBool ? DType::kUInt8 : t;
}

// (source, destination) pairs of AscendC Cast on Atlas A2/A3: the same table as the CPU
// runtime's CastModes (af_cpu/vec_cast.h), which follows the AscendC API reference.
constexpr std::array<std::pair<DType, DType>, 21> kPairs = {{
    {DType::kInt8, DType::kFloat16},     {DType::kUInt8, DType::kFloat16},
    {DType::kInt16, DType::kFloat16},    {DType::kInt16, DType::kFloat32},
    {DType::kFloat16, DType::kInt8},     {DType::kFloat16, DType::kUInt8},
    {DType::kFloat16, DType::kInt16},    {DType::kFloat16, DType::kInt32},
    {DType::kFloat16, DType::kFloat32},  {DType::kBFloat16, DType::kInt32},
    {DType::kBFloat16, DType::kFloat32}, {DType::kInt32, DType::kInt16},
    {DType::kInt32, DType::kFloat32},    {DType::kInt32, DType::kInt64},
    {DType::kFloat32, DType::kInt16},    {DType::kFloat32, DType::kFloat16},
    {DType::kFloat32, DType::kBFloat16}, {DType::kFloat32, DType::kInt32},
    {DType::kFloat32, DType::kInt64},    {DType::kInt64, DType::kInt32},
    {DType::kInt64, DType::kFloat32},
}};

// Intermediate dtypes in order of preference (a breadth-first search visits them in this order).
constexpr std::array<DType, 7> kVia = {DType::kFloat32, DType::kFloat16, DType::kInt32,
                                       DType::kInt16,   DType::kInt64,   DType::kBFloat16,
                                       DType::kInt8};

}  // namespace

bool DocumentedCast(DType from, DType to) {
  const DType f = Storage(from);
  const DType t = Storage(to);
  return std::find(kPairs.begin(), kPairs.end(), std::make_pair(f, t)) != kPairs.end();
}

std::vector<DType> CastChain(DType from, DType to) {
  const DType f = Storage(from);
  const DType t = Storage(to);
  if (f == t) return {};
  if (DocumentedCast(f, t)) return {to};
  if (ir::IsFloat(f) && !ir::IsFloat(t) && t != DType::kInt32) {
    // A float becomes an integer first (fp32/fp16/bf16 -> int32 truncates): a float narrowed to
    // fp16 on the way would round before the truncation (0.9998 -> 1.0 -> 1; found by the soak).
    std::vector<DType> chain = {DType::kInt32};
    const std::vector<DType> rest = CastChain(DType::kInt32, to);
    chain.insert(chain.end(), rest.begin(), rest.end());
    return chain;
  }
  std::map<DType, DType> parent;  // visited dtype -> the dtype it was reached from
  std::queue<DType> todo;
  todo.push(f);
  parent[f] = f;
  while (!todo.empty()) {
    const DType at = todo.front();
    todo.pop();
    std::vector<DType> next(kVia.begin(), kVia.end());
    next.push_back(t);
    for (const DType n : next) {
      if (parent.contains(n) || !DocumentedCast(at, n)) continue;
      parent[n] = at;
      if (n == t) {
        std::vector<DType> chain = {to};
        for (DType c = parent[t]; c != f; c = parent[c])
          chain.push_back(c);
        std::reverse(chain.begin(), chain.end());
        return chain;
      }
      todo.push(n);
    }
  }
  throw std::invalid_argument("no chain of AscendC casts converts " +
                              std::string(ir::DTypeName(from)) + " to " +
                              std::string(ir::DTypeName(to)));
}

}  // namespace af::schedule
