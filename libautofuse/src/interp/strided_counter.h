// Internal to the interpreter: walks every multi-index of a shape in C order while keeping one
// linear offset per operand up to date incrementally (no per-element index arithmetic).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace af::interp::detail {

template <std::size_t N>
class StridedCounter {
 public:
  StridedCounter(const std::vector<std::int64_t>& shape,
                 const std::array<const std::vector<std::int64_t>*, N>& strides,
                 const std::array<std::int64_t, N>& base)
      : shape_(shape), idx_(shape.size(), 0), offsets_(base) {
    for (std::size_t j = 0; j < N; ++j)
      strides_[j] = strides[j];
  }

  const std::array<std::int64_t, N>& offsets() const { return offsets_; }

  // Moves to the next multi-index (carry from the innermost dim outward).
  void Next() {
    for (std::size_t k = shape_.size(); k-- > 0;) {
      ++idx_[k];
      for (std::size_t j = 0; j < N; ++j)
        offsets_[j] += (*strides_[j])[k];
      if (idx_[k] < shape_[k]) return;
      for (std::size_t j = 0; j < N; ++j)
        offsets_[j] -= (*strides_[j])[k] * shape_[k];
      idx_[k] = 0;
    }
  }

 private:
  const std::vector<std::int64_t>& shape_;
  std::vector<std::int64_t> idx_;
  std::array<const std::vector<std::int64_t>*, N> strides_{};
  std::array<std::int64_t, N> offsets_;
};

}  // namespace af::interp::detail
