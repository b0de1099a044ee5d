// afc run on a Gather with an index outside the gathered dim: the generated kernel checks every
// index and stops (trap()), so afc exits 2 naming the cause instead of reading stray memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "afc_process.h"
#include "fixtures.h"

namespace {

// A version-1.0 .npy file (numpy's documented format: magic, header length, a dict padded to a
// multiple of 64 bytes with spaces and a newline, then the raw little-endian data). Written by
// hand so this CLI test stays independent of the library it checks.
void WriteNpy(const std::filesystem::path& p, const std::string& descr,
              const std::vector<std::int64_t>& shape, const void* data, std::size_t bytes) {
  std::string dims;
  for (auto d : shape)
    dims += std::to_string(d) + ",";
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(p, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  const char le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(le, 2);
  f << header;
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
}

TEST(AfcGather, IndexOutOfRangeStopsTheKernel) {
  const auto dir = std::filesystem::temp_directory_path() / "af_gather_oob";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::vector<float> emb(50 * 24, 1.0f);
  std::vector<std::int64_t> idx;
  for (int r = 0; r < 3; ++r) {
    for (std::int64_t v : {1, 2, 3, 60, 4})
      idx.push_back(v);
  }
  WriteNpy(dir / "in0.npy", "<f4", {50, 24}, emb.data(), emb.size() * sizeof(float));
  WriteNpy(dir / "in1.npy", "<i8", {3, 5}, idx.data(), idx.size() * sizeof(std::int64_t));
  const auto graph = af::test::SourceDir() / "tests" / "fixtures" / "ir" / "gather.graph.txt";
  const auto r =
      af::test::Afc("run " + af::test::Shell(graph.string()) +
                    " --bind s0=50,s1=24,s2=3,s3=5 --inputs " + af::test::Shell(dir.string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("a Gather index is outside the gathered dim"));
  // Bad input data, named as such (not an internal error), with the folder and the index input.
  EXPECT_THAT(r.err, ::testing::Not(::testing::HasSubstr("internal error")));
  EXPECT_THAT(r.err, ::testing::HasSubstr("stopped on its input data"));
  EXPECT_THAT(r.err, ::testing::HasSubstr(dir.string()));
  EXPECT_THAT(r.err, ::testing::HasSubstr("index input(s) 'idx'"));
  std::filesystem::remove_all(dir);
}

}  // namespace
