//===- App.h - executor-studio's GLFW + OpenGL3 glue ------------*- C++ -*-===//
#ifndef STUDIOAPP_APP_H
#define STUDIOAPP_APP_H

#include "StudioModel/Start.h"

#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace executor_studio::gui {

/// A GLFW window with an OpenGL 3 context and Dear ImGui on it (Debian's
/// imgui_impl_glfw and imgui_impl_opengl3 backends).
class GlWindow {
public:
  /// Creates the window, the ImGui context and the backends. Null with
  /// `error` when there is no display or no OpenGL.
  static std::unique_ptr<GlWindow> create(int width, int height, const std::string &title,
                                          std::string &error);
  ~GlWindow();

  bool shouldClose() const;
  /// Waits for events up to `timeoutSeconds` (0: just polls).
  void waitEvents(double timeoutSeconds);
  /// Starts an ImGui frame.
  void beginFrame();
  /// Renders the frame; when `rgba` is given, reads it back first (top row
  /// first) with its size. Then swaps.
  void endFrame(std::vector<unsigned char> *rgba = nullptr, int *width = nullptr,
                int *height = nullptr);
  /// Waits for the GPU to finish (frame-time measurements).
  void finish();
  void setTitle(const std::string &title);
  void position(int &x, int &y) const;
  void size(int &width, int &height) const;
  void move(int x, int y);
  GLFWwindow *handle() const { return window; }

private:
  GlWindow() = default;
  GLFWwindow *window = nullptr;
};

/// Writes `rgba` (top row first) as a PNG.
bool writePng(const std::string &path, int width, int height,
              const std::vector<unsigned char> &rgba, std::string &error);

/// What `executor-studio` was asked to do: what to open, record, select
/// and launch (the StudioStart handed to the model), and where the frames
/// go (the window, or --screenshot's PNG) or what to write without a window.
struct AppOptions {
  StudioStart start;
  /// Headless: render a few frames, write this PNG, exit.
  std::string screenshot;
  int frames = 4;
  /// Headless, no window: write the diff the studio shows for this pass
  /// (a number or a name, as --pass) to stdout and exit.
  std::string printDiff;
  /// --print-diff: the plain line diff.
  bool lineDiff = false;
  /// Headless, no window: write the graph of function `graphFunction` at
  /// pass `graphPass` (a number or a name, as --pass) as SVG and exit.
  std::string graphPass, graphFunction;
  /// Where --graph writes (empty or `-`: stdout).
  std::string output;
  std::string settingsPath;
  int width = 0, height = 0;
};

/// Parses the command line with llvm::cl (--help prints the options and
/// exits); false with a one-line message ending in "(see --help)" or
/// llvm::cl's suggestion for a misspelt flag.
bool parseArguments(int argc, char **argv, AppOptions &options, std::string &message);

/// Runs the window (or the headless screenshot); returns the exit code.
int runApp(const AppOptions &options);

} // namespace executor_studio::gui

#endif // STUDIOAPP_APP_H
