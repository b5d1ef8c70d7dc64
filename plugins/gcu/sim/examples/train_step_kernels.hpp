// Kernels of gcu-train-step: a small convolutional network's forward and
// backward passes in plain float arithmetic. Each kernel splits its work over
// the SIPs by the `sip` argument; tensors are NCHW.
#ifndef GCUSIM_EXAMPLES_TRAIN_STEP_KERNELS_HPP
#define GCUSIM_EXAMPLES_TRAIN_STEP_KERNELS_HPP

#include <cstddef>

namespace train_step {

/// The shape of an NCHW tensor.
struct Shape {
  int n, c, h, w;
  size_t plane() const { return static_cast<size_t>(h) * w; }
  size_t size() const { return static_cast<size_t>(n) * c * plane(); }
};

/// 3x3 convolution, padding 1, stride 1: out[N,K,H,W] = in[N,C,H,W] * w[K,C,3,3].
struct ConvArgs {
  Shape in;
  int out_channels;
  const float *input;
  const float *weight;
  float *output;         // forward
  const float *d_output; // backward
  float *d_input;        // backward, input gradient
  float *d_weight;       // backward, weight gradient
};
void conv_forward(void *args, unsigned sip, unsigned sip_count);
void conv_backward_input(void *args, unsigned sip, unsigned sip_count);
void conv_backward_weight(void *args, unsigned sip, unsigned sip_count);

/// Batch normalization over N, H, W per channel, without shift: y = gamma * xhat.
struct BatchNormArgs {
  Shape shape;
  const float *x;
  const float *gamma;
  float *y;
  float *xhat;
  float *inv_std;
  const float *d_y;
  float *d_x;
  float *d_gamma;
};
void batch_norm_forward(void *args, unsigned sip, unsigned sip_count);
void batch_norm_backward(void *args, unsigned sip, unsigned sip_count);

/// out = max(0, x + bias[c]), and its gradient.
struct BiasReluArgs {
  Shape shape;
  const float *x;
  const float *bias;
  float *out;
  const float *d_out;
  float *d_x;
  float *d_bias;
};
void bias_relu_forward(void *args, unsigned sip, unsigned sip_count);
void bias_relu_backward(void *args, unsigned sip, unsigned sip_count);

/// Fully connected: out[N,K] = a[N,J] . w[K,J]^T + b[K], and its gradients.
struct DotArgs {
  int n, j, k;
  const float *a;
  const float *w;
  const float *b;
  float *out;
  const float *d_out;
  float *d_a;
  float *d_w;
  float *d_b;
};
void dot_forward(void *args, unsigned sip, unsigned sip_count);
void dot_backward(void *args, unsigned sip, unsigned sip_count);

/// Softmax cross-entropy per sample, its logit gradient, then the mean loss.
struct LossArgs {
  int n, k;
  const float *logits;
  const int *labels;
  float *sample_loss;
  float *d_logits;
  float *loss;
};
void softmax_loss(void *args, unsigned sip, unsigned sip_count);
void reduce_loss(void *args, unsigned sip, unsigned sip_count);

/// params -= rate * grads.
struct SgdArgs {
  size_t count;
  float rate;
  float *params;
  const float *grads;
};
void sgd_update(void *args, unsigned sip, unsigned sip_count);

/// dst = src.
struct CopyArgs {
  size_t count;
  const float *src;
  float *dst;
};
void copy_floats(void *args, unsigned sip, unsigned sip_count);

} // namespace train_step

#endif
