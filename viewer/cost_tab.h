// The Cost tab: per tiling case, bars of what the cost model and solver say under the run's
// bindings (Qt Charts): modelled cycles, UB occupancy against the UB capacity, cores used against
// the profile's cores. The chosen case is drawn in its own colour; clicking a bar selects that
// case for every panel. Without bound sizes there is nothing to chart and the tab says so.
#pragma once

#include <QList>
#include <QStringList>

#include "inspector_tab.h"

class QChartView;
class QLabel;

namespace af::viewer {

class SelectionModel;

class CostTab : public InspectorTab {
  Q_OBJECT

 public:
  explicit CostTab(SelectionModel* selection, QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;

  // What the charts show, per case (for tests and tooltips).
  const QStringList& categories() const { return categories_; }
  const QList<double>& cycles() const { return cycles_; }
  const QList<double>& ubBytes() const { return ub_bytes_; }
  const QList<double>& cores() const { return cores_; }
  double ubCapacity() const { return ub_capacity_; }
  double coreCount() const { return core_count_; }
  int chosen() const { return chosen_; }
  QString message() const;

 private:
  void rebuild();

  SelectionModel* selection_;
  QLabel* message_;
  QChartView* cycles_view_;
  QChartView* ub_view_;
  QChartView* cores_view_;
  QStringList categories_;
  QList<double> cycles_;
  QList<double> ub_bytes_;
  QList<double> cores_;
  double ub_capacity_ = 0;
  double core_count_ = 0;
  int chosen_ = -1;
  int selected_ = -1;
};

}  // namespace af::viewer
