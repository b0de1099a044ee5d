// The Timeline tab (separate launches against super kernels, from the report's
// SuperKernelReport) and the PGO search points on the Cost tab, as a user drives them on the
// offscreen platform: boxes, launches, barriers and outlines drawn from the report, a click on a
// box selecting the kernel for every panel, a selection elsewhere highlighting its box, the empty
// states, the form's "Super kernels" box, a report.json round trip.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QGraphicsRectItem>
#include <QGraphicsView>
#include <QTest>
#include <cmath>

#include "app_options.h"
#include "cost_tab.h"
#include "flags_panel.h"
#include "kernel_inspector.h"
#include "report.pb.h"
#include "run_manager.h"
#include "selection_model.h"
#include "timeline_tab.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

QString Chain() {
  return SourcePath(QStringLiteral("tests/fixtures/superkernel/chain.fx_graph.py"));
}

// The chain fixture, one kernel per op (exp, relu after a SyncAll, neg).
RunRequest ChainRequest(bool superkernel, bool bind) {
  RunRequest r;
  r.flags["autofuse_max_fusion_size"] = "5";
  if (bind) r.bindings["s0"] = 37;
  r.superkernel = superkernel;
  return r;
}

TEST_F(WindowTest, TimelineDrawsBothLanesFromTheReport) {
  ASSERT_TRUE(OpenAndWait(w(), Chain(), ChainRequest(true, true)));
  const RunPtr run = w()->runs()->run(0);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  ASSERT_TRUE(run->report->has_superkernel());
  const auto& sk = run->report->superkernel();
  ASSERT_EQ(sk.members_size(), 3) << sk.code() << ": " << sk.message();
  ASSERT_TRUE(w()->inspector()->setCurrentTab(QStringLiteral("timeline")));
  TimelineTab* t = w()->inspector()->timeline();
  EXPECT_EQ(t->boxCount(TimelineTab::kSeparate), 3);
  EXPECT_EQ(t->boxCount(TimelineTab::kSuper), 3);
  EXPECT_EQ(t->launchCount(TimelineTab::kSeparate), 3);
  EXPECT_EQ(t->launchCount(TimelineTab::kSuper), 1);
  EXPECT_EQ(t->barrierCount(), 1);
  EXPECT_EQ(t->segmentCount(), 1);
  // Width = modelled time; in the super lane the members follow one launch, with the SyncAll
  // between exp and relu.
  const double px = t->pixelsPerUs();
  ASSERT_GT(px, 0);
  for (int m = 0; m < 3; ++m) {
    EXPECT_NEAR(t->boxRect(TimelineTab::kSeparate, m).width(), sk.members(m).kernel_us() * px, 1.5)
        << m;
  }
  const QRectF exp_box = t->boxRect(TimelineTab::kSuper, 0);
  const QRectF relu_box = t->boxRect(TimelineTab::kSuper, 1);
  const QRectF neg_box = t->boxRect(TimelineTab::kSuper, 2);
  EXPECT_NEAR(relu_box.left() - exp_box.right(), sk.model().sync_us() * px, 1.5);
  EXPECT_NEAR(neg_box.left() - relu_box.right(), 0, 1.5);
  // The super lane ends earlier by the saving.
  const QRectF last_apart = t->boxRect(TimelineTab::kSeparate, 2);
  EXPECT_NEAR(last_apart.right() - neg_box.right(), sk.saving_us() * px, 1.5);
  EXPECT_TRUE(t->summary().contains(QStringLiteral("saving"))) << t->summary().toStdString();
  EXPECT_TRUE(t->summary().contains(QStringLiteral("SUPERKERNEL_JOINED")));
  EXPECT_TRUE(t->highlighted().isEmpty());

  // Click the relu box: the kernel is selected for every panel and highlighted.
  const int relu = sk.members(1).kernel();
  QGraphicsView* view = t->view();
  view->ensureVisible(relu_box);
  QCoreApplication::processEvents();
  const QPoint at = view->mapFromScene(t->boxRect(TimelineTab::kSeparate, 1).center());
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  ASSERT_TRUE(WaitFor([&] { return w()->selection()->current().kernel == relu; }, 5000));
  EXPECT_EQ(t->highlighted(), QList<int>{1});
  EXPECT_TRUE(w()->inspector()->title().contains(QString::fromStdString(sk.members(1).name())));
  EXPECT_EQ(w()->inspector()->currentTab(), QStringLiteral("timeline"));

  // Selecting a kernel elsewhere highlights its box.
  w()->selection()->selectKernel(0, sk.members(2).kernel());
  EXPECT_EQ(t->highlighted(), QList<int>{2});
  w()->selection()->selectRun(0);
  EXPECT_TRUE(t->highlighted().isEmpty());

  // The form shows the box checked, and a re-run asks for super kernels again.
  auto* box = w()->flags()->findChild<QCheckBox*>(QStringLiteral("superkernel"));
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->isChecked());
  RunRequest back;
  QString error;
  ASSERT_TRUE(w()->flags()->request(&back, &error)) << error.toStdString();
  EXPECT_TRUE(back.superkernel);

  // report.json keeps it: the saved report draws the same timeline.
  const QString saved = TempPath(QStringLiteral("report.json"));
  ASSERT_TRUE(w()->saveReport(saved, &error)) << error.toStdString();
  ASSERT_TRUE(OpenAndWait(w(), saved));
  const RunPtr loaded = w()->runs()->run(1);
  ASSERT_TRUE(loaded->ok()) << loaded->error.toStdString();
  EXPECT_TRUE(loaded->request.superkernel);
  EXPECT_EQ(t->boxCount(TimelineTab::kSuper), 3);
  EXPECT_EQ(t->segmentCount(), 1);
}

TEST_F(WindowTest, TimelineSaysHowToGetItOrWhyNot) {
  TimelineTab* t = w()->inspector()->timeline();
  EXPECT_EQ(t->boxCount(TimelineTab::kSeparate), 0);
  // Not asked for: the flag to set.
  ASSERT_TRUE(OpenAndWait(w(), Chain(), ChainRequest(false, true)));
  EXPECT_EQ(t->boxCount(TimelineTab::kSeparate), 0);
  EXPECT_TRUE(t->message().contains(QStringLiteral("Super kernels"))) << t->message().toStdString();
  EXPECT_TRUE(t->message().contains(QStringLiteral("--superkernel")));
  EXPECT_FALSE(t->view()->isVisibleTo(t));
  // Asked for with s0 unbound: the report's reason code.
  ASSERT_TRUE(OpenAndWait(w(), Chain(), ChainRequest(true, false)));
  EXPECT_EQ(t->boxCount(TimelineTab::kSuper), 0);
  EXPECT_TRUE(t->message().contains(QStringLiteral("SUPERKERNEL_SIZES_UNBOUND")))
      << t->message().toStdString();
}

TEST_F(WindowTest, CostTabShowsThePgoSearchPoints) {
  RunRequest r = Bound(37, 1031);
  r.flags["autofuse_enable_pgo"] = "true";
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), r));
  const RunPtr run = w()->runs()->run(0);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  const auto& k = *run->kernel(0);
  ASSERT_TRUE(k.tiling().has_pgo());
  const auto& p = k.tiling().pgo();
  ASSERT_GE(p.top_size(), 1);
  w()->selection()->selectKernel(0, 0);
  CostTab* cost = w()->inspector()->cost();
  // Every kept point and the solver's: N = top + 1, the best and the solver's apart.
  EXPECT_EQ(cost->pgoPointCount(), p.top_size() + 1);
  EXPECT_EQ(cost->pgoPoints(CostTab::kPgoKept).size(), p.top_size() - 1);
  ASSERT_EQ(cost->pgoPoints(CostTab::kPgoBest).size(), 1);
  ASSERT_EQ(cost->pgoPoints(CostTab::kPgoSolver).size(), 1);
  EXPECT_EQ(cost->pgoPoints(CostTab::kPgoBest)[0],
            QPointF(p.top(0).block_dim(), p.top(0).cycles()));
  EXPECT_EQ(cost->pgoPoints(CostTab::kPgoSolver)[0],
            QPointF(p.solver().block_dim(), p.solver().cycles()));
  EXPECT_TRUE(cost->pgoTip(CostTab::kPgoBest, 0).contains(QStringLiteral("tile")));
  EXPECT_TRUE(cost->pgoText().contains(QStringLiteral("gain"))) << cost->pgoText().toStdString();
  EXPECT_TRUE(cost->pgoText().contains(QString::fromStdString(p.algo())));
  auto* chart = cost->findChild<QWidget*>(QStringLiteral("pgoChart"));
  ASSERT_NE(chart, nullptr);
  EXPECT_TRUE(chart->isVisibleTo(cost));

  // The same kernel without PGO: nothing.
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  w()->selection()->selectKernel(1, 0);
  EXPECT_EQ(cost->pgoPointCount(), 0);
  EXPECT_TRUE(cost->pgoText().isEmpty());
  EXPECT_FALSE(chart->isVisibleTo(cost));
}

TEST(CommandLine, SuperkernelAndTheTimelineTab) {
  AppOptions o;
  QString msg;
  ASSERT_EQ(ParseAppOptions({"afviewer", "--superkernel", "--tab", "Timeline", "in.py"}, &o, &msg),
            ParseOutcome::kRun)
      << msg.toStdString();
  EXPECT_TRUE(o.request.superkernel);
  EXPECT_EQ(o.tab, "timeline");
  ASSERT_EQ(ParseAppOptions({"afviewer", "in.py"}, &o, &msg), ParseOutcome::kRun);
  EXPECT_FALSE(o.request.superkernel);
}

}  // namespace

// The cube group of a cube + vector kernel: the Cost tab charts the cube's pipes for the chosen
// CV template and lists the product; the epilogue group keeps its vector cases.
TEST_F(WindowTest, CostTabChartsTheCubePipesOfACubeVectorKernel) {
  RunRequest r;
  r.bindings = {{"s0", 37}, {"s1", 45}, {"s2", 70}};
  ASSERT_TRUE(OpenAndWait(
      w(), SourcePath(QStringLiteral("tests/e2e/graphs/cv_mm_bias_gelu.graph.txt")), r));
  const RunPtr run = w()->runs()->run(0);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  const auto& k = *run->kernel(0);
  ASSERT_EQ(k.groups_size(), 2);
  ASSERT_TRUE(k.groups(0).has_cube());
  const auto& c = k.groups(0).cube();
  ASSERT_TRUE(c.tiled());
  EXPECT_EQ(c.template_name(), "kCommon");  // the bias and GELU need the vector cores
  w()->selection()->selectKernel(0, 0);
  w()->selection()->selectGroup(0);
  CostTab* cost = w()->inspector()->cost();
  ASSERT_TRUE(cost->cubeGroup());
  ASSERT_EQ(cost->cubePipes().size(), CostTab::kCubePipes);
  EXPECT_DOUBLE_EQ(cost->cubePipes()[CostTab::kCube], c.cube_cycles());
  EXPECT_DOUBLE_EQ(cost->cubePipes()[CostTab::kCubeMte2], c.mte2_cycles());
  ASSERT_EQ(cost->categories(), QStringList{QStringLiteral("kCommon")});
  EXPECT_DOUBLE_EQ(cost->cycles().value(0), c.cycles());
  EXPECT_TRUE(cost->message().contains(QStringLiteral("cube"))) << cost->message().toStdString();
  EXPECT_EQ(CostTab::CubePipeName(CostTab::kCubeFix), QStringLiteral("FIXP"));
  // The epilogue: vector cases as for any kernel.
  w()->selection()->selectGroup(1);
  EXPECT_FALSE(cost->cubeGroup());
  EXPECT_FALSE(cost->categories().isEmpty());
}

}  // namespace af::viewer::test
