// FX test helpers.
#include "fx_test_util.h"

#include <regex>
#include <sstream>

#include "fixtures.h"

namespace af::test {

std::filesystem::path FxFixture(const std::string& name) {
  return OurFixtures() / "fx" / name;
}

std::vector<std::filesystem::path> RealFxFiles() {
  return FilesUnder(RealFixtures() / "inductor",
                    {"fx_graph_readable.py", "fx_graph_transformed.py", "fx_graph_runnable.py"});
}

std::vector<std::filesystem::path> OurFxFiles() {
  return FilesUnder(OurFixtures() / "fx", {".py", "_graph.txt"});
}

namespace {

int CountMatching(const std::string& text, const std::regex& re) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (std::regex_search(line, re)) ++n;
  }
  return n;
}

}  // namespace

int CountTorchOpsLines(const std::string& text) {
  static const std::regex re(R"(^\s+\w+(:.*)? = torch\.ops\.)");
  return CountMatching(text, re);
}

int CountPythonArithmeticLines(const std::string& text) {
  static const std::regex re(R"(^\s+\w+(:.*)? = [\w.]+ (\+|-|\*|/|//|%|\*\*) [\w.]+\s*(;.*)?$)");
  return CountMatching(text, re);
}

int CountConflicts(const model::Graph& g) {
  int n = 0;
  for (const auto& v : g.values)
    n += v.source == model::TypeSource::kConflict ? 1 : 0;
  return n;
}

}  // namespace af::test
