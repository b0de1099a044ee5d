// The Timeline tab: the run's kernels on one modelled time axis, launched one by one ("separate
// launches") and with the super kernels ("super kernels"), from the report's SuperKernelReport
// (`afc compile --superkernel`, or "Super kernels" under Flags & shapes). Each kernel is a box as
// wide as its modelled time, the same colour in both lanes; launch gaps are hatched, SyncAll
// barriers red, each super kernel outlined with its saving above it. Below the lanes, the saving
// per super kernel (its terms) and in total, the model's constants with their source, and the
// planner's decisions with their reason codes. Clicking a kernel box selects that kernel for
// every panel; the selected kernel's boxes are highlighted. Without super-kernel data the tab
// says how to get it, or why the run has none (the report's reason code).
#pragma once

#include <QList>
#include <QRectF>
#include <QString>
#include <vector>

#include "inspector_tab.h"

class QGraphicsRectItem;
class QGraphicsScene;
class QGraphicsView;
class QLabel;

namespace af::viewer {

class SelectionModel;

class TimelineTab : public InspectorTab {
  Q_OBJECT

 public:
  enum Lane { kSeparate = 0, kSuper, kLanes };

  explicit TimelineTab(SelectionModel* selection, QWidget* parent = nullptr);

  void showKernel(const RunPtr& run, int kernel, int tcase) override;

  // What the tab shows (for tests and the screenshot docs).
  QString message() const;
  QString summary() const;          // savings, model constants, decisions (rich text)
  int boxCount(int lane) const;     // kernel boxes in the lane
  int launchCount(int lane) const;  // launch gaps in the lane
  int barrierCount() const;         // SyncAll marks in the super lane
  int segmentCount() const;         // super-kernel outlines
  // Members (SuperKernelReport.members indices) whose boxes are highlighted.
  QList<int> highlighted() const;
  // The scene rectangle of member m's box in `lane`; empty when there is none.
  QRectF boxRect(int lane, int member) const;
  double pixelsPerUs() const { return px_per_us_; }
  QGraphicsView* view() const { return view_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct Box {
    int lane = 0;
    int member = 0;
    int kernel = -1;  // CompileReport.kernels index
    QGraphicsRectItem* item = nullptr;
  };

  void rebuild();
  void drawLanes(double x0);
  void drawAxis(double x0, double y, double total_us);
  void addKernelBox(int lane, int member, double x, double y, double w);
  void highlight();
  void fillSummary();
  void onBoxClicked(int kernel);

  SelectionModel* selection_;
  QLabel* message_;
  QGraphicsScene* scene_;
  QGraphicsView* view_;
  QLabel* summary_;
  RunPtr run_;
  int kernel_ = -1;
  double px_per_us_ = 0;
  int drawn_width_ = 0;
  std::vector<Box> boxes_;
  int launches_[kLanes] = {0, 0};
  int barriers_ = 0;
  int segments_ = 0;
};

}  // namespace af::viewer
