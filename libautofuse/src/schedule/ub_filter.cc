// The static UB filter, and the layout parameters of a case that it shares with the tiling.
#include "ub_filter.h"

#include <algorithm>

#include "af_tiling/elementwise.h"

namespace af::schedule {

// AutoFuse's StaticUbTemplateFilter: with static sizes, a case whose smallest tile (one element
// of the tile dim) already overflows UB can never run; it is dropped, and a template left without
// cases with it. Dynamic sizes keep every case (the tiling decides at run time).
void StaticUbFilter(ScheduleResult& r, const hw::Profile& profile) {
  if (r.dims.size() > static_cast<std::size_t>(af_tiling::kMaxDims) ||
      r.buffers.size() > static_cast<std::size_t>(af_tiling::kMaxBuffers)) {
    return;
  }
  std::vector<std::int64_t> values;
  for (const auto id : r.dims) {
    const auto v = r.graph.FindAxis(id)->size.AsInt();
    if (!v) return;  // dynamic: nothing to decide here
    values.push_back(*v);
  }
  for (const auto& e : r.parts.lens) {
    const auto v = e.AsInt();
    if (!v) return;
    values.push_back(*v);
  }
  for (const auto& b : r.buffers) {
    if (!b.fixed_elems) continue;
    const auto v = b.fixed_elems->AsInt();
    if (!v) return;
    values.push_back(*v);
  }
  af_tiling::CaseParams p;
  std::vector<ImplCase> kept;
  std::vector<int> remap(r.cases.size(), -1);
  for (std::size_t c = 0; c < r.cases.size(); ++c) {
    FillCaseLayout(r, static_cast<int>(c), values, &p);
    if (!af_tiling::CatFeasible(p)) {
      r.decisions.push_back({"cases", "CONCAT_UNALIGNED",
                             r.cases[c].indexed_name + " (" + r.cases[c].name +
                                 ") copies rows straight to their columns, but an input ends "
                                 "inside a 32-byte block; dropped"});
      continue;
    }
    const std::int64_t min_ub = af_tiling::UbBytes(p, 1, nullptr);
    if (min_ub > profile.ub_bytes) {
      r.decisions.push_back({"cases", "STATIC_UB_FILTER",
                             r.cases[c].indexed_name + " (" + r.cases[c].name + ") needs " +
                                 std::to_string(min_ub) + " bytes of UB even with a tile of 1 (" +
                                 profile.name + " has " + std::to_string(profile.ub_bytes) +
                                 "); dropped"});
      continue;
    }
    remap[c] = static_cast<int>(kept.size());
    kept.push_back(std::move(r.cases[c]));
  }
  if (kept.size() == r.cases.size()) {
    r.cases = std::move(kept);
    return;
  }
  std::vector<Template> templates;
  for (auto& t : r.templates) {
    std::vector<int> cases;
    for (int c : t.cases) {
      if (remap[c] >= 0) cases.push_back(remap[c]);
    }
    if (cases.empty()) {
      r.decisions.push_back({"templates", "STATIC_UB_FILTER",
                             "template " + t.name + " has no case left that fits UB; dropped"});
      continue;
    }
    t.cases = std::move(cases);
    templates.push_back(std::move(t));
  }
  for (std::size_t t = 0; t < templates.size(); ++t) {
    for (std::size_t i = 0; i < templates[t].cases.size(); ++i) {
      ImplCase& c = kept[templates[t].cases[i]];
      c.templ = static_cast<int>(t);
      c.indexed_name = r.graph.name + "_S" + std::to_string(t) + "G0C" + std::to_string(i);
    }
  }
  for (std::size_t c = 0; c < kept.size(); ++c)
    kept[c].graph.tiling_key = static_cast<std::int64_t>(c);
  r.cases = std::move(kept);
  r.templates = std::move(templates);
}

void FillCaseLayout(const ScheduleResult& s, int case_index,
                    const std::vector<std::int64_t>& values, af_tiling::CaseParams* p) {
  const ImplCase& c = s.cases.at(static_cast<std::size_t>(case_index));
  const std::size_t n_dims = std::min<std::size_t>(s.dims.size(), af_tiling::kMaxDims);
  p->n_dims = static_cast<std::int32_t>(s.dims.size());
  p->tile_dim = c.tile_dim;
  for (std::size_t j = 0; j < n_dims; ++j)
    p->dims[j] = j < values.size() ? values[j] : 1;
  p->row_align = s.row_align;
  p->vec_align = s.vec_align_bytes;
  p->n_buffers = static_cast<std::int32_t>(s.buffers.size());
  for (std::size_t b = 0; b < s.buffers.size() && b < af_tiling::kMaxBuffers; ++b) {
    const Buffer& buf = s.buffers[b];
    p->buf_esize[b] = buf.esize;
    p->buf_num[b] = BufferUsedBy(buf, c.kind) ? buf.buf_num : 0;
    p->buf_one_mask[b] = buf.one_mask;
    p->buf_compact[b] = BufferCompact(buf, c.kind) ? 1 : 0;
    p->buf_run[b] = static_cast<std::int8_t>(BufferRun(buf, c.tile_dim));
    p->buf_part[b] = static_cast<std::int8_t>(buf.part);
  }
  p->compact = c.kind == CaseKind::kUnaligned ? 1 : 0;
  p->part_dim = s.parts.dim.value_or(-1);
  p->n_parts = static_cast<std::int32_t>(s.parts.lens.size());
  p->cat_inputs = s.parts.cat_inputs;
  if (s.parts.concat) {
    p->cat_esize = ir::DTypeBytes(
        s.graph.nodes[static_cast<std::size_t>(*s.parts.concat)].outputs.at(0).dtype);
  }
  p->cat_aligned_only = c.kind == CaseKind::kConcat ? 1 : 0;
  for (std::size_t k = 0; k < s.parts.lens.size() && k < af_tiling::kMaxParts; ++k) {
    const std::size_t v = s.dims.size() + k;
    p->part_len[k] = v < values.size() ? values[v] : 1;
  }
  // Then the fixed-size buffers' lengths, in buffer order.
  std::size_t v = s.dims.size() + s.parts.lens.size();
  for (std::size_t b = 0; b < s.buffers.size() && b < af_tiling::kMaxBuffers; ++b) {
    if (!s.buffers[b].fixed_elems) continue;
    p->buf_fixed[b] = v < values.size() ? values[v] : 1;
    ++v;
  }
}

}  // namespace af::schedule
