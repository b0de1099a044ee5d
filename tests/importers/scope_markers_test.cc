// SuperKernel scopes marked in the input (model/scope_markers.h): torchair's FX marker calls and
// GE's `_super_kernel_scope` attribute both give every op inside the region its scope; markers
// that cannot be read are diagnostics naming the line, never a silent scope.
#include "autofuse/model/scope_markers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/ge_model.h"
#include "autofuse/importers/ge_onnx.h"
#include "autofuse/importers/ge_proto.h"
#include "autofuse/model/dump.h"
#include "fixtures.h"

namespace af::model {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Graph Fx(const std::string& body) {
  return importers::ParseFxGraph(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[8]\"):\n" +
          body + "        return (e,)\n",
      "scopes.py");
}

// Each op node's scope as "name=scope" ("name=-" when unset).
std::string Scopes(const Graph& g) {
  std::string s;
  for (const Node& n : g.nodes) {
    if (IsScopeMarker(n)) continue;
    s += n.name + "=" + (n.super_kernel_scope ? "'" + *n.super_kernel_scope + "'" : "-") + ";";
  }
  return s;
}

TEST(ScopeMarkers, ScopeEnterAndExitNestWithOtherScopes) {
  const Graph g =
      Fx("        a: \"f32[8]\" = torch.ops.aten.abs.default(x)\n"
         "        s0 = torch.ops.air.scope_enter.default(['_super_kernel_scope', "
         "'_super_kernel_options'], ['sk1', 'stream-fusion=1'])\n"
         "        b: \"f32[8]\" = torch.ops.aten.neg.default(a)\n"
         "        s1 = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])\n"
         "        c: \"f32[8]\" = torch.ops.aten.exp.default(b)\n"
         "        s2 = torch.ops.air.scope_exit.default()\n"
         "        d: \"f32[8]\" = torch.ops.aten.relu.default(c)\n"
         "        s3 = torch.ops.air.scope_exit.default()\n"
         "        e: \"f32[8]\" = torch.ops.aten.sin.default(d)\n");
  EXPECT_EQ(Scopes(g), "a=-;b='sk1';c='sk1';d='sk1';e=-;");
  EXPECT_THAT(SuperKernelScopes(g), ElementsAre("sk1"));
  EXPECT_TRUE(g.diagnostics.empty());
  EXPECT_THAT(DumpText(g), HasSubstr("aten.neg.default(a)  # checked  super_kernel_scope='sk1'"));
}

TEST(ScopeMarkers, OlderKernelScopeInOutAndTheOffScope) {
  const Graph g =
      Fx("        k0 = torch.ops.air.kernel_scope_in.default('decode', '')\n"
         "        a: \"f32[8]\" = torch.ops.aten.abs.default(x)\n"
         "        k1 = torch.ops.air.kernel_scope_out.default('decode', '')\n"
         "        s0 = torch.ops.air.scope_enter.default(['_super_kernel_scope', "
         "'_super_kernel_options'], ['', ''])\n"
         "        e: \"f32[8]\" = torch.ops.aten.neg.default(a)\n"
         "        s1 = torch.ops.air.scope_exit.default()\n");
  // super_kernel(None) writes an empty scope: the region turns super kernels off.
  EXPECT_EQ(Scopes(g), "a='decode';e='';");
  EXPECT_THAT(SuperKernelScopes(g), ElementsAre("decode"));
}

TEST(ScopeMarkers, UnreadableOrUnbalancedMarkersAreDiagnosticsWithTheirLine) {
  const Graph g =
      Fx("        s0 = torch.ops.air.scope_exit.default()\n"
         "        s1 = torch.ops.air.scope_enter.default(['_super_kernel_scope'], 3)\n"
         "        a: \"f32[8]\" = torch.ops.aten.abs.default(x)\n"
         "        s2 = torch.ops.air.scope_exit.default()\n"
         "        k0 = torch.ops.air.kernel_scope_in.default(7, '')\n"
         "        e: \"f32[8]\" = torch.ops.aten.neg.default(a)\n");
  EXPECT_EQ(Scopes(g), "a=-;e=-;");
  ASSERT_EQ(g.diagnostics.size(), 3u);
  EXPECT_EQ(g.diagnostics[0].line, 3);
  EXPECT_THAT(g.diagnostics[0].message, HasSubstr("closes a scope that is not open"));
  EXPECT_EQ(g.diagnostics[1].line, 4);
  EXPECT_THAT(g.diagnostics[1].message, HasSubstr("two string lists of one length"));
  EXPECT_EQ(g.diagnostics[2].line, 7);
  EXPECT_THAT(g.diagnostics[2].message, HasSubstr("its scope is not a string"));
}

TEST(ScopeMarkers, GeAttributesGiveTheSameScopesInBothDumpForms) {
  const auto dir = test::OurFixtures() / "ge" / "cases" / "super_kernel_scopes";
  for (const Graph& g : {importers::ge::LowerGeModel(importers::ge::LoadGeOnnxFile(
                                                         dir / "ge_onnx_super_kernel_scopes.pbtxt"))
                             .graph,
                         importers::ge::LowerGeModel(importers::ge::LoadGeProtoModel(
                                                         dir / "ge_proto_super_kernel_scopes.txt"))
                             .graph}) {
    EXPECT_EQ(Scopes(g),
              "sk1/Exp='sk1';sk1/Neg='sk1';sk2/Abs='sk2';sk2/Relu='sk2';sk2/Sigmoid='sk2';Tanh=-;");
    EXPECT_THAT(SuperKernelScopes(g), ElementsAre("sk1", "sk2"));
  }
}

}  // namespace
}  // namespace af::model
