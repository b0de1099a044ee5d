// afviewer's non-widget parts: running the pipeline in the worker's job function, reading and
// writing reports, the Graphviz layout, the selection model, the navigator model, the graphs
// taken back out of a report and the command line.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <algorithm>

#include "app_options.h"
#include "autofuse/support/error.h"
#include "graph_layout.h"
#include "graph_scene.h"
#include "layout_worker.h"
#include "navigator_model.h"
#include "report.pb.h"
#include "report_graphs.h"
#include "report_loader.h"
#include "run_manager.h"
#include "selection_model.h"
#include "viewer_test_support.h"

namespace af::viewer::test {
namespace {

std::shared_ptr<Run> Compile(const QString& path, const RunRequest& request = RunRequest()) {
  return RunManager::Execute(path, request, false, nullptr);
}

void WriteText(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
}

GraphSpec Chain(int n) {
  GraphSpec spec;
  for (int i = 0; i < n; ++i) {
    GraphSpec::Node node;
    node.name = QStringLiteral("n%1").arg(i);
    node.type = QStringLiteral("Relu");
    node.size = QSizeF(80, 30);
    spec.nodes.push_back(node);
    if (i > 0) spec.edges.push_back({i - 1, i, {}});
  }
  return spec;
}

// ------------------------------------------------------------------ the worker's job

TEST(RunJob, CompilesTheSampleWithBindings) {
  std::vector<QString> stages;
  const auto run = RunManager::Execute(SamplePath(), Bound(37, 1031), false,
                                       [&](const QString& s) { stages.push_back(s); });
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  ASSERT_EQ(run->kernelCount(), 1);
  const auto& k = *run->kernel(0);
  EXPECT_EQ(k.hint_graph().graph_name(), "add_bcast_relu");
  EXPECT_EQ(k.cases_size(), 3);  // B0Y0, B0Y1, B0Y0_unaligned (no brc_inline: 'add' reuses the
  // broadcast source's buffer, docs/reliability.md soak seed 5)
  ASSERT_TRUE(k.has_tiling());
  // The bindings reached the tiling stage, and the decision the report records is the chosen
  // case's solution (which case that is, is the cost model's business).
  const auto& t = k.tiling();
  EXPECT_EQ(t.bindings().at("s0"), 37);
  EXPECT_EQ(t.bindings().at("s1"), 1031);
  EXPECT_EQ(t.solver(), "AxesReorder");  // no --autofuse_att_algorithm: the default
  EXPECT_EQ(t.perf_table(), 1);          // ascend910b: the A2/A3 cost tables
  ASSERT_GE(t.chosen_case(), 0);
  ASSERT_LT(t.chosen_case(), k.cases_size());
  const auto& chosen = k.cases(t.chosen_case());
  ASSERT_TRUE(chosen.feasible());
  EXPECT_EQ(t.block_dim(), chosen.block_dim());
  EXPECT_EQ(t.ub_bytes(), chosen.ub_bytes());
  EXPECT_DOUBLE_EQ(t.modeled_cycles(), chosen.modeled_cycles());
  EXPECT_GE(t.block_dim(), 1u);
  EXPECT_LE(t.block_dim(), static_cast<unsigned>(t.cores()));
  EXPECT_LE(t.ub_bytes(), t.ub_capacity());
  // Every solved case carries the model's terms: cycles = slowest pipe + op head cost.
  for (const auto& c : k.cases()) {
    if (!c.feasible()) continue;
    const double pipe =
        std::max({c.mte2_cycles(), c.mte3_cycles(), c.vec_cycles(), c.scalar_cycles()});
    EXPECT_GT(c.head_cycles(), 0) << c.name();
    EXPECT_NEAR(c.modeled_cycles(), pipe + c.head_cycles(), 1e-6 * c.modeled_cycles()) << c.name();
    EXPECT_FALSE(c.binding().empty()) << c.name();
    EXPECT_GT(c.model_mte2_bytes(), 0) << c.name();
    EXPECT_GT(c.model_mte3_bytes(), 0) << c.name();
    EXPECT_GT(c.model_vec_repeats(), 0) << c.name();
  }
  // Sources are kept in memory, one entry per generated file.
  ASSERT_EQ(run->sources.count(k.name()), 1u);
  const auto& files = run->sources.at(k.name());
  EXPECT_EQ(files.size(), static_cast<std::size_t>(k.source_files_size()));
  EXPECT_TRUE(std::any_of(files.begin(), files.end(), [](const SourceFile& f) {
    return f.name.endsWith("_kernel.cc") && f.text.contains("__aicore__");
  }));
  ASSERT_EQ(run->origins.size(), 1u);
  EXPECT_NE(run->origins[0].find("add_bcast_relu"), std::string::npos);
  // Progress names the pipeline's stages.
  EXPECT_TRUE(std::any_of(stages.begin(), stages.end(),
                          [](const QString& s) { return s.startsWith("schedule"); }));
}

TEST(RunJob, ForcedCaseReachesThePipeline) {
  RunRequest r = Bound(37, 1031);
  r.flags["force_tiling_case"] = "1";
  const auto run = Compile(SamplePath(), r);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_EQ(run->kernel(0)->tiling().chosen_case(), 1);
  EXPECT_EQ(run->report->flags().at("force_tiling_case"), "1");
}

TEST(RunJob, BadInputBecomesAFailedRunNotACrash) {
  const auto run = Compile(FixturePath("not_a_graph.txt"));
  EXPECT_FALSE(run->ok());
  EXPECT_TRUE(run->error.contains("not_a_graph.txt")) << run->error.toStdString();
  const auto missing = Compile(TempPath("does_not_exist.txt"));
  EXPECT_FALSE(missing->ok());
  EXPECT_FALSE(missing->error.isEmpty());
}

TEST(RunJob, RefusedKernelKeepsItsReason) {
  const auto run = Compile(FixturePath("two_kernels.GraphDef.txt"));
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  ASSERT_EQ(run->kernelCount(), 2);
  EXPECT_TRUE(run->kernel(0)->error_code().empty());
  EXPECT_EQ(run->kernel(1)->error_code(), "NO_AXES");
  EXPECT_NE(run->origins[1].find("autofused_data_1"), std::string::npos);
}

// ------------------------------------------------------------------ reports on disk

TEST(ReportFiles, SaveWithSourcesThenLoadRoundTrips) {
  const auto run = Compile(SamplePath(), Bound(37, 1031));
  ASSERT_TRUE(run->ok());
  const QString dir = TempPath("out");
  SaveReportWithSources(*run, dir);
  EXPECT_EQ(ClassifyInput(dir), InputKind::kReport);
  EXPECT_EQ(ClassifyInput(dir + "/report.json"), InputKind::kReport);
  EXPECT_EQ(ClassifyInput(SamplePath()), InputKind::kGraph);

  const auto loaded = LoadReport(dir);
  ASSERT_TRUE(loaded->ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*loaded->report, *run->report));
  EXPECT_EQ(QFileInfo(loaded->request.input).canonicalFilePath(),
            QFileInfo(SamplePath()).canonicalFilePath());
  EXPECT_EQ(loaded->request.bindings.at("s0"), 37);
  EXPECT_EQ(loaded->request.bindings.at("s1"), 1031);
  const auto& k = *loaded->kernel(0);
  const auto& files = loaded->sources.at(k.name());
  ASSERT_EQ(files.size(), static_cast<std::size_t>(k.source_files_size()));
  for (const auto& f : files) {
    EXPECT_FALSE(f.missing) << f.name.toStdString();
    EXPECT_FALSE(f.text.isEmpty()) << f.name.toStdString();
  }
}

TEST(ReportFiles, ReportFromAfcLayoutFindsScheduleAndInput) {
  // The layout `afc compile --out` writes: report.json plus <kernel>/ with schedule.txt.
  const auto run = Compile(SamplePath(), Bound(3, 200003));
  const QString dir = TempPath("afc");
  SaveReportWithSources(*run, dir);
  const QString kname = QString::fromStdString(run->kernel(0)->name());
  WriteText(dir + "/" + kname + "/schedule.txt", "schedule of the kernel\n");
  const auto loaded = LoadReport(dir + "/report.json");
  const auto& files = loaded->sources.at(run->kernel(0)->name());
  EXPECT_TRUE(std::any_of(files.begin(), files.end(),
                          [](const SourceFile& f) { return f.name == "schedule.txt"; }));
  // The decision survives the round trip; a row of 200003 does not fit, so it tiles z1 (a B0Y1
  // case) and the B0Y0 case is marked infeasible.
  const auto& lk = *loaded->kernel(0);
  ASSERT_TRUE(lk.has_tiling());
  EXPECT_EQ(lk.tiling().chosen_case(), run->kernel(0)->tiling().chosen_case());
  EXPECT_TRUE(ShortCaseName(lk, lk.tiling().chosen_case()).startsWith("B0Y1"))
      << ShortCaseName(lk, lk.tiling().chosen_case()).toStdString();
  EXPECT_EQ(ShortCaseName(lk, 0), "B0Y0");
  EXPECT_FALSE(lk.cases(0).feasible());
}

TEST(ReportFiles, SourcePathsCannotLeaveTheReportFolder) {
  const auto run = Compile(SamplePath(), Bound(37, 1031));
  auto report = *run->report;
  auto* k = report.mutable_kernels(0);
  k->clear_source_files();
  k->add_source_files("../../../../etc/passwd");
  k->add_source_files("/etc/passwd");
  const QString dir = TempPath("evil");
  QDir().mkpath(dir);
  WriteText(dir + "/report.json", QByteArray::fromStdString(ReportToJson(report)));
  const auto loaded = LoadReport(dir);
  const auto& files = loaded->sources.at(k->name());
  ASSERT_EQ(files.size(), 2u);
  for (const auto& f : files) {
    EXPECT_TRUE(f.missing);
    EXPECT_TRUE(f.text.isEmpty());
  }
}

TEST(ReportFiles, DamagedReportsAreInputErrors) {
  const QString bad = TempPath("bad.json");
  WriteText(bad, "{ \"kernels\": [ { \"name\": 5, ");
  try {
    LoadReport(bad);
    FAIL() << "a truncated report loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LoadReport(TempPath("empty_folder_without_report")), InputError);
  // Fields from a newer writer are ignored rather than refused.
  const QString newer = TempPath("newer.json");
  WriteText(newer, "{\"tool_version\": \"9.9\", \"future_field\": 1, \"kernels\": []}");
  EXPECT_EQ(LoadReport(newer)->report->tool_version(), "9.9");
}

// ------------------------------------------------------------------ graph layout

TEST(GraphLayoutTest, ChainIsLaidOutTopToBottom) {
  const GraphSpec spec = Chain(5);
  const GraphLayout l = LayoutGraph(spec);
  ASSERT_TRUE(l.ok()) << l.error.toStdString();
  ASSERT_EQ(l.nodes.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(l.nodes[i].width(), 80);
    EXPECT_DOUBLE_EQ(l.nodes[i].height(), 30);
    EXPECT_TRUE(l.bounds.adjusted(-1, -1, 1, 1).contains(l.nodes[i])) << i;
    if (i > 0) {
      EXPECT_GT(l.nodes[i].top(), l.nodes[i - 1].bottom()) << i;
    }
  }
  ASSERT_EQ(l.edges.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& e = l.edges[i];
    ASSERT_GE(e.spline.size(), 4u);
    EXPECT_EQ((e.spline.size() - 1) % 3, 0u);
    EXPECT_TRUE(e.has_arrow);
    // The spline leaves the source node and the arrow ends at the target's top edge.
    EXPECT_NEAR(e.spline.front().y(), l.nodes[i].bottom(), 2.0);
    EXPECT_NEAR(e.arrow_tip.y(), l.nodes[i + 1].top(), 2.0);
  }
}

TEST(GraphLayoutTest, DiamondKeepsRanksAndBadEdgesAreRefused) {
  GraphSpec spec = Chain(1);
  for (int i = 1; i < 4; ++i) {
    GraphSpec::Node n;
    n.size = QSizeF(60, 20);
    spec.nodes.push_back(n);
  }
  spec.edges = {{0, 1, {}}, {0, 2, {}}, {1, 3, {}}, {2, 3, {}}};
  const GraphLayout l = LayoutGraph(spec);
  ASSERT_TRUE(l.ok());
  EXPECT_NEAR(l.nodes[1].center().y(), l.nodes[2].center().y(), 0.5);
  EXPECT_NE(l.nodes[1].center().x(), l.nodes[2].center().x());
  EXPECT_GT(l.nodes[3].top(), l.nodes[1].bottom());

  spec.edges.push_back({0, 9, {}});
  EXPECT_FALSE(LayoutGraph(spec).ok());
  EXPECT_TRUE(LayoutGraph(GraphSpec()).ok());
}

TEST(GraphLayoutTest, NamesNeverReachGraphviz) {
  GraphSpec spec = Chain(2);
  spec.nodes[0].name = QStringLiteral("x\"; } digraph evil { a -> b");
  spec.nodes[1].type = QStringLiteral("<b>\\n");
  const std::string dot = LayoutDot(spec);
  EXPECT_EQ(dot.find("evil"), std::string::npos);
  EXPECT_EQ(dot.find("<b>"), std::string::npos);
  EXPECT_TRUE(LayoutGraph(spec).ok());
}

TEST(GraphLayoutTest, WorkerLaysOutOffTheGuiThreadAndCaches) {
  LayoutWorker worker;
  QSignalSpy ready(&worker, &LayoutWorker::ready);
  EXPECT_EQ(worker.request("k", Chain(30)), nullptr);
  EXPECT_TRUE(worker.busy());
  ASSERT_TRUE(WaitFor([&] { return ready.count() == 1; }));
  EXPECT_EQ(ready.at(0).at(0).toString(), "k");
  EXPECT_FALSE(worker.busy());
  const auto hit = worker.request("k", Chain(30));
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->nodes.size(), 30u);
  EXPECT_EQ(ready.count(), 1);
}

// ------------------------------------------------------------------ selection, navigator

TEST(Selection, OneSignalPerChange) {
  SelectionModel s;
  QSignalSpy spy(&s, &SelectionModel::selectionChanged);
  s.selectKernel(0, 1);
  s.selectKernel(0, 1);
  EXPECT_EQ(spy.count(), 1);
  s.selectCase(1);
  s.selectNode("add");
  EXPECT_EQ(spy.count(), 3);
  EXPECT_EQ(s.current(), (Selection{0, 1, 1, "add"}));
  s.selectKernel(0, 0);  // a new kernel drops the case and the node
  EXPECT_EQ(s.current(), (Selection{0, 0, -1, {}}));
  EXPECT_EQ(spy.count(), 4);
}

TEST(Navigator, RunsKernelsCasesAndReasons) {
  NavigatorModel m;
  const auto good = Compile(SamplePath(), Bound(37, 1031));
  good->title = "#1 sample";
  const auto two = Compile(FixturePath("two_kernels.GraphDef.txt"));
  two->title = "#2 two";
  auto failed = Compile(FixturePath("not_a_graph.txt"));
  failed->title = "#3 failed";
  m.addRun(0, *good);
  m.addRun(1, *two);
  m.addRun(2, *failed);
  ASSERT_EQ(m.rowCount(), 3);

  const QModelIndex run0 = m.index(0, 0);
  ASSERT_EQ(m.rowCount(run0), 1);
  const QModelIndex k0 = m.index(0, 0, run0);
  EXPECT_EQ(k0.data().toString(), "add_bcast_relu");
  // The outcome names the chosen case; among the five case rows only that one says "chosen".
  const auto& gk = *good->kernel(0);
  const int chosen = gk.tiling().chosen_case();
  const QString outcome = m.index(0, 1, run0).data().toString();
  EXPECT_TRUE(outcome.startsWith(ShortCaseName(gk, chosen) + " ")) << outcome.toStdString();
  ASSERT_EQ(m.rowCount(k0), 3);  // three cases
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(m.index(c, 0, k0).data().toString(), ShortCaseName(gk, c)) << c;
    EXPECT_EQ(m.index(c, 1, k0).data().toString().startsWith("chosen"), c == chosen) << c;
  }

  const QModelIndex run1 = m.index(1, 0);
  ASSERT_EQ(m.rowCount(run1), 2);
  const QModelIndex refused = m.index(1, 0, run1);
  EXPECT_EQ(refused.data().toString(), "no_axes");
  EXPECT_EQ(m.index(1, 1, run1).data().toString(), "refused NO_AXES");
  ASSERT_EQ(m.rowCount(refused), 1);
  EXPECT_TRUE(m.index(0, 0, refused).data().toString().startsWith("NO_AXES: "));

  const QModelIndex run2 = m.index(2, 0);
  EXPECT_EQ(m.index(2, 1).data().toString(), "failed");
  ASSERT_EQ(m.rowCount(run2), 1);

  // Selections and tree indexes map both ways.
  for (const Selection& s : {Selection{0, -1, -1, {}}, Selection{0, 0, -1, {}},
                             Selection{0, 0, 1, {}}, Selection{1, 1, -1, {}}}) {
    const QModelIndex idx = m.indexFor(s);
    ASSERT_TRUE(idx.isValid());
    EXPECT_EQ(NavigatorModel::selectionFor(idx), s);
  }
  EXPECT_FALSE(m.indexFor({7, 0, -1, {}}).isValid());

  // The filter matches reason codes and kernel names, keeping the parents.
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&m);
  proxy.setRecursiveFilteringEnabled(true);
  proxy.setFilterRole(NavigatorModel::kSearchRole);
  proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy.setFilterFixedString("no_axes");
  ASSERT_EQ(proxy.rowCount(), 1);
  EXPECT_EQ(proxy.index(0, 0).data().toString(), "#2 two");
  proxy.setFilterFixedString(QString::fromStdString(good->kernel(0)->name()));
  EXPECT_EQ(proxy.rowCount(), 1);
}

// ------------------------------------------------------------------ graphs from a report

TEST(ReportGraphs, HintNormalisedAndImplGraphs) {
  const auto run = Compile(SamplePath(), Bound(37, 1031));
  const auto& k = *run->kernel(0);
  const auto hint = KernelGraph(k, GraphKind::kHint, -1);
  ASSERT_TRUE(hint.graph) << hint.error.toStdString();
  EXPECT_EQ(hint.graph->nodes.size(), 9u);
  const auto norm = KernelGraph(k, GraphKind::kNormalized, -1);
  ASSERT_TRUE(norm.graph) << norm.error.toStdString();
  EXPECT_EQ(norm.graph->nodes.size(), 12u);  // casts around the fp16 loads and the store
  const auto impl1 = KernelGraph(k, GraphKind::kImpl, 1);
  ASSERT_TRUE(impl1.graph);
  EXPECT_NE(impl1.graph->FindAxisByName("z0z1T"), nullptr);
  EXPECT_FALSE(KernelGraph(k, GraphKind::kImpl, 5).graph);

  const GraphSpec spec = GraphScene::SpecForGraph(*hint.graph);
  ASSERT_EQ(spec.nodes.size(), 9u);
  EXPECT_EQ(spec.edges.size(), 8u);
  for (const auto& n : spec.nodes) {
    EXPECT_GT(n.size.width(), 0);
    if (n.type == "Load") {
      EXPECT_EQ(n.compute, "load");
    } else if (n.type == "Add") {
      EXPECT_EQ(n.compute, "elewise");
    } else if (n.type == "Data") {
      EXPECT_EQ(n.compute, "buffer");
    }
  }
}

TEST(ReportGraphs, CaseHelpers) {
  const auto run = Compile(SamplePath(), Bound(37, 1031));
  const auto& k = *run->kernel(0);
  const int chosen = k.tiling().chosen_case();
  ASSERT_GE(chosen, 0);
  EXPECT_EQ(DefaultCase(k), chosen);
  EXPECT_EQ(EffectiveCase(k, 1), 1);
  EXPECT_EQ(EffectiveCase(k, 5), chosen);  // no case 5: the chosen one
  EXPECT_EQ(EffectiveCase(k, -1), chosen);
  EXPECT_EQ(ShortCaseName(k, 1), "B0Y1");
  // Case B0Y1 tiles z1 (z1t) and merges z0 with z1T before the block split (z0z1Tb).
  ASSERT_TRUE(k.cases(1).feasible());
  const auto b = CaseBindings(k, 1);
  EXPECT_EQ(b.at("s0"), 37);
  EXPECT_EQ(b.at("z1t_size"), k.cases(1).tile());
  EXPECT_EQ(b.at("z0z1Tb_size"), k.cases(1).tiles_per_block());
  EXPECT_GE(b.at("z1t_size"), 1);
  EXPECT_LE(b.at("z1t_size"), 1031);
  EXPECT_EQ(BindingsText(b).left(7), "s0=37, ");
  const auto unbound = Compile(SamplePath());
  EXPECT_TRUE(CaseBindings(*unbound->kernel(0), 0).empty());
  EXPECT_EQ(DefaultCase(*unbound->kernel(0)), 0);
}

// ------------------------------------------------------------------ command line

TEST(CommandLine, ParsesScreenshotOptions) {
  AppOptions o;
  QString msg;
  ASSERT_EQ(ParseAppOptions(
                {"afviewer", "--screenshot", "x.png", "--select", "k", "--tab", "Cost", "--bind",
                 "s0=3,s1=4", "--flags", "--force_tiling_case=1", "--case", "1", "in.txt"},
                &o, &msg),
            ParseOutcome::kRun)
      << msg.toStdString();
  EXPECT_EQ(o.screenshot, "x.png");
  EXPECT_EQ(o.select, "k");
  EXPECT_EQ(o.tab, "cost");
  EXPECT_EQ(o.tcase, 1);
  EXPECT_EQ(o.request.bindings.at("s1"), 4);
  EXPECT_EQ(o.request.flags.at("force_tiling_case"), "1");
  EXPECT_EQ(o.inputs, QStringList{"in.txt"});
}

TEST(CommandLine, RefusesWhatCannotWork) {
  AppOptions o;
  QString msg;
  EXPECT_EQ(ParseAppOptions({"afviewer", "--tab", "nope", "in"}, &o, &msg), ParseOutcome::kError);
  EXPECT_TRUE(msg.contains("nope"));
  EXPECT_EQ(ParseAppOptions({"afviewer", "--bind", "s0=x", "in"}, &o, &msg), ParseOutcome::kError);
  EXPECT_EQ(ParseAppOptions({"afviewer", "--soc", "ascend1", "in"}, &o, &msg),
            ParseOutcome::kError);
  EXPECT_EQ(ParseAppOptions({"afviewer", "--screenshot", "x.png"}, &o, &msg), ParseOutcome::kError);
  EXPECT_EQ(ParseAppOptions({"afviewer", "--case", "-1", "in"}, &o, &msg), ParseOutcome::kError);
  EXPECT_EQ(ParseAppOptions({"afviewer", "--version"}, &o, &msg), ParseOutcome::kExit);
  EXPECT_TRUE(msg.startsWith("afviewer "));
}

}  // namespace
}  // namespace af::viewer::test
