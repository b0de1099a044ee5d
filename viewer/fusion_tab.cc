#include "fusion_tab.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "report.pb.h"

namespace af::viewer {
namespace {

constexpr int kMentionRole = Qt::UserRole + 1;

QStandardItem* Cell(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setEditable(false);
  item->setToolTip(text);
  return item;
}

QTableView* Table(QAbstractItemModel* model, QWidget* parent) {
  auto* t = new QTableView(parent);
  t->setModel(model);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  t->horizontalHeader()->setStretchLastSection(true);
  t->setWordWrap(false);
  t->setAlternatingRowColors(true);
  return t;
}

}  // namespace

FusionTab::FusionTab(QWidget* parent) : InspectorTab(parent) {
  refusal_ = new QLabel(this);
  refusal_->setWordWrap(true);
  refusal_->setStyleSheet(
      QStringLiteral("QLabel { background: #fde0dd; color: #800; padding: 6px; }"));
  refusal_->hide();
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter decisions: stage, reason code, node…"));
  filter_->setClearButtonEnabled(true);
  decisions_ = new QStandardItemModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(decisions_);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  decisions_view_ = Table(proxy_, this);
  buffers_ = new QStandardItemModel(this);
  buffers_view_ = Table(buffers_, this);
  frontend_ = new QStandardItemModel(this);
  frontend_view_ = Table(frontend_, this);
  auto* split = new QSplitter(Qt::Vertical, this);
  auto* top = new QWidget(split);
  auto* top_layout = new QVBoxLayout(top);
  top_layout->setContentsMargins(0, 0, 0, 0);
  top_layout->addWidget(new QLabel(tr("<b>Decisions</b> (stage, reason code, what and why)"), top));
  top_layout->addWidget(filter_);
  top_layout->addWidget(decisions_view_, 1);
  frontend_box_ = new QWidget(split);
  auto* fe_layout = new QVBoxLayout(frontend_box_);
  fe_layout->setContentsMargins(0, 0, 0, 0);
  frontend_label_ = new QLabel(frontend_box_);
  fe_layout->addWidget(frontend_label_);
  fe_layout->addWidget(frontend_view_, 1);
  grouping_ = new QStandardItemModel(this);
  grouping_box_ = new QWidget(split);
  auto* gr_layout = new QVBoxLayout(grouping_box_);
  gr_layout->setContentsMargins(0, 0, 0, 0);
  gr_layout->addWidget(new QLabel(tr("<b>Inductor vs autofuse grouping</b>"), grouping_box_));
  gr_layout->addWidget(Table(grouping_, grouping_box_), 1);
  auto* bottom = new QWidget(split);
  auto* bottom_layout = new QVBoxLayout(bottom);
  bottom_layout->setContentsMargins(0, 0, 0, 0);
  bottom_layout->addWidget(new QLabel(tr("<b>UB buffers</b> planned by the schedule"), bottom));
  bottom_layout->addWidget(buffers_view_, 1);
  split->addWidget(top);
  split->addWidget(frontend_box_);
  split->addWidget(grouping_box_);
  split->addWidget(bottom);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setStretchFactor(2, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(refusal_);
  layout->addWidget(split, 1);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  showKernel(nullptr, -1, -1);
}

QString FusionTab::refusal() const {
  return refusal_->isHidden() ? QString() : refusal_->text();
}

void FusionTab::showKernel(const RunPtr& run, int kernel, int /*tcase*/) {
  decisions_->clear();
  decisions_->setHorizontalHeaderLabels({tr("Stage"), tr("Reason code"), tr("Decision")});
  buffers_->clear();
  buffers_->setHorizontalHeaderLabels(
      {tr("Buffer"), tr("Kind"), tr("Buffers"), tr("Element bytes"), tr("Tensors (in order)")});
  frontend_->clear();
  frontend_->setHorizontalHeaderLabels({tr("Result"), tr("Reason code"), tr("Stage"), tr("Kind"),
                                        tr("Group A"), tr("Group B"), tr("Bytes saved"),
                                        tr("Message")});
  frontend_box_->hide();
  showGrouping(run.get());
  const report::KernelReport* k = run ? run->kernel(kernel) : nullptr;
  refusal_->hide();
  if (k == nullptr) return;
  if (run->report->fusion_decisions_size() > 0) {
    QStringList nodes;
    for (const auto& n : run->report->model_nodes()) {
      const bool in_k = k->group().empty() ? n.kernel() == k->name() : n.group() == k->group();
      if (in_k) nodes << QString::fromStdString(n.name());
    }
    showFrontendDecisions(*run, nodes, tr("its ops"));
  }
  if (!k->error_code().empty()) {
    refusal_->setText(
        tr("Not compiled — %1: %2")
            .arg(QString::fromStdString(k->error_code()), QString::fromStdString(k->error())));
    refusal_->show();
  }
  for (const auto& d : k->decisions()) {
    decisions_->appendRow({Cell(QString::fromStdString(d.stage())),
                           Cell(QString::fromStdString(d.code())),
                           Cell(QString::fromStdString(d.message()))});
  }
  for (const auto& b : k->buffers()) {
    QStringList tensors;
    for (const auto& t : b.tensors())
      tensors << QString::fromStdString(t);
    buffers_->appendRow({Cell(QString::fromStdString(b.name())),
                         Cell(QString::fromStdString(b.kind())), Cell(QString::number(b.buf_num())),
                         Cell(QString::number(b.esize())),
                         Cell(tensors.join(QStringLiteral(", ")))});
  }
  decisions_view_->resizeColumnsToContents();
  buffers_view_->resizeColumnsToContents();
  showNode(node_);
}

void FusionTab::showGrouping(const Run* run) {
  grouping_->clear();
  grouping_->setHorizontalHeaderLabels(
      {tr("Model"), tr("Result"), tr("Inductor"), tr("autofuse"), tr("Reason codes"), tr("Nodes")});
  if (run != nullptr && !run->report) run = nullptr;
  grouping_box_->setVisible(run != nullptr && run->report->framework_groupings_size() > 0);
  if (run == nullptr) return;
  auto join = [](const auto& list, const char* sep) {
    QStringList out;
    for (const auto& x : list)
      out << QString::fromStdString(x);
    return out.join(QString::fromLatin1(sep));
  };
  for (const auto& g : run->report->framework_groupings()) {
    const QString model = QString::fromStdString(g.model()).section(QLatin1Char('/'), -1);
    grouping_->appendRow({Cell(model), Cell(tr("summary")),
                          Cell(tr("%1 kernel(s)").arg(g.inductor_kernels())),
                          Cell(tr("%1 kernel(s)").arg(g.our_kernels())), Cell(QString()),
                          Cell(tr("%1 identical, %2 split, %3 merged; %4 / %5 nodes fused by one "
                                  "side only")
                                   .arg(g.identical())
                                   .arg(g.split())
                                   .arg(g.merged())
                                   .arg(g.inductor_only_nodes())
                                   .arg(g.ours_only_nodes()))});
    for (const auto& d : g.diffs())
      grouping_->appendRow({Cell(model), Cell(QString::fromStdString(d.kind())),
                            Cell(join(d.inductor_groups(), " + ")),
                            Cell(join(d.our_groups(), " + ")), Cell(join(d.codes(), ", ")),
                            Cell(join(d.nodes(), " "))});
  }
}

void FusionTab::showFallback(const RunPtr& run, int fallback) {
  showKernel(nullptr, -1, -1);
  showGrouping(run.get());
  const report::FallbackReport* fb = run ? run->fallback(fallback) : nullptr;
  if (fb == nullptr) return;
  const QString reason = QString::fromStdString(fb->reason());
  refusal_->setText(
      run->frontend ? tr("Left unfused — %1: %2").arg(QString::fromStdString(fb->name()), reason)
                    : tr("Falls back (not lowered) — %1: %2")
                          .arg(QString::fromStdString(fb->name()), reason));
  refusal_->show();
  // The reason code, when the front end gave one ("[CODE] message").
  QString code;
  QString message = reason;
  if (reason.startsWith(QLatin1Char('['))) {
    const auto close = reason.indexOf(QLatin1Char(']'));
    if (close > 0) {
      code = reason.mid(1, close - 1);
      message = reason.mid(close + 1).trimmed();
    }
  }
  decisions_->appendRow(
      {Cell(run->frontend ? tr("frontend") : tr("import")), Cell(code), Cell(message)});
  if (!fb->origin().empty()) {
    decisions_->appendRow(
        {Cell(tr("origin")), Cell(QString()), Cell(QString::fromStdString(fb->origin()))});
  }
  decisions_view_->resizeColumnsToContents();
  if (run->report->fusion_decisions_size() > 0)
    showFrontendDecisions(*run, {QString::fromStdString(fb->name())}, tr("this op"));
}

void FusionTab::showFrontendDecisions(const Run& run, const QStringList& nodes,
                                      const QString& what) {
  const auto names = [](const auto& list) {
    QStringList out;
    for (const auto& n : list)
      out << QString::fromStdString(n);
    return out;
  };
  int accepted = 0;
  for (const auto& d : run.report->fusion_decisions()) {
    const QStringList first = names(d.first());
    const QStringList second = names(d.second());
    bool concerns = false;
    for (const QString& n : nodes)
      concerns = concerns || first.contains(n) || second.contains(n);
    if (!concerns) continue;
    accepted += d.accepted() ? 1 : 0;
    QStandardItem* result = Cell(d.accepted() ? tr("fused") : tr("refused"));
    result->setForeground(d.accepted() ? QColor(0x00, 0x70, 0x00) : QColor(0xb0, 0x00, 0x00));
    QStandardItem* bytes = Cell(QLocale::c().toString(d.bytes_saved(), 'f', 0));
    bytes->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    frontend_->appendRow(
        {result, Cell(QString::fromStdString(d.code())), Cell(QString::fromStdString(d.stage())),
         Cell(QStringLiteral("%1, round %2").arg(QString::fromStdString(d.kind())).arg(d.round())),
         Cell(first.join(QStringLiteral(", "))), Cell(second.join(QStringLiteral(", "))), bytes,
         Cell(QString::fromStdString(d.message()))});
  }
  frontend_label_->setText(tr("<b>Front-end fusion decisions</b> about %1: %2 fused, %3 refused")
                               .arg(what)
                               .arg(accepted)
                               .arg(frontend_->rowCount() - accepted));
  frontend_view_->resizeColumnsToContents();
  frontend_box_->show();
}

void FusionTab::showNode(const QString& node) {
  node_ = node;
  const QString quoted = QStringLiteral("'") + node + QStringLiteral("'");
  for (int r = 0; r < decisions_->rowCount(); ++r) {
    const bool on = !node.isEmpty() && decisions_->item(r, kMessage)->text().contains(quoted);
    for (int c = 0; c < decisions_->columnCount(); ++c) {
      QStandardItem* item = decisions_->item(r, c);
      item->setData(on, kMentionRole);
      item->setBackground(on ? QBrush(QColor(0xff, 0xf2, 0xb3)) : QBrush());
    }
  }
  for (int r = 0; r < frontend_->rowCount(); ++r) {
    const bool on =
        !node.isEmpty() &&
        (frontend_->item(r, kFeFirst)->text().split(QStringLiteral(", ")).contains(node) ||
         frontend_->item(r, kFeSecond)->text().split(QStringLiteral(", ")).contains(node));
    for (int c = 0; c < frontend_->columnCount(); ++c)
      frontend_->item(r, c)->setBackground(on ? QBrush(QColor(0xff, 0xf2, 0xb3)) : QBrush());
  }
  for (int r = 0; r < buffers_->rowCount(); ++r) {
    const QStringList tensors = buffers_->item(r, 4)->text().split(QStringLiteral(", "));
    const bool on = !node.isEmpty() && tensors.contains(node);
    for (int c = 0; c < buffers_->columnCount(); ++c)
      buffers_->item(r, c)->setBackground(on ? QBrush(QColor(0xff, 0xf2, 0xb3)) : QBrush());
  }
}

QList<int> FusionTab::highlightedRows() const {
  QList<int> rows;
  for (int r = 0; r < decisions_->rowCount(); ++r) {
    if (decisions_->item(r, 0)->data(kMentionRole).toBool()) rows << r;
  }
  return rows;
}

}  // namespace af::viewer
