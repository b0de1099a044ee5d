// ATT for the cube group of a cube + vector kernel (schedule::CubeGroup): the cube tiling of
// af_tiling/cube.h on the bound sizes, and the CV template the tiling picks at run time —
// kFixpip (the fixpipe writes the output with its ReLU and cast) whenever the partition offers
// it, else kCommon (the fp32 product through a GM workspace, then the vector epilogue). The
// generated tiling function makes the same choice with the same solver; `afc run` checks that
// the two agree, and `afc tile --json` shows the choice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "af_tiling/cube.h"
#include "autofuse/hw/profile.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/sym/expr.h"

namespace af::att {

// The cube group's tiling keys (its cases): kCommon is always offered.
inline constexpr int kCubeCommon = 0;
inline constexpr int kCubeFixpip = 1;
const char* CubeTemplateName(int key);  // "kCommon", "kFixpip"

// The cube of a SoC: the memories of af_tiling::CubeHw (CubeHw950 for the 950) and one cube core
// per two vector cores (Atlas A2/A3 and the 950 pair each AIC with two AIVs, anchors.md D.1/D.4).
af_tiling::CubeHw CubeHwOf(const hw::Profile& profile);

// The size symbols the cube group's M, N, K and batch extents use, sorted.
std::vector<std::string> CubeSymbols(const schedule::CubeGroup& c);

struct CubeDecision {
  af_tiling::CubeProblem problem;
  af_tiling::CubeTiling tiling;  // of the chosen template (its fixpipe output bytes)
  int chosen = kCubeCommon;
  bool fixpipe_offered = false;
  std::string reason;  // why this template
  // The busiest cube core's cycles per pipe (tiles_per_core full tiles, af_tiling::CubeTilePipes).
  af_tiling::CubePipes pipes;
};

// Solves the cube group on bound sizes; forced_case >= 0 forces a template (kFixpip only where
// offered). Throws af::InputError for an unbound size, an empty product or a forced template the
// group does not offer.
CubeDecision SolveCubeGroup(const schedule::CubeGroup& c, const sym::Bindings& b,
                            const hw::Profile& profile, int forced_case = -1);

// The decision as text (the "tiling" dump of the cube group).
std::string DumpCubeDecision(const CubeDecision& d);

}  // namespace af::att
