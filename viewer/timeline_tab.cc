#include "timeline_tab.h"

#include <QBrush>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QLabel>
#include <QLocale>
#include <QPen>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "report.pb.h"
#include "selection_model.h"

namespace af::viewer {
namespace {

const QColor kHighlight(0xe6, 0x55, 0x0d);
const QColor kBarrier(0xc0, 0x00, 0x00);
const QColor kOutline(0x31, 0x82, 0xbd);
const QColor kLaunch(0x90, 0x90, 0x90);
const QColor kKernelColors[] = {QColor(0x9e, 0xca, 0xe1), QColor(0xa1, 0xd9, 0x9b),
                                QColor(0xfd, 0xd0, 0xa2), QColor(0xcb, 0xc9, 0xe2),
                                QColor(0xfc, 0xbb, 0xa1), QColor(0xd9, 0xd9, 0xd9)};

constexpr double kHighlightWidth = 3;
constexpr double kLeft = 6;  // room for the outlines
constexpr double kLaneHeight = 34;
// Each lane's name above it; the super kernels' labels under theirs, then the time axis.
constexpr double kSeparateY = 22;
constexpr double kSuperY = kSeparateY + kLaneHeight + 30;
constexpr double kSegmentLabelY = kSuperY + kLaneHeight + 6;
constexpr double kAxisY = kSegmentLabelY + 22;

QString Us(double v) {
  return QLocale::c().toString(v, 'f', 2) + QStringLiteral(" µs");
}

// A kernel box that reports clicks.
class KernelBox : public QGraphicsRectItem {
 public:
  KernelBox(const QRectF& r, std::function<void()> clicked)
      : QGraphicsRectItem(r), clicked_(std::move(clicked)) {
    setAcceptedMouseButtons(Qt::LeftButton);
    setCursor(Qt::PointingHandCursor);
  }

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override {
    event->accept();
    clicked_();
  }

 private:
  std::function<void()> clicked_;
};

// A step of 1, 2 or 5 times a power of ten giving about `ticks` ticks over `total`.
double TickStep(double total, int ticks) {
  const double raw = total / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

}  // namespace

TimelineTab::TimelineTab(SelectionModel* selection, QWidget* parent)
    : InspectorTab(parent), selection_(selection) {
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setTextFormat(Qt::RichText);
  scene_ = new QGraphicsScene(this);
  view_ = new QGraphicsView(scene_, this);
  view_->setObjectName(QStringLiteral("timelineView"));
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  view_->setFixedHeight(static_cast<int>(kAxisY) + 40);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setTextFormat(Qt::RichText);
  summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(message_);
  layout->addWidget(view_);
  layout->addWidget(summary_, 1);
  showKernel(nullptr, -1, -1);
}

QString TimelineTab::message() const {
  return message_->text();
}

QString TimelineTab::summary() const {
  return summary_->text();
}

int TimelineTab::boxCount(int lane) const {
  return static_cast<int>(
      std::ranges::count_if(boxes_, [lane](const Box& b) { return b.lane == lane; }));
}

int TimelineTab::launchCount(int lane) const {
  return lane >= 0 && lane < kLanes ? launches_[lane] : 0;
}

int TimelineTab::barrierCount() const {
  return barriers_;
}

int TimelineTab::segmentCount() const {
  return segments_;
}

QList<int> TimelineTab::highlighted() const {
  QList<int> out;
  for (const Box& b : boxes_)
    if (b.lane == kSeparate && b.item->pen().widthF() >= kHighlightWidth) out << b.member;
  return out;
}

QRectF TimelineTab::boxRect(int lane, int member) const {
  for (const Box& b : boxes_)
    if (b.lane == lane && b.member == member) return b.item->sceneBoundingRect();
  return {};
}

void TimelineTab::showKernel(const RunPtr& run, int kernel, int tcase) {
  (void)tcase;
  kernel_ = kernel;
  if (run.get() != run_.get() || (run && boxes_.empty())) {
    run_ = run;
    rebuild();
  }
  highlight();
}

void TimelineTab::resizeEvent(QResizeEvent* event) {
  InspectorTab::resizeEvent(event);
  // Redraw to the new width (the boxes keep their proportions: width = modelled time).
  if (run_ && std::abs(view_->viewport()->width() - drawn_width_) > 24) {
    rebuild();
    highlight();
  }
}

void TimelineTab::rebuild() {
  scene_->clear();
  boxes_.clear();
  launches_[kSeparate] = launches_[kSuper] = 0;
  barriers_ = 0;
  segments_ = 0;
  px_per_us_ = 0;
  summary_->clear();
  const report::CompileReport* rep = run_ ? run_->report.get() : nullptr;
  if (rep == nullptr) {
    message_->setText(tr("Open a model graph to see its kernels on the modelled timeline."));
    view_->hide();
    return;
  }
  if (!rep->has_superkernel()) {
    message_->setText(
        tr("This run has no super-kernel estimate. Check <b>Super kernels</b> under Flags &amp; "
           "shapes and re-run (a model graph with every size bound; <tt>afc compile "
           "--superkernel</tt>, <tt>afviewer --superkernel</tt>) to compare its kernels launched "
           "apart with super kernels here."));
    view_->hide();
    return;
  }
  const report::SuperKernelReport& sk = rep->superkernel();
  if (sk.members_size() == 0) {
    message_->setText(tr("No super-kernel timeline [%1]: %2")
                          .arg(QString::fromStdString(sk.code()),
                               QString::fromStdString(sk.message()).toHtmlEscaped()));
    view_->hide();
    return;
  }
  message_->setText(
      tr("Modelled time of the run's kernels: each launched alone, and with the super kernels "
         "(<span style='color:%1'>▭</span> outlined). Hatched: a launch; "
         "<span style='color:%2'>▮</span> SyncAll. Click a kernel to select it.")
          .arg(kOutline.name(), kBarrier.name()));
  view_->show();
  drawn_width_ = view_->viewport()->width();
  const double width = std::max(160.0, drawn_width_ - 2 * kLeft - 8);
  const double total = std::max(sk.separate_us(), 1e-9);
  px_per_us_ = width / total;
  drawLanes(kLeft);
  drawAxis(kLeft, kAxisY, total);
  scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-4, -4, 4, 4));
  fillSummary();
}

void TimelineTab::addKernelBox(int lane, int member, double x, double y, double w) {
  const auto& m = run_->report->superkernel().members(member);
  const int kernel = m.kernel();
  auto* box = new KernelBox(QRectF(x, y, w, kLaneHeight), [this, kernel] { onBoxClicked(kernel); });
  box->setBrush(kKernelColors[member % std::size(kKernelColors)]);
  box->setToolTip(tr("%1\nmodelled %2 (without the launch)%3%4")
                      .arg(QString::fromStdString(m.name()), Us(m.kernel_us()),
                           m.segment() >= 0 ? tr("\nsuper kernel %1").arg(m.segment()) : QString(),
                           m.sync_before() ? tr(", after a SyncAll") : QString()));
  scene_->addItem(box);
  const auto* k = run_->kernel(kernel);
  const QString name = k != nullptr ? GraphName(*k) : QString::fromStdString(m.name());
  auto* text = new QGraphicsSimpleTextItem(box);
  const QFontMetricsF fm(text->font());
  const QString shown = fm.elidedText(name, Qt::ElideRight, w - 4);
  if (w > 14 && shown != QStringLiteral("…")) {
    text->setText(shown);
    text->setPos(x + 2, y + (kLaneHeight - fm.height()) / 2);
  }
  boxes_.push_back({lane, member, kernel, box});
}

void TimelineTab::drawLanes(double x0) {
  const report::SuperKernelReport& sk = run_->report->superkernel();
  const double launch = sk.model().launch_us() * px_per_us_;
  const double sync = sk.model().sync_us() * px_per_us_;
  auto lane_name = [this](const QString& text, double y) {
    auto* t = scene_->addSimpleText(text);
    t->setPos(kLeft, y - t->boundingRect().height() - 6);
  };
  lane_name(tr("separate launches"), kSeparateY);
  lane_name(tr("super kernels"), kSuperY);
  auto add_launch = [&](int lane, double x, double y, const QString& tip) {
    auto* r = scene_->addRect(QRectF(x, y, launch, kLaneHeight), QPen(kLaunch, 0.8),
                              QBrush(kLaunch, Qt::BDiagPattern));
    r->setToolTip(tip);
    ++launches_[lane];
  };
  // Apart: launch, kernel, launch, kernel...
  double x = x0;
  for (int m = 0; m < sk.members_size(); ++m) {
    add_launch(kSeparate, x, kSeparateY, tr("launch: %1").arg(Us(sk.model().launch_us())));
    x += launch;
    const double w = sk.members(m).kernel_us() * px_per_us_;
    addKernelBox(kSeparate, m, x, kSeparateY, w);
    x += w;
  }
  // Super: one launch per super kernel, a SyncAll before a dependent member.
  x = x0;
  int open = -1;
  double seg_start = 0;
  auto close_segment = [&](int s, double end) {
    if (s < 0 || s >= sk.segments_size()) return;
    const auto& g = sk.segments(s);
    auto* outline =
        scene_->addRect(QRectF(seg_start - 2, kSuperY - 4, end - seg_start + 4, kLaneHeight + 8),
                        QPen(kOutline, 2, Qt::DashLine));
    outline->setZValue(2);
    outline->setToolTip(
        tr("super kernel %1: %2 kernels, %3 SyncAll").arg(s).arg(g.members_size()).arg(g.syncs()));
    auto* label = scene_->addSimpleText(
        tr("super kernel %1 · saves %2").arg(s).arg(Us(g.separate_us() - g.super_us())));
    label->setBrush(kOutline);
    label->setPos(seg_start, kSegmentLabelY);
    ++segments_;
  };
  for (int m = 0; m < sk.members_size(); ++m) {
    const auto& k = sk.members(m);
    if (k.segment() < 0 || k.segment() != open) {
      close_segment(open, x);
      seg_start = x;
      add_launch(
          kSuper, x, kSuperY,
          k.segment() >= 0
              ? tr("launch of super kernel %1: %2").arg(k.segment()).arg(Us(sk.model().launch_us()))
              : tr("launch: %1").arg(Us(sk.model().launch_us())));
      x += launch;
    } else if (k.sync_before()) {
      auto* bar = scene_->addRect(QRectF(x, kSuperY - 2, std::max(sync, 2.0), kLaneHeight + 4),
                                  QPen(Qt::NoPen), QBrush(kBarrier));
      bar->setZValue(3);
      bar->setToolTip(tr("SyncAll before %1: %2 (assumption)")
                          .arg(QString::fromStdString(k.name()), Us(sk.model().sync_us())));
      ++barriers_;
      x += sync;
    }
    open = k.segment();
    const double w = k.kernel_us() * px_per_us_;
    addKernelBox(kSuper, m, x, kSuperY, w);
    x += w;
  }
  close_segment(open, x);
}

void TimelineTab::drawAxis(double x0, double y, double total_us) {
  const QPen pen(QColor(0x60, 0x60, 0x60), 1);
  scene_->addLine(x0, y, x0 + total_us * px_per_us_, y, pen);
  const double step = TickStep(total_us, 8);
  for (double t = 0; t <= total_us * 1.0001; t += step) {
    const double x = x0 + t * px_per_us_;
    scene_->addLine(x, y, x, y + 4, pen);
    auto* label = scene_->addSimpleText(QLocale::c().toString(t, 'g', 4));
    label->setPos(x - label->boundingRect().width() / 2, y + 5);
  }
  auto* unit = scene_->addSimpleText(tr("µs (modelled)"));
  unit->setPos(x0 + total_us * px_per_us_ - unit->boundingRect().width(), y + 18);
}

void TimelineTab::fillSummary() {
  const report::SuperKernelReport& sk = run_->report->superkernel();
  QString html;
  const double saving = sk.separate_us() - sk.super_us();
  html += tr("<b>Total:</b> separate %1 (%2 launches), super kernels %3 (%4 launches): "
             "<b>saving %5</b> (%6%)<br>")
              .arg(Us(sk.separate_us()))
              .arg(sk.separate_launches())
              .arg(Us(sk.super_us()))
              .arg(sk.super_launches())
              .arg(Us(saving))
              .arg(QLocale::c().toString(sk.separate_us() > 0 ? 100 * saving / sk.separate_us() : 0,
                                         'f', 1));
  for (int s = 0; s < sk.segments_size(); ++s) {
    const auto& g = sk.segments(s);
    html += tr("Super kernel %1 (%2 kernels): separate %3, super %4, <b>saves %5</b> = launches "
               "removed %6 − barriers %7 (%8 SyncAll); early start %9 (%10 independent "
               "boundaries)<br>")
                .arg(s)
                .arg(g.members_size())
                .arg(Us(g.separate_us()), Us(g.super_us()), Us(g.separate_us() - g.super_us()),
                     Us(g.launches_removed_us()), Us(g.barriers_us()))
                .arg(g.syncs())
                .arg(Us(g.early_start_us()))
                .arg(g.independent());
  }
  const auto& md = sk.model();
  html += tr("<small>Model: clock %1 GHz (%2); launch %3 (%4); SyncAll %5 (%6).</small><br>")
              .arg(QLocale::c().toString(md.clock_ghz(), 'f', 2),
                   QString::fromStdString(md.clock_source()).toHtmlEscaped(), Us(md.launch_us()),
                   QString::fromStdString(md.launch_source()).toHtmlEscaped(), Us(md.sync_us()),
                   QString::fromStdString(md.sync_source()).toHtmlEscaped());
  for (const auto& d : sk.decisions())
    html += QStringLiteral("<tt>[%1]</tt> %2<br>")
                .arg(QString::fromStdString(d.code()).toHtmlEscaped(),
                     QString::fromStdString(d.message()).toHtmlEscaped());
  summary_->setText(html);
}

void TimelineTab::highlight() {
  for (const Box& b : boxes_) {
    const bool on = kernel_ >= 0 && b.kernel == kernel_;
    b.item->setPen(on ? QPen(kHighlight, kHighlightWidth) : QPen(QColor(0x40, 0x40, 0x40), 1));
    b.item->setZValue(on ? 4 : 1);
  }
}

void TimelineTab::onBoxClicked(int kernel) {
  if (!run_ || kernel < 0 || kernel >= run_->kernelCount()) return;
  // Queued: the selection change redraws panels, not from inside the box's own event.
  const int run = selection_->current().run;
  QMetaObject::invokeMethod(
      this, [this, run, kernel] { selection_->selectKernel(run, kernel); }, Qt::QueuedConnection);
}

}  // namespace af::viewer
