// Buffer dtypes of layout-less (torch 2.0) Inductor dumps from the FX graph and the loop bodies.
#include "autofuse/importers/inductor_dtypes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/inductor_hint.h"
#include "autofuse/interp/interpreter.h"
#include "fixtures.h"

namespace af::importers::inductor {
namespace {

std::filesystem::path Folder() {
  return test::OurFixtures() / "inductor" / "v2.0_no_layouts";
}

TEST(InductorDTypes, FromPlaceholdersExternOrdinalAndLoopBodies) {
  const IrFile post = LoadInductorIrFile(Folder() / "ir_post_fusion.txt");
  const model::Graph fx = LoadFxGraphFile(Folder() / "fx_graph_readable.py");
  const BufferDTypes t = InferBufferDTypes(post, nullptr, &fx);
  EXPECT_EQ(t.dtype.at("arg2_1"), "torch.float16");
  EXPECT_EQ(t.source.at("arg2_1"), "FX placeholder arg2_1");
  EXPECT_EQ(t.dtype.at("buf0"), "torch.float16");  // the 1st extern mm = the 1st aten.mm call
  EXPECT_EQ(t.source.at("buf0"), "FX node mm");
  EXPECT_EQ(t.dtype.at("buf1"), "torch.float16");  // stores to_dtype(..., torch.float16)
  EXPECT_EQ(t.dtype.at("buf2"), "torch.float32");  // square of fp32 values
  EXPECT_TRUE(t.notes.empty());
  // Without the FX graph only what the loop bodies name themselves is known: buf1 stores a
  // to_dtype(..., torch.float16); the inputs and the extern output stay unknown.
  const BufferDTypes none = InferBufferDTypes(post, nullptr, nullptr);
  EXPECT_EQ(none.dtype.count("arg2_1"), 0u);
  EXPECT_EQ(none.dtype.count("buf0"), 0u);
  EXPECT_EQ(none.dtype.at("buf1"), "torch.float16");
}

TEST(InductorDTypes, ExternCountMismatchIsNotMapped) {
  const IrFile post = LoadInductorIrFile(Folder() / "ir_post_fusion.txt");
  model::Graph fx = LoadFxGraphFile(Folder() / "fx_graph_readable.py");
  // A second aten.mm call: the ordinal mapping is no longer sound and is refused.
  fx.nodes.push_back(fx.nodes[0]);
  const BufferDTypes t = InferBufferDTypes(post, nullptr, &fx);
  EXPECT_EQ(t.dtype.count("buf0"), 0u);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("1 extern mm kernel(s) but 2 FX call(s)"), std::string::npos);
  const auto groups = BuildHintGraphs(post, nullptr, &t);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_FALSE(groups[0].graph.has_value());
  EXPECT_NE(groups[0].reason.find("gives the dtype of buf0"), std::string::npos)
      << groups[0].reason;
}

TEST(InductorDTypes, FolderGroupsLowerWithFp16AndCompute) {
  // BuildHintGraphs(post) finds the FX graph next to the layout-less dump by itself.
  const auto groups = BuildHintGraphs(LoadInductorIrFile(Folder() / "ir_post_fusion.txt"));
  ASSERT_EQ(groups.size(), 2u);  // the extern mm is not a group
  ASSERT_TRUE(groups[0].graph.has_value()) << groups[0].reason;
  ASSERT_TRUE(groups[1].graph.has_value()) << groups[1].reason;
  const ir::Graph& g = *groups[0].graph;
  int casts = 0;
  for (const auto& n : g.nodes) {
    casts += n.type == "Cast" ? 1 : 0;
    if (n.type == "Data" || n.type == "Output") {
      EXPECT_EQ(n.outputs[0].dtype, ir::DType::kFloat16);
    }
  }
  EXPECT_EQ(casts, 3);  // two loads up to fp32, the store back to fp16
  // relu(a + b) in fp32, stored as fp16
  std::vector<data::HostArray> ins;
  for (int k = 0; k < 2; ++k) {
    data::HostArray a{ir::DType::kFloat16, {64}, std::vector<std::uint8_t>(64 * 2)};
    for (int i = 0; i < 64; ++i)
      a.SetFromDouble(i, (k == 0 ? 0.25 : -0.5) * (i % 5));
    ins.push_back(std::move(a));
  }
  const auto out = interp::Interpret(g, {}, ins);
  ASSERT_EQ(out.size(), 1u);
  for (int i = 0; i < 64; ++i)
    EXPECT_DOUBLE_EQ(out[0].GetAsDouble(i), std::max(0.0, -0.25 * (i % 5))) << i;
  // buf2: (x * 0.5)^2 with an fp16 constant computed in fp32 and `square` as Mul(x, x)
  std::set<std::string> types;
  for (const auto& n : groups[1].graph->nodes)
    types.insert(n.type);
  EXPECT_EQ(types.count("Scalar"), 1u);
  EXPECT_EQ(types.count("Mul"), 1u);
}

TEST(InductorDTypes, DamagedFxGraphLeavesGroupsAsFallbacks) {
  // A truncated FX file next to the dump: it is ignored (the groups that need it fall back with
  // a reason), never an error of the Inductor import.
  const auto dir = std::filesystem::temp_directory_path() / "af_dtypes_damaged_fx";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(Folder() / "ir_post_fusion.txt", dir / "ir_post_fusion.txt");
  {
    std::ifstream in(Folder() / "fx_graph_readable.py");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir / "fx_graph_readable.py") << text.substr(0, text.size() / 2);
  }
  const auto groups = BuildHintGraphs(LoadInductorIrFile(dir / "ir_post_fusion.txt"));
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_FALSE(groups[0].graph.has_value());
  EXPECT_NE(groups[0].reason.find("(none in the folder) gives the dtype of"), std::string::npos)
      << groups[0].reason;
  std::filesystem::remove_all(dir);
}

TEST(InductorDTypesReal, VitGroupsGetTheirDtypes) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto dir = test::RealFixtures() / "inductor" / "t2.0_vit_dynamic_layernorm_softmax_fp16";
  int lowered = 0;
  int no_dtype = 0;
  for (const auto& h : BuildHintGraphs(LoadInductorIrFile(dir / "ir_post_fusion.txt"))) {
    lowered += h.graph ? 1 : 0;
    no_dtype += h.reason.find("dtype of") != std::string::npos ? 1 : 0;
  }
  std::cout << "ViT t2.0: " << lowered << " groups lowered, " << no_dtype
            << " refused for want of a dtype\n";
  EXPECT_GT(lowered, 0);
  EXPECT_EQ(no_dtype, 0);
}

}  // namespace
}  // namespace af::importers::inductor
