#include "train_step_kernels.hpp"

#include <algorithm>
#include <cmath>

namespace train_step {
namespace {

/// The share [begin, end) of `count` items that SIP `sip` works on.
struct Share {
  size_t begin, end;
  Share(size_t count, unsigned sip, unsigned sip_count)
      : begin(count * sip / sip_count), end(count * (sip + 1) / sip_count) {}
};

/// dst[y][x] += scale * src[y + dy][x + dx] wherever both lie in the h x w plane.
void add_shifted(float *dst, const float *src, int h, int w, int dy, int dx, float scale) {
  int y0 = std::max(0, -dy), y1 = std::min(h, h - dy);
  int x0 = std::max(0, -dx), x1 = std::min(w, w - dx);
  for (int y = y0; y < y1; ++y) {
    float *d = dst + static_cast<size_t>(y) * w;
    const float *s = src + static_cast<size_t>(y + dy) * w + dx;
    for (int x = x0; x < x1; ++x)
      d[x] += scale * s[x];
  }
}

/// Sum over the plane of a[y][x] * b[y + dy][x + dx].
float dot_shifted(const float *a, const float *b, int h, int w, int dy, int dx) {
  int y0 = std::max(0, -dy), y1 = std::min(h, h - dy);
  int x0 = std::max(0, -dx), x1 = std::min(w, w - dx);
  float sum = 0;
  for (int y = y0; y < y1; ++y) {
    const float *pa = a + static_cast<size_t>(y) * w;
    const float *pb = b + static_cast<size_t>(y + dy) * w + dx;
    for (int x = x0; x < x1; ++x)
      sum += pa[x] * pb[x];
  }
  return sum;
}

} // namespace

void conv_forward(void *raw, unsigned sip, unsigned sip_count) {
  const ConvArgs &a = *static_cast<const ConvArgs *>(raw);
  const Shape &s = a.in;
  const size_t plane = s.plane();
  Share share(static_cast<size_t>(s.n) * a.out_channels, sip, sip_count);
  for (size_t i = share.begin; i < share.end; ++i) {
    size_t n = i / a.out_channels, k = i % a.out_channels;
    float *out = a.output + i * plane;
    std::fill(out, out + plane, 0.0f);
    for (int c = 0; c < s.c; ++c) {
      const float *in = a.input + (n * s.c + c) * plane;
      const float *w = a.weight + (k * s.c + c) * 9;
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx)
          add_shifted(out, in, s.h, s.w, ky - 1, kx - 1, w[ky * 3 + kx]);
    }
  }
}

void conv_backward_input(void *raw, unsigned sip, unsigned sip_count) {
  const ConvArgs &a = *static_cast<const ConvArgs *>(raw);
  const Shape &s = a.in;
  const size_t plane = s.plane();
  Share share(static_cast<size_t>(s.n) * s.c, sip, sip_count);
  for (size_t i = share.begin; i < share.end; ++i) {
    size_t n = i / s.c, c = i % s.c;
    float *d_in = a.d_input + i * plane;
    std::fill(d_in, d_in + plane, 0.0f);
    for (int k = 0; k < a.out_channels; ++k) {
      const float *d_out = a.d_output + (n * a.out_channels + k) * plane;
      const float *w = a.weight + (k * s.c + c) * 9;
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx)
          add_shifted(d_in, d_out, s.h, s.w, 1 - ky, 1 - kx, w[ky * 3 + kx]);
    }
  }
}

void conv_backward_weight(void *raw, unsigned sip, unsigned sip_count) {
  const ConvArgs &a = *static_cast<const ConvArgs *>(raw);
  const Shape &s = a.in;
  const size_t plane = s.plane();
  Share share(static_cast<size_t>(a.out_channels), sip, sip_count);
  for (size_t k = share.begin; k < share.end; ++k) {
    for (int c = 0; c < s.c; ++c) {
      float *d_w = a.d_weight + (k * s.c + c) * 9;
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx) {
          float sum = 0;
          for (int n = 0; n < s.n; ++n)
            sum += dot_shifted(a.d_output + (n * a.out_channels + k) * plane,
                               a.input + (n * s.c + c) * plane, s.h, s.w, ky - 1, kx - 1);
          d_w[ky * 3 + kx] += sum;
        }
    }
  }
}

void batch_norm_forward(void *raw, unsigned sip, unsigned sip_count) {
  const BatchNormArgs &a = *static_cast<const BatchNormArgs *>(raw);
  const Shape &s = a.shape;
  const size_t plane = s.plane();
  const double count = static_cast<double>(s.n) * plane;
  Share share(static_cast<size_t>(s.c), sip, sip_count);
  for (size_t c = share.begin; c < share.end; ++c) {
    double sum = 0, squares = 0;
    for (int n = 0; n < s.n; ++n) {
      const float *x = a.x + (n * s.c + c) * plane;
      for (size_t i = 0; i < plane; ++i) {
        sum += x[i];
        squares += static_cast<double>(x[i]) * x[i];
      }
    }
    double mean = sum / count;
    double variance = std::max(0.0, squares / count - mean * mean);
    float inv_std = static_cast<float>(1.0 / std::sqrt(variance + 1e-5));
    a.inv_std[c] = inv_std;
    for (int n = 0; n < s.n; ++n) {
      size_t offset = (n * s.c + c) * plane;
      for (size_t i = 0; i < plane; ++i) {
        float xhat = (a.x[offset + i] - static_cast<float>(mean)) * inv_std;
        a.xhat[offset + i] = xhat;
        a.y[offset + i] = a.gamma[c] * xhat;
      }
    }
  }
}

void batch_norm_backward(void *raw, unsigned sip, unsigned sip_count) {
  const BatchNormArgs &a = *static_cast<const BatchNormArgs *>(raw);
  const Shape &s = a.shape;
  const size_t plane = s.plane();
  const float count = static_cast<float>(s.n * plane);
  Share share(static_cast<size_t>(s.c), sip, sip_count);
  for (size_t c = share.begin; c < share.end; ++c) {
    float sum_dy = 0, sum_dy_xhat = 0;
    for (int n = 0; n < s.n; ++n) {
      size_t offset = (n * s.c + c) * plane;
      for (size_t i = 0; i < plane; ++i) {
        sum_dy += a.d_y[offset + i];
        sum_dy_xhat += a.d_y[offset + i] * a.xhat[offset + i];
      }
    }
    a.d_gamma[c] += sum_dy_xhat;
    float scale = a.gamma[c] * a.inv_std[c] / count;
    for (int n = 0; n < s.n; ++n) {
      size_t offset = (n * s.c + c) * plane;
      for (size_t i = 0; i < plane; ++i)
        a.d_x[offset + i] =
            scale * (count * a.d_y[offset + i] - sum_dy - a.xhat[offset + i] * sum_dy_xhat);
    }
  }
}

void bias_relu_forward(void *raw, unsigned sip, unsigned sip_count) {
  const BiasReluArgs &a = *static_cast<const BiasReluArgs *>(raw);
  const Shape &s = a.shape;
  const size_t plane = s.plane();
  Share share(static_cast<size_t>(s.n) * s.c, sip, sip_count);
  for (size_t i = share.begin; i < share.end; ++i) {
    float bias = a.bias[i % s.c];
    for (size_t p = 0; p < plane; ++p)
      a.out[i * plane + p] = std::max(0.0f, a.x[i * plane + p] + bias);
  }
}

void bias_relu_backward(void *raw, unsigned sip, unsigned sip_count) {
  const BiasReluArgs &a = *static_cast<const BiasReluArgs *>(raw);
  const Shape &s = a.shape;
  const size_t plane = s.plane();
  Share share(static_cast<size_t>(s.c), sip, sip_count);
  for (size_t c = share.begin; c < share.end; ++c) {
    float sum = 0;
    for (int n = 0; n < s.n; ++n) {
      size_t offset = (n * s.c + c) * plane;
      for (size_t p = 0; p < plane; ++p) {
        float d = a.out[offset + p] > 0 ? a.d_out[offset + p] : 0.0f;
        a.d_x[offset + p] = d;
        sum += d;
      }
    }
    a.d_bias[c] += sum;
  }
}

void dot_forward(void *raw, unsigned sip, unsigned sip_count) {
  const DotArgs &a = *static_cast<const DotArgs *>(raw);
  Share share(static_cast<size_t>(a.n) * a.k, sip, sip_count);
  for (size_t i = share.begin; i < share.end; ++i) {
    size_t n = i / a.k, k = i % a.k;
    const float *x = a.a + n * a.j;
    const float *w = a.w + k * a.j;
    float sum = 0;
    for (int j = 0; j < a.j; ++j)
      sum += x[j] * w[j];
    a.out[i] = sum + a.b[k];
  }
}

void dot_backward(void *raw, unsigned sip, unsigned sip_count) {
  const DotArgs &a = *static_cast<const DotArgs *>(raw);
  Share outputs(static_cast<size_t>(a.k), sip, sip_count);
  for (size_t k = outputs.begin; k < outputs.end; ++k) {
    float *d_w = a.d_w + k * a.j;
    for (int n = 0; n < a.n; ++n) {
      float d = a.d_out[n * a.k + k];
      a.d_b[k] += d;
      const float *x = a.a + static_cast<size_t>(n) * a.j;
      for (int j = 0; j < a.j; ++j)
        d_w[j] += d * x[j];
    }
  }
  Share inputs(static_cast<size_t>(a.j), sip, sip_count);
  for (int n = 0; n < a.n; ++n) {
    float *d_a = a.d_a + static_cast<size_t>(n) * a.j;
    std::fill(d_a + inputs.begin, d_a + inputs.end, 0.0f);
    for (int k = 0; k < a.k; ++k) {
      float d = a.d_out[n * a.k + k];
      const float *w = a.w + static_cast<size_t>(k) * a.j;
      for (size_t j = inputs.begin; j < inputs.end; ++j)
        d_a[j] += d * w[j];
    }
  }
}

void softmax_loss(void *raw, unsigned sip, unsigned sip_count) {
  const LossArgs &a = *static_cast<const LossArgs *>(raw);
  Share share(static_cast<size_t>(a.n), sip, sip_count);
  for (size_t n = share.begin; n < share.end; ++n) {
    const float *logits = a.logits + n * a.k;
    float top = *std::max_element(logits, logits + a.k);
    float total = 0;
    for (int k = 0; k < a.k; ++k)
      total += std::exp(logits[k] - top);
    int label = a.labels[n];
    a.sample_loss[n] = std::log(total) - (logits[label] - top);
    for (int k = 0; k < a.k; ++k) {
      float p = std::exp(logits[k] - top) / total;
      a.d_logits[n * a.k + k] = (p - (k == label ? 1.0f : 0.0f)) / static_cast<float>(a.n);
    }
  }
}

void reduce_loss(void *raw, unsigned sip, unsigned) {
  const LossArgs &a = *static_cast<const LossArgs *>(raw);
  if (sip != 0) return; // eight numbers: one SIP is plenty
  float sum = 0;
  for (int n = 0; n < a.n; ++n)
    sum += a.sample_loss[n];
  *a.loss = sum / static_cast<float>(a.n);
}

void sgd_update(void *raw, unsigned sip, unsigned sip_count) {
  const SgdArgs &a = *static_cast<const SgdArgs *>(raw);
  Share share(a.count, sip, sip_count);
  for (size_t i = share.begin; i < share.end; ++i)
    a.params[i] -= a.rate * a.grads[i];
}

void copy_floats(void *raw, unsigned sip, unsigned sip_count) {
  const CopyArgs &a = *static_cast<const CopyArgs *>(raw);
  Share share(a.count, sip, sip_count);
  std::copy(a.src + share.begin, a.src + share.end, a.dst + share.begin);
}

} // namespace train_step
