#include "clock_alignment_note.hpp"

#include <prof/stats/time_format.hpp>

#include <cstddef>
#include <cstdlib>
#include <sstream>

namespace prof::stats {

std::string clock_alignment_note(const ExportHost &host) {
  const prof_session_info &session = host.session();
  if (session.struct_size < offsetof(prof_session_info, plugins) + sizeof(session.plugins) ||
      session.plugins == nullptr)
    return "";
  std::istringstream lines(session.plugins);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("clock-alignment ", 0) != 0) continue;
    std::istringstream words(line);
    std::string reports = "some", error;
    for (std::string word; words >> word;) {
      if (word.rfind("reports=", 0) == 0) reports = word.substr(8);
      if (word.rfind("error_ns=", 0) == 0) error = word.substr(9);
    }
    std::string note = "clocks: " + reports + (reports == "1" ? " report" : " reports") +
                       " had no clock shared with the others and were aligned on their "
                       "collective operations";
    if (!error.empty())
      note += " (error at most " + format_duration(std::strtoull(error.c_str(), nullptr, 10)) + ")";
    return note + "; `prof merge` of the same reports says how";
  }
  return "";
}

} // namespace prof::stats
