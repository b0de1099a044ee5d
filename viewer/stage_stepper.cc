#include "stage_stepper.h"

#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <fstream>

#include "report.pb.h"

namespace af::viewer {
namespace {

constexpr std::streamsize kMaxText = 4 << 20;  // a stage file shown up to 4 MiB

QString ReadText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string s(static_cast<std::size_t>(kMaxText), '\0');
  in.read(s.data(), kMaxText);
  s.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

StageStepper::StageStepper(QWidget* parent) : InspectorTab(parent) {
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  prev_ = new QPushButton(tr("◀ Prev"), this);
  next_ = new QPushButton(tr("Next ▶"), this);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setPageStep(1);
  text_ = new QPlainTextEdit(this);
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFont(QStringLiteral("monospace")));
  auto* bar = new QHBoxLayout;
  bar->addWidget(prev_);
  bar->addWidget(slider_, 1);
  bar->addWidget(next_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(text_, 1);
  connect(prev_, &QPushButton::clicked, this, &StageStepper::prev);
  connect(next_, &QPushButton::clicked, this, &StageStepper::next);
  connect(slider_, &QSlider::valueChanged, this, &StageStepper::setStage);
  clear(tr("No kernel selected."));
}

void StageStepper::showKernel(const RunPtr& run, int kernel, int tcase) {
  (void)tcase;
  const auto* k = run ? run->kernel(kernel) : nullptr;
  if (k == nullptr) {
    clear(tr("No kernel selected."));
    return;
  }
  QString tree = run->debug_tree;
  if (tree.isEmpty() && importers::dfx::IsDfxDumpInput(run->request.input.toStdString()))
    tree = run->request.input;
  if (tree.isEmpty()) {
    clear(
        tr("No stage dump for this run: open an AutoFuse DFX dump folder, or compile with "
           "--codegen_compile_debug=true (Flags) to step through the stages of each kernel."));
    return;
  }
  (void)setDump(tree, GraphName(*k));
}

const importers::dfx::DfxDump* StageStepper::dump(const QString& tree, QString* why) {
  if (!dump_ || tree_ != tree) {
    dump_.reset();
    tree_ = tree;
    try {
      dump_ = importers::dfx::DiscoverDfxDump(tree.toStdString());
    } catch (const std::exception& e) {
      *why = QString::fromStdString(e.what());
      return nullptr;
    }
  }
  return &*dump_;
}

bool StageStepper::setDump(const QString& tree, const QString& graph) {
  QString why;
  const auto* d = dump(tree, &why);
  if (d == nullptr) {
    clear(tr("Cannot read the stage dump %1: %2").arg(tree, why));
    return false;
  }
  for (const auto& g : d->graphs) {
    if (QString::fromStdString(g.name) != graph) continue;
    // The kernel's stages are every dump of its fused-graph folder: AutoFuse names its impl
    // graphs and subgraphs apart (<graph>_0_general_…, <graph>_sub_0), in sequence order.
    stages_.clear();
    graphs_.clear();
    for (const auto& other : d->graphs) {
      if (other.folder != g.folder) continue;
      for (const auto& st : other.stages) {
        const auto at =
            std::ranges::upper_bound(stages_, st.seq, {}, &importers::dfx::DfxStage::seq);
        graphs_.insert(graphs_.begin() + (at - stages_.begin()),
                       QString::fromStdString(other.name));
        stages_.insert(at, st);
      }
    }
    graph_ = graph;
    current_ = -1;
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, stageCount() - 1));
    slider_->setEnabled(stageCount() > 1);
    setStage(0);
    return true;
  }
  clear(tr("The stage dump %1 has no graph %2.").arg(tree, graph));
  return false;
}

void StageStepper::clear(const QString& why) {
  stages_.clear();
  graphs_.clear();
  current_ = -1;
  summary_->setText(why);
  text_->clear();
  const QSignalBlocker block(slider_);
  slider_->setRange(0, 0);
  slider_->setEnabled(false);
  prev_->setEnabled(false);
  next_->setEnabled(false);
}

QString StageStepper::stageName() const {
  return current_ >= 0 ? QString::fromStdString(stages_[static_cast<std::size_t>(current_)].stage)
                       : QString();
}

QString StageStepper::stageText() const {
  return text_->toPlainText();
}

QString StageStepper::summary() const {
  return summary_->text();
}

void StageStepper::setStage(int index) {
  if (stages_.empty()) return;
  index = std::clamp(index, 0, stageCount() - 1);
  if (index == current_) return;
  current_ = index;
  const auto& s = stages_[static_cast<std::size_t>(index)];
  QString what;
  try {
    const auto g = importers::dfx::LoadAscGraphTextFile(s.ascgraph);
    what = tr("%1 nodes, %2 axes").arg(g.graph.nodes.size()).arg(g.graph.axes.size());
  } catch (const std::exception& e) {
    what = tr("not readable: %1").arg(QString::fromStdString(e.what()));
  }
  const QString& owner = graphs_[static_cast<std::size_t>(index)];
  summary_->setText(tr("Stage %1 of %2: %3%4 · %5 · %6")
                        .arg(index + 1)
                        .arg(stageCount())
                        .arg(QString::fromStdString(s.stage),
                             owner != graph_ ? tr(" (graph %1)").arg(owner) : QString(), what,
                             QString::fromStdString(s.ascgraph.filename().string())));
  text_->setPlainText(ReadText(s.ascgraph));
  const QSignalBlocker block(slider_);
  slider_->setValue(index);
  prev_->setEnabled(index > 0);
  next_->setEnabled(index + 1 < stageCount());
}

}  // namespace af::viewer
