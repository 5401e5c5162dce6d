//===- Theme.cpp - style, fonts, colours and small widgets ----------------===//
#include "Panels.h"

#include <imgui_stdlib.h>

#include <sys/stat.h>

namespace executor_studio::gui {

namespace colors {
ImU32 removedBg() { return IM_COL32(120, 40, 45, 150); }
ImU32 addedBg() { return IM_COL32(35, 105, 55, 150); }
ImU32 changedLeftBg() { return IM_COL32(105, 55, 40, 120); }
ImU32 changedRightBg() { return IM_COL32(45, 95, 70, 120); }
ImU32 hunkBg() { return IM_COL32(40, 60, 110, 160); }
ImU32 highlightBg() { return IM_COL32(200, 170, 40, 80); }
ImU32 matchBg() { return IM_COL32(230, 190, 40, 140); }
ImU32 errorBg() { return IM_COL32(160, 30, 30, 110); }
ImVec4 dim() { return ImVec4(0.55f, 0.57f, 0.62f, 1); }
ImVec4 error() { return ImVec4(1.00f, 0.42f, 0.40f, 1); }
ImVec4 warning() { return ImVec4(1.00f, 0.78f, 0.30f, 1); }
ImVec4 ok() { return ImVec4(0.40f, 0.85f, 0.50f, 1); }
ImVec4 changed() { return ImVec4(0.35f, 0.75f, 1.00f, 1); }
ImVec4 accent() { return ImVec4(0.55f, 0.70f, 1.00f, 1); }
ImVec4 server() { return ImVec4(0.62f, 0.62f, 0.70f, 1); }
ImU32 text() { return IM_COL32(225, 228, 235, 255); }
ImU32 lineNumber() { return IM_COL32(110, 115, 130, 255); }
} // namespace colors

void setupStyle(float fontSize) {
  ImGui::StyleColorsDark();
  ImGuiStyle &style = ImGui::GetStyle();
  style.WindowRounding = 0;
  style.ChildRounding = 2;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.PopupRounding = 3;
  style.ScrollbarRounding = 3;
  style.TabRounding = 3;
  style.FramePadding = ImVec2(6, 3);
  style.ItemSpacing = ImVec2(7, 4);
  style.WindowPadding = ImVec2(6, 6);
  style.CellPadding = ImVec2(5, 2);
  ImVec4 *c = style.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.11f, 0.13f, 1);
  // Child windows draw no background of their own: software renderers
  // (Mesa's llvmpipe under Xvfb) pay for every layer of full-panel fill.
  c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  c[ImGuiCol_PopupBg] = ImVec4(0.12f, 0.13f, 0.16f, 0.98f);
  c[ImGuiCol_Border] = ImVec4(0.22f, 0.24f, 0.28f, 1);
  c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.18f, 0.22f, 1);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.22f, 0.25f, 0.31f, 1);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.25f, 0.29f, 0.37f, 1);
  c[ImGuiCol_Header] = ImVec4(0.22f, 0.34f, 0.55f, 0.75f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.40f, 0.64f, 0.80f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.28f, 0.44f, 0.70f, 1);
  c[ImGuiCol_Button] = ImVec4(0.20f, 0.30f, 0.48f, 1);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.26f, 0.39f, 0.62f, 1);
  c[ImGuiCol_ButtonActive] = ImVec4(0.30f, 0.45f, 0.72f, 1);
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.15f, 0.17f, 0.21f, 1);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.03f);
  c[ImGuiCol_TitleBg] = ImVec4(0.12f, 0.13f, 0.16f, 1);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.14f, 0.16f, 0.20f, 1);
  c[ImGuiCol_Separator] = ImVec4(0.24f, 0.26f, 0.31f, 1);
  c[ImGuiCol_Text] = ImVec4(0.88f, 0.89f, 0.92f, 1);

  ImGuiIO &io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  const char *candidates[] = {
      "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
      "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
  };
  ImFont *font = nullptr;
  for (const char *path : candidates) {
    struct stat st {};
    if (::stat(path, &st) == 0) {
      font = io.Fonts->AddFontFromFileTTF(path, fontSize, &config);
      if (font)
        break;
    }
  }
  if (!font) {
    ImFontConfig fallback;
    fallback.SizePixels = fontSize < 13 ? 13 : fontSize;
    io.Fonts->AddFontDefault(&fallback);
  }
}

bool inputString(const char *label, std::string &value, ImGuiInputTextFlags flags,
                 const char *hint) {
  if (hint)
    return ImGui::InputTextWithHint(label, hint, &value, flags);
  return ImGui::InputText(label, &value, flags);
}

float characterWidth() { return ImGui::CalcTextSize("0").x; }

std::string fitLabel(const StepLabel &label, float room) {
  size_t columns = room > 0 ? static_cast<size_t>(room / characterWidth()) : 0;
  std::string text = label.fit(columns);
  // The fonts are monospaced; another one still gets a label that fits.
  while (columns > 0 && ImGui::CalcTextSize(text.c_str()).x > room)
    text = label.fit(--columns);
  return text;
}

void marker(ImVec4 color) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  float h = ImGui::GetTextLineHeight();
  float s = h * 0.55f;
  ImGui::GetWindowDrawList()->AddRectFilled(
      ImVec2(p.x, p.y + (h - s) / 2), ImVec2(p.x + s, p.y + (h + s) / 2),
      ImGui::GetColorU32(color), 2);
  ImGui::Dummy(ImVec2(s, h));
}

void helpTooltip(const char *text) {
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 45);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void sameLineOrWrap(float width) {
  float spacing = ImGui::GetStyle().ItemSpacing.x;
  float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + spacing + width <= right)
    ImGui::SameLine();
}

float buttonWidth(const char *label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float checkboxWidth(const char *label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
         ImGui::CalcTextSize(label, nullptr, true).x;
}

void StudioView::State::probe(const std::string &name, bool enabled) {
  ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  // Clipped by the window: an item cut by the window's edge ends there.
  float visibleRight = std::min(max.x, ImGui::GetWindowPos().x + ImGui::GetWindowWidth());
  // Its centre is that of the part in view, where a click reaches it: a
  // row wider than its panel (a long backtrace frame) has its own centre
  // outside the panel, over whatever is drawn beside it.
  ImVec2 clipMin = ImGui::GetWindowDrawList()->GetClipRectMin();
  ImVec2 clipMax = ImGui::GetWindowDrawList()->GetClipRectMax();
  ImVec2 shownMin(std::max(min.x, clipMin.x), std::max(min.y, clipMin.y));
  ImVec2 shownMax(std::min(max.x, clipMax.x), std::min(max.y, clipMax.y));
  if (shownMin.x >= shownMax.x || shownMin.y >= shownMax.y)
    shownMin = min, shownMax = max; // not in view at all: where it is
  probes[name] = {ImVec2((shownMin.x + shownMax.x) / 2, (shownMin.y + shownMax.y) / 2), enabled,
                  max.x > visibleRight ? -1.0f : max.x, std::string(), 0.0f};
}

void StudioView::State::probeText(const std::string &name, std::string text, float room) {
  probe(name);
  Probe &p = probes[name];
  p.text = std::move(text);
  p.room = room;
}

} // namespace executor_studio::gui
