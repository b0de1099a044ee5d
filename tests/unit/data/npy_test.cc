// .npy files: our round trips for every dtype, files written by real NumPy (v1.0/2.0/3.0),
// files we write read back by NumPy, and damaged files (which must throw InputError naming the
// file, never crash).
#include "autofuse/data/npy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "autofuse/support/error.h"
#include "fixtures.h"
#include "numpy_runner.h"

namespace af::data {
namespace {

using ir::DType;
using ::testing::HasSubstr;

const DType kAllDtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64,
                            DType::kInt8,    DType::kInt16,   DType::kInt32,    DType::kInt64,
                            DType::kUInt8,   DType::kUInt16,  DType::kUInt32,   DType::kUInt64,
                            DType::kBool};

void WriteBytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Expects DecodeNpy to throw an InputError naming `name` whose cause contains `cause`.
void ExpectBad(const std::string& bytes, const std::string& cause) {
  try {
    DecodeNpy(bytes, "bad.npy");
    ADD_FAILURE() << "no error; expected: " << cause;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "bad.npy");
    EXPECT_THAT(e.cause(), HasSubstr(cause));
  }
}

std::string Header(const std::string& dict, int major = 1) {
  std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const std::size_t n = dict.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + dict;
}

TEST(Npy, RoundTripsEveryDtype) {
  const auto dir = test::TempDir("npy_roundtrip");
  for (DType t : kAllDtypes) {
    for (const std::vector<std::int64_t>& shape :
         {std::vector<std::int64_t>{}, {7}, {2, 3, 5}, {0, 4}}) {
      const HostArray a = RandomArray(t, shape, 11, -100, 100);
      const std::string bytes = EncodeNpy(a);
      EXPECT_EQ(bytes.size() % 64, (a.bytes.size() * (t == DType::kBFloat16 ? 2 : 1)) % 64);
      const HostArray b = DecodeNpy(bytes, "mem", t);
      EXPECT_EQ(a, b) << ir::DTypeName(t) << " " << ShapeToString(shape);
      const auto path = (dir / (std::string(ir::DTypeName(t)) + ".npy")).string();
      WriteNpy(path, a);
      EXPECT_EQ(ReadNpy(path, t), a);
    }
  }
}

TEST(Npy, Bf16TravelsAsFloat32) {
  const HostArray a = FromDoubles(DType::kBFloat16, {3}, {1.5, -0.400390625, 3e38});
  const HostArray f = DecodeNpy(EncodeNpy(a), "mem");
  EXPECT_EQ(f.dtype, DType::kFloat32);
  EXPECT_EQ(ToDoubles(f), ToDoubles(a));
  EXPECT_EQ(DecodeNpy(EncodeNpy(a), "mem", DType::kBFloat16), a);
  EXPECT_EQ(NpyDescr(DType::kBFloat16), "<f4");
}

TEST(Npy, ReadsWhatNumpyWrites) {
  const auto dir = test::TempDir("npy_numpy");
  ASSERT_EQ(test::RunNumpy(dir, R"(
codes = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8']
for c in codes:
    a = (np.arange(24) - (0 if c[0] == 'u' else 11)).reshape(2, 3, 4).astype(c)
    np.save(c + '.npy', a)
np.save('b1.npy', (np.arange(6) % 3 == 0).reshape(3, 2))
np.save('scalar.npy', np.float32(3.5))
np.save('empty.npy', np.zeros((0, 3), np.int16))
np.save('frac.npy', np.array([0.1, -2.5, 1e-8], np.float32))
with open('v2.npy', 'wb') as f:
    np.lib.format.write_array(f, np.arange(5, dtype=np.int32), version=(2, 0))
with open('v3.npy', 'wb') as f:
    np.lib.format.write_array(f, np.arange(5, dtype=np.float64), version=(3, 0))
np.save('structured.npy', np.zeros(2, dtype=[('a', '<i4'), ('b', '<f4')]))
np.save('complex.npy', np.zeros(2, dtype=np.complex64))
)"),
            "");
  const std::pair<const char*, DType> codes[] = {
      {"f2", DType::kFloat16}, {"f4", DType::kFloat32}, {"f8", DType::kFloat64},
      {"i1", DType::kInt8},    {"i2", DType::kInt16},   {"i4", DType::kInt32},
      {"i8", DType::kInt64},   {"u1", DType::kUInt8},   {"u2", DType::kUInt16},
      {"u4", DType::kUInt32},  {"u8", DType::kUInt64}};
  for (const auto& [code, t] : codes) {
    const HostArray a = ReadNpy((dir / (std::string(code) + ".npy")).string());
    EXPECT_EQ(a.dtype, t) << code;
    EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3, 4})) << code;
    const double base = code[0] == 'u' ? 0 : -11;
    for (std::int64_t i = 0; i < 24; ++i) {
      EXPECT_EQ(a.GetAsDouble(i), base + static_cast<double>(i)) << code << " " << i;
    }
  }
  const HostArray b = ReadNpy((dir / "b1.npy").string());
  EXPECT_EQ(b.dtype, DType::kBool);
  EXPECT_EQ(b.shape, (std::vector<std::int64_t>{3, 2}));
  EXPECT_EQ(b.bytes, (std::vector<std::uint8_t>{1, 0, 0, 1, 0, 0}));
  const HostArray s = ReadNpy((dir / "scalar.npy").string());
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.GetAsDouble(0), 3.5);
  const HostArray e = ReadNpy((dir / "empty.npy").string());
  EXPECT_EQ(e.shape, (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(e.dtype, DType::kInt16);
  const HostArray frac = ReadNpy((dir / "frac.npy").string(), DType::kBFloat16);
  EXPECT_EQ(frac.dtype, DType::kBFloat16);
  EXPECT_EQ(frac.GetAsDouble(1), -2.5);
  const HostArray v2 = ReadNpy((dir / "v2.npy").string());
  EXPECT_EQ(ToDoubles(v2), (std::vector<double>{0, 1, 2, 3, 4}));
  const HostArray v3 = ReadNpy((dir / "v3.npy").string());
  EXPECT_EQ(ToDoubles(v3), (std::vector<double>{0, 1, 2, 3, 4}));

  const auto expect_error = [&](const char* file, const std::string& cause) {
    const std::string path = (dir / file).string();
    try {
      ReadNpy(path);
      ADD_FAILURE() << file << ": no error";
    } catch (const InputError& err) {
      EXPECT_EQ(err.loc().file, path);
      EXPECT_THAT(err.cause(), HasSubstr(cause)) << file;
    }
  };
  expect_error("structured.npy", "structured");
  expect_error("complex.npy", "unsupported dtype '<c8'");
  expect_error("missing.npy", "cannot open");
}

TEST(Npy, NumpyReadsWhatWeWrite) {
  const auto dir = test::TempDir("npy_ours");
  for (DType t : kAllDtypes) {
    HostArray a = Zeros(t, {2, 3});
    for (std::int64_t i = 0; i < 6; ++i)
      a.SetFromDouble(i, static_cast<double>(i % 2 == 0 ? i : 0));
    WriteNpy((dir / (std::string(ir::DTypeName(t)) + ".npy")).string(), a);
  }
  WriteNpy((dir / "scalar.npy").string(), FromDoubles(DType::kFloat64, {}, {2.5}));
  ASSERT_EQ(test::RunNumpy(dir, R"(
want = {'fp32': 'float32', 'fp16': 'float16', 'bf16': 'float32', 'fp64': 'float64',
        'int8': 'int8', 'int16': 'int16', 'int32': 'int32', 'int64': 'int64', 'uint8': 'uint8',
        'uint16': 'uint16', 'uint32': 'uint32', 'uint64': 'uint64', 'bool': 'bool'}
for name, dt in want.items():
    a = np.load(name + '.npy')
    assert a.dtype == np.dtype(dt), (name, a.dtype)
    assert a.shape == (2, 3), (name, a.shape)
    expect = np.array([0, 0, 2, 0, 4, 0]).reshape(2, 3).astype(dt)
    assert (a == expect).all(), (name, a)
s = np.load('scalar.npy')
assert s.shape == () and s == 2.5
)"),
            "");
}

// Every standard form NumPy writes that is not little-endian C order: Fortran order (what a
// transposed result saves as), big-endian dtypes, bool in both, every header version, and all of
// them combined; each must read back equal, element for element, to the C-order array.
TEST(Npy, ReadsFortranOrderBigEndianAndEveryHeaderVersion) {
  const auto dir = test::TempDir("npy_forms");
  ASSERT_EQ(test::RunNumpy(dir, R"(
codes = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'b1']
shapes = [(7,), (2, 3), (3, 1, 5), (2, 3, 4, 5), (1, 1), (0, 3)]
def value(c, shape):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    if c == 'b1':
        return (a % 3 == 1)
    return (a - (0 if c[0] == 'u' else 7)).astype(c)
with open('list.txt', 'w') as listing:
    for c in codes:
        for shape in shapes:
            base = value(c, shape)
            tag = c + '_' + 'x'.join(map(str, shape))
            np.save(tag + '_c.npy', base)
            np.save(tag + '_f.npy', np.asfortranarray(base))
            np.save(tag + '_t.npy', np.ascontiguousarray(base.T).T)  # a transposed result
            if c not in ('i1', 'u1', 'b1'):
                be = base.astype('>' + c)
                np.save(tag + '_be.npy', be)
                np.save(tag + '_bef.npy', np.asfortranarray(be))
            for v in ((1, 0), (2, 0), (3, 0)):
                with open(tag + '_v%d.npy' % v[0], 'wb') as f:
                    np.lib.format.write_array(f, np.asfortranarray(base), version=v)
            listing.write(tag + '\n')
)"),
            "");
  std::ifstream listing(dir / "list.txt");
  std::string tag;
  int checked = 0;
  while (std::getline(listing, tag)) {
    const HostArray c = ReadNpy((dir / (tag + "_c.npy")).string());
    for (const char* form : {"_f", "_t", "_be", "_bef", "_v1", "_v2", "_v3"}) {
      const auto path = dir / (tag + form + ".npy");
      if (!std::filesystem::exists(path)) continue;
      EXPECT_EQ(ReadNpy(path.string()), c) << tag << form;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 12 * 6 * 5 + 9 * 6 * 2);
  // Big-endian bytes by hand: '>i4' 1, 256 and -2 read as themselves.
  const std::string be_data("\x00\x00\x00\x01\x00\x00\x01\x00\xff\xff\xff\xfe", 12);
  EXPECT_EQ(
      ToDoubles(DecodeNpy(
          Header("{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }") + be_data, "be")),
      (std::vector<double>{1, 256, -2}));
  // Fortran order by hand: shape (2, 3) stored column by column.
  const std::string f_data("\x00\x03\x01\x04\x02\x05", 6);
  EXPECT_EQ(
      ToDoubles(DecodeNpy(
          Header("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }") + f_data, "f")),
      (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

TEST(Npy, DamagedFilesThrowInputError) {
  const std::string good = EncodeNpy(FromDoubles(DType::kFloat32, {2, 2}, {1, 2, 3, 4}));
  ExpectBad("", "bad magic");
  ExpectBad("\x93NUMPX\x01\x00", "bad magic");
  ExpectBad(std::string("\x93NUMPY\x04\x00", 8), "version 4.0");
  ExpectBad(std::string("\x93NUMPY\x01\x00\x10", 9), "truncated .npy header length");
  ExpectBad(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12), "exceeds the limit");
  ExpectBad(good.substr(0, 40), "truncated .npy header");
  ExpectBad(good.substr(0, good.size() - 1), "data is 15 bytes");
  ExpectBad(good + "x", "data is 17 bytes");
  const std::string data4(16, '\0');
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }") + data4,
            "data is 16 bytes, but <f4 shape (2, 3) needs 24");
  ExpectBad(Header("{'descr': '>f4', 'fortran_order': False, 'shape': (5,), }") + data4,
            "data is 16 bytes");
  ExpectBad(Header("{'descr': '>c8', 'fortran_order': False, 'shape': (2,), }") + data4,
            "unsupported dtype '>c8'");
  ExpectBad(Header("{'descr': '<f4', 'shape': (2, 2), }") + data4, "lacks 'fortran_order'");
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -2), }"), "negative");
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)") + data4,
            "expected ',' or '}'");
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 2), }"), "True or False");
  ExpectBad(Header("{'descr': '<x4', 'fortran_order': False, 'shape': (4,), }") + data4,
            "unsupported dtype");
  ExpectBad(Header("{'descr': '|f4', 'fortran_order': False, 'shape': (4,), }") + data4,
            "no byte order");
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
            "too large");
  ExpectBad(Header("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4)}"),
            "overflow");
  ExpectBad(Header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1}") + data4,
            "unexpected header key");
  // Through a file: the message starts with the path.
  const auto dir = test::TempDir("npy_damaged");
  WriteBytes(dir / "short.npy", good.substr(0, good.size() - 4));
  try {
    ReadNpy((dir / "short.npy").string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("short.npy: data is 12 bytes, but <f4 shape (2, 2) needs 16"));
  }
  // v2 header with the same dict reads fine.
  EXPECT_EQ(DecodeNpy(Header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 2) +
                          good.substr(good.size() - 16),
                      "v2")
                .GetAsDouble(3),
            4.0);
}

TEST(Npy, EveryTruncationAndRandomCorruptionFailsCleanly) {
  const std::string good = EncodeNpy(RandomArray(DType::kInt16, {3, 5}, 3, -9, 9));
  for (std::size_t len = 0; len < good.size(); ++len) {
    EXPECT_THROW(DecodeNpy(good.substr(0, len), "cut.npy"), InputError) << len;
  }
  std::mt19937 gen(99);
  int ok = 0;
  int errors = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string bad = good;
    const int flips = 1 + static_cast<int>(gen() % 4);
    for (int f = 0; f < flips; ++f) {
      // Corrupt the magic, version, length and header mostly; the data bytes cannot fail.
      const std::size_t at = gen() % bad.size();
      bad[at] = static_cast<char>(gen() & 0xFF);
    }
    try {
      DecodeNpy(bad, "flip.npy");
      ++ok;
    } catch (const InputError&) {
      ++errors;
    }
  }
  EXPECT_EQ(ok + errors, 20000);
  EXPECT_GT(errors, 10000);
}

}  // namespace
}  // namespace af::data
