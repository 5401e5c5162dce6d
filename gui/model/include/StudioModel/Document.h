//===- Document.h - the .mlir file the studio shows -------------*- C++ -*-===//
#ifndef STUDIOMODEL_DOCUMENT_H
#define STUDIOMODEL_DOCUMENT_H

#include <cstdint>
#include <memory>
#include <string>

namespace executor_studio::gui {

/// A document read from a file (or given as text): its text, and what the
/// file looked like when it was read, to notice changes on disk.
class Document {
public:
  /// Reads `path`; on failure keeps the previous document and explains why.
  bool open(const std::string &path, std::string &error);
  /// Reads the file again.
  bool reload(std::string &error);
  /// A document with no file behind it (tests, pasted text).
  void setText(std::string name, std::string text);

  /// Whether the file's size or modification time differs from when it was
  /// read (false for documents without a file, or a file that vanished).
  bool changedOnDisk() const;

  bool isOpen() const { return static_cast<bool>(content); }
  bool hasFile() const { return !filePath.empty(); }
  const std::string &path() const { return filePath; }
  /// The name diagnostics use (the path, or the name given to setText).
  const std::string &name() const { return bufferName; }
  const std::string &text() const;
  std::shared_ptr<const std::string> shared() const { return content; }
  /// Counts opens and reloads: a new text has a new generation.
  uint64_t generation() const { return gen; }

private:
  std::string filePath, bufferName;
  std::shared_ptr<const std::string> content;
  int64_t modified = 0, size = -1;
  uint64_t gen = 0;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_DOCUMENT_H
