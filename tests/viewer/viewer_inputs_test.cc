// The inputs that go through the Inductor importer and the fusion front end (torch_compile_debug
// folders, ir_post_fusion.txt, PyTorch case folders), their fallbacks / unfused ops in the
// navigator and the Fusion tab, the Compare Runs view, and the pipeline's stages as progress steps.
#include <gtest/gtest.h>

#include <QDir>
#include <QStandardItemModel>

#include "fusion_tab.h"
#include "graph_scene.h"
#include "kernel_inspector.h"
#include "navigator_model.h"
#include "report.pb.h"
#include "report_loader.h"
#include "run_diff.h"
#include "run_manager.h"
#include "selection_model.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

QString TcdPath() {
  return SourcePath(QStringLiteral("tests/fixtures/inductor/tcd/torch_compile_debug"));
}
QString PostFusionPath() {
  return SourcePath(QStringLiteral(
      "tests/fixtures/inductor/tcd/torch_compile_debug/run_2026_01_01_00_00_00_000001-pid_42/"
      "torchinductor/model__0_inference_0.0/ir_post_fusion.txt"));
}
QString SoftmaxPath() {
  return SourcePath(QStringLiteral("samples/torch/cases/softmax"));
}
QString MatmulEpiloguePath() {
  return SourcePath(QStringLiteral("samples/torch/cases/matmul_epilogue"));
}

// The navigator's group item ("fallbacks" / "unfused ops") under the first run; invalid if none.
QModelIndex Group(const NavigatorModel& m) {
  const QModelIndex run = m.index(0, 0);
  for (int r = 0; r < m.rowCount(run); ++r) {
    const QModelIndex i = m.index(r, 0, run);
    if (i.data(NavigatorModel::kKindRole).toInt() == NavigatorModel::kGroupItem) return i;
  }
  return {};
}

TEST(Inputs, FoldersWithoutAReportAreCompiled) {
  EXPECT_EQ(ClassifyInput(TcdPath()), InputKind::kGraph);
  EXPECT_EQ(ClassifyInput(SoftmaxPath()), InputKind::kGraph);
  EXPECT_EQ(ClassifyInput(PostFusionPath()), InputKind::kGraph);
}

TEST(Inputs, TorchCompileDebugFolderGivesKernelsAndFallbacks) {
  const auto run = RunManager::Execute(TcdPath(), RunRequest(), false, {});
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_FALSE(run->frontend);
  EXPECT_GE(run->kernelCount(), 1);
  ASSERT_EQ(run->fallbackCount(), 2);
  EXPECT_EQ(run->fallbackGroupName(), "fallbacks");
  EXPECT_FALSE(run->fallback(0)->reason().empty());
  EXPECT_EQ(run->fallback(2), nullptr);
  // The report keeps them: saved and read again, they are still Inductor fallbacks.
  const QString saved = TempPath("tcd.json");
  SaveReport(*run, saved);
  const auto loaded = LoadReport(saved);
  EXPECT_FALSE(loaded->frontend);
  EXPECT_EQ(loaded->fallbackCount(), 2);

  NavigatorModel m;
  m.addRun(0, *run);
  const QModelIndex group = Group(m);
  ASSERT_TRUE(group.isValid());
  EXPECT_EQ(group.data().toString(), "fallbacks");
  ASSERT_EQ(m.rowCount(group), 2);
  const QModelIndex second = m.index(1, 0, group);
  EXPECT_EQ(second.data().toString(), QString::fromStdString(run->fallback(1)->name()));
  EXPECT_EQ(m.index(1, 1, group).data().toString(),
            QString::fromStdString(run->fallback(1)->reason()));
  const Selection s = NavigatorModel::selectionFor(second);
  EXPECT_EQ(s.run, 0);
  EXPECT_EQ(s.kernel, -1);
  EXPECT_EQ(s.fallback, 1);
  EXPECT_EQ(m.indexFor(s), second);
}

TEST(Inputs, PostFusionFilesOpenAlone) {
  const auto run = RunManager::Execute(PostFusionPath(), RunRequest(), false, {});
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_GE(run->kernelCount(), 1);
  // The file the folder's fallbacks came from gives them alone too.
  const auto tcd = RunManager::Execute(TcdPath(), RunRequest(), false, {});
  ASSERT_TRUE(tcd->ok() && tcd->fallbackCount() > 0);
  const auto other = RunManager::Execute(QString::fromStdString(tcd->fallback(0)->origin()),
                                         RunRequest(), false, {});
  ASSERT_TRUE(other->ok()) << other->error.toStdString();
  EXPECT_EQ(other->fallbackCount(), tcd->fallbackCount());
}

TEST(Inputs, CaseFolderGoesThroughTheFrontEnd) {
  std::vector<QString> stages;
  const auto run = RunManager::Execute(SoftmaxPath(), RunRequest(), false,
                                       [&](const QString& s) { stages.push_back(s); });
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_TRUE(run->frontend);
  ASSERT_EQ(run->kernelCount(), 1);
  EXPECT_EQ(GraphName(*run->kernel(0)), "fused_0");
  ASSERT_TRUE(run->kernel(0)->has_tiling());
  EXPECT_FALSE(run->kernel(0)->cases(DefaultCase(*run->kernel(0))).template_name().empty());
  EXPECT_EQ(run->fallbackCount(), 0);  // softmax fuses whole
  EXPECT_TRUE(std::any_of(stages.begin(), stages.end(),
                          [](const QString& s) { return s.startsWith("frontend"); }));
}

// GE dumps go through the front end as FX graphs do: the model graph with its kernels, and the
// ops left out (the recommendation block's matmul on the cube unit) with their reason codes.
TEST(Inputs, GeDumpsShowTheirModelGraph) {
  const auto seed = RunManager::Execute(
      SourcePath(QStringLiteral("tests/fixtures/ge/cases/cast_abs_cast_add_relu_cast/"
                                "ge_onnx_cast_abs_cast_add_relu_cast.pbtxt")),
      RunRequest(), false, {});
  ASSERT_TRUE(seed->ok()) << seed->error.toStdString();
  EXPECT_TRUE(seed->frontend);
  EXPECT_EQ(seed->kernelCount(), 1);
  ASSERT_TRUE(GraphScene::HasModelGraph(*seed));
  EXPECT_EQ(seed->report->model_nodes_size(), 9);  // 2 inputs, 6 ops, output
  const auto rec = RunManager::Execute(
      SourcePath(QStringLiteral("tests/fixtures/ge/cases/rec_mlp/ge_proto_rec_mlp.txt")),
      RunRequest(), false, {});
  ASSERT_TRUE(rec->ok()) << rec->error.toStdString();
  ASSERT_TRUE(GraphScene::HasModelGraph(*rec));
  ASSERT_GE(rec->fallbackCount(), 1);
  EXPECT_TRUE(QString::fromStdString(rec->fallback(0)->reason()).startsWith('['));
}

TEST(Inputs, UnfusedOpsOfTheFrontEndWithTheirReasonCodes) {
  const auto run = RunManager::Execute(MatmulEpiloguePath(), RunRequest(), false, {});
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_TRUE(run->frontend);
  ASSERT_GE(run->fallbackCount(), 1);
  EXPECT_EQ(run->fallbackGroupName(), "unfused ops");
  EXPECT_TRUE(QString::fromStdString(run->fallback(0)->reason()).startsWith('['));
  NavigatorModel m;
  m.addRun(0, *run);
  ASSERT_TRUE(Group(m).isValid());
  EXPECT_EQ(Group(m).data().toString(), "unfused ops");
  // Saved and read again, they are still unfused ops.
  const QString dir = TempPath("saved");
  SaveReportWithSources(*run, dir);
  const auto loaded = LoadReport(dir);
  EXPECT_TRUE(loaded->frontend);
  EXPECT_EQ(loaded->fallbackCount(), run->fallbackCount());
}

TEST(Progress, StagesAreSteps) {
  EXPECT_EQ(RunManager::PipelineStages().size(), 7);
  EXPECT_EQ(RunManager::StageStep(QStringLiteral("import…")), 0);
  EXPECT_EQ(RunManager::StageStep(QStringLiteral("schedule…")), 2);
  EXPECT_EQ(RunManager::StageStep(QStringLiteral("report…")), 6);
  EXPECT_EQ(RunManager::StageStep(QStringLiteral("Reading x")), -1);
}

TEST(RunDiff, MatchesKernelsByGraphName) {
  const auto a = RunManager::Execute(SamplePath(), Bound(37, 1031), false, {});
  const auto b = RunManager::Execute(SamplePath(), Bound(3, 200003), false, {});
  const auto c = RunManager::Execute(SoftmaxPath(), RunRequest(), false, {});
  ASSERT_TRUE(a->ok() && b->ok() && c->ok());
  const auto d = DiffRuns(*a, *b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].graph, "add_bcast_relu");
  ASSERT_TRUE(d[0].a.present && d[0].b.present && d[0].a.tiled && d[0].b.tiled);
  // Each side is its run's decision.
  const auto& ta = a->kernel(0)->tiling();
  const auto& tb = b->kernel(0)->tiling();
  EXPECT_EQ(d[0].a.block_dim, static_cast<qint64>(ta.block_dim()));
  EXPECT_EQ(d[0].a.ub_bytes, ta.ub_bytes());
  EXPECT_EQ(d[0].b.block_dim, static_cast<qint64>(tb.block_dim()));
  EXPECT_EQ(d[0].b.ub_bytes, tb.ub_bytes());
  EXPECT_DOUBLE_EQ(d[0].a.cycles, ta.modeled_cycles());
  EXPECT_DOUBLE_EQ(d[0].b.cycles, tb.modeled_cycles());
  EXPECT_EQ(QString::fromStdString(d[0].a.case_name),
            ShortCaseName(*a->kernel(0), ta.chosen_case()));
  EXPECT_EQ(QString::fromStdString(d[0].b.case_name),
            ShortCaseName(*b->kernel(0), tb.chosen_case()));
  // A row of 200003 does not fit in UB, so run b must tile z1 (a B0Y1 case); run a tiles z0.
  EXPECT_EQ(d[0].b.case_name.rfind("B0Y1", 0), 0u) << d[0].b.case_name;
  EXPECT_NE(d[0].a.case_name, d[0].b.case_name);
  EXPECT_NE(d[0].a.cycles, d[0].b.cycles);
  EXPECT_FALSE(d[0].a.template_name.empty());
  EXPECT_TRUE(d[0].changed());
  EXPECT_FALSE(DiffRuns(*a, *a)[0].changed());
  // Kernels only in one run.
  const auto e = DiffRuns(*a, *c);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_TRUE(e[0].a.present && !e[0].b.present);
  EXPECT_TRUE(!e[1].a.present && e[1].b.present);
  EXPECT_EQ(e[1].graph, "fused_0");
}

// The window tests of this file, under their own suite name.
class InputsWindowTest : public WindowTest {};

TEST_F(InputsWindowTest, FallbackReasonInTheFusionTab) {
  int last_total = -1;
  int max_done = -1;
  QObject::connect(w()->runs(), &RunManager::step, [&](int done, int total) {
    last_total = total;
    max_done = std::max(max_done, done);
  });
  ASSERT_TRUE(OpenAndWait(w(), TcdPath()));
  EXPECT_EQ(last_total, 7);
  EXPECT_GE(max_done, 1);
  const RunPtr run = w()->runs()->run(0);
  ASSERT_TRUE(run->ok());
  ASSERT_EQ(run->fallbackCount(), 2);
  w()->selection()->selectFallback(0, 1);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->inspector()->currentTab(), "fusion");
  const QString reason = QString::fromStdString(run->fallback(1)->reason());
  EXPECT_TRUE(w()->inspector()->fusion()->refusal().contains(reason.left(30)));
  EXPECT_TRUE(w()->inspector()->title().contains(QString::fromStdString(run->fallback(1)->name())));
  // Back to a kernel: the fallback's reason is gone.
  w()->selection()->selectKernel(0, 0);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_FALSE(w()->inspector()->fusion()->refusal().contains(reason.left(30)));
}

TEST_F(InputsWindowTest, CompareTwoRunsOfTheSample) {
  EXPECT_EQ(w()->compareRuns(), nullptr);  // one run is not enough
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(3, 200003)));
  CompareDialog* dlg = w()->compareRuns();
  ASSERT_NE(dlg, nullptr);
  EXPECT_EQ(dlg->runA(), 0);
  EXPECT_EQ(dlg->runB(), 1);
  QStandardItemModel* m = dlg->model();
  ASSERT_EQ(m->rowCount(), 1);
  EXPECT_EQ(m->columnCount(), CompareDialog::kColumns);
  EXPECT_EQ(m->item(0, CompareDialog::kKernel)->text(), "add_bcast_relu");
  const auto& ta = w()->runs()->run(0)->kernel(0)->tiling();
  EXPECT_EQ(m->item(0, CompareDialog::kBlockA)->text(), QString::number(ta.block_dim()));
  EXPECT_EQ(m->item(0, CompareDialog::kUbA)->text(), QString::number(ta.ub_bytes()));
  EXPECT_NE(m->item(0, CompareDialog::kCaseA)->text(), m->item(0, CompareDialog::kCaseB)->text());
  EXPECT_FALSE(m->item(0, CompareDialog::kCyclesDelta)->text().isEmpty());
  EXPECT_TRUE(dlg->summary().contains("1 changed"));
  // Comparing a run with itself changes nothing; a third run shows up in the pickers.
  dlg->setRuns(0, 0);
  EXPECT_TRUE(dlg->summary().contains("0 changed"));
  ASSERT_TRUE(OpenAndWait(w(), SoftmaxPath()));
  dlg->setRuns(0, 2);
  ASSERT_EQ(m->rowCount(), 2);
  EXPECT_TRUE(m->item(0, CompareDialog::kKernel)->text().contains("only in A"));
  EXPECT_TRUE(m->item(1, CompareDialog::kKernel)->text().contains("only in B"));
  dlg->close();
}

}  // namespace
}  // namespace af::viewer::test
