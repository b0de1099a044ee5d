// The main window as a user drives it, on the offscreen platform: open the sample, select a kernel,
// switch tabs and graphs, select nodes, change flags and shapes and re-run (both runs stay open),
// cancel, open bad input, drop files, export and save.
#include <Qsci/qsciscintilla.h>
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTreeView>
#include <QUrl>

#include "axes_tab.h"
#include "cost_tab.h"
#include "flags_panel.h"
#include "fusion_tab.h"
#include "graph_panel.h"
#include "graph_scene.h"
#include "kernel_inspector.h"
#include "navigator_model.h"
#include "navigator_panel.h"
#include "recent_files.h"
#include "report.pb.h"
#include "report_loader.h"
#include "run_manager.h"
#include "selection_model.h"
#include "source_tab.h"
#include "templates_tab.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

// The item of the axes tree named `name` (depth-first); null when absent.
QStandardItem* FindAxis(QStandardItemModel* m, const QString& name,
                        QStandardItem* parent = nullptr) {
  const int rows = parent != nullptr ? parent->rowCount() : m->rowCount();
  for (int r = 0; r < rows; ++r) {
    QStandardItem* item = parent != nullptr ? parent->child(r, 0) : m->item(r, 0);
    if (item->text() == name) return item;
    if (QStandardItem* hit = FindAxis(m, name, item)) return hit;
  }
  return nullptr;
}

QString Cell(QStandardItem* axis, int column) {
  QStandardItem* parent = axis->parent();
  QStandardItemModel* m = axis->model();
  return parent != nullptr ? parent->child(axis->row(), column)->text()
                           : m->item(axis->row(), column)->text();
}

QStringList Children(QStandardItem* item) {
  QStringList names;
  for (int r = 0; r < item->rowCount(); ++r)
    names << item->child(r, 0)->text();
  return names;
}

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    w_ = std::make_unique<MainWindow>();
    w_->resize(1600, 1000);
    w_->show();
  }
  void TearDown() override { w_.reset(); }
  MainWindow* w() { return w_.get(); }
  std::unique_ptr<MainWindow> w_;
};

TEST_F(WindowTest, OpensTheSampleAndFillsEveryPanel) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  ASSERT_EQ(w()->runs()->count(), 1);
  // One kernel: it is selected straight away.
  EXPECT_EQ(w()->selection()->current(), (Selection{0, 0, -1, {}}));
  EXPECT_EQ(w()->navigator()->model()->rowCount(), 1);
  // Graph: the hint graph, nine nodes coloured by ComputeType.
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 9);
  EXPECT_TRUE(w()->inspector()->title().contains("autofused_broadcast_add_relu"));

  // Axes of the chosen case B0Y0: z0 -> z0T/z0t, z0T -> z0TB/z0Tb; z1 kept whole.
  auto* axes = w()->inspector()->axes()->model();
  QStandardItem* z0 = FindAxis(axes, "z0");
  ASSERT_NE(z0, nullptr);
  EXPECT_EQ(Children(z0), (QStringList{"z0T", "z0t"}));
  EXPECT_EQ(Cell(z0, AxesTab::kValue), "37");
  QStandardItem* z0T = FindAxis(axes, "z0T");
  EXPECT_EQ(Children(z0T), (QStringList{"z0TB", "z0Tb"}));
  QStandardItem* z0TB = FindAxis(axes, "z0TB");
  EXPECT_EQ(Cell(z0TB, AxesTab::kType), "BLOCK_OUT");
  EXPECT_TRUE(Cell(z0TB, AxesTab::kRole).contains("bound to cores"));
  EXPECT_EQ(Cell(z0TB, AxesTab::kValue), "37");  // 37 blocks of one row
  EXPECT_TRUE(Cell(FindAxis(axes, "z0t"), AxesTab::kRole).contains("vectorised"));
  EXPECT_EQ(Cell(FindAxis(axes, "z1"), AxesTab::kValue), "1031");
  EXPECT_TRUE(w()->inspector()->axes()->loopNestText().contains("z0TB"));

  // Templates: two cases, B0Y0 chosen by the cost model.
  auto* templates = w()->inspector()->templates();
  ASSERT_EQ(templates->model()->rowCount(), 5);  // B0Y0, B0Y1, brc_inline and unaligned variants
  EXPECT_EQ(templates->chosenRow(), 2);
  EXPECT_EQ(templates->model()->item(2, TemplatesTab::kTemplate)->text(), "brc_inline");
  EXPECT_TRUE(templates->summary().contains("lowest modelled cycles"));
  EXPECT_EQ(templates->model()->item(0, TemplatesTab::kCores)->text(), "37");
  EXPECT_EQ(templates->model()->item(1, TemplatesTab::kTile)->text(), "528");

  // Cost: bars per case, UB against the 910B's capacity.
  auto* cost = w()->inspector()->cost();
  ASSERT_EQ(cost->cycles().size(), 5);
  EXPECT_EQ(cost->chosen(), 2);
  EXPECT_LT(cost->cycles()[0], cost->cycles()[1]);
  EXPECT_EQ(cost->ubBytes()[0], 24960);
  EXPECT_EQ(cost->ubCapacity(), 196608);
  EXPECT_EQ(cost->coreCount(), 48);

  // Source: the generated kernel, read-only.
  auto* source = w()->inspector()->source();
  EXPECT_TRUE(source->currentFile().endsWith("_kernel.cc"));
  EXPECT_TRUE(source->text().contains("__aicore__"));
  EXPECT_GE(source->fileNames().size(), 4);

  // Fusion: the schedule's decisions with their reason codes.
  auto* fusion = w()->inspector()->fusion();
  QStringList codes;
  for (int r = 0; r < fusion->decisions()->rowCount(); ++r)
    codes << fusion->decisions()->item(r, FusionTab::kCode)->text();
  EXPECT_TRUE(codes.contains("KEEP_AXES_APART"));
  EXPECT_TRUE(codes.contains("UPCAST_FP32"));
  EXPECT_EQ(fusion->buffers()->rowCount(), 8);  // 6 shared + the unaligned scratch and offsets
  EXPECT_TRUE(fusion->refusal().isEmpty());

  // The form shows what produced the run.
  EXPECT_EQ(w()->flags()->binding("s0"), "37");
  EXPECT_EQ(w()->flags()->binding("s1"), "1031");
  EXPECT_EQ(w()->flags()->forcedCase(), -1);
  EXPECT_TRUE(w()->recent()->files().first().endsWith("add_bcast_relu.AscGraphDef.txt"));
}

TEST_F(WindowTest, TabsSwitchByName) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  for (const QString& tab : KernelInspector::TabNames()) {
    ASSERT_TRUE(w()->inspector()->setCurrentTab(tab));
    EXPECT_EQ(w()->inspector()->currentTab(), tab);
    EXPECT_EQ(w()->inspector()->tabs()->currentWidget()->isVisible(), true);
  }
  EXPECT_TRUE(w()->inspector()->setCurrentTab("Templates"));
  EXPECT_EQ(w()->inspector()->currentTab(), "templates");
  EXPECT_FALSE(w()->inspector()->setCurrentTab("nonsense"));
}

TEST_F(WindowTest, ForcedCaseRerunAddsARunNextToTheOld) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  w()->selection()->selectNode("add");
  w()->flags()->setForcedCase(1);
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  // The new run is selected with the same kernel and node.
  EXPECT_EQ(w()->selection()->current(), (Selection{1, 0, -1, "add"}));
  EXPECT_EQ(w()->runs()->run(1)->request.flags.at("force_tiling_case"), "1");
  auto* templates = w()->inspector()->templates();
  EXPECT_EQ(templates->chosenRow(), 1);
  EXPECT_TRUE(templates->summary().contains("forced by --force_tiling_case=1"));
  EXPECT_TRUE(
      templates->summary().contains("Against #1 add_bcast_relu.AscGraphDef.txt: case "
                                    "B0Y0_inline → B0Y1, 727.3 → 931.0 cycles"))
      << templates->summary().toStdString();
  EXPECT_EQ(w()->inspector()->cost()->chosen(), 1);
  // The axes now show case B0Y1's split: z1 -> z1T/z1t, z0 · z1T merged, then B/b.
  auto* axes = w()->inspector()->axes()->model();
  QStandardItem* z1T = FindAxis(axes, "z1T");
  ASSERT_NE(z1T, nullptr);
  EXPECT_TRUE(Children(z1T).contains("z0z1T"));
  QStandardItem* merged = FindAxis(axes, "z0z1T");
  EXPECT_EQ(Children(merged), (QStringList{"z0z1TB", "z0z1Tb"}));
  EXPECT_TRUE(Cell(merged, AxesTab::kRole).contains("merge of z0 · z1T"));
  EXPECT_EQ(Cell(FindAxis(axes, "z1t"), AxesTab::kValue), "528");
  EXPECT_TRUE(Children(FindAxis(axes, "z0")).contains("↳ z0z1T"));
  // Both runs stay open; the old one still says B0Y0_inline.
  EXPECT_EQ(w()->navigator()->model()->rowCount(), 2);
  w()->selection()->selectKernel(0, 0);
  EXPECT_EQ(templates->chosenRow(), 2);
  EXPECT_EQ(w()->flags()->forcedCase(), -1);
}

TEST_F(WindowTest, NewShapesRerunPicksTheOtherCase) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  w()->flags()->setBinding("s0", "3");
  w()->flags()->setBinding("s1", "200003");
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), 3);  // B0Y1_inline
  EXPECT_EQ(w()->inspector()->templates()->model()->item(0, TemplatesTab::kFeasible)->text(), "no");
  EXPECT_EQ(w()->inspector()->cost()->ubBytes()[1], 196608);
  EXPECT_EQ(w()->runs()->run(1)->request.bindings.at("s1"), 200003);
}

TEST_F(WindowTest, BadFormInputIsReportedNotRun) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  w()->flags()->setExtraFlags("--oops");
  EXPECT_FALSE(w()->rerun());
  EXPECT_EQ(w()->runs()->count(), 1);
  EXPECT_FALSE(w()->runs()->busy());
  // A forced case that does not exist is the pipeline's to refuse: the run fails, visibly.
  w()->flags()->setExtraFlags(QString());
  w()->flags()->setForcedCase(7);
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  EXPECT_FALSE(w()->runs()->run(1)->ok());
  EXPECT_TRUE(w()->graph()->scene()->message().contains("failed"));
}

TEST_F(WindowTest, SelectingCasesAndNodesReachesEveryPanel) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  // A case picked in the templates table shows in the axes and the impl graph.
  w()->graph()->setGraphKind(GraphKind::kImpl);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 12);
  EXPECT_NE(w()->graph()->scene()->nodeRect("load_x_to_fp32"), QRectF());
  w()->selection()->selectCase(1);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_TRUE(w()->graph()->currentKey().endsWith("/c1"));
  EXPECT_NE(FindAxis(w()->inspector()->axes()->model(), "z0z1T"), nullptr);
  EXPECT_EQ(w()->navigator()->tree()->currentIndex().data().toString(), "B0Y1");

  // A node clicked in the graph is highlighted in the fusion decisions and found in the source.
  emit w()->graph()->scene()->nodeClicked("add");
  EXPECT_EQ(w()->selection()->current().node, "add");
  EXPECT_EQ(w()->graph()->scene()->selectedNode(), "add");
  EXPECT_FALSE(w()->inspector()->fusion()->highlightedRows().isEmpty());
  EXPECT_TRUE(w()->inspector()->source()->editor()->hasSelectedText());
  emit w()->graph()->scene()->nodeClicked(QString());
  EXPECT_TRUE(w()->selection()->current().node.isEmpty());

  // Search by op type marks both loads.
  w()->graph()->setGraphKind(GraphKind::kHint);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->graph()->search("load"), (QStringList{"load_x", "load_b"}));
  EXPECT_EQ(w()->graph()->search("Relu"), (QStringList{"relu"}));
  EXPECT_TRUE(w()->graph()->search("nothing").isEmpty());
}

TEST_F(WindowTest, RunWithARefusedKernel) {
  ASSERT_TRUE(OpenAndWait(w(), FixturePath("two_kernels.GraphDef.txt")));
  // Two kernels: the run is selected and the view shows one box per kernel.
  EXPECT_EQ(w()->selection()->current().kernel, -1);
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 2);
  emit w()->graph()->scene()->nodeClicked("no_axes");
  EXPECT_EQ(w()->selection()->current().kernel, 1);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_TRUE(w()->inspector()->fusion()->refusal().contains("NO_AXES"));
  EXPECT_TRUE(w()->inspector()->templates()->summary().contains("refused"));
  EXPECT_EQ(w()->inspector()->templates()->model()->rowCount(), 0);
  EXPECT_TRUE(w()->inspector()->source()->text().contains("refused"));
  // The navigator filter finds the refusal by its code.
  w()->navigator()->setFilter("NO_AXES");
  auto* proxy = w()->navigator()->proxy();
  ASSERT_EQ(proxy->rowCount(), 1);
  ASSERT_EQ(proxy->rowCount(proxy->index(0, 0)), 1);
  EXPECT_EQ(proxy->index(0, 0, proxy->index(0, 0)).data().toString(), "no_axes");
  // The other kernel compiles (sizes are constants, so it is solved).
  ASSERT_TRUE(w()->selectKernel("exp_rows"));
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), 0);
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 5);
}

TEST_F(WindowTest, UnboundSizesThenBindAndRerun) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath()));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), -1);
  EXPECT_TRUE(w()->inspector()->cost()->categories().isEmpty());
  EXPECT_TRUE(w()->inspector()->cost()->message().contains("unbound"));
  EXPECT_EQ(Cell(FindAxis(w()->inspector()->axes()->model(), "z0"), AxesTab::kValue), "—");
  EXPECT_EQ(w()->flags()->symbols(), (QStringList{"s0", "s1"}));
  EXPECT_TRUE(w()->flags()->binding("s0").isEmpty());
  w()->flags()->setBinding("s0", "37");
  w()->flags()->setBinding("s1", "1031");
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), 2);
  EXPECT_EQ(w()->inspector()->cost()->categories().size(), 5);
}

TEST_F(WindowTest, BadInputShowsAFailedRun) {
  ASSERT_TRUE(OpenAndWait(w(), FixturePath("not_a_graph.txt")));
  const RunPtr run = w()->runs()->run(0);
  ASSERT_FALSE(run->ok());
  EXPECT_EQ(w()->selection()->current().run, 0);
  EXPECT_TRUE(w()->graph()->scene()->message().contains("not_a_graph.txt"));
  const QModelIndex item = w()->navigator()->model()->index(0, 1);
  EXPECT_EQ(item.data().toString(), "failed");
  // A later good input still works.
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 9);
}

TEST_F(WindowTest, CancelIgnoresTheResult) {
  w()->open(SamplePath(), Bound(37, 1031));
  EXPECT_TRUE(w()->runs()->busy());
  w()->cancel();
  EXPECT_FALSE(w()->runs()->busy());
  // The worker finishes anyway; its run never shows up.
  WaitFor([] { return false; }, 1500);
  EXPECT_EQ(w()->runs()->count(), 0);
  EXPECT_EQ(w()->navigator()->model()->rowCount(), 0);
  // Queued opens run one after the other.
  w()->open(SamplePath(), Bound(37, 1031));
  w()->open(FixturePath("two_kernels.GraphDef.txt"));
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  EXPECT_EQ(w()->runs()->run(1)->kernelCount(), 2);
}

TEST_F(WindowTest, DroppedFilesOpen) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(SamplePath())});
  QDragEnterEvent enter(QPoint(800, 500), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(w(), &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(800, 500), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(w(), &drop);
  EXPECT_TRUE(drop.isAccepted());
  EXPECT_EQ(w()->recent()->files().value(0), SamplePath()) << w()->runs()->count();
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 1 && w()->idle(); }));
  EXPECT_TRUE(w()->runs()->run(0)->ok());
}

TEST_F(WindowTest, ExportAndSaveThenReopenTheReport) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  QString error;
  const QString png = TempPath("graph.png");
  ASSERT_TRUE(w()->exportGraph(png, &error)) << error.toStdString();
  const QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(image.width(), 100);
  EXPECT_GT(image.height(), 300);  // a top-to-bottom chain of 9 nodes
  const QString svg = TempPath("graph.svg");
  ASSERT_TRUE(w()->exportGraph(svg, &error)) << error.toStdString();
  QFile f(svg);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const QByteArray text = f.readAll();
  EXPECT_TRUE(text.contains("<svg"));
  EXPECT_TRUE(text.contains("load_x"));  // labels stay text in the vector output

  const QString dir = TempPath("saved");
  ASSERT_TRUE(w()->saveReportWithSources(dir, &error)) << error.toStdString();
  const QString json = TempPath("alone.json");
  ASSERT_TRUE(w()->saveReport(json, &error)) << error.toStdString();
  EXPECT_TRUE(LoadReport(json)->ok());

  ASSERT_TRUE(OpenAndWait(w(), dir + "/report.json"));
  const RunPtr reopened = w()->runs()->run(1);
  ASSERT_TRUE(reopened->ok());
  EXPECT_FALSE(reopened->report_path.isEmpty());
  EXPECT_EQ(w()->selection()->current(), (Selection{1, 0, -1, {}}));
  EXPECT_TRUE(w()->inspector()->source()->text().contains("__aicore__"));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), 2);
  // A report re-runs from the graph file it names.
  w()->flags()->setForcedCase(1);
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 3 && w()->idle(); }));
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), 1);
}

TEST_F(WindowTest, WindowGrabHasTheRequestedSize) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  const QImage shot = w()->grab().toImage();
  EXPECT_EQ(shot.size(), QSize(1600, 1000));
}

}  // namespace
}  // namespace af::viewer::test
