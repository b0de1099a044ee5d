// The framework-level graph of front-end runs (report model_nodes): fused kernels as clusters
// that collapse to one box, unfused ops with their fallback code, selection shared with the
// navigator and inspector, large graphs laid out at the collapsed level; and the front end's
// fusion decisions in the Fusion tab.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardItemModel>
#include <cstdio>

#include "app_options.h"
#include "fusion_tab.h"
#include "graph_layout.h"
#include "graph_panel.h"
#include "graph_scene.h"
#include "kernel_inspector.h"
#include "layout_worker.h"
#include "model_graphs.h"
#include "report.pb.h"
#include "run_manager.h"
#include "screenshot.h"
#include "selection_model.h"
#include "timing_log.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

QString MatmulEpiloguePath() {
  return SourcePath(QStringLiteral("samples/torch/cases/matmul_epilogue"));
}

const GraphSpec::Node* Find(const GraphSpec& spec, const QString& name) {
  for (const auto& n : spec.nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

// A front-end-like run with `kernels` kernels of `ops` chained ops each, and one unfused op
// between consecutive kernels.
std::shared_ptr<Run> SyntheticRun(int kernels, int ops) {
  auto rep = std::make_shared<report::CompileReport>();
  auto* in = rep->add_model_nodes();
  in->set_name("x");
  in->set_op("placeholder");
  std::string prev = "x";
  for (int k = 0; k < kernels; ++k) {
    auto* kr = rep->add_kernels();
    kr->set_name("kernel_" + std::to_string(k));
    kr->mutable_hint_graph()->set_graph_name("fused_" + std::to_string(k));
    for (int i = 0; i < ops; ++i) {
      auto* n = rep->add_model_nodes();
      n->set_name("op_" + std::to_string(k) + "_" + std::to_string(i));
      n->set_op("aten.relu.default");
      n->add_inputs(prev);
      n->set_kernel(kr->name());
      prev = n->name();
    }
    auto* mm = rep->add_model_nodes();
    mm->set_name("mm_" + std::to_string(k));
    mm->set_op("aten.mm.default");
    mm->add_inputs(prev);
    mm->set_fallback_code("MATMUL");
    prev = mm->name();
  }
  auto* out = rep->add_model_nodes();
  out->set_name("output");
  out->set_op("output");
  out->add_inputs(prev);
  auto run = std::make_shared<Run>();
  run->frontend = true;
  run->report = std::move(rep);
  return run;
}

TEST(ModelGraph, ReportCarriesTheModelGraphAndDecisions) {
  const auto run = RunManager::Execute(MatmulEpiloguePath(), RunRequest(), false, {});
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  ASSERT_TRUE(GraphScene::HasModelGraph(*run));
  EXPECT_EQ(run->report->model_nodes_size(), 7);  // 3 inputs, mm, add, relu, output
  EXPECT_GT(run->report->fusion_decisions_size(), 0);
}

// With the matmul pass the addmm and its GELU are one cube + vector kernel: its cluster is
// labelled with the CV template and drawn in the CV colour, its tooltip says so.
TEST(ModelGraph, CubeVectorKernelsAreMarked) {
  RunRequest r;
  r.flags["autofuse_enable_pass"] = "reduce,slice,transpose,matmul";
  const auto run = RunManager::Execute(
      SourcePath(QStringLiteral("tests/fixtures/fx/linear_gelu_bf16.fx_graph_readable.py")), r,
      false, {});
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  const GraphSpec spec = GraphScene::SpecForModelGraph(*run, {});
  ASSERT_EQ(spec.clusters.size(), 1u);
  EXPECT_TRUE(spec.clusters[0].label.contains(QStringLiteral("CV k")))
      << spec.clusters[0].label.toStdString();
  EXPECT_TRUE(spec.clusters[0].tooltip.contains(QStringLiteral("MIX_AIC_1_2")));
  EXPECT_EQ(Find(spec, "addmm")->cluster, 0);
  EXPECT_EQ(Find(spec, "gelu")->cluster, 0);
  // Without the pass: the matmul stays outside, the cluster is an ordinary kernel.
  const auto plain = RunManager::Execute(
      SourcePath(QStringLiteral("tests/fixtures/fx/linear_gelu_bf16.fx_graph_readable.py")),
      RunRequest(), false, {});
  ASSERT_TRUE(plain->ok());
  const GraphSpec ps = GraphScene::SpecForModelGraph(*plain, {});
  ASSERT_EQ(ps.clusters.size(), 1u);
  EXPECT_FALSE(ps.clusters[0].label.contains(QStringLiteral("CV")));
  EXPECT_EQ(Find(ps, "addmm")->cluster, -1);
}

TEST(ModelGraph, KernelsAreClustersThatCollapse) {
  const auto run = RunManager::Execute(MatmulEpiloguePath(), RunRequest(), false, {});
  ASSERT_TRUE(run->ok());
  const GraphSpec spec = GraphScene::SpecForModelGraph(*run, {});
  ASSERT_EQ(spec.nodes.size(), 7u);
  ASSERT_EQ(spec.clusters.size(), 1u);
  EXPECT_EQ(spec.clusters[0].group, 0);
  EXPECT_TRUE(spec.clusters[0].label.startsWith("fused_0"));
  ASSERT_NE(Find(spec, "add"), nullptr);
  EXPECT_EQ(Find(spec, "add")->cluster, 0);
  EXPECT_EQ(Find(spec, "relu")->group, 0);
  // mm is left outside: no cluster, its fallback code on the box.
  const GraphSpec::Node* mm = Find(spec, "mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->cluster, -1);
  EXPECT_EQ(mm->group, -1);
  const QString code =
      QString::fromStdString(run->report->fallbacks(0).reason()).section(']', 0, 0);
  EXPECT_TRUE(mm->detail.startsWith(code + "]")) << mm->detail.toStdString();
  EXPECT_EQ(spec.edges.size(), 6u);
  // Laid out: the cluster's frame holds its nodes.
  const GraphLayout layout = LayoutGraph(spec);
  ASSERT_TRUE(layout.ok()) << layout.error.toStdString();
  ASSERT_EQ(layout.clusters.size(), 1u);
  for (const auto& name : {QStringLiteral("add"), QStringLiteral("relu")}) {
    const auto i = static_cast<std::size_t>(Find(spec, name) - spec.nodes.data());
    EXPECT_TRUE(layout.clusters[0].contains(layout.nodes[i])) << name.toStdString();
  }
  // Collapsed: the kernel is one box, edges into it are merged.
  const GraphSpec small = GraphScene::SpecForModelGraph(*run, {0});
  EXPECT_EQ(small.nodes.size(), 6u);
  EXPECT_TRUE(small.clusters.empty());
  const GraphSpec::Node* box = Find(small, "fused_0");
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->collapsed);
  EXPECT_EQ(box->group, 0);
  EXPECT_EQ(small.edges.size(), 5u);  // arg0, arg1 -> mm -> box; arg2 -> box -> output
}

TEST_F(WindowTest, ModelGraphSharesTheSelection) {
  ASSERT_TRUE(OpenAndWait(w(), MatmulEpiloguePath()));
  w()->selection()->selectRun(0);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  GraphPanel* g = w()->graph();
  EXPECT_TRUE(g->modelView());
  EXPECT_EQ(g->scene()->clusterCount(), 1);
  EXPECT_EQ(g->scene()->nodeCount(), 7);
  // A click on the cluster selects the kernel; the model graph stays, its cluster marked.
  emit g->scene()->clusterClicked(0);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().kernel, 0);
  EXPECT_TRUE(g->modelView());
  EXPECT_EQ(g->graphKind(), GraphKind::kModel);
  EXPECT_EQ(g->scene()->selectedGroup(), 0);
  // The Fusion tab lists the front end's decisions about the kernel's ops.
  FusionTab* fusion = w()->inspector()->fusion();
  QStandardItemModel* fe = fusion->frontendDecisions();
  ASSERT_GT(fe->rowCount(), 0);
  bool fused = false;
  for (int r = 0; r < fe->rowCount(); ++r)
    fused = fused || fe->item(r, FusionTab::kFeCode)->text() == "FUSED";
  EXPECT_TRUE(fused);
  // A click on an op of the kernel selects the kernel and the node.
  emit g->scene()->nodeClicked(QStringLiteral("relu"));
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().kernel, 0);
  EXPECT_EQ(w()->selection()->current().node, "relu");
  EXPECT_EQ(g->scene()->selectedNode(), "relu");
  // A click on the unfused op selects it as the run's unfused op, with its code; the decider
  // never paired it (a cube op), so no front-end decision concerns it.
  emit g->scene()->nodeClicked(QStringLiteral("mm"));
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().kernel, -1);
  EXPECT_EQ(w()->selection()->current().fallback, 0);
  EXPECT_TRUE(g->modelView());
  EXPECT_EQ(g->scene()->selectedNode(), "mm");
  EXPECT_TRUE(fusion->refusal().contains("CUBE_OP"));
  EXPECT_EQ(fe->rowCount(), 0);
  // Collapsing the kernel lays the graph out again with one box for it.
  g->setKernelCollapsed(0, true);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(g->scene()->clusterCount(), 0);
  EXPECT_EQ(g->scene()->nodeCount(), 6);
  emit g->scene()->nodeDoubleClicked(QStringLiteral("fused_0"));
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(g->scene()->clusterCount(), 1);
  // Picking the kernel in the navigator with the hint graph kind draws its hint graph.
  g->setGraphKind(GraphKind::kHint);
  w()->selection()->selectKernel(0, 0);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_FALSE(g->modelView());
}

TEST_F(WindowTest, FusionTabListsRefusedPairsOfTheKernel) {
  ASSERT_TRUE(OpenAndWait(w(), SourcePath(QStringLiteral("samples/torch/cases/rmsnorm_bf16"))));
  ASSERT_EQ(w()->selection()->current().kernel, 0);
  QStandardItemModel* fe = w()->inspector()->fusion()->frontendDecisions();
  int fused = 0;
  int refused = 0;
  for (int r = 0; r < fe->rowCount(); ++r) {
    if (fe->item(r, FusionTab::kFeResult)->text() == "fused") {
      ++fused;
      EXPECT_EQ(fe->item(r, FusionTab::kFeCode)->text(), "FUSED");
      EXPECT_NE(fe->item(r, FusionTab::kFeBytes)->text(), "0");
    } else {
      ++refused;
      EXPECT_NE(fe->item(r, FusionTab::kFeCode)->text(), "FUSED");
      EXPECT_FALSE(fe->item(r, FusionTab::kFeStage)->text().isEmpty());
      EXPECT_FALSE(fe->item(r, FusionTab::kFeMessage)->text().isEmpty());
    }
  }
  EXPECT_GT(fused, 0);
  EXPECT_GT(refused, 0);
  // Selecting a node of the pair highlights its rows.
  const QString first = fe->item(0, FusionTab::kFeFirst)->text().section(',', 0, 0);
  w()->selection()->selectNode(first);
  EXPECT_NE(fe->item(0, 0)->background(), QBrush());
}

TEST_F(WindowTest, LargeModelGraphsStartCollapsed) {
  constexpr int kKernels = 400;
  constexpr int kOps = 12;  // 400 x 13 + 2 = 5202 model nodes
  auto big = SyntheticRun(kKernels, kOps);
  QElapsedTimer spec_timer;
  spec_timer.start();
  const GraphSpec full = GraphScene::SpecForModelGraph(*big, {});
  EXPECT_EQ(full.nodes.size(), static_cast<std::size_t>(kKernels * (kOps + 1) + 2));
  EXPECT_LT(spec_timer.elapsed(), 5000);
  const int index = w()->runs()->add(big);
  w()->selection()->selectRun(index);
  GraphPanel* g = w()->graph();
  // The layout runs in the background: the GUI thread is back at once.
  EXPECT_FALSE(g->ready());
  EXPECT_TRUE(g->modelView());
  EXPECT_EQ(g->collapsedKernels().size(), kKernels);
  ASSERT_TRUE(w()->waitUntilIdle(120000));
  EXPECT_EQ(g->scene()->nodeCount(), 2 * kKernels + 2);  // one box per kernel, the mm ops
  EXPECT_EQ(g->scene()->clusterCount(), 0);
  // Expanding one kernel draws its ops as a cluster.
  g->setKernelCollapsed(7, false);
  ASSERT_TRUE(w()->waitUntilIdle(120000));
  EXPECT_EQ(g->scene()->clusterCount(), 1);
  EXPECT_EQ(g->scene()->nodeCount(), 2 * kKernels + 2 - 1 + kOps);
  EXPECT_FALSE(g->scene()->nodeRect(QStringLiteral("op_7_3")).isNull());
}

// A torch_compile_debug model folder: its FX graph is drawn with our kernels or Inductor's groups
// as clusters; Inductor's groups this run compiled select their kernel, those it could not lower
// say so.
TEST_F(WindowTest, RunFolderModelGraphWithBothGroupings) {
  ASSERT_TRUE(OpenAndWait(w(), SourcePath(QStringLiteral("tests/fixtures/inductor/grouping"))));
  const RunPtr run = w()->runs()->run(w()->runs()->count() - 1);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  const std::vector<ModelGraph> models = ModelGraphs(*run);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].label, QStringLiteral("model__0_inference_0.0"));
  EXPECT_TRUE(models[0].has_inductor);
  GraphPanel* g = w()->graph();
  EXPECT_TRUE(g->modelView());
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }));
  const int ours = g->scene()->clusterCount();
  EXPECT_GT(ours, 0);
  EXPECT_GT(g->scene()->spec().edges.size(), 0u);  // kernels joined by their data edges

  const std::vector<ModelGroup> theirs = ModelGroups(*run, 0, Grouping::kInductor);
  ASSERT_EQ(theirs.size(), 5u);
  int compiled = 0;
  int refused = 0;
  for (const auto& grp : theirs) {
    if (grp.kernel >= 0) ++compiled;
    if (!grp.fallback.isEmpty()) ++refused;
  }
  EXPECT_EQ(compiled, run->kernelCount());
  EXPECT_EQ(refused, 2);  // op2_op3 (another loop nest), op5_op6 (scan)
  g->setGrouping(Grouping::kInductor);
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }));
  EXPECT_NE(g->currentKey(), QString());
  int falls_back = 0;
  for (const auto& c : g->scene()->spec().clusters)
    if (c.label.contains(QStringLiteral("falls back"))) ++falls_back;
  EXPECT_EQ(falls_back, 2);
  // --model picks a model folder by name or index; a name that is not there is an error.
  AppOptions o;
  o.model = QStringLiteral("model__0_inference_0.0");
  o.grouping = QStringLiteral("inductor");
  QString error;
  EXPECT_TRUE(ApplyViewOptions(w(), o, &error)) << error.toStdString();
  EXPECT_EQ(g->model(), 0);
  o.model = QStringLiteral("model__9_missing");
  EXPECT_FALSE(ApplyViewOptions(w(), o, &error));
  EXPECT_TRUE(error.contains(QStringLiteral("model__9_missing")));
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }));
  // Clicking a compiled Inductor group selects its kernel.
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    if (theirs[i].kernel < 0) continue;
    emit g->scene()->clusterClicked(static_cast<int>(i));
    EXPECT_EQ(w()->selection()->current().kernel, theirs[i].kernel);
    break;
  }
}

// A model of about 10,000 ops: selecting, expanding a kernel and searching, each timed (printed,
// never asserted: docs/benchmarks.md records the figures).
TEST_F(WindowTest, TenThousandOpModelInteractions) {
  auto big = SyntheticRun(770, 12);  // 770 x 13 + 2 = 10,012 model nodes
  SetTimingLog(true);                // the breakdown (spec, layout, scene) goes to stderr
  QElapsedTimer t;
  t.start();
  const int index = w()->runs()->add(big);
  w()->selection()->selectRun(index);
  GraphPanel* g = w()->graph();
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }, 120000));
  const double first = static_cast<double>(t.nsecsElapsed()) / 1e6;
  EXPECT_EQ(g->scene()->nodeCount(), 2 * 770 + 2);
  ASSERT_NE(g->currentLayout(), nullptr);
  EXPECT_EQ(g->currentLayout()->engine, QStringLiteral("layered"));

  g->setGraphKind(GraphKind::kModel);  // picking kernels keeps the model graph
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }, 120000));
  t.restart();
  w()->selection()->selectKernel(index, 400);
  QApplication::processEvents();
  const double select = static_cast<double>(t.nsecsElapsed()) / 1e6;
  EXPECT_EQ(g->scene()->selectedGroup(), 400);

  const QRectF above = g->scene()->nodeRect(QStringLiteral("mm_100"));
  const QRectF below = g->scene()->nodeRect(QStringLiteral("mm_700"));
  t.restart();
  g->setKernelCollapsed(400, false);
  ASSERT_TRUE(WaitFor([&] { return g->ready(); }, 120000));
  const double expand = static_cast<double>(t.nsecsElapsed()) / 1e6;
  EXPECT_EQ(g->scene()->clusterCount(), 1);
  EXPECT_FALSE(g->scene()->nodeRect(QStringLiteral("op_400_5")).isNull());
  // Expanded in place: what is above stays put, what is below moves straight down.
  EXPECT_EQ(g->scene()->nodeRect(QStringLiteral("mm_100")), above);
  EXPECT_DOUBLE_EQ(g->scene()->nodeRect(QStringLiteral("mm_700")).x(), below.x());
  EXPECT_GT(g->scene()->nodeRect(QStringLiteral("mm_700")).y(), below.y());

  t.restart();
  const QStringList hits = g->search(QStringLiteral("mm_77"));
  const double search = static_cast<double>(t.nsecsElapsed()) / 1e6;
  EXPECT_EQ(hits.size(), 1);

  std::printf(
      "10,012-op model graph: first drawn %.1f ms, select %.1f ms, expand %.1f ms, "
      "search %.1f ms\n",
      first, select, expand, search);
}

}  // namespace
}  // namespace af::viewer::test
