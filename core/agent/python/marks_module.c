/* _prof_marks: prof.step(), prof.start() and prof.stop() as C functions, so
 * that a step mark costs a call into the agent and no ctypes conversion
 * (about 440 ns a call through ctypes). The agent's entry is looked up once
 * (prof/profiler_api.h). Built for CPython's stable ABI (3.8 and later), so
 * one file serves every interpreter. */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <prof/profiler_api.h>

static PyObject *mark_step(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyBool_FromLong(prof_step());
}

static PyObject *mark_start(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyBool_FromLong(prof_start());
}

static PyObject *mark_stop(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyBool_FromLong(prof_stop());
}

static PyMethodDef methods[] = {
    {"step", mark_step, METH_NOARGS, "step() -> True when prof is profiling this process"},
    {"start", mark_start, METH_NOARGS, "start() -> True when prof received it"},
    {"stop", mark_stop, METH_NOARGS, "stop() -> True when prof received it"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_prof_marks", "prof's step and capture-range marks", -1, methods,
    NULL,                  NULL,          NULL,                                  NULL};

PyMODINIT_FUNC PyInit__prof_marks(void) {
  /* The lookup now, not at the first mark. */
  (void)prof_capture_request_function();
  return PyModule_Create(&module);
}
