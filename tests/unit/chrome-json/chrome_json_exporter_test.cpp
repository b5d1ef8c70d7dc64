// The chrome-json exporter driven through a fake export host; its output is
// parsed by python3's json module (chrome_trace_dump.py) and checked event
// by event, plus the file handling (refusal, overwrite, temporary file).
#include "chrome_json_exporter.hpp"
#include <prof/json_text.hpp>

#include "tests/support/exporter_test.hpp"
#include "tests/support/file_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace prof::chrome_json {
namespace {

namespace fs = std::filesystem;
using testing::FakeExportHost;

/// Parses `path` with python3 and returns the canonical lines; fails the
/// test when python3 is missing or rejects the file.
std::vector<std::string> parse_with_python(const std::string &path) {
  const std::string python = PROF_PYTHON3_EXECUTABLE;
  if (python.empty()) {
    ADD_FAILURE() << "python3 not found at configure time: install python3";
    return {};
  }
  const std::string command =
      "'" + python + "' '" CHROME_JSON_TEST_DIR "/chrome_trace_dump.py' '" + path + "' 2>&1";
  FILE *pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "cannot run " << command;
    return {};
  }
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    text.append(buffer, n);
  const int status = ::pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "python3 rejected the trace:\n"
                                                             << text;
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

class ChromeJsonExporterTest : public testing::ExporterTest<ChromeJsonExporter> {
protected:
  ChromeJsonExporterTest() : ExporterTest("out.json") {}
};

TEST(JsonText, EscapesEveryName) {
  std::string out;
  append_json_string(out, std::string("a\"b\\c\nd\te\x01\x1f/\x7f", 13));
  EXPECT_EQ(out, R"("a\"b\\c\nd\te\u0001\u001f/)"
                 "\x7f\"");
  out.clear();
  // Valid UTF-8 passes; a lone continuation byte, a truncated sequence, an
  // overlong form and an encoded surrogate are replaced byte by byte.
  append_json_string(out,
                     "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80");
  EXPECT_EQ(out, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd|"
                 "\\ufffd\\ufffd\\ufffd\"");
  out.clear();
  append_json_string(out, std::string("nul\0x", 5));
  EXPECT_EQ(out, R"("nul\u0000x")");
}

TEST(JsonText, MicrosecondsKeepNanoseconds) {
  std::string out;
  append_microseconds(out, 500);
  out += ' ';
  append_microseconds(out, 1234567);
  out += ' ';
  append_microseconds(out, -1);
  out += ' ';
  append_microseconds(out, 0);
  out += ' ';
  append_microseconds(out, -2000);
  EXPECT_EQ(out, "0.500 1234.567 -0.001 0.000 -2.000");
  out.clear();
  EXPECT_TRUE(append_double(out, 0.25));
  EXPECT_FALSE(append_double(out, std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(append_double(out, std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(out, "0.25");
}

TEST_F(ChromeJsonExporterTest, WritesEveryEventKindParsedByPython) {
  FakeExportHost host;
  host.set_target(100, "app --train");
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "app", 0, 100);
  const prof_track_id main_thread = host.add_track(PROF_TRACK_THREAD, "main", process, 100, 100);
  const prof_track_id worker = host.add_track(PROF_TRACK_THREAD, "wörker \"1\"", process, 100, 101);
  const prof_track_id device = host.add_track(PROF_TRACK_DEVICE, "GCU 0", 0, 0, 0, 0);
  const prof_track_id cluster = host.add_track(PROF_TRACK_CLUSTER, "cluster 1", device, 0, 0, 1);
  const prof_track_id sip = host.add_track(PROF_TRACK_ENGINE, "SIP 3", cluster, 0, 0, 3);
  const prof_track_id rss = host.add_track(PROF_TRACK_COUNTER, "rss", process, 0, 0, -1, "bytes");
  const prof_track_id power = host.add_track(PROF_TRACK_COUNTER, "power", 0, 0, 0, -1, "W");
  const prof_stack_id stack = host.add_stack({"leaf", "mid", "main"});

  const std::vector<prof_event> first = {
      host.slice(main_thread, "launch", 1000000, 2000, "api", 7),
      host.slice(sip, std::string("k\"\\\n\x01\xff", 6), 1000500, 1500, "kernel", 7),
      host.instant(worker, "mark", 1002000),
      host.counter(rss, 1003000, 4096),
      host.counter(power, 1003001, 12.5),
  };
  const std::vector<prof_event> second = {
      host.slice(sip, "copy", 1004000, 1, "memcpy", 7),
      host.flow(main_thread, 1005000, 9, PROF_FLOW_BEGIN),
      host.flow(sip, 1005100, 9, PROF_FLOW_STEP),
      host.flow(sip, 1005200, 9, PROF_FLOW_END),
      host.sample(worker, 1006000, stack),
      host.counter(main_thread, 1007000, 1), // off a counter track: skipped
      host.slice(rss, "bad", 1007000, 1),    // on a counter track: skipped
  };
  ASSERT_TRUE(run(host, {first, second})) << ::testing::PrintToString(host.errors());
  EXPECT_EQ(files(), std::vector<std::string>{"out.json"}); // no temporary file left

  const std::vector<std::string> expected = {
      "keys displayTimeUnit,traceEvents,otherData",
      "displayTimeUnit ns",
      R"({"args": {"name": "app"}, "name": "process_name", "ph": "M", "pid": 100, "tid": 0})",
      R"({"args": {"sort_index": 1}, "name": "process_sort_index", "ph": "M", "pid": 100, "tid": 0})",
      R"({"args": {"name": "main"}, "name": "thread_name", "ph": "M", "pid": 100, "tid": 100})",
      R"({"args": {"sort_index": 0}, "name": "thread_sort_index", "ph": "M", "pid": 100, "tid": 100})",
      R"({"args": {"correlation_id": 7}, "cat": "api", "dur": "2.000", "name": "launch", "ph": "X", "pid": 100, "tid": 100, "ts": "0.000"})",
      R"({"args": {"name": "GCU 0"}, "name": "process_name", "ph": "M", "pid": 1000000, "tid": 0})",
      R"({"args": {"sort_index": 1000000}, "name": "process_sort_index", "ph": "M", "pid": 1000000, "tid": 0})",
      R"({"args": {"name": "cluster 1"}, "name": "thread_name", "ph": "M", "pid": 1000000, "tid": 1000000005})",
      R"({"args": {"sort_index": 1000000005}, "name": "thread_sort_index", "ph": "M", "pid": 1000000, "tid": 1000000005})",
      R"({"args": {"name": "cluster 1 / SIP 3"}, "name": "thread_name", "ph": "M", "pid": 1000000, "tid": 1000000006})",
      R"({"args": {"sort_index": 1000000006}, "name": "thread_sort_index", "ph": "M", "pid": 1000000, "tid": 1000000006})",
      R"({"args": {"correlation_id": 7}, "cat": "kernel", "dur": "1.500", "name": "k\"\\\n\u0001\ufffd", "ph": "X", "pid": 1000000, "tid": 1000000006, "ts": "0.500"})",
      R"({"args": {"name": "w\u00f6rker \"1\""}, "name": "thread_name", "ph": "M", "pid": 100, "tid": 101})",
      R"({"args": {"sort_index": 1}, "name": "thread_sort_index", "ph": "M", "pid": 100, "tid": 101})",
      R"({"name": "mark", "ph": "i", "pid": 100, "s": "t", "tid": 101, "ts": "2.000"})",
      R"({"args": {"value": 4096}, "name": "rss", "ph": "C", "pid": 100, "tid": 0, "ts": "3.000"})",
      R"({"args": {"name": "counters"}, "name": "process_name", "ph": "M", "pid": 999998, "tid": 0})",
      R"({"args": {"sort_index": 999998}, "name": "process_sort_index", "ph": "M", "pid": 999998, "tid": 0})",
      R"({"args": {"value": "12.5"}, "name": "power", "ph": "C", "pid": 999998, "tid": 0, "ts": "3.001"})",
      R"({"args": {"correlation_id": 7}, "cat": "memcpy", "dur": "0.001", "name": "copy", "ph": "X", "pid": 1000000, "tid": 1000000006, "ts": "4.000"})",
      R"({"bp": "e", "cat": "flow", "id": "0x9", "name": "flow", "ph": "s", "pid": 100, "tid": 100, "ts": "5.000"})",
      R"({"bp": "e", "cat": "flow", "id": "0x9", "name": "flow", "ph": "t", "pid": 1000000, "tid": 1000000006, "ts": "5.100"})",
      R"({"bp": "e", "cat": "flow", "id": "0x9", "name": "flow", "ph": "f", "pid": 1000000, "tid": 1000000006, "ts": "5.200"})",
      R"({"args": {"stack": "main;mid;leaf"}, "cat": "sample", "name": "leaf", "ph": "i", "pid": 100, "s": "t", "tid": 101, "ts": "6.000"})",
      R"(otherData {"base_ns": 1000000, "command": "app --train", "dropped_events": 0, "events": 12, "hostname": "host", "session": "test", "skipped_events": 2})",
  };
  EXPECT_EQ(parse_with_python(path_), expected);

  // Raw text: nanosecond-precise microseconds and one event per line.
  const std::string text = prof::testing::file_text(path_);
  EXPECT_EQ(text.rfind("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", 0), 0u);
  EXPECT_NE(text.find("\"ts\":0.500,\"dur\":1.500,"), std::string::npos);
  EXPECT_EQ(host.warnings().size(), 1u);
}

TEST_F(ChromeJsonExporterTest, ArgumentsAndKindsGoIntoArgsAndCat) {
  FakeExportHost host;
  const prof_track_id process = host.add_track(PROF_TRACK_PROCESS, "app", 0, 100);
  const prof_track_id thread = host.add_track(PROF_TRACK_THREAD, "main", process, 100, 100);
  const uint64_t args = host.add_args(
      {host.uint_arg("bytes", 4096), host.int_arg("delta", -3), host.double_arg("ratio", 0.25),
       host.string_arg("peer", "rank \"1\""), host.double_arg("bad", std::nan(""))});
  const std::vector<prof_event> events = {
      FakeExportHost::with_args(host.slice(thread, "copy", 1000, 500, "DMA", 7), args,
                                PROF_CATEGORY_MEMCPY_HTOD),
      FakeExportHost::with_args(host.instant(thread, "mark", 2000), args, PROF_CATEGORY_ANNOTATION),
  };
  ASSERT_TRUE(run(host, {events})) << ::testing::PrintToString(host.errors());
  const auto lines = parse_with_python(path_);
  const std::string slice =
      R"({"args": {"bad": "nan", "bytes": 4096, "correlation_id": 7, "delta": -3, "peer": "rank \"1\"", "ratio": "0.25"}, "cat": "DMA,memcpy.htod", "dur": "0.500", "name": "copy", "ph": "X", "pid": 100, "tid": 100, "ts": "0.000"})";
  const std::string instant =
      R"({"args": {"bad": "nan", "bytes": 4096, "delta": -3, "peer": "rank \"1\"", "ratio": "0.25"}, "cat": "annotation", "name": "mark", "ph": "i", "pid": 100, "s": "t", "tid": 100, "ts": "1.000"})";
  EXPECT_NE(std::find(lines.begin(), lines.end(), slice), lines.end())
      << ::testing::PrintToString(lines);
  EXPECT_NE(std::find(lines.begin(), lines.end(), instant), lines.end());
}

TEST_F(ChromeJsonExporterTest, EventsBeforeTheBaseGetNegativeTimes) {
  FakeExportHost host;
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  ASSERT_TRUE(
      run(host, {{host.instant(queue, "later", 5000)}, {host.instant(queue, "early", 4000)}}));
  const auto lines = parse_with_python(path_);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[1 + 3],
            R"({"name": "later", "ph": "i", "pid": 2000001, "s": "t", "tid": 0, "ts": "0.000"})");
  EXPECT_EQ(lines[1 + 4],
            R"({"name": "early", "ph": "i", "pid": 2000001, "s": "t", "tid": 0, "ts": "-1.000"})");
}

TEST_F(ChromeJsonExporterTest, EmptyCaptureIsValidJson) {
  FakeExportHost host;
  ASSERT_TRUE(run(host, {}));
  EXPECT_EQ(
      parse_with_python(path_),
      (std::vector<std::string>{
          "keys displayTimeUnit,traceEvents,otherData", "displayTimeUnit ns",
          R"(otherData {"base_ns": 0, "command": "", "dropped_events": 0, "events": 0, "hostname": "host", "session": "test", "skipped_events": 0})"}));
}

TEST_F(ChromeJsonExporterTest, RefusesAnExistingFileUnlessOverwrite) {
  { std::ofstream(path_) << "keep me"; }
  FakeExportHost host;
  host.set_option("path", path_);
  ChromeJsonExporter refused(host.host());
  EXPECT_FALSE(refused.begin());
  EXPECT_EQ(host.errors(), std::vector<std::string>{"chrome-json: '" + path_ + "' already exists"});
  EXPECT_EQ(prof::testing::file_text(path_), "keep me");
  EXPECT_EQ(files(), std::vector<std::string>{"out.json"});

  FakeExportHost again;
  again.set_option("overwrite", "true");
  ASSERT_TRUE(run(again, {}));
  EXPECT_EQ(prof::testing::file_text(path_).rfind("{\"displayTimeUnit\"", 0), 0u);
}

TEST_F(ChromeJsonExporterTest, MissingPathIsAnError) {
  FakeExportHost host;
  ChromeJsonExporter exporter(host.host());
  EXPECT_FALSE(exporter.begin());
  EXPECT_EQ(host.errors(), std::vector<std::string>{"chrome-json: option path is required"});
}

TEST_F(ChromeJsonExporterTest, AbandonedExportLeavesNothing) {
  FakeExportHost host;
  host.set_option("path", path_);
  const prof_track_id queue = host.add_track(PROF_TRACK_CUSTOM, "queue");
  {
    ChromeJsonExporter exporter(host.host());
    ASSERT_TRUE(exporter.begin());
    std::vector<prof_event> many(20000, host.slice(queue, std::string(100, 'x'), 1, 2));
    ASSERT_TRUE(exporter.consume(many.data(), many.size())); // > a block: file written
    ASSERT_EQ(files().size(), 1u);
    EXPECT_NE(files()[0].find("out.json.tmp."), std::string::npos);
  } // destroyed without end(): the temporary file goes
  EXPECT_TRUE(files().empty());
}

TEST_F(ChromeJsonExporterTest, UnwritableFolderIsAnError) {
  FakeExportHost host;
  host.set_option("path", "/proc/prof-chrome-json-test/out.json");
  ChromeJsonExporter exporter(host.host());
  EXPECT_FALSE(exporter.begin());
  ASSERT_EQ(host.errors().size(), 1u);
  EXPECT_EQ(
      host.errors()[0].rfind("chrome-json: cannot create folder '/proc/prof-chrome-json-test'", 0),
      0u)
      << host.errors()[0];
}

TEST_F(ChromeJsonExporterTest, FolderPathGetsAFileName) {
  FakeExportHost host;
  host.set_target(42, "app");
  host.set_option("path", dir_.path());
  host_has_path_ = true;
  ASSERT_TRUE(run(host, {}));
  EXPECT_EQ(files(), std::vector<std::string>{"prof-42.json"});
  EXPECT_EQ(output::resolve_output_path("new/", 42, kExtension), "new/prof-42.json");
}

// A process that exec'd after its first events is named again at the end:
// viewers show the last name record of a pid or tid.
TEST_F(ChromeJsonExporterTest, ARenamedProcessAndThreadAreNamedAgain) {
  FakeExportHost host;
  host.set_option("path", path_);
  ASSERT_TRUE(testing::run_renamed_during_capture<ChromeJsonExporter>(host))
      << ::testing::PrintToString(host.errors());
  const std::string json = prof::testing::file_text(path_);
  const auto count = [&](const std::string &text) {
    size_t n = 0;
    for (size_t at = json.find(text); at != std::string::npos; at = json.find(text, at + 1))
      ++n;
    return n;
  };
  const std::string first = R"("name":"process_name","pid":77,"tid":0,"args":{"name":"mpirun"})";
  const std::string last =
      R"x("name":"process_name","pid":77,"tid":0,"args":{"name":"./app (rank 0)"})x";
  ASSERT_EQ(count(first), 1u) << json;
  ASSERT_EQ(count(last), 1u) << json;
  EXPECT_LT(json.find(first), json.find(last));
  EXPECT_EQ(count(R"("name":"thread_name","pid":77,"tid":77,"args":{"name":"app"})"), 1u);
  EXPECT_EQ(count(R"("name":"thread_name")"), 3u) << "the helper thread is not named again";
}

} // namespace
} // namespace prof::chrome_json
