// Streaming field-level reader of protobuf text format (pb_text_stream.h).
#include "pb_text_stream.h"

#include <fcntl.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace af::importers::ge {
namespace {

constexpr std::size_t kPiece = std::size_t{1} << 20;
constexpr int kMaxNesting = 1000;  // brackets inside one captured value

class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int at_line, google::protobuf::io::ColumnNumber column,
                const std::string& what) override {
    if (!has) {
      has = true;
      line = at_line;
      col = column;
      message = what;
    }
  }
  void AddWarning(int /*line*/, google::protobuf::io::ColumnNumber /*column*/,
                  const std::string& /*message*/) override {}
  bool has = false;
  int line = 0;
  int col = 0;
  std::string message;
};

bool IsIdentStart(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdent(int c) {
  return IsIdentStart(c) || (c >= '0' && c <= '9');
}
bool IsSpace(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
int CloserOf(int open) {
  return open == '{' ? '}' : open == '<' ? '>' : ']';
}
std::string Shown(int c) {
  if (c < 0) return "the end of the input";
  if (c >= 32 && c < 127) return std::string("'") + static_cast<char>(c) + "'";
  return "byte " + std::to_string(c);
}

}  // namespace

void Chunk::clear() {
  text.clear();
  lines.clear();
  text_lines = 0;
}

int Chunk::FileLine(int text_line) const {
  int file_line = 0;
  for (const auto& [t, f] : lines) {
    if (t > text_line) break;
    file_line = f + (text_line - t);
  }
  return file_line;
}

void ParseChunk(const Chunk& c, google::protobuf::Message* msg, const std::string& file,
                const std::string& what) {
  FirstError err;
  google::protobuf::TextFormat::Parser p;
  p.RecordErrorsTo(&err);
  p.AllowUnknownField(true);
  p.AllowUnknownExtension(true);
  p.SetRecursionLimit(200);
  if (!p.ParseFromString(c.text, msg) || err.has) {
    const int line = err.has ? c.FileLine(err.line) : (c.lines.empty() ? 0 : c.lines[0].second);
    throw InputError(SourceLoc{file, line, 0},
                     what + ": " + (err.has ? err.message : std::string("unreadable")));
  }
}

PbTextStream::PbTextStream(std::function<std::size_t(char*, std::size_t)> read, std::string file)
    : read_(std::move(read)), file_(std::move(file)), buf_(kPiece) {}

int PbTextStream::Peek() {
  if (pos_ == len_) {
    if (eof_) return -1;
    len_ = read_(buf_.data(), buf_.size());
    pos_ = 0;
    if (len_ == 0) {
      eof_ = true;
      return -1;
    }
  }
  return static_cast<unsigned char>(buf_[pos_]);
}

int PbTextStream::Get() {
  const int c = Peek();
  if (c < 0) return c;
  ++pos_;
  if (c == '\n') ++line_;
  if (capture_ != nullptr) Append(c);
  return c;
}

void PbTextStream::Append(int c) {
  capture_->text.push_back(static_cast<char>(c));
  if (c == '\n') ++capture_->text_lines;
}

void PbTextStream::Fail(const std::string& why) const {
  throw InputError(SourceLoc{file_, line_, 0}, why);
}

void PbTextStream::SkipSpace() {
  for (;;) {
    const int c = Peek();
    if (c == '#') {
      while (Peek() >= 0 && Peek() != '\n')
        Get();
    } else if (c >= 0 && IsSpace(c)) {
      Get();
    } else {
      return;
    }
  }
}

bool PbTextStream::NextField(std::string* name, int* line) {
  if (pending_) Fail("internal: field '" + pending_name_ + "' was neither entered nor read");
  SkipSpace();
  int c = Peek();
  if (!open_.empty() && c == open_.back()) {
    Get();
    open_.pop_back();
    SkipSpace();
    if (Peek() == ',' || Peek() == ';') Get();
    return false;
  }
  if (c < 0) {
    if (!open_.empty()) {
      Fail("the input ends inside a message (" + std::to_string(open_.size()) +
           " level(s) not closed)");
    }
    return false;
  }
  field_line_ = line_;
  std::string n;
  if (c == '[') {  // extension or Any type URL
    while ((c = Get()) != ']') {
      if (c < 0 || c == '\n') Fail("an extension name `[` is never closed");
      n.push_back(static_cast<char>(c));
      if (n.size() > 4096) Fail("an extension name is too long");
    }
    n = "[" + n + "]";
  } else if (IsIdentStart(c)) {
    while (Peek() >= 0 && IsIdent(Peek()))
      n.push_back(static_cast<char>(Get()));
  } else {
    Fail("expected a field name, found " + Shown(c));
  }
  SkipSpace();
  if (Peek() == ':') {
    Get();
    SkipSpace();
    n_colon_ = true;
  } else {
    n_colon_ = false;
  }
  pending_ = true;
  pending_name_ = n;
  *name = n;
  *line = field_line_;
  return true;
}

bool PbTextStream::FieldIsMessage() {
  const int c = Peek();
  return c == '{' || c == '<';
}

void PbTextStream::Enter() {
  const int c = Peek();
  if (c != '{' && c != '<') Fail("field '" + pending_name_ + "' is not a message");
  Get();
  open_.push_back(static_cast<char>(CloserOf(c)));
  if (open_.size() > static_cast<std::size_t>(kMaxNesting)) Fail("messages nested too deeply");
  pending_ = false;
}

void PbTextStream::Capture(Chunk* out) {
  if (!out->text.empty()) Append(out, '\n');
  out->lines.emplace_back(out->text_lines, field_line_);
  out->text += pending_name_;
  out->text += n_colon_ ? ": " : " ";
  capture_ = out;
  try {
    ReadValue();
  } catch (...) {
    capture_ = nullptr;
    throw;
  }
  capture_ = nullptr;
}

void PbTextStream::Skip() {
  ReadValue();
}

void PbTextStream::Append(Chunk* out, int c) {
  out->text.push_back(static_cast<char>(c));
  if (c == '\n') ++out->text_lines;
}

void PbTextStream::ReadValue() {
  pending_ = false;
  const int c = Peek();
  if (c == '{' || c == '<' || c == '[') {
    ReadBalanced(c);
  } else if (c == '"' || c == '\'') {
    ReadString(c);
    for (;;) {  // adjacent strings concatenate
      Chunk* cap = capture_;
      capture_ = nullptr;
      SkipSpace();
      capture_ = cap;
      if (Peek() != '"' && Peek() != '\'') break;
      if (capture_ != nullptr) Append(capture_, ' ');
      ReadString(Peek());
    }
  } else {
    std::size_t n = 0;
    for (int d = Peek();
         d >= 0 && !IsSpace(d) &&
         std::string_view("{}<>[],;:#\"'").find(static_cast<char>(d)) == std::string_view::npos;
         d = Peek()) {
      Get();
      if (++n > 4096) Fail("a value of more than 4096 characters");
    }
    if (n == 0) Fail("field '" + pending_name_ + "' has no value, found " + Shown(Peek()));
  }
  Chunk* cap = capture_;
  capture_ = nullptr;
  SkipSpace();
  if (Peek() == ',' || Peek() == ';') Get();
  capture_ = cap;
}

void PbTextStream::ReadString(int quote) {
  const int start = line_;
  Get();
  for (;;) {
    const int c = Get();
    if (c < 0 || c == '\n') {
      throw InputError(SourceLoc{file_, start, 0}, "a string is never closed");
    }
    if (c == '\\') {
      if (Get() < 0) throw InputError(SourceLoc{file_, start, 0}, "a string is never closed");
    } else if (c == quote) {
      return;
    }
  }
}

void PbTextStream::ReadBalanced(int open) {
  const int start = line_;
  std::vector<char> want;
  Get();
  want.push_back(static_cast<char>(CloserOf(open)));
  while (!want.empty()) {
    const int c = Peek();
    if (c < 0) {
      throw InputError(
          SourceLoc{file_, start, 0},
          std::string("a value opened with '") + static_cast<char>(open) + "' is never closed");
    }
    if (c == '"' || c == '\'') {
      ReadString(c);
    } else if (c == '#') {
      while (Peek() >= 0 && Peek() != '\n')
        Get();
    } else if (c == '{' || c == '<' || c == '[') {
      Get();
      want.push_back(static_cast<char>(CloserOf(c)));
      if (want.size() > static_cast<std::size_t>(kMaxNesting)) Fail("values nested too deeply");
    } else if (c == '}' || c == '>' || c == ']') {
      if (c != want.back()) {
        Fail(std::string("found '") + static_cast<char>(c) + "' where '" + want.back() +
             "' closes the value");
      }
      Get();
      want.pop_back();
    } else {
      Get();
    }
  }
}

PbTextFile::PbTextFile(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY);
  if (fd_ < 0) throw InputError(SourceLoc{path_, 0, 0}, "cannot read the file");
}

PbTextFile::~PbTextFile() {
  ::close(fd_);
}

std::size_t PbTextFile::Read(char* buf, std::size_t n) {
  for (;;) {
    const ssize_t k = ::read(fd_, buf, n);
    if (k >= 0) return static_cast<std::size_t>(k);
    if (errno != EINTR) throw InputError(SourceLoc{path_, 0, 0}, "cannot read the file");
  }
}

std::string PbTextFile::Head(std::size_t n) const {
  std::string head(n, '\0');
  const ssize_t k = ::pread(fd_, head.data(), head.size(), 0);
  head.resize(k > 0 ? static_cast<std::size_t>(k) : 0);
  return head;
}

}  // namespace af::importers::ge
