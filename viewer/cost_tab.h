// The Cost tab: per tiling case, bars of what the ATT cost model and solver say under the run's
// bindings (Qt Charts): modelled cycles, the per-pipe cycles of the busiest core (MTE2, MTE3,
// VEC, SCALAR, with pipe head costs) next to the op head cost, the bottleneck pipe of each case
// marked, UB occupancy against the UB capacity, cores used against the profile's cores. Below
// the bars, the selected case in numbers: solver and cost table, the constraint that bound the
// solution, pipes, head cost, and the model's MTE2/MTE3 bytes and vector repeats over all cores.
// Under the numbers, the selected case's cost formulas: each pipe's cost and the total as
// symbolic formulas over its tiling variables, the size symbols and block_dim (selectable text).
// The chosen case is drawn in its own colour; clicking a bar selects that case for every panel.
// Without bound sizes there is nothing to chart and the tab says so, but the formulas (which do
// not depend on the bindings) are still shown. A kernel compiled with --autofuse_enable_pgo also
// gets the PGO search (TilingReport.pgo): its kept points, the solver's point and the best one
// (the one that runs) as a scatter of modelled cycles over block_dim, with the search's gain;
// hidden for a kernel without PGO data. The cube group of a cube + vector kernel (its
// KernelReport.cube) has no vector cases: the tab charts the cube's pipes instead (MTE2 GM -> L1,
// MTE1 L1 -> L0A/L0B, CUBE, FIXP L0C -> GM) for the chosen CV template, and lists the product,
// its base tile and the modelled work of each pipe.
#pragma once

#include <QList>
#include <QPointF>
#include <QStringList>

#include "inspector_tab.h"

class QChartView;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace af::viewer {

class SelectionModel;

class CostTab : public InspectorTab {
  Q_OBJECT

 public:
  // The pipes in the order of the pipe chart and the details table.
  enum Pipe { kMte2 = 0, kMte3, kVec, kScalar, kPipes };
  static QString PipeName(int pipe);  // "MTE2", "MTE3", "VEC", "SCALAR"
  // The cube group's pipes (CubeReport), in chart order.
  enum CubePipe { kCubeMte2 = 0, kCubeMte1, kCube, kCubeFix, kCubePipes };
  static QString CubePipeName(int pipe);  // "MTE2", "MTE1", "CUBE", "FIXP"
  // Rows of the details table (column 0: what, column 1: value).
  enum DetailRow {
    kSolverRow = 0,
    kPerfTableRow,
    kCaseRow,
    kBindingRow,
    kMte2Row,
    kMte3Row,
    kVecRow,
    kScalarRow,
    kHeadRow,
    kTotalRow,
    kMte2BytesRow,
    kMte3BytesRow,
    kVecRepeatsRow,
    kTrafficRow,
    kDetailRows
  };

  explicit CostTab(SelectionModel* selection, QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;

  // What the charts show, per case (for tests and tooltips).
  const QStringList& categories() const { return categories_; }
  const QList<double>& cycles() const { return cycles_; }
  const QList<double>& ubBytes() const { return ub_bytes_; }
  const QList<double>& cores() const { return cores_; }
  // Per case: the busiest core's cycles per pipe (kPipes values) and the op head cost.
  const QList<QList<double>>& pipeCycles() const { return pipes_; }
  const QList<double>& headCycles() const { return heads_; }
  // Per case: the bottleneck pipe (a Pipe; -1 when the case does not fit).
  const QList<int>& bottlenecks() const { return bottlenecks_; }
  // Whether the shown group is a cube group, and its busiest cube core's cycles per CubePipe.
  bool cubeGroup() const { return cube_; }
  const QList<double>& cubePipes() const { return cube_pipes_; }
  double ubCapacity() const { return ub_capacity_; }
  double coreCount() const { return core_count_; }
  int chosen() const { return chosen_; }
  int selected() const { return selected_; }
  QString message() const;
  // The selected case in numbers (empty when there is nothing to chart).
  QStandardItemModel* details() const { return details_; }
  QString detail(DetailRow row) const;
  // The selected case's cost formulas (CaseReport.pipe_formulas: MTE2, MTE3, VEC, SCALAR and
  // cycles), one a line; empty when there are none (no case, or a report that lacks them).
  QString formulasText() const { return formulas_.join(QLatin1Char('\n')); }
  QString formulasTitle() const;

  // The PGO search's points (x = block_dim, y = modelled cycles) by role: the points the search
  // kept besides the best (PgoReport.top[1..]), the best (top[0], what runs) and the solver's own
  // choice. All empty when the kernel has no PGO data.
  enum PgoRole { kPgoKept = 0, kPgoBest, kPgoSolver, kPgoRoles };
  const QList<QPointF>& pgoPoints(PgoRole role) const { return pgo_points_[role]; }
  int pgoPointCount() const;
  // The tooltip of point i of a role: case, tile, core budget, block_dim, cycles.
  QString pgoTip(PgoRole role, int i) const;
  // "core_select: 12 points priced; … gain ×1.18" (empty without PGO data).
  QString pgoText() const;

 private:
  void rebuild();
  void rebuildPipes();
  void fillDetails(const RunPtr& run, int kernel);
  void showCube(const report::KernelReport& k);
  void fillCubeDetails(const report::KernelReport& k);
  void fillFormulas(const RunPtr& run, int kernel, int tcase);
  void fillPgo(const RunPtr& run, int kernel);

  SelectionModel* selection_;
  QLabel* message_;
  QChartView* cycles_view_;
  QChartView* pipes_view_;
  QLabel* pgo_label_;
  QChartView* pgo_view_;
  QList<QPointF> pgo_points_[kPgoRoles];
  QStringList pgo_tips_[kPgoRoles];
  QChartView* ub_view_;
  QChartView* cores_view_;
  QStandardItemModel* details_;
  QTableView* details_view_;
  QWidget* formulas_box_;
  QLabel* formulas_title_;
  QLabel* formulas_view_;
  QStringList formulas_;
  QStringList categories_;
  QList<double> cycles_;
  QList<double> ub_bytes_;
  QList<double> cores_;
  QList<QList<double>> pipes_;
  QList<double> heads_;
  QList<int> bottlenecks_;
  double ub_capacity_ = 0;
  double core_count_ = 0;
  int chosen_ = -1;
  int selected_ = -1;
  bool cube_ = false;
  QList<double> cube_pipes_;
};

}  // namespace af::viewer
