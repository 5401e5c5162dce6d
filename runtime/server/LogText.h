//===- LogText.h - client text made safe for the log ------------*- C++ -*-===//
#ifndef EXECUTORSERVER_LOGTEXT_H
#define EXECUTORSERVER_LOGTEXT_H

#include <string>

namespace executor_studio::runtime {

/// `text` with every byte outside printable ASCII (newlines, terminal
/// escape codes, NUL, bytes >= 0x7f) written as \xNN, so
/// that what a client sends can neither start a log line of its own nor
/// drive the terminal that shows the log.
inline std::string escapeLogText(const std::string &text) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
      continue;
    }
    out += "\\x";
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_LOGTEXT_H
