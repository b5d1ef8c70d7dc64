// A program that alternates known bursts of work and sleep, for the thread
// state tests: 5 x (burn 20 ms, sleep 40 ms).
#include <chrono>
#include <thread>

volatile unsigned long sink;

int main() {
  using clock = std::chrono::steady_clock;
  for (int round = 0; round < 5; ++round) {
    const auto end = clock::now() + std::chrono::milliseconds(20);
    while (clock::now() < end) sink = sink * 31 + 7;
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }
  return 0;
}
