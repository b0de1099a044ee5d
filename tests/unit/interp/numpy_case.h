// A NumPy script run in a temp folder of its own, for the interpreter tests that compare with
// NumPy: the script (after a prelude of the test file's helpers) writes .npy files, the test
// loads them. One class for interp_numpy_test and interp_matmul_test.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

#include "../data/numpy_runner.h"
#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "fixtures.h"

namespace af::interp::testing {

class NumpyScript {
 public:
  NumpyScript(const std::string& tag, std::string prelude)
      : dir_(test::TempDir(tag)), prelude_(std::move(prelude)) {}
  std::string Run(const std::string& script) { return test::RunNumpy(dir_, prelude_ + script); }
  data::HostArray Load(const std::string& name,
                       std::optional<ir::DType> want = std::nullopt) const {
    return data::ReadNpy((dir_ / (name + ".npy")).string(), want);
  }

 private:
  std::filesystem::path dir_;
  std::string prelude_;
};

}  // namespace af::interp::testing

#define EXPECT_CLOSE(expected, actual, ...)                                                        \
  do {                                                                                             \
    const ::af::data::CompareResult r_ = ::af::data::CompareArrays(expected, actual, __VA_ARGS__); \
    EXPECT_TRUE(r_.ok) << r_.message;                                                              \
  } while (0)
