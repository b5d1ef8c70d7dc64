/* What prof's python plugin offers its Python module _prof_python_ranges
 * (functions/ranges_module.c): the module finds the plugin, preloaded into
 * the process, by PROF_PYTHON_RANGES_SYMBOL. Private to the python plugin. */
#ifndef PROF_PLUGINS_PYTHON_RANGES_API_H
#define PROF_PLUGINS_PYTHON_RANGES_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROF_PYTHON_RANGES_SYMBOL "prof_python_ranges"
#define PROF_PYTHON_RANGES_VERSION 1

typedef struct prof_python_ranges_api {
  uint32_t version; /* PROF_PYTHON_RANGES_VERSION */
  /* The index of the range NAME in DOMAIN (NULL: the default domain), the
   * same for the same pair; -1 when no more names fit. */
  int (*name)(const char *name, const char *domain);
  /* A call of the function `index` names begins, then ends, on this thread:
   * strictly nested, as the calls are. */
  void (*enter)(int index);
  void (*leave)(int index);
} prof_python_ranges_api;

typedef const prof_python_ranges_api *(*prof_python_ranges_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
