// torch_compile_debug discovery: a bounded walk (no symlinks followed) that groups dump files by
// folder; inductor_npu_ext autofused_* folders are attached to the model folder above them.
#include "autofuse/importers/debug_dir.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <system_error>

#include "../common/folder_walk.h"
#include "autofuse/importers/fx_graph.h"
#include "autofuse/importers/inductor_ir.h"
#include "autofuse/importers/output_code.h"
#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"
#include "dump_lines.h"

namespace af::importers::inductor {
namespace {

namespace fs = std::filesystem;

constexpr WalkLimits kWalkLimits{.max_depth = 12, .max_entries = 200000};
constexpr std::size_t kSniffBytes = 1 << 20;

std::string Head(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string s(kSniffBytes, '\0');
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

bool HasNpuExtSummary(std::string_view text) {
  return (text.find("] Lowered ") != std::string_view::npos ||
          text.find("] Fallback ") != std::string_view::npos) &&
         text.find("[RANK") != std::string_view::npos;
}

// model__0_forward_1.0 / model___9.0 / gernet_l__1_forward_3.1 → model name and graph kind.
void NameScheme(ModelDir& m) {
  const std::size_t sep = m.name.find("__");
  m.model = sep == std::string::npos ? m.name : m.name.substr(0, sep);
  for (const char* g : {"forward", "backward", "inference"}) {
    if (m.name.find(std::string("_") + g + "_") != std::string::npos) m.graph = g;
  }
}

bool IsAutofusedDir(const fs::path& d) {
  return StartsWith(d.filename().string(), "autofused_") ||
         StartsWith(d.filename().string(), "unsupported_");
}

}  // namespace

std::string_view DumpFileKindName(DumpFileKind k) {
  switch (k) {
    case DumpFileKind::kIrPreFusion:
      return "ir_pre_fusion";
    case DumpFileKind::kIrPostFusion:
      return "ir_post_fusion";
    case DumpFileKind::kIrText:
      return "inductor IR text";
    case DumpFileKind::kOutputCode:
      return "output_code";
    case DumpFileKind::kFxReadable:
      return "fx_graph_readable";
    case DumpFileKind::kFxTransformed:
      return "fx_graph_transformed";
    case DumpFileKind::kFxRunnable:
      return "fx_graph_runnable";
    case DumpFileKind::kFxOther:
      return "fx graph";
    case DumpFileKind::kAscGraphPy:
      return "asc_graph.py";
    case DumpFileKind::kNpuExtLog:
      return "inductor_npu_ext log";
  }
  return "?";
}

const DumpFile* ModelDir::Find(DumpFileKind k) const {
  for (const auto& f : files) {
    if (f.kind == k) return &f;
  }
  return nullptr;
}

int DebugTree::FileCount(DumpFileKind k) const {
  int c = 0;
  for (const auto& m : models) {
    for (const auto& f : m.files)
      c += f.kind == k ? 1 : 0;
  }
  return c;
}

std::string TorchVersionFromRunnable(std::string_view text) {
  const std::size_t p = text.find("# torch version: ");
  if (p == std::string_view::npos) return {};
  const std::size_t e = text.find('\n', p);
  return std::string(TrimSpace(text.substr(p + 17, e == std::string_view::npos ? e : e - p - 17)));
}

bool ClassifyDumpFile(const fs::path& p, DumpFileKind* kind) {
  const std::string name = p.filename().string();
  if (StartsWith(name, "ir_pre_fusion")) {
    *kind = DumpFileKind::kIrPreFusion;
    return true;
  }
  if (StartsWith(name, "ir_post_fusion")) {
    *kind = DumpFileKind::kIrPostFusion;
    return true;
  }
  if (name == "output_code.py") {
    *kind = DumpFileKind::kOutputCode;
    return true;
  }
  if (name == "fx_graph_readable.py") {
    *kind = DumpFileKind::kFxReadable;
    return true;
  }
  if (name == "fx_graph_transformed.py") {
    *kind = DumpFileKind::kFxTransformed;
    return true;
  }
  if (name == "fx_graph_runnable.py") {
    *kind = DumpFileKind::kFxRunnable;
    return true;
  }
  if (name == "asc_graph.py") {
    *kind = DumpFileKind::kAscGraphPy;
    return true;
  }
  const std::string ext = p.extension().string();
  if (ext != ".txt" && ext != ".log" && ext != ".py") return false;
  if (name == "SOURCE.txt" || name == "PROVENANCE.md") return false;
  const std::string head = Head(p);
  if (ext == ".py") {
    if (LooksLikeOutputCode(head)) {
      *kind = DumpFileKind::kOutputCode;
      return true;
    }
    if (LooksLikeFxGraph(head)) {
      *kind = DumpFileKind::kFxOther;
      return true;
    }
    if (head.find("ascir.HintGraph(") != std::string::npos) {
      *kind = DumpFileKind::kAscGraphPy;
      return true;
    }
    return false;
  }
  if (LooksLikeInductorIr(head)) {
    *kind = DumpFileKind::kIrText;
    return true;
  }
  if (HasNpuExtSummary(head)) {
    *kind = DumpFileKind::kNpuExtLog;
    return true;
  }
  return false;
}

DebugTree DiscoverDebugDump(const fs::path& input) {
  DebugTree t;
  t.input = input;
  std::error_code ec;
  const fs::file_status st = fs::status(input, ec);
  if (ec || !fs::exists(st)) {
    throw InputError(SourceLoc{input.string(), 0, 0}, "no such file or folder");
  }
  std::map<fs::path, ModelDir> by_dir;
  auto add = [&](const fs::path& p, DumpFileKind k) {
    fs::path dir = p.parent_path();
    if (k == DumpFileKind::kAscGraphPy && IsAutofusedDir(dir) && dir.has_parent_path()) {
      const fs::path kernel_dir = dir;
      dir = dir.parent_path();
      auto& m = by_dir[dir];
      if (std::find(m.autofused_dirs.begin(), m.autofused_dirs.end(), kernel_dir) ==
          m.autofused_dirs.end())
        m.autofused_dirs.push_back(kernel_dir);
    }
    by_dir[dir].files.push_back(DumpFile{p, k});
  };
  if (fs::is_regular_file(st)) {
    t.layout = "single file";
    DumpFileKind k{};
    if (!ClassifyDumpFile(input, &k)) {
      throw InputError(SourceLoc{input.string(), 1, 0},
                       "not an Inductor dump file (ir_*_fusion.txt, output_code.py, "
                       "fx_graph_*.py, asc_graph.py or an inductor_npu_ext log)");
    }
    add(input, k);
  } else if (fs::is_directory(st)) {
    WalkFilesOrThrow(input, kWalkLimits, [&](const fs::path& f) {
      DumpFileKind k{};
      if (ClassifyDumpFile(f, &k)) add(f, k);
    });
    // What level the input is.
    bool has_run = false;
    bool has_inductor = false;
    bool has_root = false;
    for (const auto& c : fs::directory_iterator(input, ec)) {
      const std::string n = c.path().filename().string();
      if (!c.is_directory(ec)) continue;
      if (n == "torchinductor" || n == "aot_torchinductor") has_inductor = true;
      if (n == "torch_compile_debug") has_root = true;
      if (fs::exists(c.path() / "torchinductor", ec) ||
          fs::exists(c.path() / "aot_torchinductor", ec))
        has_run = true;
    }
    const std::string own = fs::absolute(input, ec).filename().string();
    if (has_run) {
      t.layout = "torch_compile_debug root";
    } else if (has_root) {
      t.layout = "folder holding torch_compile_debug";
    } else if (has_inductor) {
      t.layout = "run folder";
    } else if (own == "torchinductor" || own == "aot_torchinductor") {
      t.layout = "torchinductor folder";
    } else if (std::any_of(by_dir.begin(), by_dir.end(), [&](const auto& kv) {
                 std::error_code e2;
                 return fs::equivalent(kv.first, input, e2);
               })) {
      t.layout = "model folder";
    } else {
      t.layout = "folder";
    }
  } else {
    throw InputError(SourceLoc{input.string(), 0, 0}, "not a regular file or folder");
  }
  if (by_dir.empty()) {
    throw InputError(SourceLoc{input.string(), 0, 0},
                     "is a directory with no Inductor dump files (ir_*_fusion.txt, "
                     "output_code.py, fx_graph_*.py, asc_graph.py)");
  }
  for (auto& [dir, m] : by_dir) {
    m.dir = dir;
    m.name = dir.filename().string();
    NameScheme(m);
    std::sort(m.files.begin(), m.files.end(), [](const DumpFile& a, const DumpFile& b) {
      return a.kind != b.kind ? a.kind < b.kind : a.path < b.path;
    });
    std::sort(m.autofused_dirs.begin(), m.autofused_dirs.end());
    t.models.push_back(std::move(m));
  }
  // The version: fx_graph_runnable.py's comment (per folder; the tree takes the first one), else
  // the IR's forms.
  for (auto& m : t.models) {
    if (const DumpFile* r = m.Find(DumpFileKind::kFxRunnable)) {
      m.torch_version = TorchVersionFromRunnable(Head(r->path));
      if (!m.torch_version.empty() && t.torch_version.empty()) {
        t.torch_version = m.torch_version;
        t.version_source = "fx_graph_runnable.py";
      }
    }
  }
  if (t.torch_version.empty()) {
    for (const auto& m : t.models) {
      for (const auto& f : m.files) {
        if (f.kind != DumpFileKind::kIrPreFusion && f.kind != DumpFileKind::kIrPostFusion &&
            f.kind != DumpFileKind::kIrText)
          continue;
        try {
          const IrFile ir = LoadInductorIrFile(f.path);
          t.torch_version = ir.version_guess;
          t.version_source = "sniffed from " + f.path.filename().string();
        } catch (const InputError&) {
          continue;  // the caller reports the file's error when it reads it
        }
        break;
      }
      if (!t.torch_version.empty()) break;
    }
  }
  return t;
}

}  // namespace af::importers::inductor
