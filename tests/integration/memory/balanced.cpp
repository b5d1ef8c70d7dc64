// Every block freed: new and delete, new[] and delete[], aligned new,
// aligned_alloc, a growing vector and strings, on four threads. Its leaks
// must name none of its own code.
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

struct alignas(128) Wide {
  char bytes[256];
};

void *volatile sink;

__attribute__((noinline)) void work(int rounds) {
  for (int i = 0; i < rounds; ++i) {
    int *one = new int(i);
    sink = one;
    delete one;
    double *many = new double[64 + i % 64];
    sink = many;
    delete[] many;
    Wide *wide = new Wide;
    sink = wide;
    delete wide;
    Wide *wides = new Wide[3];
    sink = wides;
    delete[] wides;
    void *aligned = std::aligned_alloc(64, 640);
    sink = aligned;
    std::free(aligned);
    std::vector<std::string> words;
    for (int w = 0; w < 20; ++w)
      words.push_back(std::string(40 + w, 'x'));
    sink = words.data();
  }
}

int main() {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back(work, 2000);
  for (std::thread &thread : threads)
    thread.join();
  work(100);
  return 0;
}
