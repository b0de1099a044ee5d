// A streaming reader of protobuf text format at the field level, for dumps too large to parse as
// one message (ge_onnx_*.pbtxt, ge_proto_*.txt of real networks reach hundreds of MB). It pulls the
// input in 1 MiB pieces and walks the fields of one message level at a time: the caller either
// enters a message field (its fields are read next) or captures the field's text into a Chunk,
// which protobuf's TextFormat then parses as a small message. Memory is the largest captured
// field, not the file. Only the lexical structure is checked here (strings, brackets, field
// names); values are checked by TextFormat when a chunk is parsed. Errors: InputError file:line.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autofuse/support/error.h"

namespace google::protobuf {
class Message;
}

namespace af::importers::ge {

// Captured field texts with the file line each starts on (TextFormat errors map back through it).
struct Chunk {
  std::string text;
  std::vector<std::pair<int, int>> lines;  // (line in text, 0-based; line in file, 1-based)
  int text_lines = 0;                      // newlines in text so far
  bool empty() const { return text.empty(); }
  void clear();
  int FileLine(int text_line) const;  // 0-based text line -> 1-based file line
};

// Parses `c` into `msg` (unknown fields allowed, recursion limit 200); throws InputError at the
// file line of the first error, prefixed with `what`.
void ParseChunk(const Chunk& c, google::protobuf::Message* msg, const std::string& file,
                const std::string& what);

// A dump file read in pieces (PbTextStream's input); closed on destruction. Errors are
// InputErrors naming the file.
class PbTextFile {
 public:
  explicit PbTextFile(std::string path);
  ~PbTextFile();
  PbTextFile(const PbTextFile&) = delete;
  PbTextFile& operator=(const PbTextFile&) = delete;
  // Reads up to n bytes into buf; 0 at the end of the file.
  std::size_t Read(char* buf, std::size_t n);
  // The first n bytes (fewer for a shorter file), without moving the read position.
  std::string Head(std::size_t n) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

class PbTextStream {
 public:
  // `read` fills up to n bytes into buf and returns how many (0 = end of input).
  PbTextStream(std::function<std::size_t(char*, std::size_t)> read, std::string file);

  // The next field of the current level: its name ("node", "[ext.name]") and 1-based line.
  // False at the end of the level (its closing bracket is consumed) or, at the top level, at the
  // end of the input. A field must be followed by Enter(), Capture() or Skip().
  bool NextField(std::string* name, int* line);
  // True when the field just named is a message (`{`, `<`, `: {`).
  bool FieldIsMessage();
  // Enters the message field just named: NextField then reads its fields.
  void Enter();
  // Appends the whole field (name, value) to `out`.
  void Capture(Chunk* out);
  // Reads past the field's value.
  void Skip();
  int depth() const { return static_cast<int>(open_.size()); }
  const std::string& file() const { return file_; }

 private:
  int Peek();  // -1 at the end
  int Get();
  void SkipSpace();
  [[noreturn]] void Fail(const std::string& why) const;
  void ReadValue();  // the value after a field name (and ':'), appended to the capture when on
  void ReadString(int quote);
  void ReadBalanced(int open);
  void Append(int c);
  static void Append(Chunk* out, int c);

  std::function<std::size_t(char*, std::size_t)> read_;
  std::string file_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
  bool eof_ = false;
  int line_ = 1;
  int field_line_ = 0;
  std::vector<char> open_;    // closing brackets of the entered levels
  Chunk* capture_ = nullptr;  // where consumed characters go while capturing
  bool pending_ = false;      // a field was named and not yet entered/captured/skipped
  bool n_colon_ = false;      // the field name was followed by ':'
  std::string pending_name_;
};

}  // namespace af::importers::ge
