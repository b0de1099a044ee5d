// .npy reading and writing. The header is a Python dict literal; we parse the small subset NumPy
// writes (quoted strings, True/False, tuples of integers) by hand and reject everything else.
#include "autofuse/data/npy.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>

#include "autofuse/support/error.h"
#include "autofuse/support/file_write.h"

namespace af::data {
namespace {

using ir::DType;

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::size_t kMaxRank = 64;

[[noreturn]] void Fail(const std::string& name, const std::string& cause) {
  throw InputError(SourceLoc{name, 0, 0}, cause);
}

struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::int64_t>> shape;
};

// Parses the header dict `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

  Header Parse() {
    Header h;
    SkipSpace();
    Expect('{');
    while (true) {
      SkipSpace();
      if (Peek() == '}') break;
      const std::string key = ParseString();
      SkipSpace();
      Expect(':');
      SkipSpace();
      if (key == "descr") {
        if (Peek() == '[') Error("structured dtypes (a descr list) are not supported");
        if (h.descr) Error("duplicate key 'descr'");
        h.descr = ParseString();
      } else if (key == "fortran_order") {
        if (h.fortran_order) Error("duplicate key 'fortran_order'");
        h.fortran_order = ParseBool();
      } else if (key == "shape") {
        if (h.shape) Error("duplicate key 'shape'");
        h.shape = ParseShape();
      } else {
        Error("unexpected header key '" + key + "'");
      }
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      SkipSpace();
      if (Peek() != '}') Error("expected ',' or '}' in the header dict");
    }
    ++pos_;  // '}'
    SkipSpace();
    if (pos_ != s_.size()) Error("unexpected text after the header dict");
    if (!h.descr) Error("header lacks 'descr'");
    if (!h.fortran_order) Error("header lacks 'fortran_order'");
    if (!h.shape) Error("header lacks 'shape'");
    return h;
  }

 private:
  [[noreturn]] void Error(const std::string& cause) const {
    Fail(name_, "bad .npy header (at header byte " + std::to_string(pos_) + "): " + cause);
  }
  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])) != 0)
      ++pos_;
  }
  void Expect(char c) {
    if (Peek() != c) Error(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string ParseString() {
    const char q = Peek();
    if (q != '\'' && q != '"') Error("expected a quoted string");
    ++pos_;
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != q) {
      if (s_[pos_] == '\\') Error("escapes in header strings are not supported");
      out += s_[pos_++];
    }
    if (pos_ >= s_.size()) Error("unterminated string");
    ++pos_;
    return out;
  }
  bool ParseBool() {
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    Error("expected True or False");
  }
  std::vector<std::int64_t> ParseShape() {
    Expect('(');
    std::vector<std::int64_t> shape;
    while (true) {
      SkipSpace();
      if (Peek() == ')') break;
      if (Peek() == '-') Error("negative dimension in 'shape'");
      if (std::isdigit(static_cast<unsigned char>(Peek())) == 0) Error("expected a dimension");
      std::int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(Peek())) != 0) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, Peek() - '0', &v)) {
          Error("dimension too large");
        }
        ++pos_;
      }
      if (Peek() == 'L') ++pos_;  // Python 2 long suffix
      shape.push_back(v);
      if (shape.size() > kMaxRank) Error("more than 64 dimensions");
      SkipSpace();
      if (Peek() == ',') {
        ++pos_;
        continue;
      }
      if (Peek() != ')') Error("expected ',' or ')' in 'shape'");
    }
    ++pos_;
    return shape;
  }

  std::string_view s_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

// A descr's element type and whether its bytes are big-endian ('>' and, on a big-endian host, '=';
// we only build for little-endian hosts, checked below).
struct Descr {
  DType t = DType::kUndefined;
  bool big_endian = false;
};
static_assert(std::endian::native == std::endian::little,
              "the .npy reader assumes a little-endian host");

Descr ParseDescr(const std::string& descr, const std::string& name) {
  if (descr.size() < 3) Fail(name, "unsupported dtype '" + descr + "'");
  const char order = descr[0];
  const std::string code = descr.substr(1);
  if (order != '<' && order != '>' && order != '|' && order != '=') {
    Fail(name, "unsupported dtype '" + descr + "'");
  }
  struct Entry {
    const char* code;
    DType t;
  };
  static constexpr Entry kTable[] = {
      {"f2", DType::kFloat16}, {"f4", DType::kFloat32}, {"f8", DType::kFloat64},
      {"i1", DType::kInt8},    {"i2", DType::kInt16},   {"i4", DType::kInt32},
      {"i8", DType::kInt64},   {"u1", DType::kUInt8},   {"u2", DType::kUInt16},
      {"u4", DType::kUInt32},  {"u8", DType::kUInt64},  {"b1", DType::kBool},
  };
  for (const auto& e : kTable) {
    if (code != e.code) continue;
    // '|' (not applicable) only makes sense for one-byte types.
    if (order == '|' && ir::DTypeBytes(e.t) != 1) {
      Fail(name, "dtype '" + descr + "' has no byte order");
    }
    return Descr{e.t, order == '>' && ir::DTypeBytes(e.t) > 1};
  }
  Fail(name, "unsupported dtype '" + descr + "' (supported: f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)");
}

std::uint32_t ReadLE(std::string_view b, std::size_t at, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) {
    v = (v << 8) | static_cast<std::uint8_t>(b[at + static_cast<std::size_t>(i)]);
  }
  return v;
}

// Reverses the bytes of every `itemsize`-byte element (big-endian data to our little-endian).
void SwapBytes(std::vector<std::uint8_t>& bytes, std::size_t itemsize) {
  for (std::size_t at = 0; at + itemsize <= bytes.size(); at += itemsize) {
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                 bytes.begin() + static_cast<std::ptrdiff_t>(at + itemsize));
  }
}

// Fortran-ordered data (the first index varies fastest) to C order (the last varies fastest):
// walks the C-order index like an odometer, keeping the matching Fortran offset.
std::vector<std::uint8_t> FortranToC(const std::vector<std::uint8_t>& f,
                                     const std::vector<std::int64_t>& shape, std::size_t itemsize) {
  std::vector<std::uint8_t> c(f.size());
  const std::size_t rank = shape.size();
  if (rank < 2 || f.empty()) return f;
  std::vector<std::int64_t> fstride(rank, 1);  // Fortran strides, in elements
  for (std::size_t d = 1; d < rank; ++d)
    fstride[d] = fstride[d - 1] * shape[d - 1];
  std::vector<std::int64_t> idx(rank, 0);
  std::int64_t foff = 0;
  const std::size_t n = f.size() / itemsize;
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(&c[i * itemsize], &f[static_cast<std::size_t>(foff) * itemsize], itemsize);
    for (std::size_t d = rank; d-- > 0;) {  // odometer step over the C-order index
      foff += fstride[d];
      if (++idx[d] < shape[d]) break;
      foff -= fstride[d] * shape[d];
      idx[d] = 0;
    }
  }
  return c;
}

}  // namespace

std::string NpyDescr(ir::DType t) {
  switch (t) {
    case DType::kFloat32:
    case DType::kBFloat16:
      return "<f4";
    case DType::kFloat16:
      return "<f2";
    case DType::kFloat64:
      return "<f8";
    case DType::kInt8:
      return "|i1";
    case DType::kInt16:
      return "<i2";
    case DType::kInt32:
      return "<i4";
    case DType::kInt64:
      return "<i8";
    case DType::kUInt8:
      return "|u1";
    case DType::kUInt16:
      return "<u2";
    case DType::kUInt32:
      return "<u4";
    case DType::kUInt64:
      return "<u8";
    case DType::kBool:
      return "|b1";
    case DType::kUndefined:
      break;
  }
  throw std::invalid_argument("no .npy dtype for an undefined dtype");
}

HostArray DecodeNpy(std::string_view b, const std::string& name, std::optional<ir::DType> want) {
  if (b.size() < kMagicLen + 2 || std::memcmp(b.data(), kMagic, kMagicLen) != 0) {
    Fail(name, "not a .npy file (bad magic)");
  }
  const int major = static_cast<std::uint8_t>(b[6]);
  const int minor = static_cast<std::uint8_t>(b[7]);
  if (major < 1 || major > 3 || minor != 0) {
    Fail(name,
         "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t prefix = kMagicLen + 2 + len_bytes;
  if (b.size() < prefix) Fail(name, "truncated .npy header length");
  const std::size_t header_len = ReadLE(b, kMagicLen + 2, static_cast<int>(len_bytes));
  if (header_len > kMaxNpyHeaderBytes) {
    Fail(name, "header length " + std::to_string(header_len) + " exceeds the limit of " +
                   std::to_string(kMaxNpyHeaderBytes) + " bytes");
  }
  if (b.size() - prefix < header_len) {
    Fail(name, "truncated .npy header: " + std::to_string(header_len) + " bytes announced, " +
                   std::to_string(b.size() - prefix) + " present");
  }
  const Header h = HeaderParser(b.substr(prefix, header_len), name).Parse();

  HostArray a;
  const Descr descr = ParseDescr(*h.descr, name);
  a.dtype = descr.t;
  a.shape = *h.shape;
  std::int64_t n = 0;
  std::int64_t nbytes = 0;
  try {
    n = a.numel();
  } catch (const std::invalid_argument& e) {
    Fail(name, e.what());
  }
  if (__builtin_mul_overflow(n, static_cast<std::int64_t>(a.itemsize()), &nbytes)) {
    Fail(name, "data size of shape " + ShapeToString(a.shape) + " overflows");
  }
  const std::size_t have = b.size() - prefix - header_len;
  if (have != static_cast<std::uint64_t>(nbytes)) {
    Fail(name, "data is " + std::to_string(have) + " bytes, but " + std::string(*h.descr) +
                   " shape " + ShapeToString(a.shape) + " needs " + std::to_string(nbytes));
  }
  const auto* data = reinterpret_cast<const std::uint8_t*>(b.data() + prefix + header_len);
  a.bytes.assign(data, data + have);
  if (descr.big_endian) SwapBytes(a.bytes, static_cast<std::size_t>(a.itemsize()));
  if (*h.fortran_order)
    a.bytes = FortranToC(a.bytes, a.shape, static_cast<std::size_t>(a.itemsize()));
  if (a.dtype == DType::kBool) {
    for (auto& v : a.bytes)
      v = v != 0 ? 1 : 0;  // any nonzero byte is True to NumPy
  }
  if (want && *want != a.dtype) return Convert(a, *want);
  return a;
}

HostArray ReadNpy(const std::string& path, std::optional<ir::DType> want) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(path, "cannot open the file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) Fail(path, "error while reading the file");
  return DecodeNpy(bytes, path, want);
}

std::string EncodeNpy(const HostArray& a) {
  const HostArray* src = &a;
  HostArray widened;
  if (a.dtype == DType::kBFloat16) {
    widened = Convert(a, DType::kFloat32);
    src = &widened;
  }
  if (static_cast<std::int64_t>(src->bytes.size()) != src->numel() * src->itemsize()) {
    throw std::invalid_argument("array bytes do not match its shape " + ShapeToString(a.shape));
  }
  std::string dict = "{'descr': '" + NpyDescr(a.dtype) +
                     "', 'fortran_order': False, 'shape': " + ShapeToString(a.shape) + ", }";
  // Pad with spaces and end with '\n' so the data starts at a multiple of 64 bytes. Version 1.0
  // has a 16-bit header length; longer headers (huge ranks) need 2.0.
  const auto padded = [&](std::size_t prefix) {
    return (prefix + dict.size() + 1 + 63) / 64 * 64 - prefix;
  };
  int major = 1;
  std::size_t prefix = kMagicLen + 2 + 2;
  if (padded(prefix) > 65535) {
    major = 2;
    prefix = kMagicLen + 2 + 4;
  }
  const std::size_t header_len = padded(prefix);
  dict.append(header_len - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicLen);
  out += static_cast<char>(major);
  out += '\0';
  const std::size_t hl = dict.size();
  for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) {
    out += static_cast<char>((hl >> (8 * i)) & 0xFF);
  }
  out += dict;
  out.append(reinterpret_cast<const char*>(src->bytes.data()), src->bytes.size());
  return out;
}

void WriteNpy(const std::string& path, const HostArray& a) {
  WriteFileReplacing(path, EncodeNpy(a));  // never a half-written .npy
}

}  // namespace af::data
