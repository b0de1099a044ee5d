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
#include "autofuse/pipeline/flag_table.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/support/error.h"
#include "report.pb.h"
#include "run_manager.h"

namespace af::viewer {
namespace {

constexpr char kForcedFlag[] = "force_tiling_case";

// The profile's default of a form flag (the solver's thresholds and trade-off differ per SoC
// generation); the table's default otherwise.
QString ProfileDefault(const pipeline::FlagSpec& f, const af_tiling::SolverOptions& d) {
  const std::string key = f.name;
  auto number = [](double v) { return QString::number(v, 'g', 6); };
  if (key == "autofuse_att_algorithm")
    return QString::fromStdString(att::AlgorithmName(d.algorithm));
  if (key == "att_ub_threshold") return number(d.ub_threshold * 100);
  if (key == "att_corenum_threshold") return number(d.corenum_threshold * 100);
  if (key == "att_enable_multicore_ub_tradeoff")
    return d.tradeoff != 0 ? QStringLiteral("true") : QStringLiteral("false");
  if (key == "att_accuracy_level") return QString::number(d.accuracy_level);
  return QString::fromLatin1(f.def);
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
  // One row per flag the flag table marks for the form (pipeline/flag_table.h): choices and
  // booleans as combo boxes, numbers as line edits; the tooltip is the table's doc.
  for (const auto& f : pipeline::FlagTable()) {
    if (!f.form) continue;
    const QString tip =
        QStringLiteral("--%1=%2 (default %3): %4")
            .arg(QString::fromLatin1(f.name), QString::fromStdString(pipeline::FlagSyntax(f)),
                 QString::fromLatin1(f.def), QString::fromLatin1(f.doc));
    const QString label = QString::fromLatin1(f.name);
    std::vector<std::pair<QString, QString>> items;
    if (f.kind == pipeline::FlagKind::kChoice) {
      for (const auto& c : QString::fromLatin1(f.choices).split(QLatin1Char('|')))
        items.emplace_back(c, c);
    } else if (f.kind == pipeline::FlagKind::kBool) {
      items = {{QStringLiteral("false"), QStringLiteral("false")},
               {QStringLiteral("true"), QStringLiteral("true")}};
    } else if (f.kind == pipeline::FlagKind::kInt && f.hi - f.lo <= 4) {
      for (int v = static_cast<int>(f.lo); v <= static_cast<int>(f.hi); ++v)
        items.emplace_back(QString::number(v), QString::number(v));
    }
    if (items.empty()) {
      add_edit(f.name, label, tip);
    } else {
      add_combo(f.name, label, items, tip);
    }
  }

  flags_ = new QLineEdit(this);
  flags_->setPlaceholderText(QStringLiteral("--key=value;--key2=value"));
  flags_->setToolTip(tr("Other AutoFuse flags, as in AUTOFUSE_FLAGS (recorded in the report)"));
  build_ = new QCheckBox(tr("Build kernels with the host compiler"), this);
  build_->setToolTip(
      tr("Also compile the generated sources against the CPU AscendC runtime "
         "(slower; catches code that does not compile)"));
  superkernel_ = new QCheckBox(tr("Super kernels (Timeline tab)"), this);
  superkernel_->setObjectName(QStringLiteral("superkernel"));
  superkernel_->setToolTip(
      tr("Model graphs with every size bound: also estimate the kernels launched apart against "
         "super kernels (one launch per run of consecutive kernels), as afc compile "
         "--superkernel; the Timeline tab draws both"));
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
  layout->addWidget(superkernel_);
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
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const auto& f : pipeline::FlagTable())
      if (f.form) k.emplace_back(f.name);
    return k;
  }();
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
  for (const auto& r : att_rows_) {
    const QString text = ProfileDefault(*pipeline::FindFlag(r.key), d);
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
  superkernel_->setChecked(run->request.superkernel);
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
  r.superkernel = superkernel_->isChecked();
  try {
    pipeline::ParseFlags(flags_->text().toStdString(), &r.flags);
    // A set form row wins over the same flag typed under Other flags.
    for (const auto& fr : att_rows_) {
      const QString v = formFlag(fr.key);
      if (v.isEmpty()) continue;
      const std::string bad =
          pipeline::FlagValueError(*pipeline::FindFlag(fr.key), v.toStdString());
      if (!bad.empty()) {
        if (error)
          *error = QStringLiteral("--%1=%2: %3")
                       .arg(QString::fromStdString(fr.key), v, QString::fromStdString(bad));
        return false;
      }
      r.flags[fr.key] = v.toStdString();
    }
    // Other flags: an unknown name or a bad value is refused here (naming the closest known
    // names) rather than dropped with a warning nobody sees.
    auto checked = r.flags;
    for (const auto& d : pipeline::CheckFlags(&checked)) {
      if (d.kind == pipeline::FlagDiagnostic::Kind::kNote) continue;
      if (error) *error = QString::fromStdString(d.message);
      return false;
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

void FlagsPanel::setSuperkernel(bool on) {
  superkernel_->setChecked(on);
}

void FlagsPanel::showError(const QString& text) {
  error_->setText(text);
  error_->setVisible(!text.isEmpty());
}

}  // namespace af::viewer
