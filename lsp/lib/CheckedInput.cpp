//===- CheckedInput.cpp - JSON-RPC messages checked before dispatch -------===//
#include "ExecutorLsp/CheckedInput.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Logging.h"

#include <cerrno>
#include <cstring>

using namespace executor_studio::lsp;
using namespace llvm;

namespace {
/// A strict JSON syntax check that builds nothing, limits the nesting, and
/// remembers where the top-level members `jsonrpc`, `method` and `id` are.
class MessageScanner {
public:
  explicit MessageScanner(StringRef text)
      : cur(text.begin()), end(text.end()) {}

  /// Scans the whole message; on failure `error` says why.
  bool scan() {
    skipSpace();
    if (cur != end && *cur != '{') {
      // Valid JSON of another kind is an invalid request, not a parse error.
      isObject = false;
      if (!scanValue(/*depth=*/0))
        return false;
      skipSpace();
      if (cur != end)
        return fail("unexpected text after the message");
      return fail("a JSON-RPC message must be an object");
    }
    if (cur == end)
      return fail("empty message");
    if (!scanObject(/*depth=*/1, /*topLevel=*/true))
      return false;
    skipSpace();
    if (cur != end)
      return fail("unexpected text after the message");
    return true;
  }

  std::string error;
  bool tooDeep = false;
  /// Whether the message is an object (when it is valid JSON).
  bool isObject = true;
  /// The raw text of each member, when present.
  std::optional<StringRef> jsonrpc, method, id;

private:
  bool fail(const Twine &message) {
    if (error.empty())
      error = message.str();
    return false;
  }
  void skipSpace() {
    while (cur != end &&
           (*cur == ' ' || *cur == '\t' || *cur == '\n' || *cur == '\r'))
      ++cur;
  }
  bool expect(char c) {
    skipSpace();
    if (cur == end || *cur != c)
      return fail(Twine("expected '") + Twine(c) + "'");
    ++cur;
    return true;
  }

  bool scanString() {
    // At the opening quote.
    ++cur;
    while (cur != end) {
      unsigned char c = *cur++;
      if (c == '"')
        return true;
      if (c < 0x20)
        return fail("control character in string");
      if (c != '\\')
        continue;
      if (cur == end)
        break;
      char escape = *cur++;
      if (escape == 'u') {
        for (int i = 0; i < 4; ++i, ++cur)
          if (cur == end || !isHexDigit(*cur))
            return fail("invalid \\u escape");
      } else if (!StringRef("\"\\/bfnrt").contains(escape)) {
        return fail("invalid escape");
      }
    }
    return fail("unterminated string");
  }

  bool scanNumber() {
    const char *start = cur;
    if (cur != end && *cur == '-')
      ++cur;
    if (cur == end || !isDigit(*cur))
      return fail("invalid number");
    while (cur != end && isDigit(*cur))
      ++cur;
    if (cur != end && *cur == '.') {
      ++cur;
      if (cur == end || !isDigit(*cur))
        return fail("invalid number");
      while (cur != end && isDigit(*cur))
        ++cur;
    }
    if (cur != end && (*cur == 'e' || *cur == 'E')) {
      ++cur;
      if (cur != end && (*cur == '+' || *cur == '-'))
        ++cur;
      if (cur == end || !isDigit(*cur))
        return fail("invalid number");
      while (cur != end && isDigit(*cur))
        ++cur;
    }
    return cur != start;
  }

  bool scanValue(unsigned depth) {
    skipSpace();
    if (cur == end)
      return fail("unexpected end of message");
    switch (*cur) {
    case '"':
      return scanString();
    case '{':
      return scanObject(depth + 1, /*topLevel=*/false);
    case '[':
      return scanArray(depth + 1);
    case 't':
      return scanWord("true");
    case 'f':
      return scanWord("false");
    case 'n':
      return scanWord("null");
    default:
      return scanNumber();
    }
  }

  bool scanWord(StringRef word) {
    if (!StringRef(cur, end - cur).starts_with(word))
      return fail("invalid literal");
    cur += word.size();
    return true;
  }

  bool checkDepth(unsigned depth) {
    if (depth <= kMaxMessageDepth)
      return true;
    tooDeep = true;
    return fail(
        formatv("the message nests deeper than {0} levels", kMaxMessageDepth));
  }

  bool scanArray(unsigned depth) {
    if (!checkDepth(depth))
      return false;
    ++cur;
    skipSpace();
    if (cur != end && *cur == ']') {
      ++cur;
      return true;
    }
    while (true) {
      if (!scanValue(depth))
        return false;
      skipSpace();
      if (cur != end && *cur == ',') {
        ++cur;
        continue;
      }
      return expect(']');
    }
  }

  bool scanObject(unsigned depth, bool topLevel) {
    if (!checkDepth(depth))
      return false;
    ++cur;
    skipSpace();
    if (cur != end && *cur == '}') {
      ++cur;
      return true;
    }
    while (true) {
      skipSpace();
      if (cur == end || *cur != '"')
        return fail("expected a member name");
      const char *keyStart = cur;
      if (!scanString())
        return false;
      StringRef key(keyStart + 1, cur - keyStart - 2);
      if (!expect(':'))
        return false;
      skipSpace();
      const char *valueStart = cur;
      if (!scanValue(depth))
        return false;
      if (topLevel) {
        StringRef value(valueStart, cur - valueStart);
        if (key == "jsonrpc")
          jsonrpc = value;
        else if (key == "method")
          method = value;
        else if (key == "id")
          id = value;
      }
      skipSpace();
      if (cur != end && *cur == ',') {
        ++cur;
        continue;
      }
      return expect('}');
    }
  }

  const char *cur;
  const char *end;
};

/// The deepest nesting of brackets outside strings.
unsigned getNesting(StringRef text) {
  unsigned depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '{')
      deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth)
      --depth;
  }
  return deepest;
}

/// A stand-in request that the server answers with `code` and `message`.
std::string makeInvalidMessage(llvm::lsp::ErrorCode code, StringRef message,
                               json::Value id) {
  json::Object object{
      {"jsonrpc", "2.0"},
      {"id", std::move(id)},
      {"method", kInvalidMessageMethod},
      {"params", json::Object{{"code", static_cast<int64_t>(code)},
                              {"message", message}}},
  };
  return formatv("{0}", json::Value(std::move(object))).str();
}

/// A JSON-RPC id is a string, a number or null.
bool isValidId(const json::Value &id) {
  return id.kind() == json::Value::String || id.kind() == json::Value::Number ||
         id.kind() == json::Value::Null;
}
} // namespace

CheckedInput::CheckedInput(std::FILE *in, llvm::lsp::JSONStreamStyle style)
    : JSONTransportInput(style), in(in), inner(in, style) {}

LogicalResult CheckedInput::readDelimitedMessage(std::string &json) {
  if (failed(inner.readDelimitedMessage(json)))
    return failure();
  return check(json);
}

//===----------------------------------------------------------------------===//
// Content-Length framing
//===----------------------------------------------------------------------===//

namespace {
constexpr StringLiteral kContentLength = "content-length:";
/// How much of one header line is kept.
constexpr size_t kMaxHeaderLine = 4096;

/// Where a `Content-Length:` header starts in `text` (any case).
size_t findContentLength(StringRef text) {
  return text.find_insensitive(kContentLength);
}

/// Whether `line` has the form of a header: a token, a colon, printable
/// text.
bool isHeaderLine(StringRef line) {
  size_t colon = line.find(':');
  if (colon == 0 || colon == StringRef::npos)
    return false;
  for (char c : line.take_front(colon))
    if (!isAlnum(c) && !StringRef("!#$%&'*+-.^_`|~").contains(c))
      return false;
  for (char c : line.drop_front(colon + 1))
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
      return false;
  return true;
}

/// `text` quoted for a message, with bytes that are not printable escaped.
std::string quoteForMessage(StringRef text) {
  std::string result = "'";
  for (char c : text.take_front(40)) {
    unsigned char byte = c;
    if (byte >= 0x20 && byte < 0x7f)
      result += c;
    else
      result += formatv("\\x{0:x-2}", byte).str();
  }
  if (text.size() > 40)
    result += "...";
  return result + "'";
}
} // namespace

int CheckedInput::readByte() {
  if (pendingPos < pending.size())
    return static_cast<unsigned char>(pending[pendingPos++]);
  if (!pending.empty()) {
    pending.clear();
    pendingPos = 0;
  }
  while (true) {
    int c = std::getc(in);
    if (c != EOF || !std::ferror(in) || errno != EINTR)
      return c;
    std::clearerr(in);
  }
}

LogicalResult CheckedInput::readBytes(char *out, size_t size) {
  size_t fromPending = std::min(size, pending.size() - pendingPos);
  std::memcpy(out, pending.data() + pendingPos, fromPending);
  pendingPos += fromPending;
  for (size_t pos = fromPending; pos < size;) {
    size_t read = std::fread(out + pos, 1, size - pos, in);
    if (read == 0) {
      if (std::ferror(in) && errno == EINTR) {
        std::clearerr(in);
        continue;
      }
      return failure();
    }
    pos += read;
  }
  return success();
}

LogicalResult CheckedInput::readHeaderLine(std::string &line, bool &truncated) {
  line.clear();
  truncated = false;
  while (true) {
    int c = readByte();
    if (c == EOF)
      return failure();
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return success();
    }
    line.push_back(static_cast<char>(c));
    if (line.size() > kMaxHeaderLine) {
      // Keep the end, where the next header may begin.
      line.erase(0, line.size() - kContentLength.size());
      truncated = true;
    }
  }
}

void CheckedInput::replaceByFramingError(std::string &json,
                                         const std::string &message) {
  llvm::lsp::Logger::error("malformed message header: {0}; reading on at the "
                           "next Content-Length header",
                           message);
  json = makeInvalidMessage(llvm::lsp::ErrorCode::ParseError,
                            "malformed message header: " + message, nullptr);
  lastRequestId = nullptr;
}

LogicalResult CheckedInput::readStandardMessage(std::string &json) {
  // Headers up to an empty line. Text that is no header before the first
  // header is skipped (the rest of a body whose length was wrong); a
  // `Content-Length:` header inside such text starts the next message.
  std::optional<uint64_t> length;
  std::string problem;
  bool sawHeader = false;
  uint64_t skipped = 0;
  std::string line;
  while (true) {
    bool truncated = false;
    if (failed(readHeaderLine(line, truncated))) {
      if (sawHeader || skipped)
        llvm::lsp::Logger::error("the input ended inside a message header");
      return failure();
    }
    StringRef text = line;
    if (text.empty() && !truncated) {
      if (sawHeader)
        break;
      continue;
    }
    if (truncated || !isHeaderLine(text)) {
      size_t start = findContentLength(text);
      if (start == StringRef::npos) {
        skipped += text.size() + 1;
        if (sawHeader && problem.empty())
          problem = "a header line " + quoteForMessage(text) +
                    " is no `Name: value` header";
        continue;
      }
      // A Content-Length header (after stray text, or with bytes a header
      // may not have): a new message starts here.
      skipped += start;
      text = text.drop_front(start);
      length.reset();
      problem.clear();
    }
    sawHeader = true;
    auto [name, value] = text.split(':');
    if (!name.equals_insensitive("content-length"))
      continue; // Content-Type and others.
    value = value.trim(" \t");
    uint64_t number = 0;
    if (value.empty() || !llvm::all_of(value, isDigit)) {
      problem = "Content-Length " + quoteForMessage(value) +
                " is not a number of bytes";
    } else if (value.size() > 18 || value.getAsInteger(10, number) ||
               number > kMaxMessageBytes) {
      problem = formatv("Content-Length {0} is more than the {1} bytes a "
                        "message may have",
                        value.take_front(40), kMaxMessageBytes)
                    .str();
    } else if (number == 0) {
      problem = "Content-Length is 0";
    } else if (length && *length != number) {
      problem = "two different Content-Length headers";
    } else {
      length = number;
    }
  }
  if (skipped)
    llvm::lsp::Logger::error("skipped {0} bytes that belong to no message",
                             skipped);
  if (problem.empty() && !length)
    problem = "a message without a Content-Length header";
  if (!problem.empty()) {
    replaceByFramingError(json, problem);
    return success();
  }

  json.resize(*length);
  if (failed(readBytes(json.data(), json.size()))) {
    llvm::lsp::Logger::error("the input ended inside a message of {0} bytes",
                             *length);
    json.clear();
    return failure();
  }
  // A Content-Length larger than the message took the next message's header
  // with it: when the text is no JSON but holds a header, the next message
  // starts there.
  size_t next = findContentLength(json);
  if (next != StringRef::npos) {
    MessageScanner scanner(json);
    if (!scanner.scan() && !scanner.tooDeep) {
      pending = json.substr(next) + pending.substr(pendingPos);
      pendingPos = 0;
      json.resize(next);
      llvm::lsp::Logger::error("a message is shorter than its Content-Length "
                               "{0}: the next header starts inside it",
                               *length);
    }
  }
  return check(json);
}

LogicalResult CheckedInput::check(std::string &json) {
  lastRequestId.reset();
  if (StringRef(json).trim().empty())
    return failure();

  // Editors may send bytes that are no UTF-8 (a file in another encoding):
  // serve the document with U+FFFD in their place rather than not at all.
  if (!json::isUTF8(json)) {
    llvm::lsp::Logger::info("repairing a message that is not valid UTF-8");
    json = json::fixUTF8(json);
  }

  auto replace = [&](llvm::lsp::ErrorCode code, const std::string &message) {
    llvm::lsp::Logger::error("{0}", message);
    json = makeInvalidMessage(code, message, nullptr);
    lastRequestId = nullptr;
    return success();
  };
  MessageScanner scanner(json);
  if (!scanner.scan()) {
    // Too deep for the transport's recursive parser: do not hand it over.
    if (scanner.tooDeep)
      return replace(llvm::lsp::ErrorCode::InvalidRequest, scanner.error);
    if (!scanner.isObject &&
        scanner.error == "a JSON-RPC message must be an object")
      return replace(llvm::lsp::ErrorCode::InvalidRequest, scanner.error);
    // Otherwise the real parser's verdict (and message) decides, unless the
    // text nests too deep for it.
    if (getNesting(json) > kMaxMessageDepth)
      return replace(llvm::lsp::ErrorCode::ParseError,
                     "invalid JSON: " + scanner.error);
    Expected<json::Value> parsed = json::parse(json);
    if (!parsed)
      return replace(llvm::lsp::ErrorCode::ParseError,
                     "invalid JSON: " + toString(parsed.takeError()));
    if (!parsed->getAsObject())
      return replace(llvm::lsp::ErrorCode::InvalidRequest,
                     "a JSON-RPC message must be an object");
    // Valid JSON that the scanner is stricter about: pass on its normal form.
    json = formatv("{0}", *parsed).str();
    scanner = MessageScanner(json);
    if (!scanner.scan())
      return replace(llvm::lsp::ErrorCode::InvalidRequest,
                     "unsupported JSON: " + scanner.error);
  }

  // The JSON is well-formed; is it a JSON-RPC message the transport serves?
  std::optional<json::Value> id;
  if (scanner.id) {
    Expected<json::Value> parsed = json::parse(*scanner.id);
    if (parsed && isValidId(*parsed))
      id = std::move(*parsed);
    else
      consumeError(parsed.takeError());
  }
  auto invalid = [&](StringRef message) {
    llvm::lsp::Logger::error("invalid JSON-RPC message: {0}", message);
    json = makeInvalidMessage(llvm::lsp::ErrorCode::InvalidRequest,
                              "invalid JSON-RPC message: " + message.str(),
                              id ? *id : json::Value(nullptr));
    lastRequestId = id ? *id : json::Value(nullptr);
    return success();
  };
  if (!scanner.jsonrpc || *scanner.jsonrpc != "\"2.0\"")
    return invalid("\"jsonrpc\" must be \"2.0\"");
  if (scanner.id && !id)
    return invalid("\"id\" must be a string, a number or null");
  if (!scanner.method) {
    if (!id)
      return invalid("a response needs an \"id\"");
    return success();
  }
  if (!scanner.method->starts_with("\""))
    return invalid("\"method\" must be a string");
  lastRequestId = id;
  return success();
}
