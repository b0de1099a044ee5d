// Pipeline options and their text forms (see options.h).
#include "autofuse/pipeline/options.h"

#include <sstream>
#include <stdexcept>

#include "autofuse/att/cube.h"
#include "autofuse/att/tiling.h"
#include "autofuse/support/error.h"
#include "autofuse/support/strings.h"

namespace af::pipeline {
namespace {

std::string Trim(const std::string& s) {
  return std::string(TrimSpace(s));
}

}  // namespace

namespace {

// force_tiling_case's AutoFuse spec (N, N_R, gG_N[_R],...) as our case index: our kernels have
// one schedule group (g0), so group 0's entry is taken (none: not forced); the _R suffix names
// the same case.
std::string CaseIndexText(const std::string& spec) {
  std::string item;
  std::stringstream ss(spec);
  std::string part;
  while (std::getline(ss, part, ',')) {
    part = Trim(part);
    if (part.rfind("g0_", 0) == 0 || part.find('_') == std::string::npos ||
        part.rfind('g', 0) != 0) {
      item = part;
      break;
    }
  }
  if (item.rfind("g0_", 0) == 0) item = item.substr(3);
  if (item.size() > 2 && item.ends_with("_R")) item.resize(item.size() - 2);
  return item;
}

}  // namespace

std::vector<int> ForcedGroupCases(const Options& o, std::size_t groups) {
  const auto it = o.flags.find("force_tiling_case");
  if (it == o.flags.end() || Trim(it->second).empty()) return {};
  const auto bad = [&](const std::string& why) {
    return InputError({}, "--force_tiling_case=" + it->second + ": " + why);
  };
  const auto index = [&](const std::string& text) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
      throw bad("'" + text + "' is not an index");
    return std::stoi(text);
  };
  int all = -1;
  std::vector<int> own(groups, -1);
  std::stringstream ss(it->second);
  std::string part;
  while (std::getline(ss, part, ',')) {
    part = Trim(part);
    if (part.size() > 2 && part.ends_with("_R")) part.resize(part.size() - 2);
    if (part.rfind('g', 0) != 0) {
      all = index(part);
      continue;
    }
    const auto us = part.find('_');
    if (us == std::string::npos) throw bad("'" + part + "' is not gG_N");
    const int g = index(part.substr(1, us - 1));
    if (static_cast<std::size_t>(g) >= groups) {
      throw bad("group " + std::to_string(g) + ", but the kernel has " + std::to_string(groups) +
                " group(s)");
    }
    own[static_cast<std::size_t>(g)] = index(part.substr(us + 1));
  }
  for (int& c : own)
    if (c < 0) c = all;
  return own;
}

int IndexFlag(const Options& o, const char* name, const char* what) {
  const auto it = o.flags.find(name);
  if (it == o.flags.end() || it->second.empty()) return -1;
  const std::string text =
      std::string(name) == "force_tiling_case" ? CaseIndexText(it->second) : it->second;
  if (text.empty()) return -1;
  try {
    std::size_t used = 0;
    const int v = std::stoi(text, &used);
    if (used != text.size() || v < 0) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw InputError({},
                     std::string("--") + name + " must be " + what + ", not '" + it->second + "'");
  }
}

codegen::TilingOptions TilingOptionsFrom(const Options& o, const hw::Profile& profile) {
  codegen::TilingOptions t;
  t.core_num = profile.vector_cores;
  t.ub_size = static_cast<std::uint64_t>(profile.ub_bytes);
  t.cube_l0c_bytes = att::CubeHwOf(profile).l0c_bytes;
  t.solver = att::SolverOptionsFrom(o.flags, profile);
  if (const auto it = o.flags.find("autofuse_enable_tiling_cache"); it != o.flags.end()) {
    const std::string& v = it->second;
    if (v == "1" || v == "true") {
      t.cache = true;
    } else if (v != "0" && v != "false" && !v.empty()) {
      throw InputError({}, "--autofuse_enable_tiling_cache must be true or false, not '" + v + "'");
    }
  }
  return t;
}

void ParseFlags(const std::string& text, std::map<std::string, std::string>* flags) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ';')) {
    item = Trim(item);
    if (item.empty()) continue;
    if (item.rfind("--", 0) == 0) item = item.substr(2);
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      throw InputError({}, "flag '" + item + "' is not --key=value");
    }
    const std::string key = Trim(item.substr(0, eq));
    if (key.empty()) throw InputError({}, "flag '" + item + "' has no key");
    (*flags)[key] = Trim(item.substr(eq + 1));
  }
}

void ParseBindings(const std::string& text, sym::Bindings* b) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = Trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError({}, "--bind entry '" + item + "' is not name=value");
    const std::string name = Trim(item.substr(0, eq));
    const std::string value = Trim(item.substr(eq + 1));
    try {
      std::size_t used = 0;
      const long long v = std::stoll(value, &used);
      if (used != value.size() || v < 0) throw std::invalid_argument("");
      (*b)[name] = v;
    } catch (const std::exception&) {
      throw InputError({}, "--bind " + name + " needs a non-negative integer, not '" + value + "'");
    }
  }
}

}  // namespace af::pipeline
