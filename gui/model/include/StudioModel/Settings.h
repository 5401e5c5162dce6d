//===- Settings.h - window and panel layout, remembered ---------*- C++ -*-===//
#ifndef STUDIOMODEL_SETTINGS_H
#define STUDIOMODEL_SETTINGS_H

#include <string>

namespace executor_studio::gui {

/// What executor-studio remembers between runs, as a JSON file.
struct Settings {
  // The window.
  int windowX = -1, windowY = -1; // -1: let the window manager place it
  int windowWidth = 1600, windowHeight = 960;
  float fontSize = 15;
  // The panels. A width of 0 is the automatic one: the pass list as wide
  // as its names need, the executor column a share of the window; a drag
  // sets a width of its own.
  float passListWidth = 0;
  float executorWidth = 0;
  /// The executor column folded into a strip at the window's right edge
  /// (the IR panes get its width): -1 automatic (folded in a window under
  /// 1280 px wide), 0 open, 1 folded; the strip's and the panel's buttons
  /// set it.
  int executorFolded = -1;
  float diagnosticsHeight = 120;
  // The views.
  std::string viewMode = "side-by-side";
  bool structuralDiff = true;
  bool normaliseSsaNames = true; ///< for the line diff
  bool hideLocations = false;
  bool printLocations = false;
  bool hideUnchanged = false;
  bool wholeFile = false;
  // The session.
  std::string lastFile;
  std::string pipeline; ///< empty: the default pipeline
  std::string executorAddress;
  bool autoReload = true;

  /// Reads `path`; a missing file gives the defaults. Unknown keys are
  /// ignored; a malformed file gives the defaults and `error`.
  static Settings load(const std::string &path, std::string *error = nullptr);
  bool save(const std::string &path, std::string *error = nullptr) const;
  std::string toJson() const;
  static Settings fromJson(const std::string &text, std::string *error = nullptr);
  /// $XDG_CONFIG_HOME/executor-studio/settings.json, else
  /// ~/.config/executor-studio/settings.json.
  static std::string defaultPath();
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_SETTINGS_H
