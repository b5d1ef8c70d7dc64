/* A parent and a forked child, each leaving one block of its own (1,000
 * and 2,000 bytes) besides what the child inherited. Exits 0. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void *volatile sink;

__attribute__((noinline)) void *parent_leak(void) {
  void *p = malloc(1000);
  memset(p, 1, 1000);
  return p;
}

__attribute__((noinline)) void *child_leak(void) {
  void *p = malloc(2000);
  memset(p, 2, 2000);
  return p;
}

int main(void) {
  sink = parent_leak();
  const pid_t child = fork();
  if (child == 0) {
    sink = child_leak();
    exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
