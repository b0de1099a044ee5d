// The main window as a user drives it, on the offscreen platform: open the sample, select a kernel,
// switch tabs and graphs, select nodes, change flags and shapes and re-run (both runs stay open),
// cancel, open bad input, drop files, export and save.
#include <Qsci/qsciscintilla.h>
#include <gtest/gtest.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTreeView>
#include <QUrl>

#include "autofuse/pipeline/flag_table.h"
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

QString Num(qlonglong v) {
  return QLocale::c().toString(v);
}

QStringList Children(QStandardItem* item) {
  QStringList names;
  for (int r = 0; r < item->rowCount(); ++r)
    names << item->child(r, 0)->text();
  return names;
}

TEST_F(WindowTest, OpensTheSampleAndFillsEveryPanel) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  ASSERT_EQ(w()->runs()->count(), 1);
  // One kernel: it is selected straight away.
  EXPECT_EQ(w()->selection()->current(), (Selection{0, 0, -1, {}}));
  EXPECT_EQ(w()->navigator()->model()->rowCount(), 1);
  // Graph: the hint graph, nine nodes coloured by ComputeType.
  EXPECT_EQ(w()->graph()->scene()->nodeCount(), 9);
  EXPECT_TRUE(w()->inspector()->title().contains("autofused_broadcast_add_relu"));
  // What the cost model chose (the panels must show it, whichever case it is).
  const auto& k = *w()->runs()->run(0)->kernel(0);
  ASSERT_TRUE(k.has_tiling());
  const int chosen = k.tiling().chosen_case();
  ASSERT_GE(chosen, 0);

  // Axes of the chosen case, a B0Y0 one: z0 -> z0T/z0t, z0T -> z0TB/z0Tb; z1 kept whole.
  ASSERT_TRUE(ShortCaseName(k, chosen).startsWith("B0Y0"))
      << ShortCaseName(k, chosen).toStdString();
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
  EXPECT_EQ(Cell(z0TB, AxesTab::kValue), QString::number(k.tiling().block_dim()));  // one per core
  EXPECT_TRUE(Cell(FindAxis(axes, "z0t"), AxesTab::kRole).contains("vectorised"));
  EXPECT_EQ(Cell(FindAxis(axes, "z1"), AxesTab::kValue), "1031");
  EXPECT_TRUE(w()->inspector()->axes()->loopNestText().contains("z0TB"));

  // Templates: three cases, the cost model's choice starred.
  auto* templates = w()->inspector()->templates();
  ASSERT_EQ(templates->model()->rowCount(), 3);  // B0Y0, B0Y1 and the unaligned variant
  EXPECT_EQ(templates->chosenRow(), chosen);
  EXPECT_TRUE(templates->model()->item(chosen, TemplatesTab::kCase)->text().startsWith("★ "));
  EXPECT_EQ(templates->model()->item(chosen, TemplatesTab::kTemplate)->text(),
            QString::fromStdString(k.cases(chosen).template_name()));
  EXPECT_EQ(templates->model()->item(2, TemplatesTab::kTemplate)->text(), "unaligned");
  EXPECT_TRUE(templates->summary().contains("lowest modelled cycles"));
  EXPECT_EQ(templates->model()->item(0, TemplatesTab::kCores)->text(), Num(k.cases(0).block_dim()));
  EXPECT_EQ(templates->model()->item(1, TemplatesTab::kTile)->text(), Num(k.cases(1).tile()));

  // Cost: bars per case, UB against the 910B's capacity.
  auto* cost = w()->inspector()->cost();
  ASSERT_EQ(cost->cycles().size(), 3);
  EXPECT_EQ(cost->chosen(), chosen);
  EXPECT_EQ(cost->cycles()[chosen], k.tiling().modeled_cycles());
  EXPECT_LT(cost->cycles()[0], cost->cycles()[1]);  // tiling z0 beats z1 at s1=1031
  EXPECT_EQ(cost->ubBytes()[0], k.cases(0).ub_bytes());
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

TEST_F(WindowTest, CostTabShowsTheModelsTerms) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  ASSERT_TRUE(w()->inspector()->setCurrentTab("cost"));
  const auto& k = *w()->runs()->run(0)->kernel(0);
  const int chosen = k.tiling().chosen_case();
  auto* cost = w()->inspector()->cost();
  EXPECT_EQ(cost->selected(), chosen);
  EXPECT_TRUE(cost->message().contains("solver AxesReorder")) << cost->message().toStdString();
  // Per case: the pipes of the busiest core, the op head cost and the bottleneck pipe.
  ASSERT_EQ(cost->pipeCycles().size(), k.cases_size());
  ASSERT_EQ(cost->headCycles().size(), k.cases_size());
  ASSERT_EQ(cost->bottlenecks().size(), k.cases_size());
  for (int c = 0; c < k.cases_size(); ++c) {
    const auto& cr = k.cases(c);
    ASSERT_TRUE(cr.feasible());
    const QList<double> pipes = {cr.mte2_cycles(), cr.mte3_cycles(), cr.vec_cycles(),
                                 cr.scalar_cycles()};
    EXPECT_EQ(cost->pipeCycles()[c], pipes) << c;
    EXPECT_EQ(cost->headCycles()[c], cr.head_cycles()) << c;
    const int b = cost->bottlenecks()[c];
    ASSERT_GE(b, 0);
    for (double p : pipes)
      EXPECT_LE(p, pipes[b]) << c;
  }
  // The selected (here: chosen) case in numbers.
  const auto& cr = k.cases(chosen);
  EXPECT_EQ(cost->details()->rowCount(), CostTab::kDetailRows);
  EXPECT_EQ(cost->detail(CostTab::kSolverRow), "AxesReorder");
  EXPECT_TRUE(cost->detail(CostTab::kPerfTableRow).startsWith("V1"))
      << cost->detail(CostTab::kPerfTableRow).toStdString();
  EXPECT_EQ(cost->detail(CostTab::kCaseRow), ShortCaseName(k, chosen) + " (chosen)");
  ASSERT_FALSE(cr.binding().empty());
  EXPECT_TRUE(cost->detail(CostTab::kBindingRow).startsWith(QString::fromStdString(cr.binding())))
      << cost->detail(CostTab::kBindingRow).toStdString();
  EXPECT_TRUE(
      cost->detail(CostTab::kHeadRow).startsWith(QLocale::c().toString(cr.head_cycles(), 'f', 1)))
      << cost->detail(CostTab::kHeadRow).toStdString();
  EXPECT_TRUE(cost->detail(CostTab::kTotalRow)
                  .startsWith(QLocale::c().toString(cr.modeled_cycles(), 'f', 1)));
  EXPECT_EQ(cost->detail(CostTab::kMte2BytesRow), Num(cr.model_mte2_bytes()));
  EXPECT_EQ(cost->detail(CostTab::kMte3BytesRow), Num(cr.model_mte3_bytes()));
  EXPECT_EQ(cost->detail(CostTab::kVecRepeatsRow), Num(cr.model_vec_repeats()));
  ASSERT_GT(k.tiling().compulsory_mte2_bytes(), 0);
  EXPECT_TRUE(cost->detail(CostTab::kTrafficRow)
                  .startsWith(QLocale::c().toString(cr.traffic_ratio(), 'f', 2) + "×"))
      << cost->detail(CostTab::kTrafficRow).toStdString();
  const int b = cost->bottlenecks()[chosen];
  for (int p = 0; p < CostTab::kPipes; ++p) {
    const QString text = cost->detail(static_cast<CostTab::DetailRow>(CostTab::kMte2Row + p));
    EXPECT_TRUE(text.startsWith(QLocale::c().toString(cost->pipeCycles()[chosen][p], 'f', 1)))
        << text.toStdString();
    EXPECT_EQ(text.contains("bottleneck"), p == b) << CostTab::PipeName(p).toStdString();
  }
  // Another case selected: the numbers follow it.
  const int other = chosen == 1 ? 0 : 1;
  w()->selection()->selectCase(other);
  EXPECT_EQ(cost->selected(), other);
  EXPECT_EQ(cost->detail(CostTab::kCaseRow), ShortCaseName(k, other) + " (not chosen)");
  EXPECT_EQ(cost->detail(CostTab::kMte2BytesRow), Num(k.cases(other).model_mte2_bytes()));
  EXPECT_TRUE(cost->detail(CostTab::kBindingRow)
                  .startsWith(QString::fromStdString(k.cases(other).binding())));

  // A case that does not fit has no numbers; unbound sizes have none at all.
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(3, 200003)));
  w()->selection()->selectCase(0);
  EXPECT_EQ(cost->bottlenecks().value(0), -1);
  EXPECT_EQ(cost->detail(CostTab::kCaseRow), "B0Y0 (does not fit)");
  EXPECT_EQ(cost->detail(CostTab::kMte2Row), "—");
  EXPECT_EQ(cost->detail(CostTab::kMte2BytesRow), "—");
  ASSERT_TRUE(OpenAndWait(w(), SamplePath()));
  EXPECT_EQ(cost->details()->rowCount(), 0);
  EXPECT_TRUE(cost->pipeCycles().isEmpty());
}

TEST_F(WindowTest, CostTabShowsTheSelectedCasesFormulas) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  ASSERT_TRUE(w()->inspector()->setCurrentTab("cost"));
  const auto& k = *w()->runs()->run(0)->kernel(0);
  auto* cost = w()->inspector()->cost();
  // The formulas of the selected case: one a line, MTE2, MTE3, VEC, SCALAR, then the total,
  // over the case's tiling variable.
  const int chosen = k.tiling().chosen_case();
  const int other = chosen == 1 ? 0 : 1;
  const auto expect_case = [&](const report::KernelReport& kr, int c) {
    const auto& cr = kr.cases(c);
    ASSERT_EQ(cr.pipe_formulas_size(), 5) << c;
    const QString text = cost->formulasText();
    const QStringList lines = text.split('\n');
    ASSERT_EQ(lines.size(), 5) << text.toStdString();
    EXPECT_TRUE(lines[0].startsWith("MTE2 = ")) << text.toStdString();
    EXPECT_TRUE(lines[1].startsWith("MTE3 = ")) << text.toStdString();
    EXPECT_TRUE(lines[2].startsWith("VEC = ")) << text.toStdString();
    EXPECT_TRUE(lines[3].startsWith("SCALAR = ")) << text.toStdString();
    EXPECT_TRUE(lines[4].startsWith("cycles = ")) << text.toStdString();
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(lines[i], QString::fromStdString(cr.pipe_formulas(i))) << c << " " << i;
    ASSERT_FALSE(cr.tile_var().empty());
    EXPECT_TRUE(text.contains(QString::fromStdString(cr.tile_var())))
        << cr.tile_var() << " in " << text.toStdString();
    EXPECT_TRUE(cost->formulasTitle().startsWith("Cost formulas (symbolic)"));
    EXPECT_TRUE(cost->formulasTitle().endsWith(ShortCaseName(kr, c)))
        << cost->formulasTitle().toStdString();
  };
  EXPECT_EQ(cost->selected(), chosen);
  expect_case(k, chosen);
  const QString chosen_text = cost->formulasText();
  // Another case selected: its formulas, over its own tiling variable.
  ASSERT_NE(k.cases(chosen).tile_var(), k.cases(other).tile_var());
  w()->selection()->selectCase(other);
  expect_case(k, other);
  EXPECT_NE(cost->formulasText(), chosen_text);
  const QString other_text = cost->formulasText();

  // Unbound sizes: no numbers, but the same formulas (they do not depend on the bindings).
  ASSERT_TRUE(OpenAndWait(w(), SamplePath()));
  const auto& u = *w()->runs()->run(1)->kernel(0);
  ASSERT_FALSE(u.has_tiling());
  EXPECT_EQ(cost->details()->rowCount(), 0);
  EXPECT_TRUE(cost->message().contains("unbound"));
  const int first = EffectiveCase(u, w()->selection()->current().tcase);
  expect_case(u, first);
  EXPECT_EQ(cost->formulasText(), first == chosen ? chosen_text : other_text);
  const int next = first == 1 ? 0 : 1;
  w()->selection()->selectCase(next);
  expect_case(u, next);
  EXPECT_EQ(cost->formulasText(), next == chosen ? chosen_text : other_text);

  // No kernel selected: nothing.
  cost->showKernel(nullptr, -1, -1);
  EXPECT_TRUE(cost->formulasText().isEmpty());
}

TEST_F(WindowTest, AttFlagsRoundTripThroughTheForm) {
  RunRequest r = Bound(37, 1031);
  r.flags = {{"autofuse_att_algorithm", "HighPerf"},
             {"att_ub_threshold", "30"},
             {"att_corenum_threshold", "50"},
             {"att_enable_multicore_ub_tradeoff", "true"},
             {"att_accuracy_level", "0"},
             {"autofuse_enable_tiling_cache", "true"},
             {"autofuse_enable_pgo", "true"},
             {"force_schedule_result", "0"}};
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), r));
  ASSERT_TRUE(w()->runs()->run(0)->ok()) << w()->runs()->run(0)->error.toStdString();
  EXPECT_EQ(w()->runs()->run(0)->kernel(0)->tiling().solver(), "HighPerf");
  FlagsPanel* form = w()->flags();
  // Each form flag of the flag table is in its row, and only there.
  ASSERT_EQ(FlagsPanel::FormFlags().size(), 7u);
  for (const auto& key : FlagsPanel::FormFlags()) {
    ASSERT_NE(pipeline::FindFlag(key), nullptr) << key;
    EXPECT_TRUE(pipeline::FindFlag(key)->form) << key;
  }
  for (const auto& key : FlagsPanel::FormFlags())
    EXPECT_EQ(form->formFlag(key), QString::fromStdString(r.flags.at(key))) << key;
  EXPECT_EQ(form->extraFlags(), "--force_schedule_result=0");
  auto* algorithm = form->findChild<QComboBox*>("autofuse_att_algorithm");
  ASSERT_NE(algorithm, nullptr);
  EXPECT_EQ(algorithm->currentText(), "HighPerf");
  EXPECT_FALSE(algorithm->toolTip().isEmpty());
  auto* ub = form->findChild<QLineEdit*>("att_ub_threshold");
  ASSERT_NE(ub, nullptr);
  EXPECT_EQ(ub->text(), "30");
  // Form -> request gives the same flags back.
  RunRequest back;
  QString error;
  ASSERT_TRUE(form->request(&back, &error)) << error.toStdString();
  EXPECT_EQ(back.flags, r.flags);

  // Unset rows are not flags: the pipeline then uses the profile's default.
  form->setFormFlag("att_ub_threshold", QString());
  algorithm->setCurrentIndex(0);
  EXPECT_TRUE(algorithm->currentText().contains("default"))
      << algorithm->currentText().toStdString();
  ASSERT_TRUE(form->request(&back, &error));
  EXPECT_EQ(back.flags.count("att_ub_threshold"), 0u);
  EXPECT_EQ(back.flags.count("autofuse_att_algorithm"), 0u);
  EXPECT_EQ(back.flags.at("att_corenum_threshold"), "50");
  // A set row wins over the same flag under Other flags; an unset one leaves it.
  form->setExtraFlags("--att_corenum_threshold=90;--att_ub_threshold=25");
  ASSERT_TRUE(form->request(&back, &error));
  EXPECT_EQ(back.flags.at("att_corenum_threshold"), "50");
  EXPECT_EQ(back.flags.at("att_ub_threshold"), "25");
  // Other flags go through the flag table: an unknown name is refused naming the closest.
  form->setExtraFlags("--att_ub_treshold=25");
  EXPECT_FALSE(form->request(&back, &error));
  EXPECT_TRUE(error.contains("att_ub_threshold")) << error.toStdString();
  form->setExtraFlags(QString());
  // Thresholds are AutoFuse's percentages: out of range or not a number is the form's error.
  form->setFormFlag("att_ub_threshold", "150");
  EXPECT_FALSE(form->request(&back, &error));
  EXPECT_TRUE(error.contains("att_ub_threshold")) << error.toStdString();
  form->setFormFlag("att_ub_threshold", "30");
  // A value the row does not offer is kept as it is (the pipeline judges it).
  EXPECT_TRUE(form->setFormFlag("autofuse_att_algorithm", "heuristic"));
  EXPECT_EQ(form->formFlag("autofuse_att_algorithm"), "heuristic");
  EXPECT_FALSE(form->setFormFlag("no_such_flag", "1"));
  // The default named in an unset row follows the hardware profile.
  form->setFormFlag("att_ub_threshold", QString());
  form->setSoc("ascend950");
  EXPECT_TRUE(ub->placeholderText().contains("(1)")) << ub->placeholderText().toStdString();
  form->setSoc("ascend910b");
  EXPECT_TRUE(ub->placeholderText().contains("(20)")) << ub->placeholderText().toStdString();

  // Selecting another run loads its flags; a run without ATT flags leaves every row unset.
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  for (const auto& key : FlagsPanel::FormFlags())
    EXPECT_TRUE(form->formFlag(key).isEmpty()) << key;
  EXPECT_TRUE(form->extraFlags().isEmpty());
  w()->selection()->selectKernel(0, 0);
  EXPECT_EQ(form->formFlag("autofuse_att_algorithm"), "HighPerf");
  EXPECT_EQ(form->formFlag("autofuse_enable_tiling_cache"), "true");
}

TEST_F(WindowTest, ExhaustiveSolverRerun) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  EXPECT_EQ(w()->runs()->run(0)->kernel(0)->tiling().solver(), "AxesReorder");
  auto* algorithm = w()->flags()->findChild<QComboBox*>("autofuse_att_algorithm");
  ASSERT_NE(algorithm, nullptr);
  const int i = algorithm->findText("Exhaustive");
  ASSERT_GE(i, 0);
  algorithm->setCurrentIndex(i);
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  const RunPtr run = w()->runs()->run(1);
  ASSERT_TRUE(run->ok()) << run->error.toStdString();
  EXPECT_EQ(run->request.flags.at("autofuse_att_algorithm"), "Exhaustive");
  EXPECT_EQ(run->report->flags().at("autofuse_att_algorithm"), "Exhaustive");
  EXPECT_EQ(run->kernel(0)->tiling().solver(), "Exhaustive");
  EXPECT_EQ(w()->selection()->current().run, 1);
  EXPECT_EQ(w()->inspector()->cost()->detail(CostTab::kSolverRow), "Exhaustive");
  EXPECT_EQ(w()->flags()->formFlag("autofuse_att_algorithm"), "Exhaustive");
  EXPECT_TRUE(w()->flags()->extraFlags().isEmpty());
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
  const auto& before = *w()->runs()->run(0)->kernel(0);
  const auto& after = *w()->runs()->run(1)->kernel(0);
  const int before_chosen = before.tiling().chosen_case();
  ASSERT_NE(before_chosen, 1);  // forcing case 1 changes something
  EXPECT_TRUE(templates->summary().contains(
      QStringLiteral("Against #1 add_bcast_relu.AscGraphDef.txt: case %1 → B0Y1, %2 → %3 cycles")
          .arg(ShortCaseName(before, before_chosen))
          .arg(before.tiling().modeled_cycles(), 0, 'f', 1)
          .arg(after.tiling().modeled_cycles(), 0, 'f', 1)))
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
  EXPECT_EQ(Cell(FindAxis(axes, "z1t"), AxesTab::kValue), QString::number(after.cases(1).tile()));
  EXPECT_TRUE(Children(FindAxis(axes, "z0")).contains("↳ z0z1T"));
  // Both runs stay open; the old one still shows its own choice.
  EXPECT_EQ(w()->navigator()->model()->rowCount(), 2);
  w()->selection()->selectKernel(0, 0);
  EXPECT_EQ(templates->chosenRow(), before_chosen);
  EXPECT_EQ(w()->flags()->forcedCase(), -1);
}

TEST_F(WindowTest, NewShapesRerunPicksTheOtherCase) {
  ASSERT_TRUE(OpenAndWait(w(), SamplePath(), Bound(37, 1031)));
  w()->flags()->setBinding("s0", "3");
  w()->flags()->setBinding("s1", "200003");
  ASSERT_TRUE(w()->rerun());
  ASSERT_TRUE(WaitFor([&] { return w()->runs()->count() == 2 && w()->idle(); }));
  // A row of 200003 does not fit: B0Y0 is infeasible and a B0Y1 case is chosen.
  const auto& k = *w()->runs()->run(1)->kernel(0);
  const int chosen = k.tiling().chosen_case();
  EXPECT_TRUE(ShortCaseName(k, chosen).startsWith("B0Y1"))
      << ShortCaseName(k, chosen).toStdString();
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), chosen);
  EXPECT_EQ(w()->inspector()->templates()->model()->item(0, TemplatesTab::kFeasible)->text(), "no");
  EXPECT_EQ(w()->inspector()->cost()->ubBytes()[1], k.cases(1).ub_bytes());
  EXPECT_LE(w()->inspector()->cost()->ubBytes()[1], 196608);
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

// A multi-group kernel (softmax over rows, then column sums: two reduction axes): the navigator
// lists its groups with their cases, the inspector's group picker switches the per-case tabs and
// the impl graph between the groups, and a case picked in a group stays in that group.
TEST_F(WindowTest, MultiGroupKernelShowsEachGroup) {
  RunRequest r;
  r.bindings = {{"s0", 37}, {"s1", 1031}};
  ASSERT_TRUE(OpenAndWait(
      w(), SourcePath(QStringLiteral("tests/e2e/graphs/groups_softmax_colsum.graph.txt")), r));
  const RunPtr run = w()->runs()->run(w()->selection()->current().run);
  ASSERT_TRUE(run && run->ok());
  ASSERT_EQ(run->kernelCount(), 1);
  const report::KernelReport& k = *run->kernel(0);
  ASSERT_EQ(k.groups_size(), 2);
  ASSERT_EQ(k.cases_size(), 0);  // the kernel's own entry: the partition, no cases
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().kernel, 0);

  // The inspector shows the first group's cases, not "refused", and offers both groups.
  auto* picker = w()->inspector()->groups();
  EXPECT_FALSE(picker->isHidden());
  ASSERT_EQ(picker->count(), 2);
  EXPECT_TRUE(picker->itemText(1).contains("after SyncAll")) << picker->itemText(1).toStdString();
  EXPECT_TRUE(w()->inspector()->title().contains("2 groups"));
  auto* templates = w()->inspector()->templates();
  EXPECT_FALSE(templates->summary().contains("refused")) << templates->summary().toStdString();
  EXPECT_EQ(templates->model()->rowCount(), k.groups(0).cases_size());
  EXPECT_EQ(templates->chosenRow(), k.groups(0).tiling().chosen_case());

  // The navigator: kernel → group 0, group 1 → their cases.
  auto* nav = w()->navigator()->tree();
  const QModelIndex kernel = nav->currentIndex();
  ASSERT_EQ(nav->model()->rowCount(kernel), 2);
  EXPECT_EQ(nav->model()->index(1, 0, kernel).data().toString(), "group 1");
  EXPECT_EQ(nav->model()->rowCount(nav->model()->index(1, 0, kernel)), k.groups(1).cases_size());

  // Picking group 1 switches the tabs and the impl graph to it.
  w()->graph()->setGraphKind(GraphKind::kImpl);
  emit picker->activated(1);
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().group, 1);
  EXPECT_EQ(templates->model()->rowCount(), k.groups(1).cases_size());
  EXPECT_EQ(templates->chosenRow(), k.groups(1).tiling().chosen_case());
  EXPECT_TRUE(w()->graph()->currentKey().contains("/g1/"))
      << w()->graph()->currentKey().toStdString();
  EXPECT_EQ(nav->currentIndex().data().toString(), "group 1");

  // A case of group 1 picked in the navigator keeps the group.
  const QModelIndex g1 = nav->model()->index(1, 0, kernel);
  nav->setCurrentIndex(nav->model()->index(0, 0, g1));
  ASSERT_TRUE(w()->waitUntilIdle(60000));
  EXPECT_EQ(w()->selection()->current().group, 1);
  EXPECT_EQ(w()->selection()->current().tcase, 0);
  EXPECT_EQ(picker->currentIndex(), 1);
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
  const auto& k = *w()->runs()->run(1)->kernel(0);
  ASSERT_TRUE(k.has_tiling());
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), k.tiling().chosen_case());
  EXPECT_GE(k.tiling().chosen_case(), 0);
  EXPECT_EQ(w()->inspector()->cost()->categories().size(), 3);
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
  // File > Export: the exporters on the run's report.
  for (const char* format : {"dot", "onnx", "onnxtxt", "trace"}) {
    const QString out = TempPath(QStringLiteral("export.") + QString::fromLatin1(format));
    ASSERT_TRUE(w()->exportReport(QString::fromLatin1(format), out, &error))
        << format << ": " << error.toStdString();
    QFile e(out);
    ASSERT_TRUE(e.open(QIODevice::ReadOnly)) << format;
    const QByteArray bytes = e.readAll();
    EXPECT_FALSE(bytes.isEmpty()) << format;
    const QByteArray f8(format);
    const QByteArray want = f8 == "trace"     ? QByteArray("traceEvents")
                            : f8 == "onnxtxt" ? QByteArray("functions {")
                            : f8 == "dot"     ? QByteArray("load_x")
                                              : QByteArray();
    EXPECT_TRUE(bytes.contains(want)) << format;
  }
  EXPECT_FALSE(w()->exportReport(QStringLiteral("bogus"), TempPath("x"), &error));

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
  const int chosen = w()->runs()->run(0)->kernel(0)->tiling().chosen_case();
  EXPECT_EQ(reopened->kernel(0)->tiling().chosen_case(), chosen);
  EXPECT_EQ(w()->inspector()->templates()->chosenRow(), chosen);
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
