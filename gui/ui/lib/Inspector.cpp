//===- Inspector.cpp - a launch's input or result as a table and a plot ---===//
//
// Shape, min/max/mean/NaN count, copy as JSON; rank 1 as a line plot
// (PlotLines), rank 2 as a heatmap (draw list) and rows x columns, higher
// ranks sliced on their leading dimensions. Dear ImGui tables throughout.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace executor_studio::gui {

namespace {
/// A blue-to-yellow ramp (viridis-like) for t in [0, 1].
ImU32 ramp(float t) {
  static const float stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140},
                                    {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0f, 1.0f) * 4;
  int i = std::min(3, static_cast<int>(t));
  float f = t - static_cast<float>(i);
  auto mix = [&](int c) {
    return static_cast<int>(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f);
  };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

std::string number(double v, const ElementType &element) {
  char text[48];
  if (std::isnan(v))
    return "NaN";
  if (element.kind == ElementType::Kind::Float)
    std::snprintf(text, sizeof(text), "%.6g", v);
  else
    std::snprintf(text, sizeof(text), "%.0f", v);
  return text;
}
} // namespace

void inspect(StudioView::State &state, uint64_t id, bool input, int index) {
  state.inspectLaunch = id;
  state.inspectInput = input;
  state.inspectIndex = index;
  state.inspectSlice.clear();
}

void drawInspector(Studio &studio, StudioView::State &state) {
  if (state.inspectLaunch == 0)
    return;
  const LaunchRecord *r = studio.executor().findLaunch(state.inspectLaunch);
  const std::vector<MemRefData> *buffers =
      r ? (state.inspectInput ? &r->inputs : &r->results) : nullptr;
  const std::vector<ShapedArg> *types =
      r ? (state.inspectInput ? &r->inputTypes : &r->resultTypes) : nullptr;
  if (!buffers || state.inspectIndex >= static_cast<int>(buffers->size())) {
    state.inspectLaunch = 0;
    state.inspectSummary.clear();
    return;
  }
  const MemRefData &data = (*buffers)[state.inspectIndex];
  ShapedArg type = state.inspectIndex < static_cast<int>(types->size())
                       ? (*types)[state.inspectIndex]
                       : ShapedArg();
  const ElementType &element = type.element;

  const ImGuiViewport *viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowSize(ImVec2(viewport->WorkSize.x * 0.55f, viewport->WorkSize.y * 0.7f),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                                 viewport->WorkPos.y + viewport->WorkSize.y * 0.5f),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  bool open = true;
  char title[160];
  std::snprintf(title, sizeof(title), "Inspector: #%llu %s %s %d###inspector",
                static_cast<unsigned long long>(r->id), r->label.c_str(),
                state.inspectInput ? "input" : "result", state.inspectIndex);
  if (!ImGui::Begin(title, &open, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  state.probe("inspector");
  ValueStats stats = valueStats(data, element);
  char summary[256];
  std::snprintf(summary, sizeof(summary), "%s, shape %s, min %s max %s mean %.6g, %zu NaN",
                type.type.empty() ? "?" : type.type.c_str(), formatShape(data.sizes).c_str(),
                number(stats.min, element).c_str(), number(stats.max, element).c_str(),
                stats.mean, stats.nans);
  state.inspectSummary = summary;
  ImGui::TextColored(colors::accent(), "%s", type.type.c_str());
  ImGui::SameLine();
  ImGui::Text("shape %s", formatShape(data.sizes).c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy as JSON"))
    ImGui::SetClipboardText(valuesJson(data, element).c_str());
  state.probe("copy-json");
  if (ImGui::BeginTable("##stats", 4, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableNextRow();
    const char *names[4] = {"min", "max", "mean", "NaN"};
    std::string values[4] = {number(stats.min, element), number(stats.max, element),
                             number(stats.mean, ElementType{ElementType::Kind::Float}),
                             std::to_string(stats.nans)};
    for (int c = 0; c < 4; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::TextColored(colors::dim(), "%s", names[c]);
      ImGui::SameLine();
      ImGui::TextColored(c == 3 && stats.nans ? colors::error() : ImVec4(1, 1, 1, 1), "%s",
                         values[c].c_str());
    }
    ImGui::EndTable();
  }

  size_t rank = data.sizes.size();
  if (rank == 0) {
    ImGui::Text("value %s", number(valueAt(data, element, 0), element).c_str());
    ImGui::End();
    if (!open)
      state.inspectLaunch = 0;
    return;
  }
  // Higher ranks: pick the leading indices; the last two are shown.
  int64_t offset = 0;
  size_t leading = rank > 2 ? rank - 2 : 0;
  state.inspectSlice.resize(leading, 0);
  int64_t stride = 1;
  for (size_t d = leading; d < rank; ++d)
    stride *= data.sizes[d];
  for (size_t d = 0; d < leading; ++d) {
    ImGui::PushID(static_cast<int>(d));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    int max = static_cast<int>(std::max<int64_t>(data.sizes[d] - 1, 0));
    ImGui::SliderInt("##slice", &state.inspectSlice[d], 0, max, "dim %d: %%d");
    ImGui::SameLine();
    ImGui::PopID();
  }
  if (leading) {
    int64_t flat = 0;
    for (size_t d = 0; d < leading; ++d)
      flat = flat * data.sizes[d] + state.inspectSlice[d];
    offset = flat * stride;
    ImGui::TextColored(colors::dim(), "slice");
  }
  int64_t rows = rank == 1 ? 1 : data.sizes[rank - 2];
  int64_t cols = data.sizes[rank - 1];
  auto at = [&](int64_t i, int64_t j) { return valueAt(data, element, offset + i * cols + j); };

  if (rank == 1) {
    std::vector<float> line(static_cast<size_t>(cols));
    for (int64_t j = 0; j < cols; ++j)
      line[j] = static_cast<float>(at(0, j));
    ImGui::PlotLines("##line", line.data(), static_cast<int>(line.size()), 0, nullptr,
                     static_cast<float>(stats.min), static_cast<float>(stats.max),
                     ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 8));
    state.probe("line-plot");
  } else {
    // The heatmap: one cell per element, as large as fits.
    float availW = ImGui::GetContentRegionAvail().x;
    float availH = std::max(ImGui::GetFontSize() * 6, ImGui::GetContentRegionAvail().y * 0.5f);
    float cell = std::clamp(std::min(availW / static_cast<float>(cols),
                                     availH / static_cast<float>(rows)),
                            1.0f, ImGui::GetFontSize() * 4);
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList *draw = ImGui::GetWindowDrawList();
    double span = stats.max - stats.min;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double v = at(i, j);
        ImU32 color = std::isnan(v) ? IM_COL32(255, 0, 255, 255)
                                    : ramp(span > 0 ? static_cast<float>((v - stats.min) / span)
                                                    : 0.5f);
        ImVec2 a(origin.x + j * cell, origin.y + i * cell);
        draw->AddRectFilled(a, ImVec2(a.x + cell - (cell > 4 ? 1 : 0),
                                      a.y + cell - (cell > 4 ? 1 : 0)),
                            color);
        if (cell >= ImGui::GetFontSize() * 2.2f) {
          std::string text = number(v, element);
          ImVec2 size = ImGui::CalcTextSize(text.c_str());
          if (size.x < cell - 2)
            draw->AddText(ImVec2(a.x + (cell - size.x) / 2, a.y + (cell - size.y) / 2),
                          v - stats.min > span * 0.6 ? IM_COL32(20, 20, 30, 255)
                                                     : IM_COL32(240, 240, 240, 255),
                          text.c_str());
        }
      }
    ImGui::InvisibleButton("##heatmap", ImVec2(cell * cols, cell * rows));
    state.probe("heatmap");
    if (ImGui::IsItemHovered()) {
      ImVec2 m = ImGui::GetIO().MousePos;
      int64_t j = static_cast<int64_t>((m.x - origin.x) / cell);
      int64_t i = static_cast<int64_t>((m.y - origin.y) / cell);
      if (i >= 0 && i < rows && j >= 0 && j < cols)
        ImGui::SetTooltip("[%lld, %lld] = %s", static_cast<long long>(i),
                          static_cast<long long>(j), number(at(i, j), element).c_str());
    }
  }

  // The table: rows x columns (Dear ImGui tables take up to 64 columns).
  int64_t shownCols = std::min<int64_t>(cols, 63);
  if (shownCols < cols)
    ImGui::TextColored(colors::dim(), "first %lld of %lld columns (copy as JSON for all)",
                       static_cast<long long>(shownCols), static_cast<long long>(cols));
  if (ImGui::BeginTable("##values", static_cast<int>(shownCols) + 1,
                        ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("");
    for (int64_t j = 0; j < shownCols; ++j)
      ImGui::TableSetupColumn(std::to_string(j).c_str());
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(colors::dim(), "%d", i);
        for (int64_t j = 0; j < shownCols; ++j) {
          ImGui::TableSetColumnIndex(static_cast<int>(j) + 1);
          ImGui::TextUnformatted(number(at(i, j), element).c_str());
        }
      }
    ImGui::EndTable();
  }
  ImGui::End();
  if (!open) {
    state.inspectLaunch = 0;
    state.inspectSummary.clear();
  }
}

} // namespace executor_studio::gui
