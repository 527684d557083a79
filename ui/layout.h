// Small layout helpers for panels that must fit a narrow column at any text
// size (1280x800, Ctrl +/-): a widget goes beside the last one only if it
// fits, and widths follow the text rather than fixed pixels.
#pragma once
#include <imgui.h>

namespace ui {

// Beside the last item if `w` more pixels fit in the window, else on the next line.
inline void same_line_if_fits(float w) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
}

inline float button_width(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2; }

// Text in a colour, wrapped at the window's edge.
inline void wrapped_text(const ImVec4& colour, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}
inline void wrapped_disabled(const char* text) { wrapped_text(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], text); }

}  // namespace ui
