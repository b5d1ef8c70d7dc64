/* libprof-parallel-reduce: TBB's deterministic parallel reduce behind a C
   interface. `prof stats` loads it with dlopen, so that no other command
   (a capture above all) loads TBB at start. */
#ifndef PROF_PARALLEL_REDUCE_H
#define PROF_PARALLEL_REDUCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the reduce does with a body: an opaque partial result. */
typedef struct prof_reduce_body_ops {
  /** A new, empty body to fold a range beside `body`. */
  void *(*split)(void *body);
  /** Folds the items [begin, end) into `body`. */
  void (*run)(void *body, size_t begin, size_t end);
  /** Folds `right` (the items after `left`'s) into `left`. */
  void (*join)(void *left, void *right);
  /** Frees a body that split() made. */
  void (*destroy)(void *body);
} prof_reduce_body_ops;

/** Folds [first, last) into `body`, split into ranges of at most `grain`
    items by halving: the same tree of joins for any number of threads.
    threads 0: as many as TBB offers; more than the machine has: as many. */
void prof_parallel_reduce(void *body, const prof_reduce_body_ops *ops, size_t first, size_t last,
                          size_t grain, size_t threads);

#ifdef __cplusplus
}
#endif

#endif
