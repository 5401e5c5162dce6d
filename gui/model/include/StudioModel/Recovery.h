//===- Recovery.h - the user's edits, kept on disk --------------*- C++ -*-===//
//
// An edit the user re-runs is written to a recovery file first, one per
// document, in $XDG_STATE_HOME/executor-studio/recovery (~/.local/state/...
// without it), before the recorder (a worker process) sees it: a crash of
// the worker or of the studio, or closing the studio, loses no edit. The
// next start on that document offers to restore it (a banner in the window;
// `--restore-edit` headless). Reverting the edit removes the file.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_RECOVERY_H
#define STUDIOMODEL_RECOVERY_H

#include <optional>
#include <string>

namespace executor_studio::gui {

/// One kept edit.
struct RecoveredEdit {
  /// The document it belongs to: its path (its name when it has no file).
  std::string document;
  /// The text is the IR after this pass (0-based; -1: the input), edited.
  int pass = -1;
  std::string text;
  /// The custom pipeline it ran with ("" for the default pipeline).
  std::string pipeline;
  /// When it was kept (UTC, "2026-12-02 00:15:04").
  std::string savedAt;
};

class RecoveryStore {
public:
  /// Keeps files in `dir` (its name made normal: no `//`, no trailing `/`);
  /// an empty `dir` keeps nothing.
  explicit RecoveryStore(const std::string &dir = "");
  /// $XDG_STATE_HOME/executor-studio/recovery, else
  /// $HOME/.local/state/executor-studio/recovery.
  static std::string defaultDir();

  bool enabled() const { return !dir.empty(); }
  /// The file of `document`'s edit.
  std::string pathFor(const std::string &document) const;
  /// Writes `edit` (its savedAt set now) atomically (a sibling, renamed),
  /// mode 0600. False with `error` when it cannot.
  bool save(RecoveredEdit edit, std::string &error) const;
  /// The edit kept for `document`; none when there is none, or (with
  /// `error`) when its file cannot be read or is not a recovery file.
  std::optional<RecoveredEdit> load(const std::string &document, std::string &error) const;
  void remove(const std::string &document) const;

private:
  std::string dir;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_RECOVERY_H
