/* The machine's own price of 1 kHz CPU-time sampling, for
 * run_bench_python.py: a fixed loop, bare or with a task-clock perf event
 * whose overflow sends an empty signal handler SIGPROF every millisecond of
 * the thread's CPU time (what the python source and cpu-perf both pay
 * before they do anything). Prints the loop's seconds.
 * Usage: signal_floor [HZ]  (no HZ: bare) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void on_signal(int signal, siginfo_t *info, void *context) {
  (void)signal;
  (void)info;
  (void)context;
}

int main(int argc, char **argv) {
  const long hz = argc > 1 ? atol(argv[1]) : 0;
  if (hz > 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &action, NULL);
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.sample_period = 1000000000 / hz;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.disabled = 1;
    const int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
      perror("signal_floor: perf_event_open");
      return 1;
    }
    struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
    fcntl(fd, F_SETOWN_EX, &owner);
    fcntl(fd, F_SETSIG, SIGPROF);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  volatile double sum = 0;
  for (long i = 0; i < 300000000; i++)
    sum += (double)i;
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%.6f\n", (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
  return 0;
}
