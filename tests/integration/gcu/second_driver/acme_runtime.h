/* The runtime of the acme test driver: each call is an API call that runs
 * one piece of work on the device. */
#ifndef ACME_RUNTIME_H
#define ACME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACME_EXPORT __attribute__((visibility("default")))
/// Runs job A (or B) for `ns` nanoseconds.
ACME_EXPORT void acme_run(int job_b, uint64_t ns);
/// Copies `bytes` to the device, from it, or sets them.
ACME_EXPORT void acme_copy_in(uint64_t bytes);
ACME_EXPORT void acme_copy_out(uint64_t bytes);
ACME_EXPORT void acme_fill(uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
