#include "ui/lesson_panel.h"

#include <imgui.h>

#include <cmath>

namespace ui {

void draw_lesson(App& app) {
  const models::Scenario& sc = app.loaded;
  ImGui::TextWrapped("%s", sc.name.c_str());
  if (!sc.description.empty()) ImGui::TextWrapped("%s", sc.description.c_str());
  ImGui::Separator();
  ImGui::TextWrapped("%s", app.lesson.c_str());
  if (!sc.expect.empty()) {
    ImGui::Separator();
    ImGui::TextUnformatted("Measured on the real machine:");
    for (const models::Expectation& e : sc.expect) {
      ImGui::Bullet();
      ImGui::TextWrapped("%s", e.note.empty() ? e.metric.c_str() : e.note.c_str());
    }
  }
  ImGui::Separator();
  // The story in our words (documented-runs.md, section 5).
  ImGui::TextWrapped(
      "The store: each clerk (a worker's event loop) serves a queue of customers (connections with a ready event). "
      "Items on the shelves (the page cache) are handed over at once. An item that is not there is in the "
      "warehouse (the disk): without a delivery team the clerk walks there himself (sendfile() blocks, the worker is "
      "in D state) and his whole queue waits, though most customers want items on the shelves. With `aio threads` the "
      "clerk gives every order to the delivery team (the thread pool) and keeps serving. He cannot know in advance "
      "whether an item is on the shelves, so every order goes to the team, the cached ones too.");
}

}  // namespace ui
