/* _prof_python_ranges: the Python module through which prof's function trace
 * (prof_python_functions.py) enters and leaves ranges in the python plugin,
 * which prof preloads into the process. Built for CPython's stable ABI
 * (3.8 and later), so one file serves every interpreter. */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ranges_api.h"

#include <dlfcn.h>

static const prof_python_ranges_api *ranges;

static PyObject *range_name(PyObject *self, PyObject *args) {
  const char *name = NULL, *domain = NULL;
  (void)self;
  if (!PyArg_ParseTuple(args, "s|z:name", &name, &domain)) return NULL;
  return PyLong_FromLong(ranges->name(name, domain));
}

static int index_of(PyObject *index, int *out) {
  const long value = PyLong_AsLong(index);
  if (value == -1 && PyErr_Occurred()) return 0;
  *out = value < 0 || value > 0x7fffffff ? -1 : (int)value;
  return 1;
}

static PyObject *range_enter(PyObject *self, PyObject *index) {
  int value;
  (void)self;
  if (!index_of(index, &value)) return NULL;
  ranges->enter(value);
  Py_RETURN_NONE;
}

static PyObject *range_leave(PyObject *self, PyObject *index) {
  int value;
  (void)self;
  if (!index_of(index, &value)) return NULL;
  ranges->leave(value);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"name", range_name, METH_VARARGS,
     "name(name, domain=None) -> index of the range NAME in DOMAIN, -1 when none fits"},
    {"enter", range_enter, METH_O, "enter(index): a call of the function `index` names begins"},
    {"leave", range_leave, METH_O, "leave(index): that call ends"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "_prof_python_ranges",
                                    "prof's Python function ranges",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__prof_python_ranges(void) {
  union {
    void *object;
    prof_python_ranges_fn function;
  } symbol;
  symbol.object = dlsym(RTLD_DEFAULT, PROF_PYTHON_RANGES_SYMBOL);
  if (symbol.object == NULL) {
    PyErr_SetString(PyExc_ImportError, "prof's python plugin is not loaded in this process");
    return NULL;
  }
  ranges = symbol.function();
  if (ranges == NULL || ranges->version != PROF_PYTHON_RANGES_VERSION) {
    PyErr_SetString(PyExc_ImportError, "prof's python plugin is of another version");
    return NULL;
  }
  return PyModule_Create(&module);
}
