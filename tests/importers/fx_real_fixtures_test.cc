// Every real fx_graph_*.py in shared/fixtures/inductor (torch 2.0 ... 2.5 prints): it loads, its
// op nodes are exactly its `torch.ops.` lines, and inference agrees with every annotation of an op
// it infers. The runnable repro of a dump agrees with the readable graph of the same dump.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "autofuse/importers/fx_graph.h"
#include "autofuse/model/infer.h"
#include "autofuse/support/error.h"
#include "fixtures.h"
#include "fx_test_util.h"

namespace af::importers {
namespace {

using model::Graph;
using model::NodeKind;
using model::TypeSource;

std::string Short(const std::filesystem::path& p) {
  return std::filesystem::relative(p, test::RealFixtures() / "inductor").string();
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(FxRealFixtures, EveryFileLoadsWithoutDisagreement) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto files = test::RealFxFiles();
  ASSERT_GE(files.size(), 26u) << "expected the 26 fx_graph files of shared/fixtures/inductor";
  int total_nodes = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(Short(f));
    const std::string text = test::ReadFile(f);
    EXPECT_TRUE(LooksLikeFxGraph(text));
    Graph g;
    try {
      g = LoadFxGraphFile(f);
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const int op_lines = test::CountTorchOpsLines(text);
    const int py_lines = test::CountPythonArithmeticLines(text);
    EXPECT_EQ(g.CountNodes(NodeKind::kOp), op_lines);
    EXPECT_EQ(g.CountNodes(NodeKind::kPython), py_lines);
    EXPECT_EQ(static_cast<int>(g.nodes.size()), op_lines + py_lines);
    EXPECT_FALSE(g.outputs.empty());
    const int conflicts = test::CountConflicts(g);
    EXPECT_EQ(conflicts, 0);
    EXPECT_EQ(g.CountDiagnostics(model::Diagnostic::Kind::kMismatch), 0);
    EXPECT_EQ(g.CountDiagnostics(model::Diagnostic::Kind::kInferFailed), 0);
    EXPECT_EQ(g.CountDiagnostics(model::Diagnostic::Kind::kAnnotation), 0);
    for (const auto& d : g.diagnostics)
      ADD_FAILURE() << "line " << d.line << ": " << d.message;
    int checked = 0;
    int inferred = 0;
    int annotated_only = 0;
    int opaque = 0;
    int outputs = 0;
    for (const auto& n : g.nodes) {
      opaque += n.infer == model::InferState::kOpaque ? 1 : 0;
      // Every op with a rule was inferred (or waited on an input nothing can know), and every
      // annotation of an inferred node was checked.
      if (model::HasInferenceRule(n.op)) {
        EXPECT_TRUE(n.infer == model::InferState::kInferred ||
                    n.infer == model::InferState::kUnknown)
            << n.name << " " << n.op.ToString();
      }
      for (int id : n.outputs) {
        const TypeSource s = g.value(id).source;
        ++outputs;
        checked += s == TypeSource::kChecked ? 1 : 0;
        inferred += s == TypeSource::kInferred ? 1 : 0;
        annotated_only += s == TypeSource::kAnnotation ? 1 : 0;
        if (n.infer == model::InferState::kInferred) {
          // kNone: an output the op does not produce (convolution_backward's masked grads).
          EXPECT_TRUE(s == TypeSource::kChecked || s == TypeSource::kInferred ||
                      s == TypeSource::kNone)
              << n.name << " output " << g.value(id).name << " is " << model::TypeSourceName(s);
        }
      }
    }
    if (!EndsWith(f.string(), "runnable.py")) {
      // Readable/transformed graphs annotate every tensor: nearly all must be checked.
      EXPECT_GE(checked * 100, (checked + annotated_only) * 95)
          << checked << " of " << checked + annotated_only << " annotations checked";
    }
    total_nodes += static_cast<int>(g.nodes.size());
    std::cout << "  " << Short(f) << ": " << g.nodes.size() << " nodes (" << op_lines
              << " torch.ops, " << py_lines << " python), " << outputs << " outputs: " << checked
              << " checked, " << inferred << " inferred, " << annotated_only << " annotated only, "
              << opaque << " opaque nodes, " << conflicts << " disagreements\n";
  }
  EXPECT_GT(total_nodes, 1500);
}

TEST(FxRealFixtures, RunnableAgreesWithReadable) {
  AF_REQUIRE_REAL_FIXTURES();
  int compared = 0;
  for (const auto& f : test::RealFxFiles()) {
    if (!EndsWith(f.string(), "fx_graph_runnable.py")) continue;
    const auto readable_path = f.parent_path() / "fx_graph_readable.py";
    if (!std::filesystem::exists(readable_path)) continue;
    SCOPED_TRACE(Short(f));
    const Graph run = LoadFxGraphFile(f);
    const Graph readable = LoadFxGraphFile(readable_path);
    EXPECT_EQ(run.nodes.size(), readable.nodes.size());
    EXPECT_FALSE(run.torch_version.empty());
    for (const auto& v : run.values) {
      if (v.source != TypeSource::kInferred) continue;
      const model::Value* r = readable.FindValue(v.name);
      if (r == nullptr || !r->type.IsKnown()) continue;
      std::string why;
      EXPECT_TRUE(model::SameType(v.type, r->type, &why)) << v.name << ": " << why;
      ++compared;
    }
  }
  EXPECT_GT(compared, 250);
}

TEST(FxRealFixtures, OtherDumpFilesAreNotFxGraphs) {
  AF_REQUIRE_REAL_FIXTURES();
  const auto others =
      test::FilesUnder(test::RealFixtures() / "inductor",
                       {"output_code.py", "ir_pre_fusion.txt", "ir_post_fusion.txt", "debug.log"});
  ASSERT_FALSE(others.empty());
  for (const auto& f : others)
    EXPECT_FALSE(LooksLikeFxGraph(test::ReadFile(f))) << Short(f);
}

}  // namespace
}  // namespace af::importers
