// Damaged FX files never crash or hang the importer: every truncation (40 points) and every
// single-byte flip (200 per file) either loads or throws af::InputError naming the file.
// Hostile shapes (deep nesting, huge tuple indices, long lines) are refused the same way.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "fx_test_util.h"

namespace af::importers {
namespace {

struct Tally {
  int loaded = 0;
  int refused = 0;
};

// Parses `text`; anything but success or an InputError naming `name` fails the test.
void Try(const std::string& text, const std::string& name, Tally& t, const std::string& what) {
  try {
    const model::Graph g = ParseFxGraph(text, name);
    ++t.loaded;
  } catch (const InputError& e) {
    ++t.refused;
    EXPECT_EQ(e.loc().file, name) << what;
    EXPECT_EQ(std::string(e.what()).rfind(name + ":", 0), 0u) << what << ": " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": unexpected " << typeid(e).name() << ": " << e.what();
  }
}

void Damage(const std::filesystem::path& file, unsigned seed) {
  const std::string text = test::ReadFile(file);
  const std::string name = file.filename().string();
  // Cut before the end of forward's return line, the graph is incomplete and must be refused.
  const std::size_t ret = text.find('\n', text.find("        return"));
  ASSERT_NE(ret, std::string::npos) << name;
  Tally cut;
  for (int i = 0; i < 40; ++i) {
    const std::size_t at = text.size() * static_cast<std::size_t>(i) / 40;
    const int refused_before = cut.refused;
    Try(text.substr(0, at), name, cut, "truncated at " + std::to_string(at));
    if (at < ret) {
      EXPECT_EQ(cut.refused, refused_before + 1) << name << " cut at " << at;
    }
  }
  Tally flip;
  std::mt19937 rng(seed);
  for (int i = 0; i < 200; ++i) {
    std::string copy = text;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(0, copy.size() - 1)(rng);
    const int x = std::uniform_int_distribution<int>(1, 255)(rng);
    copy[at] = static_cast<char>(static_cast<unsigned char>(copy[at]) ^ x);
    Try(copy, name, flip, "byte " + std::to_string(at) + " ^ " + std::to_string(x));
  }
  std::cout << "  " << name << ": truncations " << cut.loaded << " loaded / " << cut.refused
            << " refused; flips " << flip.loaded << " loaded / " << flip.refused << " refused\n";
}

TEST(FxDamage, OurFixtures) {
  unsigned seed = 1;
  for (const auto& f : test::OurFxFiles())
    Damage(f, seed++);
}

TEST(FxDamage, RealFixtures) {
  AF_REQUIRE_REAL_FIXTURES();
  unsigned seed = 100;
  for (const auto& f : test::RealFxFiles())
    Damage(f, seed++);
}

std::string Module(const std::string& body) {
  return "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[4]\"):\n" + body;
}

TEST(FxDamage, HostileShapes) {
  Tally t;
  // Deep nesting is refused before the stack runs out.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Try(Module("        y = torch.ops.aten.view.default(x, " + deep + ")\n        return y\n"),
      "deep.py", t, "deep");
  Try(Module("        y: \"f32" + std::string(50000, '[') +
             "\" = torch.ops.aten.neg.default(x)\n"
             "        return y\n"),
      "deepann.py", t, "deep annotation");
  Try(Module("        y: \"f32[" + std::string(20000, '(') + "s0" + std::string(20000, ')') +
             "]\" = torch.ops.aten.neg.default(x)\n        return y\n"),
      "deepsize.py", t, "deep size expression");
  // Huge tuple indices and sizes.
  Try(Module("        t = torch.ops.aten.var_mean.correction(x)\n        g = t[4097]\n"
             "        return g\n"),
      "index.py", t, "index");
  Try(Module("        y = torch.ops.aten.unbind.int(torch.ops.aten.view.default(x, [4]))\n"
             "        return y\n"),
      "nested.py", t, "nested call");
  Try(Module(
          "        y = torch.ops.aten.view.default(x, [9223372036854775807, 9223372036854775807])\n"
          "        z = torch.ops.aten.sum.default(y)\n        return z\n"),
      "overflow.py", t, "overflow");
  Try(Module("        y: \"f32[99999999999999999999]\" = torch.ops.aten.neg.default(x)\n"
             "        return y\n"),
      "bigdim.py", t, "big dim");
  Try(Module("        y = torch.ops.aten.unbind.int(x, 0)\n        return y\n"), "unbind.py", t,
      "unbind");
  // A very long line and many statements.
  std::string many;
  for (int i = 0; i < 20000; ++i)
    many += "        y" + std::to_string(i) + " = torch.ops.aten.neg.default(x)\n";
  Try(Module(many + "        return x\n"), "many.py", t, "many");
  Try(Module("        y = torch.ops.aten.cat.default([" + std::string(1 << 20, 'x') + "])\n"),
      "long.py", t, "long line");
  Try(std::string(1 << 16, '('), "parens.py", t, "parens");
  Try(std::string("\0\0\0def forward(self\0", 19), "nul.py", t, "nul");
  EXPECT_EQ(t.loaded + t.refused, 12);
  EXPECT_GE(t.loaded, 3);  // unbind of a 1-D tensor, many statements, nested call text
}

}  // namespace
}  // namespace af::importers
