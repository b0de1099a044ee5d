// The kernel inspector: a title line for the selected kernel, a group picker for a multi-group
// kernel, and its tabs — Axes, Templates, Cost, Source, Fusion, Stages, Timeline — each fed from
// the shared selection (kernel, group, tiling case, node).
#pragma once

#include <QStringList>
#include <QWidget>

#include "selection_model.h"

class QComboBox;
class QLabel;
class QTabWidget;

namespace af::report {
class KernelReport;
}  // namespace af::report

namespace af::viewer {

class AxesTab;
class CostTab;
class FusionTab;
class RunManager;
class SourceTab;
class StageStepper;
class TemplatesTab;
class TimelineTab;

class KernelInspector : public QWidget {
  Q_OBJECT

 public:
  KernelInspector(RunManager* runs, SelectionModel* selection, QWidget* parent = nullptr);

  AxesTab* axes() const { return axes_; }
  TemplatesTab* templates() const { return templates_; }
  CostTab* cost() const { return cost_; }
  SourceTab* source() const { return source_; }
  FusionTab* fusion() const { return fusion_; }
  StageStepper* stages() const { return stages_; }
  TimelineTab* timeline() const { return timeline_; }
  QTabWidget* tabs() const { return tabs_; }
  // The group picker (hidden unless the selected kernel has groups).
  QComboBox* groups() const { return groups_; }

  // "axes", "templates", "cost", "source", "fusion", "stages", "timeline"
  static QStringList TabNames();
  // Switches to a tab by name (case-insensitive); false for an unknown name.
  bool setCurrentTab(const QString& name);
  QString currentTab() const;
  QString title() const;

 private:
  void onSelectionChanged(const Selection& now, const Selection& before);
  void refresh();
  void fillGroups(const report::KernelReport* k, int group);

  RunManager* runs_;
  SelectionModel* selection_;
  QLabel* title_;
  QComboBox* groups_;
  QTabWidget* tabs_;
  AxesTab* axes_;
  TemplatesTab* templates_;
  CostTab* cost_;
  SourceTab* source_;
  FusionTab* fusion_;
  StageStepper* stages_;
  TimelineTab* timeline_;
};

}  // namespace af::viewer
