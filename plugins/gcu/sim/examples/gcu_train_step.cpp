// gcu-train-step: training steps of a small convolutional network on gcusim
// devices, with kernels named as topsprof shows a framework's.
//   gcu-train-step [--steps N] [--devices N] [--profile-step N] [--quiet]
// --profile-step N wraps step N in gcuProfilerStart/gcuProfilerStop; each
// step ends with prof_step().
// Network: conv 3->16, batch norm, bias+relu, conv 16->32, batch norm,
// bias+relu, fully connected to 10 classes, softmax cross-entropy; plain SGD.
// Each device trains its own replica on its own batch, on its own stream.
// Prints the mean loss over devices per step; exit 0, or 1 if the loss rose
// from the first step to the last, 2 on bad usage or a runtime error.
#include "gcusim/gcu_runtime.h"
#include "train_step_kernels.hpp"

#include <prof/profiler_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace train_step;

namespace {

constexpr int kBatch = 8, kInChannels = 3, kMidChannels = 16, kOutChannels = 32, kSide = 32;
constexpr int kClasses = 10;
constexpr float kLearningRate = 2e-4f;

bool failed = false;
void check(gcuError_t error, const char *what) {
  if (error == gcuSuccess || failed) return;
  std::fprintf(stderr, "gcu-train-step: %s: %s\n", what, gcuGetErrorString(error));
  failed = true;
}

/// Deterministic numbers in [-1, 1).
struct Random {
  uint64_t state;
  float next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<float>(state >> 40) / static_cast<float>(1ull << 23) - 1.0f;
  }
};

/// One device's copy of the network: parameters, activations, gradients, and
/// the argument blocks of its kernels (which must outlive the launches).
class Replica {
public:
  explicit Replica(int device) : device_(device) {
    check(gcuSetDevice(device), "gcuSetDevice");
    check(gcuStreamCreate(&stream_), "gcuStreamCreate");
    const Shape input{kBatch, kInChannels, kSide, kSide};
    const Shape mid{kBatch, kMidChannels, kSide, kSide};
    const Shape out{kBatch, kOutChannels, kSide, kSide};
    const int features = kOutChannels * kSide * kSide;

    // Parameters and their gradients, each in one block.
    const size_t sizes[] = {size_t{kMidChannels} * kInChannels * 9,
                            kMidChannels,
                            kMidChannels,
                            size_t{kOutChannels} * kMidChannels * 9,
                            kOutChannels,
                            kOutChannels,
                            size_t{kClasses} * features,
                            kClasses};
    for (size_t size : sizes)
      param_count_ += size;
    params_ = alloc(param_count_);
    grads_ = alloc(param_count_);
    previous_ = alloc(param_count_);
    checkpoint_ = alloc(param_count_);
    float *p[8], *g[8];
    size_t offset = 0;
    for (int i = 0; i < 8; ++i) {
      p[i] = params_ + offset;
      g[i] = grads_ + offset;
      offset += sizes[i];
    }
    init_params(sizes, static_cast<uint64_t>(device) + 1);

    float *x = alloc(input.size()), *c1 = alloc(mid.size()), *y1 = alloc(mid.size());
    float *xhat1 = alloc(mid.size()), *a1 = alloc(mid.size());
    float *c2 = alloc(out.size()), *y2 = alloc(out.size()), *xhat2 = alloc(out.size());
    float *a2 = alloc(out.size()), *inv1 = alloc(kMidChannels), *inv2 = alloc(kOutChannels);
    float *d_c1 = alloc(mid.size()), *d_y1 = alloc(mid.size()), *d_a1 = alloc(mid.size());
    float *d_c2 = alloc(out.size()), *d_y2 = alloc(out.size()), *d_a2 = alloc(out.size());
    float *logits = alloc(kBatch * kClasses), *d_logits = alloc(kBatch * kClasses);
    float *sample_loss = alloc(kBatch), *loss = alloc(1);
    int *labels = nullptr;
    check(gcuMalloc(reinterpret_cast<void **>(&labels), kBatch * sizeof(int)), "gcuMalloc");
    input_device_ = x;
    labels_device_ = labels;
    loss_device_ = loss;
    make_batch(input, static_cast<uint64_t>(device) + 100);

    conv1_ = {input, kMidChannels, x, p[0], c1, d_c1, nullptr, g[0]};
    bn1_ = {mid, c1, p[2], y1, xhat1, inv1, d_y1, d_c1, g[2]};
    act1_ = {mid, y1, p[1], a1, d_a1, d_y1, g[1]};
    conv2_ = {mid, kOutChannels, a1, p[3], c2, d_c2, d_a1, g[3]};
    bn2_ = {out, c2, p[5], y2, xhat2, inv2, d_y2, d_c2, g[5]};
    act2_ = {out, y2, p[4], a2, d_a2, d_y2, g[4]};
    dot_ = {kBatch, features, kClasses, a2, p[6], p[7], logits, d_logits, d_a2, g[6], g[7]};
    loss_ = {kBatch, kClasses, logits, labels, sample_loss, d_logits, loss};
    sgd_ = {param_count_, kLearningRate, params_, grads_};
    copy_ = {param_count_, params_, previous_};
  }

  /// Queues one training step; the loss arrives in loss() after wait().
  void queue_step() {
    check(gcuMemcpyH2DAsync(input_device_, input_.data(), input_.size() * sizeof(float), stream_),
          "gcuMemcpyH2DAsync");
    check(gcuMemcpyH2DAsync(labels_device_, labels_.data(), labels_.size() * sizeof(int), stream_),
          "gcuMemcpyH2DAsync");
    check(gcuMemsetAsync(grads_, 0, param_count_ * sizeof(float), stream_), "gcuMemsetAsync");
    launch("common20_conv_dtu", conv_forward, &conv1_);
    launch("batch_norm_training_dtu", batch_norm_forward, &bn1_);
    launch("elementwise_fusion_dtu", bias_relu_forward, &act1_);
    launch("common20_conv_dtu", conv_forward, &conv2_);
    launch("batch_norm_training_dtu", batch_norm_forward, &bn2_);
    launch("elementwise_fusion_dtu", bias_relu_forward, &act2_);
    launch("dot_dtu", dot_forward, &dot_);
    launch("common20_reduce", softmax_loss, &loss_);
    launch("common20_reduce", reduce_loss, &loss_);
    check(gcuMemcpyD2HAsync(&loss_host_, loss_device_, sizeof(float), stream_),
          "gcuMemcpyD2HAsync");

    launch("dot_dtu", dot_backward, &dot_);
    launch("elementwise_fusion_dtu", bias_relu_backward, &act2_);
    launch("batch_norm_grad_dtu", batch_norm_backward, &bn2_);
    launch("common20_conv_dtu", conv_backward_weight, &conv2_);
    launch("common20_conv_dtu", conv_backward_input, &conv2_);
    launch("elementwise_fusion_dtu", bias_relu_backward, &act1_);
    launch("batch_norm_grad_dtu", batch_norm_backward, &bn1_);
    launch("common20_conv_dtu", conv_backward_weight, &conv1_);

    launch("common20_copy", copy_floats, &copy_);
    launch("elementwise_fusion_dtu", sgd_update, &sgd_);
    check(gcuMemcpyD2DAsync(checkpoint_, params_, param_count_ * sizeof(float), stream_),
          "gcuMemcpyD2DAsync");
  }

  void wait() { check(gcuStreamSynchronize(stream_), "gcuStreamSynchronize"); }
  float loss() const { return loss_host_; }

  ~Replica() {
    gcuSetDevice(device_);
    gcuStreamDestroy(stream_);
    for (void *ptr : allocations_)
      gcuFree(ptr);
  }

private:
  float *alloc(size_t count) {
    void *ptr = nullptr;
    check(gcuMalloc(&ptr, count * sizeof(float)), "gcuMalloc");
    allocations_.push_back(ptr);
    return static_cast<float *>(ptr);
  }

  void launch(const char *name, gcuKernelFn body, void *args) {
    check(gcuLaunchKernel(name, body, args, stream_), name);
  }

  /// He-style initial weights; biases 0 and batch-norm scales 1.
  void init_params(const size_t (&sizes)[8], uint64_t seed) {
    std::vector<float> host(param_count_);
    Random random{seed};
    const float fan_in[8] = {
        kInChannels * 9, 0, 0, kMidChannels * 9, 0, 0, kOutChannels * kSide * kSide, 0};
    const float fill[8] = {0, 0, 1, 0, 0, 1, 0, 0};
    size_t offset = 0;
    for (int i = 0; i < 8; ++i) {
      float scale = fan_in[i] > 0 ? std::sqrt(3.0f / fan_in[i]) : 0.0f;
      for (size_t j = 0; j < sizes[i]; ++j)
        host[offset + j] = scale > 0 ? scale * random.next() : fill[i];
      offset += sizes[i];
    }
    check(gcuMemcpyH2D(params_, host.data(), host.size() * sizeof(float)), "gcuMemcpyH2D");
  }

  /// Images of noise over a pattern that depends on the label.
  void make_batch(const Shape &shape, uint64_t seed) {
    Random random{seed};
    input_.resize(shape.size());
    labels_.resize(kBatch);
    for (int n = 0; n < kBatch; ++n) {
      labels_[n] = n % kClasses;
      for (int c = 0; c < shape.c; ++c)
        for (int y = 0; y < kSide; ++y)
          for (int x = 0; x < kSide; ++x) {
            float pattern = std::sin(0.2f * (labels_[n] + 1) * (x + 2 * y + 3 * c));
            input_[((n * shape.c + c) * kSide + y) * kSide + x] = pattern + 0.5f * random.next();
          }
    }
  }

  int device_;
  gcuStream_t stream_ = nullptr;
  size_t param_count_ = 0;
  float *params_ = nullptr, *grads_ = nullptr, *previous_ = nullptr, *checkpoint_ = nullptr;
  float *input_device_ = nullptr, *loss_device_ = nullptr;
  int *labels_device_ = nullptr;
  std::vector<float> input_;
  std::vector<int> labels_;
  float loss_host_ = 0;
  std::vector<void *> allocations_;
  ConvArgs conv1_{}, conv2_{};
  BatchNormArgs bn1_{}, bn2_{};
  BiasReluArgs act1_{}, act2_{};
  DotArgs dot_{};
  LossArgs loss_{};
  SgdArgs sgd_{};
  CopyArgs copy_{};
};

bool parse_count(const char *text, int &out) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 1 || value > 100000) return false;
  out = static_cast<int>(value);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int steps = 3, devices = 1;
  int profile_step = 0; // 0: none; else gcuProfilerStart/Stop around that step
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc &&
               parse_count(argv[i + 1], steps)) {
      ++i;
    } else if (std::strcmp(argv[i], "--devices") == 0 && i + 1 < argc &&
               parse_count(argv[i + 1], devices)) {
      ++i;
    } else if (std::strcmp(argv[i], "--profile-step") == 0 && i + 1 < argc &&
               parse_count(argv[i + 1], profile_step)) {
      ++i;
    } else {
      std::fprintf(stderr, "usage: gcu-train-step [--steps N] [--devices N] [--profile-step N] "
                           "[--quiet]\n");
      return 2;
    }
  }
  int available = 0;
  check(gcuGetDeviceCount(&available), "gcuGetDeviceCount");
  if (!failed && devices > available) {
    std::fprintf(stderr, "gcu-train-step: --devices %d, but there are %d devices\n", devices,
                 available);
    return 2;
  }

  std::vector<std::unique_ptr<Replica>> replicas;
  for (int d = 0; d < devices && !failed; ++d)
    replicas.push_back(std::make_unique<Replica>(d));
  float first = 0, last = 0;
  for (int step = 0; step < steps && !failed; ++step) {
    // The region of interest: what prof --capture-range profiler-api keeps.
    if (step + 1 == profile_step) check(gcuProfilerStart(), "gcuProfilerStart");
    for (auto &replica : replicas)
      replica->queue_step();
    float sum = 0;
    for (auto &replica : replicas) {
      replica->wait();
      sum += replica->loss();
    }
    if (step + 1 == profile_step) check(gcuProfilerStop(), "gcuProfilerStop");
    last = sum / static_cast<float>(devices);
    if (step == 0) first = last;
    if (!quiet && !failed) std::printf("step %d: loss %.6f\n", step + 1, last);
    prof_step(); // what prof --capture-steps counts; nothing without prof
  }
  replicas.clear();
  if (failed) return 2;
  if (!std::isfinite(last) || last > first) {
    std::fprintf(stderr, "gcu-train-step: the loss rose from %.6f to %.6f\n", first, last);
    return 1;
  }
  return 0;
}
