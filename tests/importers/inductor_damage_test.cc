// Damaged copies of every Inductor and GE ONNX dump (real fixtures and ours): truncations at random
// offsets and random byte flips either load or are refused with an InputError naming the file —
// never another exception, a crash or a hang. AF_DAMAGE_SCALE / AF_DAMAGE_SEED make longer or
// different runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>

#include "autofuse/importers/asc_graph_py.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/importers/npu_ext_log.h"
#include "autofuse/importers/output_code.h"
#include "autofuse/support/error.h"
#include "fixtures.h"

namespace af::importers {
namespace {

namespace fs = std::filesystem;

struct Tally {
  int copies = 0;
  int refused = 0;
};

// Runs `parse` on damaged copies of `text`; counts refusals; fails on anything but InputError.
void Damage(const std::string& text, const std::string& file, int truncations, int flips,
            const std::function<void(const std::string&)>& parse, Tally& t) {
  const char* seed = std::getenv("AF_DAMAGE_SEED");
  std::mt19937 rng(static_cast<unsigned>(std::hash<std::string>{}(file)) +
                   static_cast<unsigned>(seed != nullptr ? std::atoi(seed) : 0));
  for (int k = 0; k < truncations + flips; ++k) {
    std::string d = text;
    if (k < truncations) {
      d.resize(std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
    } else {
      const int n = std::uniform_int_distribution<int>(1, 8)(rng);
      for (int i = 0; i < n && !d.empty(); ++i)
        d[std::uniform_int_distribution<std::size_t>(0, d.size() - 1)(rng)] =
            static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    }
    ++t.copies;
    try {
      parse(d);
    } catch (const InputError& e) {
      ++t.refused;
      EXPECT_EQ(e.loc().file, file);
    } catch (const std::exception& e) {
      ADD_FAILURE() << file << " copy " << k << ": " << e.what();
    }
  }
}

std::function<void(const std::string&)> ParserFor(const fs::path& p, const std::string& file) {
  const std::string name = p.filename().string();
  if (name == "output_code.py" || name.rfind("output_code", 0) == 0) {
    return [file](const std::string& s) { inductor::ParseOutputCode(s, file); };
  }
  if (p.extension() == ".pbtxt") {
    return [file](const std::string& s) {
      const auto m = ge::ParseGeOnnx(s, file);
      for (const auto& g : m.graphs)
        ge::GeOnnxToModelGraph(g, file);
    };
  }
  if (name.find("asc_graph") != std::string::npos) {
    return [file](const std::string& s) {
      for (const auto& g : inductor::ParseAscGraphPy(s, file).graphs)
        inductor::ToHintGraph(g);  // refusals are reasons, never exceptions
    };
  }
  return [file](const std::string& s) {
    const auto ir = inductor::ParseInductorIr(s, file);
    inductor::BuildHintGraphs(ir);  // refusals are reasons, never exceptions
    inductor::ParseLoweringSummary(s);
  };
}

// AF_DAMAGE_SCALE=N multiplies the number of copies (longer runs on demand; default 1).
int Scale() {
  const char* e = std::getenv("AF_DAMAGE_SCALE");
  const int v = e != nullptr ? std::atoi(e) : 1;
  return v > 0 ? v : 1;
}

void DamageAll(const std::vector<fs::path>& files, Tally& t) {
  for (const auto& p : files) {
    const std::string name = p.filename().string();
    if (name == "SOURCE.txt" || name == "debug.log" || name.rfind("aot_model", 0) == 0 ||
        name.rfind("fx_graph", 0) == 0)
      continue;
    const std::string text = test::ReadFile(p);
    const bool big = text.size() > 50000;
    Damage(text, p.string(), (big ? 15 : 40) * Scale(), (big ? 40 : 200) * Scale(),
           ParserFor(p, p.string()), t);
  }
}

TEST(ImporterDamage, OurFixtures) {
  Tally t;
  DamageAll(test::FilesUnder(test::OurFixtures() / "inductor", {".txt", ".py", ".log"}), t);
  DamageAll(test::FilesUnder(test::OurFixtures() / "ge", {".pbtxt"}), t);
  std::cout << t.copies << " damaged copies of our fixtures, " << t.refused << " refused\n";
  EXPECT_GT(t.copies, 2000);
}

TEST(ImporterDamageReal, EveryInductorAndGeOnnxFixture) {
  AF_REQUIRE_REAL_FIXTURES();
  Tally t;
  DamageAll(test::FilesUnder(test::RealFixtures() / "inductor", {".txt", "output_code.py"}), t);
  DamageAll(test::FilesUnder(test::RealFixtures() / "ge_dump", {".pbtxt"}), t);
  std::cout << t.copies << " damaged copies of the real dumps, " << t.refused << " refused\n";
  EXPECT_GT(t.copies, 5000);
}

}  // namespace
}  // namespace af::importers
