#include "tests/integration/import/import_test_support.hpp"

#include "core/report/report_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace prof::import_test {

std::vector<const Event *> ReadBack::slices(const std::string &name) const {
  std::vector<const Event *> found;
  for (const Event &e : events)
    if (e.type == PROF_EVENT_SLICE && e.name == name) found.push_back(&e);
  return found;
}

const Event &ReadBack::slice(const std::string &name) const {
  static const Event none;
  const auto found = slices(name);
  EXPECT_EQ(found.size(), 1u) << name;
  return found.empty() ? none : *found.front();
}

std::vector<const Event *> ReadBack::of_type(uint8_t type) const {
  std::vector<const Event *> found;
  for (const Event &e : events)
    if (e.type == type) found.push_back(&e);
  return found;
}

ReadBack read_back(const std::string &path) {
  ReadBack out;
  report::ReportReader reader;
  if (!reader.open(path)) {
    ADD_FAILURE() << path << ": " << (reader.problems().empty() ? "" : reader.problems().back());
    return out;
  }
  out.complete = reader.complete();
  out.header = reader.header();
  for (const auto &[id, track] : reader.tracks())
    out.tracks.push_back(track);
  const auto track_name = [&](uint32_t id) {
    const report::TrackRecord *t = reader.track(id);
    return t ? t->name : std::string();
  };
  for (const prof_event &e : reader.read_all_events()) {
    Event event;
    event.type = e.type;
    event.phase = e.type == PROF_EVENT_FLOW ? e.flags : 0;
    event.kind = e.kind;
    event.name = reader.string(e.name);
    event.category = reader.string(e.category);
    event.track = track_name(e.track);
    if (const report::TrackRecord *t = reader.track(e.track)) event.parent = track_name(t->parent);
    event.ts = e.ts;
    event.duration = e.duration;
    event.id = e.id;
    if (e.type != PROF_EVENT_FLOW && e.args != 0)
      if (const auto set = reader.args().find(static_cast<uint32_t>(e.args)))
        for (const prof_arg &a : *set) {
          std::string value;
          if (a.type == PROF_ARG_INT) value = std::to_string(a.value.i);
          if (a.type == PROF_ARG_UINT) value = std::to_string(a.value.u);
          if (a.type == PROF_ARG_DOUBLE) value = std::to_string(a.value.d);
          if (a.type == PROF_ARG_STRING) value = reader.string(a.value.s);
          event.args[std::string(reader.string(a.key))] = value;
        }
    out.events.push_back(std::move(event));
  }
  return out;
}

std::string file_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

} // namespace prof::import_test
