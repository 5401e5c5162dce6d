//===- Recovery.cpp - the user's edits, kept on disk ----------------------===//
#include "StudioModel/Recovery.h"

#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace executor_studio::gui {

using nlohmann::json;

namespace {
/// What a recovery file may hold: an edit of a huge module, no more.
constexpr std::uintmax_t kMaxRecoveryBytes = std::uintmax_t(1) << 30;

std::string now() {
  std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &utc);
  return text;
}

/// `dir` as it is shown and joined: `/tmp//a/` is `/tmp/a`.
std::string normalDir(const std::string &dir) {
  if (dir.empty())
    return dir;
  std::string normal = std::filesystem::path(dir).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/')
    normal.pop_back();
  return normal;
}
} // namespace

RecoveryStore::RecoveryStore(const std::string &dir) : dir(normalDir(dir)) {}

std::string RecoveryStore::defaultDir() {
  std::string base;
  if (const char *state = std::getenv("XDG_STATE_HOME"); state && *state)
    base = state;
  else if (const char *home = std::getenv("HOME"); home && *home)
    base = std::string(home) + "/.local/state";
  else
    return "";
  return normalDir(base + "/executor-studio/recovery");
}

std::string RecoveryStore::pathFor(const std::string &document) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx.json",
                static_cast<unsigned long long>(llvm::xxh3_64bits(document)));
  return dir + "/" + name;
}

bool RecoveryStore::save(RecoveredEdit edit, std::string &error) const {
  if (!enabled())
    return true;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  edit.savedAt = now();
  std::string text = json{{"document", edit.document},
                          {"pass", edit.pass},
                          {"text", edit.text},
                          {"pipeline", edit.pipeline},
                          {"savedAt", edit.savedAt}}
                         .dump(2) +
                     "\n";
  std::string path = pathFor(edit.document);
  std::string temporary = path + ".tmp";
  // Only the user reads what they typed.
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot write " + temporary + ": " + std::strerror(errno);
    return false;
  }
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = "cannot write " + temporary + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    written += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    error = "cannot write " + temporary + ": " + std::strerror(errno);
    return false;
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

std::optional<RecoveredEdit> RecoveryStore::load(const std::string &document,
                                                 std::string &error) const {
  if (!enabled())
    return std::nullopt;
  std::string path = pathFor(document);
  std::error_code ec;
  std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec)
    return std::nullopt; // none kept
  if (size > kMaxRecoveryBytes) {
    error = path + " is " + std::to_string(size >> 20) + " MiB: not a recovery file";
    return std::nullopt;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto string = [&](const char *key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string();
  };
  if (j.is_discarded() || !j.is_object() || !string("document") || !string("text") ||
      !string("pipeline") || !string("savedAt") || !j.contains("pass") ||
      !j["pass"].is_number_integer()) {
    error = path + " is not a recovery file (a JSON object with document, pass, text, "
                   "pipeline and savedAt)";
    return std::nullopt;
  }
  RecoveredEdit edit;
  edit.document = j["document"].get<std::string>();
  edit.pass = j["pass"].get<int>();
  edit.text = j["text"].get<std::string>();
  edit.pipeline = j["pipeline"].get<std::string>();
  edit.savedAt = j["savedAt"].get<std::string>();
  // Another document whose name hashes alike is not this one's.
  if (edit.document != document)
    return std::nullopt;
  if (edit.pass < -1) {
    error = path + ": pass " + std::to_string(edit.pass) + " is not a pass";
    return std::nullopt;
  }
  return edit;
}

void RecoveryStore::remove(const std::string &document) const {
  if (!enabled())
    return;
  std::error_code ec;
  std::filesystem::remove(pathFor(document), ec);
}

} // namespace executor_studio::gui
