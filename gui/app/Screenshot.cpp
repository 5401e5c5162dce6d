//===- Screenshot.cpp - PNG output through stb_image_write ----------------===//
#include "App.h"

#include <stb_image_write.h>

namespace executor_studio::gui {

bool writePng(const std::string &path, int width, int height,
              const std::vector<unsigned char> &rgba, std::string &error) {
  if (width <= 0 || height <= 0 ||
      rgba.size() < static_cast<size_t>(width) * static_cast<size_t>(height) * 4) {
    error = "no pixels to write";
    return false;
  }
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4)) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

} // namespace executor_studio::gui
