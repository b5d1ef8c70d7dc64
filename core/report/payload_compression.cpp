#include "core/report/payload_compression.hpp"

#include "core/report/chunk.hpp"

#include <zstd.h>

namespace prof::report {

struct PayloadCompressor::Context {
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  ~Context() { ZSTD_freeCCtx(cctx); }
};

PayloadCompressor::PayloadCompressor(int level) : context_(std::make_unique<Context>()) {
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context_->cctx, ZSTD_c_contentSizeFlag, 1);
}

PayloadCompressor::~PayloadCompressor() = default;

bool PayloadCompressor::compress(std::span<const std::span<const uint8_t>> pieces,
                                 std::vector<uint8_t> &out) {
  size_t total = 0;
  for (const auto &piece : pieces) total += piece.size();
  ZSTD_CCtx *cctx = context_->cctx;
  ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);
  ZSTD_CCtx_setPledgedSrcSize(cctx, total);
  out.resize(ZSTD_compressBound(total));
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  for (size_t i = 0; i < pieces.size(); ++i) {
    ZSTD_inBuffer input{pieces[i].data(), pieces[i].size(), 0};
    const ZSTD_EndDirective mode = i + 1 == pieces.size() ? ZSTD_e_end : ZSTD_e_continue;
    size_t left = 0;
    do {
      left = ZSTD_compressStream2(cctx, &output, &input, mode);
      if (ZSTD_isError(left)) return false;
    } while (mode == ZSTD_e_end ? left != 0 : input.pos < input.size);
  }
  if (pieces.empty()) return false;
  out.resize(output.pos);
  return output.pos < total && total <= kMaxCompressionRatio * output.pos;
}

bool decompress_payload(std::span<const uint8_t> frame, std::vector<uint8_t> &out) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
      size > kMaxPayloadSize || size > kMaxCompressionRatio * frame.size())
    return false;
  if (ZSTD_findFrameCompressedSize(frame.data(), frame.size()) != frame.size()) return false;
  out.resize(static_cast<size_t>(size));
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> dctx(ZSTD_createDCtx(),
                                                                         &ZSTD_freeDCtx);
  const size_t got = ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), frame.data(), frame.size());
  return !ZSTD_isError(got) && got == size;
}

bool peek_payload_prefix(std::span<const uint8_t> frame, uint8_t *prefix, size_t count) {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> dctx(ZSTD_createDCtx(),
                                                                         &ZSTD_freeDCtx);
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_only);
  ZSTD_inBuffer input{frame.data(), frame.size(), 0};
  ZSTD_outBuffer output{prefix, count, 0};
  while (output.pos < output.size && input.pos < input.size) {
    const size_t result = ZSTD_decompressStream(dctx.get(), &output, &input);
    if (ZSTD_isError(result)) return false;
    if (result == 0) break; // the frame ended
  }
  return output.pos == count;
}

} // namespace prof::report
