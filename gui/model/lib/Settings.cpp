//===- Settings.cpp - window and panel layout, remembered -----------------===//
#include "StudioModel/Settings.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace executor_studio::gui {

using nlohmann::json;

namespace {
template <typename T> void read(const json &j, const char *key, T &field) {
  auto it = j.find(key);
  if (it == j.end())
    return;
  try {
    field = it->template get<T>();
  } catch (const json::exception &) {
    // A value of the wrong type keeps the default.
  }
}
} // namespace

std::string Settings::toJson() const {
  json j = {
      {"window", {{"x", windowX}, {"y", windowY}, {"width", windowWidth},
                  {"height", windowHeight}, {"fontSize", fontSize}}},
      {"layout", {{"passListWidth", passListWidth},
                  {"executorWidth", executorWidth},
                  {"executorFolded", executorFolded},
                  {"diagnosticsHeight", diagnosticsHeight}}},
      {"view", {{"mode", viewMode}, {"structuralDiff", structuralDiff},
                {"normaliseSsaNames", normaliseSsaNames},
                {"hideLocations", hideLocations}, {"printLocations", printLocations},
                {"hideUnchanged", hideUnchanged},
                {"wholeFile", wholeFile}}},
      {"session", {{"lastFile", lastFile}, {"pipeline", pipeline},
                   {"executorAddress", executorAddress},
                   {"autoReload", autoReload}}},
  };
  return j.dump(2) + "\n";
}

Settings Settings::fromJson(const std::string &text, std::string *error) {
  Settings s;
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    if (error)
      *error = "the settings are not a JSON object";
    return s;
  }
  if (auto w = j.find("window"); w != j.end() && w->is_object()) {
    read(*w, "x", s.windowX);
    read(*w, "y", s.windowY);
    read(*w, "width", s.windowWidth);
    read(*w, "height", s.windowHeight);
    read(*w, "fontSize", s.fontSize);
  }
  if (auto l = j.find("layout"); l != j.end() && l->is_object()) {
    read(*l, "passListWidth", s.passListWidth);
    read(*l, "executorWidth", s.executorWidth);
    read(*l, "executorFolded", s.executorFolded);
    if (s.executorFolded < -1 || s.executorFolded > 1)
      s.executorFolded = -1;
    read(*l, "diagnosticsHeight", s.diagnosticsHeight);
    // A width saved at an earlier default (every exit saves the layout,
    // dragged or not) is today's automatic width: the pass list as wide as
    // its names need, the IR panes the rest. A drag is never exactly on
    // these.
    if (s.passListWidth == 300.0f || s.passListWidth == 450.0f)
      s.passListWidth = 0;
    if (s.executorWidth == 440.0f || s.executorWidth == 410.0f)
      s.executorWidth = 0;
  }
  if (auto v = j.find("view"); v != j.end() && v->is_object()) {
    read(*v, "mode", s.viewMode);
    read(*v, "structuralDiff", s.structuralDiff);
    read(*v, "normaliseSsaNames", s.normaliseSsaNames);
    read(*v, "hideLocations", s.hideLocations);
    read(*v, "printLocations", s.printLocations);
    read(*v, "hideUnchanged", s.hideUnchanged);
    read(*v, "wholeFile", s.wholeFile);
  }
  if (auto x = j.find("session"); x != j.end() && x->is_object()) {
    read(*x, "lastFile", s.lastFile);
    read(*x, "pipeline", s.pipeline);
    read(*x, "executorAddress", s.executorAddress);
    read(*x, "autoReload", s.autoReload);
  }
  // Keep a usable window whatever the file says.
  if (s.windowWidth < 320)
    s.windowWidth = 320;
  if (s.windowHeight < 240)
    s.windowHeight = 240;
  if (s.fontSize < 8 || s.fontSize > 48)
    s.fontSize = 15;
  return s;
}

Settings Settings::load(const std::string &path, std::string *error) {
  std::ifstream in(path);
  if (!in)
    return Settings();
  std::stringstream text;
  text << in.rdbuf();
  return fromJson(text.str(), error);
}

bool Settings::save(const std::string &path, std::string *error) const {
  std::error_code ec;
  std::filesystem::path p(path);
  if (p.has_parent_path())
    std::filesystem::create_directories(p.parent_path(), ec);
  // Write a sibling and rename, so a crash never leaves half a file.
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) {
      if (error)
        *error = "cannot write " + temporary + ": " + std::strerror(errno);
      return false;
    }
    out << toJson();
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    if (error)
      *error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

std::string Settings::defaultPath() {
  const char *xdg = std::getenv("XDG_CONFIG_HOME");
  std::string base;
  if (xdg && *xdg)
    base = xdg;
  else if (const char *home = std::getenv("HOME"); home && *home)
    base = std::string(home) + "/.config";
  else
    base = ".";
  return base + "/executor-studio/settings.json";
}

} // namespace executor_studio::gui
