// Python discovery and script running for the NumPy-backed tests.
#include "numpy_runner.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace af::test {
namespace {

bool CanImportNumpy(const std::string& python) {
  const std::string cmd = "'" + python + "' -c 'import numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

const std::string& NumpyPython() {
  static const std::string found = [] {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("AF_PYTHON"); env != nullptr && *env != '\0') {
      candidates.emplace_back(env);
    }
    candidates.emplace_back("python3");
    candidates.emplace_back("/usr/bin/python3");
    for (const auto& c : candidates) {
      if (CanImportNumpy(c)) return c;
    }
    return std::string();
  }();
  return found;
}

std::string RunNumpy(const std::filesystem::path& dir, const std::string& script) {
  const std::string& py = NumpyPython();
  if (py.empty()) {
    return "NumPy is required by this test but no Python can import it (tried $AF_PYTHON, "
           "python3, /usr/bin/python3); install python3-numpy or set AF_PYTHON";
  }
  {
    std::ofstream out(dir / "script.py");
    out << "import numpy as np\n" << script;
  }
  const std::string cmd = "cd '" + dir.string() + "' && '" + py + "' script.py > script.log 2>&1";
  const int rc = std::system(cmd.c_str());
  if (rc == 0) return "";
  std::ifstream log(dir / "script.log");
  std::ostringstream ss;
  ss << log.rdbuf();
  return "python script failed (status " + std::to_string(rc) + "):\n" + ss.str() + "\nscript:\n" +
         script;
}

}  // namespace af::test
