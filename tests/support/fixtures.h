// Where tests find their inputs: our own small fixtures in the source tree, and the real dumps in
// shared/fixtures (one setting: the AF_FIXTURES_DIR environment variable, else the CMake cache
// value, default ../shared/fixtures). Tests over the real dumps call RequireRealFixtures(), which
// fails with a clear "real dumps are missing" message in a clone without them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace af::test {

std::filesystem::path SourceDir();
std::filesystem::path BinaryDir();
std::filesystem::path OurFixtures();   // tests/fixtures in the source tree
std::filesystem::path RealFixtures();  // shared/fixtures (may not exist)
bool HaveRealFixtures();
std::string ReadFile(const std::filesystem::path& p);
// All regular files below dir whose name ends with one of the suffixes, sorted.
std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& dir,
                                              const std::vector<std::string>& suffixes);
// A fresh empty temporary directory for one test.
std::filesystem::path TempDir(const std::string& tag);

}  // namespace af::test

// Fails the current test (rather than skipping it) when the real dumps are absent: their absence
// must be visible in the results, not silently pass.
#define AF_REQUIRE_REAL_FIXTURES()                                                            \
  do {                                                                                        \
    if (!::af::test::HaveRealFixtures()) {                                                    \
      FAIL() << "the real dumps are missing: expected them in " << ::af::test::RealFixtures() \
             << " (set AF_FIXTURES_DIR to their folder)";                                     \
    }                                                                                         \
  } while (0)
