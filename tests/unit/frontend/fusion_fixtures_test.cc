// The fusion decider on the real torch dumps (shared/fixtures/inductor): it finishes, every op
// node with a tensor output ends up in exactly one fused kernel or in a fallback with a reason
// code, every fused kernel's hint graph validates, and the decisions are deterministic.
#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "autofuse/frontend/fusion.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/ir/validate.h"
#include "fixtures.h"

namespace af {
namespace {

TEST(FusionOnRealDumps, EveryOpExplained) {
  AF_REQUIRE_REAL_FIXTURES();
  int files = 0;
  for (const auto& p : test::FilesUnder(test::RealFixtures() / "inductor",
                                        {"fx_graph_readable.py", "fx_graph_transformed.py"})) {
    SCOPED_TRACE(p.string());
    const model::Graph g = importers::LoadFxGraphFile(p);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = frontend::DecideFusion(g, {});
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::map<int, int> seen;
    for (const auto& k : r.kernels) {
      for (int id : k.nodes)
        ++seen[id];
      EXPECT_TRUE(ir::Validate(k.lowered.graph).empty()) << k.lowered.graph.name;
    }
    for (const auto& f : r.fallbacks) {
      ++seen[f.node];
      EXPECT_FALSE(f.code.empty());
      EXPECT_EQ(f.Text(g).rfind("Fallback ", 0), 0u);
    }
    int ops = 0;
    for (const auto& n : g.nodes) {
      if (n.kind != model::NodeKind::kOp) continue;
      bool tensor_out = false;
      for (int v : n.outputs)
        tensor_out = tensor_out || g.value(v).type.IsTensor();
      if (!tensor_out) continue;
      ++ops;
      EXPECT_EQ(seen[n.id], 1) << n.name << " (" << n.op.ToString() << ")";
    }
    for (const auto& rec : r.records)
      EXPECT_FALSE(rec.code.empty());
    EXPECT_LE(r.rounds, 10);
    if (ops <= 200) {  // deterministic (checked where it is cheap)
      const auto again = frontend::DecideFusion(g, {});
      ASSERT_EQ(again.kernels.size(), r.kernels.size());
      for (std::size_t i = 0; i < r.kernels.size(); ++i)
        EXPECT_EQ(again.kernels[i].lowered.graph, r.kernels[i].lowered.graph);
    }
    std::map<std::string, int> codes;
    for (const auto& f : r.fallbacks)
      ++codes[f.code + "(" + g.node(f.node).op.name + ")"];
    std::string hist;
    for (const auto& [c, k] : codes)
      hist += " " + c + "x" + std::to_string(k);
    std::printf("%s: %d ops -> %zu kernels, %zu fallbacks, %zu decisions, %.2f s\n  fallbacks:%s\n",
                p.filename().string().c_str(), ops, r.kernels.size(), r.fallbacks.size(),
                r.records.size(), s, hist.c_str());
    ++files;
  }
  EXPECT_GE(files, 10);
}

}  // namespace
}  // namespace af
