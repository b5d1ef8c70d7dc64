// A program run with the built libprof-osrt.so preloaded and no agent, so no
// osrt instance exists: every interposer must pass its call through. It
// exercises each family and exits 0 only when every result is right.
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#define CHECK(condition)                                                                           \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      std::fprintf(stderr, "osrt_preload_child: check failed: %s (line %d)\n", #condition,         \
                   __LINE__);                                                                      \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main() {
  // Locks and condition variables across threads.
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  int queued = 0, consumed = 0;
  std::thread producer([&] {
    for (int i = 0; i < 5000; ++i) {
      pthread_mutex_lock(&mutex);
      ++queued;
      pthread_cond_signal(&cond);
      pthread_mutex_unlock(&mutex);
    }
  });
  pthread_mutex_lock(&mutex);
  while (consumed < 5000) {
    while (queued == 0)
      pthread_cond_wait(&cond, &mutex);
    consumed += queued;
    queued = 0;
  }
  pthread_mutex_unlock(&mutex);
  producer.join();
  CHECK(consumed == 5000);

  std::mutex std_mutex;
  std::condition_variable std_cond;
  bool ready = false;
  std::thread notifier([&] {
    std::lock_guard lock(std_mutex);
    ready = true;
    std_cond.notify_one();
  });
  {
    std::unique_lock lock(std_mutex);
    std_cond.wait(lock, [&] { return ready; });
  }
  notifier.join();

  sem_t sem;
  sem_init(&sem, 0, 1);
  CHECK(sem_wait(&sem) == 0);
  sem_destroy(&sem);

  // Sleeps.
  CHECK(usleep(1000) == 0);
  timespec pause{0, 1000000};
  CHECK(nanosleep(&pause, nullptr) == 0);

  // File io and errno.
  char c;
  errno = 0;
  CHECK(read(-1, &c, 1) == -1 && errno == EBADF);
  CHECK(open("/nonexistent/osrt", O_RDONLY) == -1 && errno == ENOENT);
  int fds[2];
  CHECK(pipe(fds) == 0);
  CHECK(write(fds[1], "ok", 2) == 2);
  char buf[8] = {};
  CHECK(read(fds[0], buf, sizeof buf) == 2 && std::strcmp(buf, "ok") == 0);
  close(fds[0]);
  close(fds[1]);

  // Sockets.
  int pair[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
  CHECK(send(pair[0], "hi", 2, 0) == 2);
  CHECK(recv(pair[1], buf, sizeof buf, 0) == 2);
  close(pair[0]);
  close(pair[1]);

  // stdio.
  FILE *status = std::fopen("/proc/self/status", "r");
  CHECK(status != nullptr);
  CHECK(std::fread(buf, 1, 4, status) == 4);
  CHECK(std::fclose(status) == 0);

  // Processes.
  const int code = std::system("exit 3");
  CHECK(WIFEXITED(code) && WEXITSTATUS(code) == 3);
  FILE *pipe_in = popen("echo osrt", "r");
  CHECK(pipe_in != nullptr);
  char line[16] = {};
  CHECK(std::fgets(line, sizeof line, pipe_in) != nullptr && std::strcmp(line, "osrt\n") == 0);
  CHECK(pclose(pipe_in) == 0);
  const pid_t child = fork();
  if (child == 0) _exit(5);
  int child_status = 0;
  CHECK(waitpid(child, &child_status, 0) == child && WEXITSTATUS(child_status) == 5);

  std::printf("osrt_preload_child ok\n");
  return 0;
}
