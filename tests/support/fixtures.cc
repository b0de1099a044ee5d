#include "fixtures.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace af::test {

std::filesystem::path SourceDir() {
  return AF_SOURCE_DIR;
}
std::filesystem::path BinaryDir() {
  return AF_BINARY_DIR;
}
std::filesystem::path OurFixtures() {
  return SourceDir() / "tests" / "fixtures";
}

std::filesystem::path RealFixtures() {
  if (const char* env = std::getenv("AF_FIXTURES_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return AF_DEFAULT_FIXTURES_DIR;
}

bool HaveRealFixtures() {
  std::error_code ec;
  return std::filesystem::is_directory(RealFixtures() / "autofuse", ec);
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::filesystem::path> FilesUnder(const std::filesystem::path& dir,
                                              const std::vector<std::string>& suffixes) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    for (const auto& s : suffixes) {
      if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
        out.push_back(e.path());
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::filesystem::path TempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir =
      std::filesystem::temp_directory_path() /
      ("af_test_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace af::test
