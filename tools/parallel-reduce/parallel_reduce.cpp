#include "tools/parallel-reduce/parallel_reduce.h"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>

namespace {

// TBB's body around the caller's: the root is the caller's, split ones are
// made and freed through its operations.
class Body {
public:
  Body(void *state, const prof_reduce_body_ops &ops) : state_(state), ops_(ops), owned_(false) {}
  Body(Body &other, tbb::split)
      : state_(other.ops_.split(other.state_)), ops_(other.ops_), owned_(true) {}
  Body(const Body &) = delete;
  Body &operator=(const Body &) = delete;
  ~Body() {
    if (owned_) ops_.destroy(state_);
  }

  void operator()(const tbb::blocked_range<size_t> &range) {
    ops_.run(state_, range.begin(), range.end());
  }
  void join(Body &right) { ops_.join(state_, right.state_); }

private:
  void *state_;
  const prof_reduce_body_ops &ops_;
  bool owned_;
};

} // namespace

extern "C" void prof_parallel_reduce(void *body, const prof_reduce_body_ops *ops, size_t first,
                                     size_t last, size_t grain, size_t threads) {
  Body root(body, *ops);
  const auto run = [&] {
    tbb::parallel_deterministic_reduce(tbb::blocked_range<size_t>(first, last, grain), root,
                                       tbb::simple_partitioner());
  };
  if (threads == 0) return run();
  // More than the machine has only makes TBB complain.
  const auto usable =
      std::min<size_t>(threads, static_cast<size_t>(std::max(1, tbb::info::default_concurrency())));
  tbb::task_arena arena(static_cast<int>(usable));
  arena.execute(run);
}
