// NumPy .npy files: how test inputs and expected outputs travel between Python (torch / numpy
// references) and our tools. We read format versions 1.0, 2.0 and 3.0, C or Fortran order
// (Fortran data, what NumPy writes for a transposed result, is reordered to C order on load),
// little or big endian (big-endian data is byte-swapped on load), with the dtypes
//   f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1   (byte order '<', '>', '=' or, for one byte, '|').
// We write 1.0 (2.0 when the header needs it), little endian, C order.
// NumPy has no bfloat16: by contract a bf16 array travels as float32 holding exact bf16 values,
// so WriteNpy writes bf16 as <f4 and ReadNpy(path, DType::kBFloat16) converts back (RNE, exact
// for such files). Reading never trusts the file: a bad magic, version, header (length bounded),
// dtype, shape or data size throws af::InputError naming the file and the cause.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "autofuse/data/host_array.h"
#include "autofuse/ir/dtype.h"

namespace af::data {

// The largest header we accept (NumPy itself refuses headers over 10000 bytes by default).
inline constexpr std::size_t kMaxNpyHeaderBytes = 1 << 20;

// Reads `path`; when `want` is given the array is converted to it (Convert's rules).
HostArray ReadNpy(const std::string& path, std::optional<ir::DType> want = std::nullopt);
// Decodes the bytes of a .npy file; `name` is used in error messages.
HostArray DecodeNpy(std::string_view b, const std::string& name,
                    std::optional<ir::DType> want = std::nullopt);

// Writes `a` (bf16 as float32). Throws af::InputError when the file cannot be written.
void WriteNpy(const std::string& path, const HostArray& a);
// The bytes WriteNpy writes.
std::string EncodeNpy(const HostArray& a);

// The NumPy descr ("<f4", "|b1", ...) for a dtype; bf16 gives "<f4". Throws std::invalid_argument
// for kUndefined.
std::string NpyDescr(ir::DType t);

}  // namespace af::data
