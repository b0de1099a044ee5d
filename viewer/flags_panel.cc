#include "flags_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>
#include <exception>
#include <utility>

#include "autofuse/att/tiling.h"
#include "autofuse/hw/profile.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/support/error.h"
#include "report.pb.h"
#include "run_manager.h"

namespace af::viewer {
namespace {

constexpr char kForcedFlag[] = "force_tiling_case";
constexpr char kAlgorithm[] = "autofuse_att_algorithm";
constexpr char kUbThreshold[] = "att_ub_threshold";
constexpr char kCoreThreshold[] = "att_corenum_threshold";
constexpr char kTradeoff[] = "att_enable_multicore_ub_tradeoff";
constexpr char kAccuracy[] = "att_accuracy_level";
constexpr char kTilingCache[] = "autofuse_enable_tiling_cache";

QString OnOff(int v) {
  return v != 0 ? FlagsPanel::tr("on") : FlagsPanel::tr("off");
}

// Size symbols of a run in first-seen order: the kernels' tiling-data symbols, else the hint
// graphs' size variables (refused kernels), then anything bound that neither names.
QStringList RunSymbols(const Run& run) {
  QStringList out;
  auto add = [&out](const std::string& s) {
    const QString q = QString::fromStdString(s);
    if (!q.isEmpty() && !out.contains(q)) out << q;
  };
  for (int i = 0; i < run.kernelCount(); ++i) {
    const auto& k = *run.kernel(i);
    for (const auto& s : k.symbols())
      add(s);
    if (k.symbols().empty()) {
      for (const auto& s : k.hint_graph().asc_graph_attr().size_var())
        add(s);
    }
  }
  for (const auto& [name, value] : run.request.bindings)
    add(name);
  return out;
}

}  // namespace

FlagsPanel::FlagsPanel(RunManager* runs, SelectionModel* selection, QWidget* parent)
    : QWidget(parent), runs_(runs), selection_(selection) {
  input_ = new QLabel(this);
  input_->setWordWrap(true);
  input_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  soc_ = new QComboBox(this);
  for (const auto& name : hw::ProfileNames())
    soc_->addItem(QString::fromStdString(name));
  soc_->setToolTip(tr("Hardware profile (cores, UB size, alignment)"));
  forced_ = new QComboBox(this);
  forced_->setToolTip(tr("--force_tiling_case: use this tiling case instead of the cheapest"));
  // The ATT solver's flags: combo boxes for the choices, line edits for the thresholds. Item 0 /
  // an empty edit is "not set"; updateDefaults() names the profile's default in it.
  static const QRegularExpression number(QStringLiteral("^[0-9]*(\\.[0-9]*)?$"));
  auto* att = new QGroupBox(tr("Tiling solver (ATT)"), this);
  auto* att_form = new QFormLayout(att);
  auto add_combo = [&](const char* key, const QString& label,
                       const std::vector<std::pair<QString, QString>>& items, const QString& tip) {
    FlagRow r;
    r.key = key;
    r.combo = new QComboBox(att);
    r.combo->setObjectName(QString::fromLatin1(key));
    r.combo->addItem(QString(), QString());  // "profile default", named by updateDefaults()
    for (const auto& [text, value] : items)
      r.combo->addItem(text, value);
    r.fixed_items = r.combo->count();
    r.combo->setToolTip(tip);
    att_form->addRow(label, r.combo);
    att_form->labelForField(r.combo)->setToolTip(tip);
    att_rows_.push_back(r);
  };
  auto add_edit = [&](const char* key, const QString& label, const QString& tip) {
    FlagRow r;
    r.key = key;
    r.edit = new QLineEdit(att);
    r.edit->setObjectName(QString::fromLatin1(key));
    r.edit->setValidator(new QRegularExpressionValidator(number, r.edit));
    r.edit->setToolTip(tip);
    att_form->addRow(label, r.edit);
    att_form->labelForField(r.edit)->setToolTip(tip);
    att_rows_.push_back(r);
  };
  add_combo(kAlgorithm, tr("Solver"),
            {{QStringLiteral("AxesReorder"), QStringLiteral("AxesReorder")},
             {QStringLiteral("HighPerf"), QStringLiteral("HighPerf")},
             {QStringLiteral("Exhaustive"), QStringLiteral("Exhaustive")}},
            tr("--autofuse_att_algorithm (default AxesReorder): the tiling solver. AxesReorder: "
               "UB-first greedy with binary search, multicore split, workload balance, UB/core "
               "trade-off and core-count gears; HighPerf: local search from a feasible start, "
               "keeping the best few; Exhaustive: every feasible tile × core count (slow on "
               "large shapes)."));
  add_edit(kUbThreshold, tr("UB threshold"),
           tr("--att_ub_threshold, 0 to 1 (default 0.2 on A2/A3, 0.01 on ascend950): with the "
              "UB/core trade-off, a tile is never shrunk below this share of the UB. Empty: the "
              "profile's default."));
  add_edit(kCoreThreshold, tr("Core threshold"),
           tr("--att_corenum_threshold, 0 to 1 (default 0.4 on A2/A3, 1.0 on ascend950): with "
              "the UB/core trade-off, tiles are shrunk when fewer than this share of the cores "
              "would be used. Empty: the profile's default."));
  add_combo(kTradeoff, tr("UB/core trade-off"),
            {{tr("off (0)"), QStringLiteral("0")}, {tr("on (1)"), QStringLiteral("1")}},
            tr("--att_enable_multicore_ub_tradeoff, 0 or 1 (default 0 on A2/A3, 1 on "
               "ascend950): shrink the tile to give idle cores work, within the two "
               "thresholds."));
  add_combo(kAccuracy, tr("Accuracy level"),
            {{tr("0 (no gear tuning)"), QStringLiteral("0")},
             {tr("1 (core-count gears)"), QStringLiteral("1")}},
            tr("--att_accuracy_level, 0 or 1 (default 1): at 1 the solution is compared with "
               "neighbouring core-count gears and the cheapest is kept."));
  add_combo(kTilingCache, tr("Tiling cache"),
            {{tr("off (0)"), QStringLiteral("0")}, {tr("on (1)"), QStringLiteral("1")}},
            tr("--autofuse_enable_tiling_cache, 0 or 1 (default 0): the generated tiling "
               "function keeps its last 8 decisions per thread and reuses them for the same "
               "shapes."));

  flags_ = new QLineEdit(this);
  flags_->setPlaceholderText(QStringLiteral("--key=value;--key2=value"));
  flags_->setToolTip(tr("Other AutoFuse flags, as in AUTOFUSE_FLAGS (recorded in the report)"));
  build_ = new QCheckBox(tr("Build kernels with the host compiler"), this);
  build_->setToolTip(
      tr("Also compile the generated sources against the CPU AscendC runtime "
         "(slower; catches code that does not compile)"));
  rerun_ = new QPushButton(tr("Re-run"), this);
  rerun_->setDefault(true);
  rerun_->setToolTip(
      tr("Compile the selected run's input again with these settings; the new run "
         "opens next to the old one"));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setEnabled(false);
  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b00000;"));
  error_->hide();

  auto* form = new QFormLayout;
  form->addRow(tr("Input"), input_);
  form->addRow(tr("Hardware"), soc_);
  form->addRow(QStringLiteral("force_tiling_case"), forced_);
  form->addRow(tr("Other flags"), flags_);
  auto* shapes = new QGroupBox(tr("Size bindings"), this);
  bindings_form_ = new QFormLayout(shapes);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(rerun_);
  buttons->addWidget(cancel_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(form);
  layout->addWidget(att);
  layout->addWidget(shapes);
  layout->addWidget(build_);
  layout->addLayout(buttons);
  layout->addWidget(error_);
  layout->addStretch(1);

  connect(rerun_, &QPushButton::clicked, this, &FlagsPanel::rerunRequested);
  connect(cancel_, &QPushButton::clicked, this, &FlagsPanel::cancelRequested);
  connect(runs_, &RunManager::busyChanged, cancel_, &QPushButton::setEnabled);
  connect(selection_, &SelectionModel::selectionChanged, this, &FlagsPanel::onSelectionChanged);
  connect(soc_, &QComboBox::currentTextChanged, this, &FlagsPanel::updateDefaults);
  updateDefaults();
  loadRun();
}

const std::vector<std::string>& FlagsPanel::FormFlags() {
  static const std::vector<std::string> keys = {kAlgorithm, kUbThreshold, kCoreThreshold,
                                                kTradeoff,  kAccuracy,    kTilingCache};
  return keys;
}

const FlagsPanel::FlagRow* FlagsPanel::row(const std::string& key) const {
  for (const auto& r : att_rows_) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

void FlagsPanel::updateDefaults() {
  af_tiling::SolverOptions d;
  try {
    d = att::SolverOptionsFrom({}, hw::GetProfile(soc_->currentText().toStdString()));
  } catch (const std::exception&) {
    return;  // an unknown profile name: keep the texts
  }
  auto number = [](double v) { return QString::number(v, 'g', 6); };
  for (const auto& r : att_rows_) {
    QString text;
    if (r.key == kAlgorithm) {
      text = QString::fromStdString(att::AlgorithmName(d.algorithm));
    } else if (r.key == kUbThreshold) {
      text = number(d.ub_threshold);
    } else if (r.key == kCoreThreshold) {
      text = number(d.corenum_threshold);
    } else if (r.key == kTradeoff) {
      text = OnOff(d.tradeoff);
    } else if (r.key == kAccuracy) {
      text = QString::number(d.accuracy_level);
    } else if (r.key == kTilingCache) {
      text = OnOff(0);
    }
    if (r.combo != nullptr) r.combo->setItemText(0, tr("profile default (%1)").arg(text));
    if (r.edit != nullptr) r.edit->setPlaceholderText(tr("profile default (%1)").arg(text));
  }
}

bool FlagsPanel::setFormFlag(const std::string& key, const QString& value) {
  const FlagRow* r = row(key);
  if (r == nullptr) return false;
  if (r->edit != nullptr) {
    r->edit->setText(value);
    return true;
  }
  // Values kept from an earlier run are dropped; a value the row does not offer is kept as its
  // own item.
  while (r->combo->count() > r->fixed_items)
    r->combo->removeItem(r->combo->count() - 1);
  int i = r->combo->findData(value);
  if (i < 0) {
    r->combo->addItem(value, value);
    i = r->combo->count() - 1;
  }
  r->combo->setCurrentIndex(i);
  return true;
}

QString FlagsPanel::formFlag(const std::string& key) const {
  const FlagRow* r = row(key);
  if (r == nullptr) return QString();
  if (r->edit != nullptr) return r->edit->text().trimmed();
  return r->combo->currentData().toString();
}

void FlagsPanel::onSelectionChanged(const Selection& now, const Selection& before) {
  if (now.run != before.run) {
    loadRun();
  } else if (now.kernel != before.kernel) {
    loadCases();
  }
}

void FlagsPanel::loadRun() {
  const RunPtr run = runs_->run(selection_->current().run);
  error_->hide();
  while (bindings_form_->rowCount() > 0)
    bindings_form_->removeRow(0);
  bind_edits_.clear();
  rerun_->setEnabled(run != nullptr && !run->request.input.isEmpty());
  if (!run) {
    input_->setText(tr("(no run selected)"));
    loadCases();
    return;
  }
  input_->setText(QFileInfo(run->request.input).fileName());
  input_->setToolTip(run->request.input);
  setSoc(QString::fromStdString(run->request.soc));
  auto flags = run->request.flags;
  flags.erase(kForcedFlag);
  for (const auto& r : att_rows_) {
    const auto it = flags.find(r.key);
    setFormFlag(r.key, it != flags.end() ? QString::fromStdString(it->second) : QString());
    if (it != flags.end()) flags.erase(it);
  }
  flags_->setText(FlagsText(flags));
  build_->setChecked(run->request.build);
  static const QRegularExpression digits(QStringLiteral("^[0-9]{0,18}$"));
  for (const QString& s : RunSymbols(*run)) {
    auto* edit = new QLineEdit(this);
    edit->setValidator(new QRegularExpressionValidator(digits, edit));
    edit->setPlaceholderText(tr("unbound"));
    const auto it = run->request.bindings.find(s.toStdString());
    if (it != run->request.bindings.end()) edit->setText(QString::number(it->second));
    bindings_form_->addRow(s, edit);
    bind_edits_[s] = edit;
  }
  if (bind_edits_.empty()) bindings_form_->addRow(new QLabel(tr("(no size symbols)"), this));
  loadCases();
}

void FlagsPanel::loadCases() {
  const Selection& sel = selection_->current();
  const RunPtr run = runs_->run(sel.run);
  forced_->clear();
  forced_->addItem(tr("auto (cheapest case)"), -1);
  if (!run) return;
  const auto* k = run->kernel(sel.kernel >= 0 ? sel.kernel : 0);
  int cases = 0;
  for (int i = 0; i < run->kernelCount(); ++i)
    cases = std::max(cases, run->kernel(i)->cases_size());
  for (int c = 0; c < cases; ++c) {
    QString label = QString::number(c);
    if (k != nullptr && c < k->cases_size()) label += QStringLiteral(" — ") + ShortCaseName(*k, c);
    forced_->addItem(label, c);
  }
  const auto it = run->request.flags.find(kForcedFlag);
  if (it != run->request.flags.end()) {
    bool ok = false;
    const int c = QString::fromStdString(it->second).toInt(&ok);
    if (ok) setForcedCase(c);
  }
}

bool FlagsPanel::request(RunRequest* out, QString* error) const {
  const RunPtr run = runs_->run(selection_->current().run);
  if (!run || run->request.input.isEmpty()) {
    if (error) *error = tr("Select a run to re-run.");
    return false;
  }
  RunRequest r;
  r.input = run->request.input;
  r.soc = soc_->currentText().toStdString();
  r.build = build_->isChecked();
  try {
    pipeline::ParseFlags(flags_->text().toStdString(), &r.flags);
    // A set form row wins over the same flag typed under Other flags.
    for (const auto& fr : att_rows_) {
      const QString v = formFlag(fr.key);
      if (v.isEmpty()) continue;
      if (fr.edit != nullptr) {
        bool ok = false;
        const double x = v.toDouble(&ok);
        if (!ok || x < 0 || x > 1) {
          if (error) {
            *error = tr("--%1 must be a number from 0 to 1, not '%2'")
                         .arg(QString::fromStdString(fr.key), v);
          }
          return false;
        }
      }
      r.flags[fr.key] = v.toStdString();
    }
    for (const auto& [name, edit] : bind_edits_) {
      const QString v = edit->text().trimmed();
      if (v.isEmpty()) continue;
      pipeline::ParseBindings(name.toStdString() + "=" + v.toStdString(), &r.bindings);
    }
  } catch (const InputError& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
  const int forced = forcedCase();
  if (forced >= 0) r.flags[kForcedFlag] = std::to_string(forced);
  *out = std::move(r);
  return true;
}

void FlagsPanel::setSoc(const QString& soc) {
  const int i = soc_->findText(soc);
  if (i >= 0) soc_->setCurrentIndex(i);
}

void FlagsPanel::setForcedCase(int tcase) {
  int i = forced_->findData(tcase);
  if (i < 0) {  // a case index beyond the listed ones: keep it, the pipeline will judge it
    forced_->addItem(QString::number(tcase), tcase);
    i = forced_->count() - 1;
  }
  forced_->setCurrentIndex(i);
}

int FlagsPanel::forcedCase() const {
  return forced_->currentData().toInt();
}

void FlagsPanel::setBinding(const QString& symbol, const QString& value) {
  auto it = bind_edits_.find(symbol);
  if (it == bind_edits_.end()) {
    auto* edit = new QLineEdit(this);
    edit->setPlaceholderText(tr("unbound"));
    bindings_form_->addRow(symbol, edit);
    it = bind_edits_.emplace(symbol, edit).first;
  }
  it->second->setText(value);
}

QString FlagsPanel::binding(const QString& symbol) const {
  const auto it = bind_edits_.find(symbol);
  return it == bind_edits_.end() ? QString() : it->second->text();
}

QStringList FlagsPanel::symbols() const {
  QStringList out;
  for (const auto& [name, edit] : bind_edits_)
    out << name;
  return out;
}

void FlagsPanel::setExtraFlags(const QString& text) {
  flags_->setText(text);
}

QString FlagsPanel::extraFlags() const {
  return flags_->text();
}

void FlagsPanel::setBuild(bool build) {
  build_->setChecked(build);
}

void FlagsPanel::showError(const QString& text) {
  error_->setText(text);
  error_->setVisible(!text.isEmpty());
}

}  // namespace af::viewer
