#include "nvtx_handlers.hpp"

#include "wide_text.hpp"

namespace prof::nvtx {
namespace {

std::atomic<AnnotationRecorder *> g_recorder{nullptr};

AnnotationRecorder *recorder() { return g_recorder.load(std::memory_order_acquire); }

const Domain *domain_of(nvtxDomainHandle_t handle) {
  return reinterpret_cast<const Domain *>(handle);
}

Text message_of(AnnotationRecorder &r, const nvtxEventAttributes_t *attributes) {
  if (attributes == nullptr) return {};
  switch (attributes->messageType) {
  case NVTX_MESSAGE_TYPE_ASCII:
    return attributes->message.ascii ? r.intern(attributes->message.ascii) : Text{};
  case NVTX_MESSAGE_TYPE_UNICODE:
    return r.intern(utf8_from_wide(attributes->message.unicode));
  case NVTX_MESSAGE_TYPE_REGISTERED:
    if (const auto *text = reinterpret_cast<const Text *>(attributes->message.registered))
      return *text;
    return {};
  default:
    return {};
  }
}

std::optional<prof_arg> payload_of(const nvtxEventAttributes_t &a) {
  switch (a.payloadType) {
  case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
    return arg_uint(0, a.payload.ullValue);
  case NVTX_PAYLOAD_TYPE_INT64:
    return arg_int(0, a.payload.llValue);
  case NVTX_PAYLOAD_TYPE_DOUBLE:
    return arg_double(0, a.payload.dValue);
  case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
    return arg_uint(0, a.payload.uiValue);
  case NVTX_PAYLOAD_TYPE_INT32:
    return arg_int(0, a.payload.iValue);
  case NVTX_PAYLOAD_TYPE_FLOAT:
    return arg_double(0, a.payload.fValue);
  default:
    return std::nullopt;
  }
}

Attributes attributes_of(const nvtxEventAttributes_t *a) {
  Attributes out;
  // Version 1 and 2 attributes share this layout up to the message.
  if (a == nullptr || a->size < sizeof(nvtxEventAttributes_t)) return out;
  out.category = a->category;
  if (a->colorType == NVTX_COLOR_ARGB) out.argb = a->color;
  out.payload = payload_of(*a);
  return out;
}

// Core module: the default domain.

void mark_ex(const nvtxEventAttributes_t *a) {
  if (AnnotationRecorder *r = recorder()) r->mark(nullptr, message_of(*r, a), attributes_of(a));
}
void mark_a(const char *message) {
  if (AnnotationRecorder *r = recorder()) r->mark(nullptr, r->intern(message ? message : ""), {});
}
void mark_w(const wchar_t *message) {
  if (AnnotationRecorder *r = recorder()) r->mark(nullptr, r->intern(utf8_from_wide(message)), {});
}
nvtxRangeId_t range_start_ex(const nvtxEventAttributes_t *a) {
  AnnotationRecorder *r = recorder();
  return r ? r->start(nullptr, message_of(*r, a), attributes_of(a)) : 0;
}
nvtxRangeId_t range_start_a(const char *message) {
  AnnotationRecorder *r = recorder();
  return r ? r->start(nullptr, r->intern(message ? message : ""), {}) : 0;
}
nvtxRangeId_t range_start_w(const wchar_t *message) {
  AnnotationRecorder *r = recorder();
  return r ? r->start(nullptr, r->intern(utf8_from_wide(message)), {}) : 0;
}
void range_end(nvtxRangeId_t id) {
  if (AnnotationRecorder *r = recorder()) r->end(id);
}
int range_push_ex(const nvtxEventAttributes_t *a) {
  AnnotationRecorder *r = recorder();
  return r ? r->push(nullptr, message_of(*r, a), attributes_of(a)) : -1;
}
int range_push_a(const char *message) {
  AnnotationRecorder *r = recorder();
  return r ? r->push(nullptr, r->intern(message ? message : ""), {}) : -1;
}
int range_push_w(const wchar_t *message) {
  AnnotationRecorder *r = recorder();
  return r ? r->push(nullptr, r->intern(utf8_from_wide(message)), {}) : -1;
}
int range_pop() {
  AnnotationRecorder *r = recorder();
  return r ? r->pop(nullptr) : -1;
}
void name_category_a(uint32_t category, const char *name) {
  if (AnnotationRecorder *r = recorder(); r && name) r->name_category(nullptr, category, name);
}
void name_category_w(uint32_t category, const wchar_t *name) {
  if (AnnotationRecorder *r = recorder(); r && name)
    r->name_category(nullptr, category, utf8_from_wide(name));
}
void name_os_thread_a(uint32_t tid, const char *name) {
  if (AnnotationRecorder *r = recorder(); r && name) r->name_thread(tid, name);
}
void name_os_thread_w(uint32_t tid, const wchar_t *name) {
  if (AnnotationRecorder *r = recorder(); r && name) r->name_thread(tid, utf8_from_wide(name));
}

// Core2 module: named domains.

void domain_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  if (AnnotationRecorder *r = recorder())
    r->mark(domain_of(d), message_of(*r, a), attributes_of(a));
}
nvtxRangeId_t domain_range_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  AnnotationRecorder *r = recorder();
  return r ? r->start(domain_of(d), message_of(*r, a), attributes_of(a)) : 0;
}
void domain_range_end(nvtxDomainHandle_t, nvtxRangeId_t id) { range_end(id); }
int domain_range_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  AnnotationRecorder *r = recorder();
  return r ? r->push(domain_of(d), message_of(*r, a), attributes_of(a)) : -1;
}
int domain_range_pop(nvtxDomainHandle_t d) {
  AnnotationRecorder *r = recorder();
  return r ? r->pop(domain_of(d)) : -1;
}
void domain_name_category_a(nvtxDomainHandle_t d, uint32_t category, const char *name) {
  if (AnnotationRecorder *r = recorder(); r && name) r->name_category(domain_of(d), category, name);
}
void domain_name_category_w(nvtxDomainHandle_t d, uint32_t category, const wchar_t *name) {
  if (AnnotationRecorder *r = recorder(); r && name)
    r->name_category(domain_of(d), category, utf8_from_wide(name));
}
nvtxStringHandle_t register_string_a(nvtxDomainHandle_t, const char *text) {
  AnnotationRecorder *r = recorder();
  if (!r || !text) return nullptr;
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<Text *>(r->register_string(text)));
}
nvtxStringHandle_t register_string_w(nvtxDomainHandle_t, const wchar_t *text) {
  AnnotationRecorder *r = recorder();
  if (!r || !text) return nullptr;
  return reinterpret_cast<nvtxStringHandle_t>(
      const_cast<Text *>(r->register_string(utf8_from_wide(text))));
}
nvtxDomainHandle_t domain_create(AnnotationRecorder *r, std::string_view name) {
  return r ? reinterpret_cast<nvtxDomainHandle_t>(const_cast<Domain *>(r->create_domain(name)))
           : nullptr;
}
nvtxDomainHandle_t domain_create_a(const char *name) {
  return domain_create(recorder(), name ? name : "");
}
nvtxDomainHandle_t domain_create_w(const wchar_t *name) {
  return domain_create(recorder(), utf8_from_wide(name));
}
void domain_destroy(nvtxDomainHandle_t) {} // domains live as long as the recorder
void initialize(const void *) {}

template <class F> void set_slot(NvtxFunctionTable table, unsigned size, unsigned id, F function) {
  if (id <= size && table[id] != nullptr)
    *table[id] = reinterpret_cast<NvtxFunctionPointer>(function);
}

bool fill_module(const NvtxExportTableCallbacks &callbacks, NvtxCallbackModule module,
                 auto &&fill) {
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks.GetModuleFunctionTable(module, &table, &size) || table == nullptr) return false;
  fill(table, size);
  return true;
}

} // namespace

void set_active_recorder(AnnotationRecorder *recorder) {
  g_recorder.store(recorder, std::memory_order_release);
}

int install_handlers(NvtxGetExportTableFunc_t get_export_table) {
  if (get_export_table == nullptr) return 0;
  const auto *callbacks =
      static_cast<const NvtxExportTableCallbacks *>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) return 0;
  const bool core = fill_module(*callbacks, NVTX_CB_MODULE_CORE, [](auto table, unsigned size) {
    set_slot(table, size, NVTX_CBID_CORE_MarkEx, &mark_ex);
    set_slot(table, size, NVTX_CBID_CORE_MarkA, &mark_a);
    set_slot(table, size, NVTX_CBID_CORE_MarkW, &mark_w);
    set_slot(table, size, NVTX_CBID_CORE_RangeStartEx, &range_start_ex);
    set_slot(table, size, NVTX_CBID_CORE_RangeStartA, &range_start_a);
    set_slot(table, size, NVTX_CBID_CORE_RangeStartW, &range_start_w);
    set_slot(table, size, NVTX_CBID_CORE_RangeEnd, &range_end);
    set_slot(table, size, NVTX_CBID_CORE_RangePushEx, &range_push_ex);
    set_slot(table, size, NVTX_CBID_CORE_RangePushA, &range_push_a);
    set_slot(table, size, NVTX_CBID_CORE_RangePushW, &range_push_w);
    set_slot(table, size, NVTX_CBID_CORE_RangePop, &range_pop);
    set_slot(table, size, NVTX_CBID_CORE_NameCategoryA, &name_category_a);
    set_slot(table, size, NVTX_CBID_CORE_NameCategoryW, &name_category_w);
    set_slot(table, size, NVTX_CBID_CORE_NameOsThreadA, &name_os_thread_a);
    set_slot(table, size, NVTX_CBID_CORE_NameOsThreadW, &name_os_thread_w);
  });
  const bool core2 = fill_module(*callbacks, NVTX_CB_MODULE_CORE2, [](auto table, unsigned size) {
    set_slot(table, size, NVTX_CBID_CORE2_DomainMarkEx, &domain_mark_ex);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRangeStartEx, &domain_range_start_ex);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRangeEnd, &domain_range_end);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRangePushEx, &domain_range_push_ex);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRangePop, &domain_range_pop);
    set_slot(table, size, NVTX_CBID_CORE2_DomainNameCategoryA, &domain_name_category_a);
    set_slot(table, size, NVTX_CBID_CORE2_DomainNameCategoryW, &domain_name_category_w);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRegisterStringA, &register_string_a);
    set_slot(table, size, NVTX_CBID_CORE2_DomainRegisterStringW, &register_string_w);
    set_slot(table, size, NVTX_CBID_CORE2_DomainCreateA, &domain_create_a);
    set_slot(table, size, NVTX_CBID_CORE2_DomainCreateW, &domain_create_w);
    set_slot(table, size, NVTX_CBID_CORE2_DomainDestroy, &domain_destroy);
    set_slot(table, size, NVTX_CBID_CORE2_Initialize, &initialize);
  });
  return core && core2 ? 1 : 0;
}

} // namespace prof::nvtx
