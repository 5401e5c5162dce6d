//===- EditView.cpp - edit the IR after a pass and re-run the rest --------===//
//
// The IR view turns into an editor of the snapshot after the selected pass;
// Ctrl+Enter (or "Re-run from here") hands the text to the studio, which
// re-runs the passes after it. Parse and verify errors of the edit are
// marked on their lines in the editor; the rest of the window keeps working.
//
//===----------------------------------------------------------------------===//
#include "Panels.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace executor_studio::gui {

namespace {
/// Byte offset of the start of 1-based `line` in `text`.
size_t offsetOfLine(const std::string &text, int line) {
  size_t at = 0;
  for (int l = 1; l < line && at < text.size(); ++l) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos)
      return text.size();
    at = nl + 1;
  }
  return at;
}

std::string defaultSavePath(const Studio &studio, int pass) {
  const Document &doc = studio.document();
  std::filesystem::path base = doc.hasFile() ? std::filesystem::path(doc.path())
                                             : std::filesystem::path(doc.name());
  std::string stem = base.stem().string();
  if (stem.empty())
    stem = "edited";
  std::filesystem::path out = base.parent_path() /
                              (stem + ".after-pass-" + std::to_string(pass + 1) + ".mlir");
  return out.string();
}

int editorCallback(ImGuiInputTextCallbackData *data) {
  auto *state = static_cast<StudioView::State *>(data->UserData);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    std::string &buffer = state->editBuffer;
    buffer.resize(static_cast<size_t>(data->BufTextLen));
    data->Buf = buffer.data();
    return 0;
  }
  if (state->editCursorLine > 0) {
    std::string text(data->Buf, static_cast<size_t>(data->BufTextLen));
    int at = static_cast<int>(offsetOfLine(text, state->editCursorLine));
    data->CursorPos = data->SelectionStart = data->SelectionEnd = at;
    state->editCursorLine = 0;
  }
  return 0;
}
} // namespace

void beginEdit(Studio &studio, StudioView::State &state, int pass) {
  PipelineModel &m = studio.passes();
  std::shared_ptr<const std::string> ir = m.irAt(pass);
  if (!ir)
    return;
  state.editing = true;
  state.editPass = pass;
  state.editBuffer = *ir;
  state.seenEditGen = studio.editGeneration();
  state.rerunPending = false;
  state.saveMessage.clear();
}

void drawEditBar(Studio &studio, StudioView::State &state) {
  PipelineModel &m = studio.passes();
  int pass = m.selected();
  if (!state.editing) {
    ImGui::BeginDisabled(pass < 0 || studio.recordingInProgress());
    if (ImGui::Button("Edit pass IR (e)") && pass >= 0)
      beginEdit(studio, state, pass);
    state.probe("edit", pass >= 0);
    ImGui::EndDisabled();
    helpTooltip("Edit the IR after the selected pass and re-run the passes after it "
                "on your text (Ctrl+Enter).");
  } else {
    ImGui::BeginDisabled(studio.recordingInProgress());
    bool rerun = ImGui::Button("Re-run from here (Ctrl+Enter)");
    state.probe("rerun");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
      state.editing = false;
      state.rerunPending = false;
    }
    state.probe("cancel-edit");
    if (rerun) {
      studio.rerunFrom(state.editPass, state.editBuffer);
      state.rerunPending = true;
    }
  }
  if (studio.hasEdit()) {
    ImGui::SameLine();
    ImGui::TextColored(colors::warning(), "edited after pass %d", studio.editedPass() + 1);
    ImGui::SameLine();
    if (ImGui::Button("Revert")) {
      studio.revertEdit();
      state.editing = false;
    }
    state.probe("revert");
    helpTooltip("Back to the recording of the document itself.");
    ImGui::SameLine();
    if (state.savePath.empty())
      state.savePath = defaultSavePath(studio, studio.editedPass());
    // The path takes what the button leaves; when that is too little, both
    // go on a line of their own (the button is never cut).
    float saveButton = buttonWidth("Save .mlir") + ImGui::GetStyle().ItemSpacing.x;
    if (ImGui::GetContentRegionAvail().x - saveButton < ImGui::GetFontSize() * 8)
      ImGui::NewLine();
    ImGui::SetNextItemWidth(
        std::max(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x - saveButton));
    inputString("##savepath", state.savePath, 0, "where to save the edit");
    if (ImGui::IsItemHovered() && !state.savePath.empty())
      ImGui::SetTooltip("%s", state.savePath.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Save .mlir")) {
      std::string error;
      state.saveFailed = !studio.saveEdit(state.savePath, error);
      state.saveMessage = state.saveFailed ? error : "saved " + state.savePath;
    }
    state.probe("save-edit");
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50);
      ImGui::TextUnformatted("Writes the edited IR with the command that reproduces the "
                             "rest of the run:");
      std::string command = "executor-opt FILE --pass-pipeline='" +
                            studio.editRemainingPipeline() + "'";
      ImGui::TextColored(colors::dim(), "%s", command.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
}

void drawRecoveryBanner(Studio &studio, StudioView::State &state) {
  const RecoveredEdit *kept = studio.recoveredEdit();
  if (!kept)
    return;
  ImGui::TextColored(colors::warning(), "An edit of pass %d was kept at %s UTC (the studio "
                                        "closed or its recorder crashed before it was reverted).",
                     kept->pass + 1, kept->savedAt.c_str());
  ImGui::SameLine();
  // It re-runs on the document's recording, once there is one.
  ImGui::BeginDisabled(studio.recordedPipeline().empty() || studio.recordingInProgress());
  if (ImGui::Button("Restore")) {
    int pass = kept->pass;
    std::string text = kept->text;
    if (studio.restoreRecoveredEdit()) {
      // The editor shows it, as after Ctrl+Enter.
      state.editing = true;
      state.editPass = pass;
      state.editBuffer = std::move(text);
      state.seenEditGen = studio.editGeneration();
      state.rerunPending = true;
    }
  }
  state.probe("restore-edit");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Discard"))
    studio.discardRecoveredEdit();
  state.probe("discard-edit");
}

void drawEditor(Studio &studio, StudioView::State &state) {
  // A re-run that came back: leave the editor when it applied.
  if (state.rerunPending && studio.editGeneration() != state.seenEditGen &&
      !studio.recordingInProgress()) {
    state.seenEditGen = studio.editGeneration();
    state.rerunPending = false;
    if (studio.editErrors().empty() && studio.hasEdit()) {
      state.editing = false;
      return;
    }
    // Errors: put the cursor on the first one.
    for (const RecordedDiagnostic &d : studio.editErrors())
      if (d.line > 0) {
        state.editCursorLine = static_cast<int>(d.line);
        break;
      }
  }
  PipelineModel &m = studio.passes();
  ImGui::TextColored(colors::accent(), "editing the IR after %s",
                     m.positionName(state.editPass).c_str());
  ImGui::SameLine();
  ImGui::TextColored(colors::dim(), "- Ctrl+Enter re-runs the passes after it");
  const std::vector<RecordedDiagnostic> &errors =
      state.rerunPending ? std::vector<RecordedDiagnostic>() : studio.editErrors();
  if (state.rerunPending)
    ImGui::TextColored(colors::warning(), "re-running...");
  for (size_t i = 0; i < errors.size() && i < 3; ++i) {
    const RecordedDiagnostic &d = errors[i];
    ImGui::PushID(static_cast<int>(i));
    char label[64];
    std::snprintf(label, sizeof(label), "line %u:%u", d.line, d.column);
    ImGui::PushStyleColor(ImGuiCol_Text, colors::error());
    if (ImGui::SmallButton(label))
      state.editCursorLine = static_cast<int>(d.line);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextUnformatted(d.message.c_str());
    ImGui::PopID();
  }

  ImGuiIO &io = ImGui::GetIO();
  ImVec2 size = ImGui::GetContentRegionAvail();
  if (state.editCursorLine > 0)
    ImGui::SetKeyboardFocusHere();
  ImGui::InputTextMultiline("##editor", state.editBuffer.data(), state.editBuffer.size() + 1,
                            size,
                            ImGuiInputTextFlags_AllowTabInput |
                                ImGuiInputTextFlags_CallbackResize |
                                ImGuiInputTextFlags_CallbackAlways,
                            editorCallback, &state);
  state.probe("editor");
  // Ctrl+Enter in a multiline field ends the edit (no newline) in Dear ImGui.
  bool editorKey = ImGui::IsItemActive() || ImGui::IsItemDeactivated();
  ImVec2 frameMin = ImGui::GetItemRectMin(), frameMax = ImGui::GetItemRectMax();
  if (editorKey && io.KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) &&
      !studio.recordingInProgress()) {
    studio.rerunFrom(state.editPass, state.editBuffer);
    state.rerunPending = true;
  }

  // The errors on their lines: the editor's text scrolls in its own child.
  ImGuiWindow *window = ImGui::GetCurrentWindow();
  if (!errors.empty() && !window->DC.ChildWindows.empty()) {
    ImGuiWindow *editor = window->DC.ChildWindows.back();
    float lineHeight = ImGui::GetFontSize();
    float top = frameMin.y + ImGui::GetStyle().FramePadding.y - editor->Scroll.y;
    ImDrawList *draw = editor->DrawList;
    for (const RecordedDiagnostic &d : errors) {
      if (d.line == 0)
        continue;
      float y = top + (static_cast<float>(d.line) - 1) * lineHeight;
      if (y + lineHeight < frameMin.y || y > frameMax.y)
        continue;
      draw->PushClipRect(frameMin, frameMax, true);
      draw->AddRectFilled(ImVec2(frameMin.x, y), ImVec2(frameMax.x, y + lineHeight),
                          IM_COL32(220, 60, 60, 70));
      draw->AddRectFilled(ImVec2(frameMin.x, y), ImVec2(frameMin.x + 3, y + lineHeight),
                          IM_COL32(255, 90, 90, 255));
      draw->PopClipRect();
      if (io.MousePos.y >= y && io.MousePos.y < y + lineHeight &&
          io.MousePos.x >= frameMin.x && io.MousePos.x < frameMax.x)
        ImGui::SetTooltip("line %u:%u: %s", d.line, d.column, d.message.c_str());
    }
  }
}

} // namespace executor_studio::gui
