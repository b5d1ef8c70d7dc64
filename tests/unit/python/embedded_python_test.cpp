// The python source against a real interpreter embedded in the test: the
// frames it walks from inside a call, their names and lines, where one
// evaluation-loop call ends, its sampler on a busy Python loop, and its
// layout table against the interpreter's headers.
#include "layout_probe.h"
#include "thread_sampler.hpp"
#include <prof/python/code_names.hpp>
#include <prof/python/frame_merge.hpp>
#include <prof/python/frame_walk.hpp>
#include <prof/python/python_runtime.hpp>

#include <prof/stacks/address_name.hpp>

#include <Python.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

// The embedded interpreter is never finalized, and keeps its objects: not
// leaks of the code under test.
extern "C" const char *__lsan_default_suppressions() { return "leak:libpython3\n"; }

namespace prof::python {
namespace {

PythonRuntime g_runtime;
std::vector<PythonFrameRef> g_seen;

PyObject *probe(PyObject *, PyObject *) {
  PythonFrameRef frames[64];
  bool truncated = false;
  const int count = walk_python_frames(g_runtime, frames, 64, &truncated);
  g_seen.assign(frames, frames + count);
  Py_RETURN_NONE;
}

PyMethodDef g_probe_method = {"probe", probe, METH_NOARGS, nullptr};

class EmbeddedPython : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    if (Py_IsInitialized()) return;
    Py_InitializeEx(0);
    PyObject *function = PyCFunction_New(&g_probe_method, nullptr);
    PyObject *builtins = PyEval_GetBuiltins();
    PyDict_SetItemString(builtins, "probe", function);
    Py_DECREF(function);
    RuntimeLookup lookup = find_python_runtime();
    ASSERT_TRUE(lookup.runtime) << lookup.problem;
    g_runtime = *lookup.runtime;
  }
  /// Runs `source` as the module of file `file`.
  static void run(const std::string &source, const char *file) {
    g_seen.clear();
    PyObject *code = Py_CompileString(source.c_str(), file, Py_file_input);
    ASSERT_NE(code, nullptr);
    PyObject *globals = PyDict_New();
    PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
    PyObject *result = PyEval_EvalCode(code, globals, globals);
    if (result == nullptr) PyErr_Print();
    ASSERT_NE(result, nullptr);
    Py_DECREF(result);
    Py_DECREF(globals);
    Py_DECREF(code);
  }
  static std::vector<std::string> names(const std::vector<PythonFrameRef> &frames) {
    CodeNames names(g_runtime);
    std::vector<std::string> out;
    for (const auto &frame : frames)
      out.push_back(names.frame_name(frame));
    return out;
  }
};

TEST_F(EmbeddedPython, FindsTheInterpreterAndItsEvaluationFunction) {
  EXPECT_EQ(g_runtime.minor, PY_MINOR_VERSION);
  EXPECT_EQ(g_runtime.code_type, reinterpret_cast<uintptr_t>(&PyCode_Type));
  EXPECT_GT(g_runtime.eval_end, g_runtime.eval_begin);
}

TEST_F(EmbeddedPython, LayoutTableMatchesTheInterpretersHeaders) {
  const header_layout h = python_header_layout();
  const InterpreterLayout *l = layout_for_minor(h.minor);
  ASSERT_NE(l, nullptr) << "3." << h.minor;
  EXPECT_EQ(l->tstate_cframe, h.tstate_cframe);
  if (h.tstate_cframe >= 0) {
    EXPECT_EQ(l->cframe_current_frame, h.cframe_current_frame);
    EXPECT_EQ(l->cframe_previous, h.cframe_previous);
  } else {
    EXPECT_EQ(l->tstate_current_frame, h.tstate_current_frame);
  }
  EXPECT_EQ(l->tstate_datastack_chunk, h.tstate_datastack_chunk);
  EXPECT_EQ(l->tstate_datastack_top, h.tstate_datastack_top);
  EXPECT_EQ(kChunkPrevious, h.chunk_previous);
  EXPECT_EQ(kChunkTop, h.chunk_top);
  EXPECT_EQ(kChunkData, h.chunk_data);
  EXPECT_EQ(kFrameHeader, h.frame_header);
  EXPECT_EQ(l->frame_code, h.frame_code);
  EXPECT_EQ(l->frame_previous, h.frame_previous);
  EXPECT_EQ(l->frame_instruction, h.frame_instruction);
  EXPECT_EQ(l->frame_is_entry, h.frame_is_entry);
  EXPECT_EQ(l->frame_owner, h.frame_owner);
  EXPECT_EQ(l->owned_by_c_stack, h.owned_by_c_stack);
  EXPECT_EQ(l->code_filename, h.code_filename);
  EXPECT_EQ(l->code_qualname, h.code_qualname);
  EXPECT_EQ(l->code_first_line, h.code_first_line);
  EXPECT_EQ(l->code_line_table, h.code_line_table);
  EXPECT_EQ(l->code_units, h.code_units);
  EXPECT_EQ(l->ascii_size, h.ascii_size);
  EXPECT_EQ(l->compact_size, h.compact_size);
  EXPECT_EQ(kObjectType, h.object_type);
  EXPECT_EQ(kVarSize, h.var_size);
  EXPECT_EQ(kBytesData, h.bytes_data);
  EXPECT_EQ(kUnicodeLength, h.unicode_length);
  EXPECT_EQ(kUnicodeState, h.unicode_state);
}

TEST_F(EmbeddedPython, WalkNamesEveryFrameWithTheLineItIsAt) {
  run("def inner():\n"
      "    x = 1\n"
      "    probe()\n"
      "    return x\n"
      "\n"
      "class Model:\n"
      "    def forward(self):\n"
      "        return inner()\n"
      "\n"
      "Model().forward()\n",
      "/opt/venv/lib/python3/site-packages/walk/walk_test.py");
  EXPECT_EQ(names(g_seen), (std::vector<std::string>{"inner (walk/walk_test.py:3)",
                                                     "Model.forward (walk/walk_test.py:8)",
                                                     "<module> (walk/walk_test.py:10)"}));
  ASSERT_EQ(g_seen.size(), 3u);
  EXPECT_FALSE(g_seen[0].last_of_group);
  EXPECT_FALSE(g_seen[1].last_of_group);
  EXPECT_TRUE(g_seen[2].last_of_group);
}

TEST_F(EmbeddedPython, ACallFromCStartsAnotherEvaluationLoopCall) {
  run("def leaf():\n"
      "    probe()\n"
      "\n"
      "def via_c():\n"
      "    return list(map(lambda _: leaf(), [0]))\n"
      "\n"
      "via_c()\n",
      "groups.py");
  EXPECT_EQ(names(g_seen),
            (std::vector<std::string>{"leaf (groups.py:2)", "via_c.<locals>.<lambda> (groups.py:5)",
                                      "via_c (groups.py:5)", "<module> (groups.py:7)"}));
  std::vector<bool> ends;
  for (const auto &frame : g_seen)
    ends.push_back(frame.last_of_group);
  EXPECT_EQ(ends, (std::vector<bool>{false, true, false, true}));
}

TEST_F(EmbeddedPython, NonAsciiNamesAreUtf8) {
  run("def grüße():\n"
      "    probe()\n"
      "grüße()\n",
      "ünï.py");
  ASSERT_FALSE(g_seen.empty());
  EXPECT_EQ(names(g_seen)[0], "grüße (ünï.py:2)");
}

TEST_F(EmbeddedPython, SamplerPutsTheBusyFunctionWhereTheLoopRanIt) {
  ThreadSampler sampler(&g_runtime, 1000, 64, 0);
  ASSERT_EQ(sampler.start(), "");
  run("def spin():\n"
      "    total = 0\n"
      "    for i in range(4_000_000):\n"
      "        total += i * i\n"
      "    return total\n"
      "\n"
      "spin()\n",
      "spin_test.py");
  sampler.stop();
  CodeNames names(g_runtime);
  std::vector<std::vector<std::string>> stacks;
  sampler.drain([&](int, const SampleRecord &record) {
    stacks.push_back(merge_frames(
        g_runtime, {record.native, record.native_count}, {record.python, record.python_count},
        [](uintptr_t address) { return stacks::describe_address(address); },
        [&](const PythonFrameRef &frame) { return names.frame_name(frame); }));
  });
  ASSERT_GT(stacks.size(), 5u) << "a loop of some 100 ms at 1 kHz";
  int in_spin = 0;
  for (const auto &stack : stacks) {
    EXPECT_EQ(std::count(stack.begin(), stack.end(), "_PyEval_EvalFrameDefault"), 0);
    const auto spin = std::find_if(stack.begin(), stack.end(), [](const std::string &frame) {
      return frame.rfind("spin (spin_test.py:", 0) == 0;
    });
    if (spin == stack.end()) continue;
    ++in_spin;
    EXPECT_TRUE(*spin == "spin (spin_test.py:3)" || *spin == "spin (spin_test.py:4)") << *spin;
    ASSERT_NE(spin + 1, stack.end());
    EXPECT_EQ(spin[1], "<module> (spin_test.py:7)");
    // The native callers stay below: the test's own call into the interpreter.
    EXPECT_NE(std::find(spin + 2, stack.end(), "PyEval_EvalCode"), stack.end());
  }
  EXPECT_GT(in_spin, static_cast<int>(stacks.size()) / 2);
  EXPECT_EQ(sampler.take_dropped(), 0u);
}

} // namespace
} // namespace prof::python
