//===- VirtualDisplay.h - a private Xvfb for headless frames ----*- C++ -*-===//
#ifndef STUDIOAPP_VIRTUALDISPLAY_H
#define STUDIOAPP_VIRTUALDISPLAY_H

#include "ExecutorStudio/Support/Subprocess.h"

#include <string>

namespace executor_studio::gui {

/// An Xvfb server on a display number it picks itself (-displayfd), for
/// screenshots, tests and the frame-time benchmark. Stopped on destruction.
class VirtualDisplay {
public:
  VirtualDisplay() = default;
  VirtualDisplay(const VirtualDisplay &) = delete;
  VirtualDisplay &operator=(const VirtualDisplay &) = delete;
  ~VirtualDisplay() { stop(); }

  /// Starts `Xvfb -displayfd N -screen 0 WxHx24 -nolisten tcp`; waits until
  /// it serves. False with `error` when Xvfb is missing or fails.
  bool start(std::string &error, int width = 1920, int height = 1080);
  void stop();
  /// `:93`.
  const std::string &display() const { return name; }
  bool running() const { return xvfb.running(); }

private:
  Subprocess xvfb;
  std::string name;
};

} // namespace executor_studio::gui

#endif // STUDIOAPP_VIRTUALDISPLAY_H
