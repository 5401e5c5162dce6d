//===- Start.h - what executor-studio is asked to start with ----*- C++ -*-===//
#ifndef STUDIOMODEL_START_H
#define STUDIOMODEL_START_H

#include <string>

namespace executor_studio::gui {

/// What executor-studio is asked to open, record, select and launch: its
/// command line parsed once (gui/app/App.cpp, parseArguments), completed once
/// from the settings (in the window: the last file, the pipeline, whether to
/// print locations), and handed to the model once (Studio::start). The
/// windowed and the headless runs share it and differ in where the frames
/// go: to the window, or to a PNG.
struct StudioStart {
  //===--- What to open, and how to record it ------------------------------===//
  std::string file;
  /// A pipeline to record instead of the default one (empty: the default).
  std::string pipeline;
  /// Compile the kernels with debug info (the "debug build" toggle).
  bool debugBuild = false;
  /// Print `loc(...)` in the snapshots (an op's history follows locations).
  bool printLocations = false;

  //===--- What to select once it is recorded -------------------------------===//
  /// 1-based pass to select (as the pass list numbers them); 0: the first.
  int pass = 0;
  /// Or the pass by name: `cse`, a nested step (`compute/asm`,
  /// `cross-compile-targets/compute/convert-func-to-llvm`).
  std::string passName;
  /// Edit the IR after pass `pass` to this file's text and re-run the rest.
  std::string editFile;
  /// Restore the edit an earlier session kept (Recovery.h).
  bool restoreEdit = false;
  /// side-by-side, unified or source.
  std::string view;
  std::string search;
  /// Show the Graph view of this function.
  std::string showGraph;
  /// Follow the op at this 1-based line (and column; 0: any) of the file
  /// (line 0: none).
  unsigned historyLine = 0, historyColumn = 0;

  //===--- What to launch ----------------------------------------------------===//
  /// A kernel to launch, with its inputs (a JSON array, one entry per
  /// argument).
  std::string launch, inputs;
  /// The executor for the launch (empty: start a local one).
  std::string executor;
  /// Open the inspector on the launch's first result.
  bool inspect = false;
  /// Launch under a debugger: the session waits for one.
  bool underDebugger = false;
};

} // namespace executor_studio::gui

#endif // STUDIOMODEL_START_H
