// Captures: what they select is what they get, API calls and device records
// share correlation ids, several captures each get their own copy.
#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

using namespace gcusim_test;

namespace {

/// Allocates, copies both ways and device to device, and runs `kernel` on `device`.
void run_sample_work(int device, const char *kernel = "sample_kernel") {
  ASSERT_EQ(gcuSetDevice(device), gcuSuccess);
  std::vector<char> host(1 << 16, 7);
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(gcuMalloc(&a, host.size()), gcuSuccess);
  ASSERT_EQ(gcuMalloc(&b, host.size()), gcuSuccess);
  EXPECT_EQ(gcuMemcpyH2D(a, host.data(), host.size()), gcuSuccess);
  EXPECT_EQ(gcuLaunchKernel(kernel, empty_kernel, nullptr, nullptr), gcuSuccess);
  EXPECT_EQ(gcuMemcpyD2D(b, a, host.size()), gcuSuccess);
  EXPECT_EQ(gcuMemcpyD2H(host.data(), b, host.size()), gcuSuccess);
  EXPECT_EQ(gcuMemset(a, 0, host.size()), gcuSuccess);
  EXPECT_EQ(gcuFree(a), gcuSuccess);
  EXPECT_EQ(gcuFree(b), gcuSuccess);
  EXPECT_EQ(gcuSetDevice(0), gcuSuccess);
}

} // namespace

TEST(Capture, DeliversOnlySelectedItems) {
  Collector collector;
  collector.subscribe(all_instances(0, "General", "Operator") +
                      all_instances(0, "SIP", "SIP Busy") +
                      all_instances(0, "SDMA", "DMA VC Execution"));
  run_sample_work(0, "selected_kernel");
  run_sample_work(1, "other_device_kernel");
  collector.flush();

  std::vector<prof_gcu_record> records = collector.records();
  ASSERT_FALSE(records.empty());
  for (const prof_gcu_record &record : records) {
    EXPECT_EQ(record.device, 0u);
    std::string what = engine_name(record) + "/" + item_name(record);
    EXPECT_TRUE(what == "General/Operator" || what == "SIP/SIP Busy" ||
                what == "SDMA/DMA VC Execution")
        << what;
  }
  std::vector<prof_gcu_record> operators = collector.records_named("Operator");
  ASSERT_EQ(operators.size(), 1u);
  EXPECT_STREQ(driver().label(operators[0].label), "selected_kernel");
  EXPECT_LT(operators[0].start, operators[0].end);

  std::vector<prof_gcu_record> sips = collector.records_named("SIP Busy");
  ASSERT_EQ(sips.size(), 6u);
  std::set<uint32_t> sip_indices;
  for (const prof_gcu_record &sip : sips) {
    EXPECT_EQ(sip.group, 0);
    EXPECT_EQ(sip.group_index, sips[0].group_index); // one cluster ran it
    EXPECT_EQ(sip.op_id, operators[0].op_id);
    EXPECT_EQ(sip.label, 0u);
    EXPECT_GE(sip.start, operators[0].start);
    EXPECT_LE(sip.end, operators[0].end);
    sip_indices.insert(sip.engine_index);
  }
  EXPECT_EQ(sip_indices.size(), 6u);

  std::vector<prof_gcu_record> copies = collector.records_named("DMA VC Execution");
  ASSERT_EQ(copies.size(), 2u); // H2D and D2H run on SDMA; D2D on CDMA is not selected
  EXPECT_STREQ(driver().label(copies[0].label), "Memcpy HtoD");
  EXPECT_STREQ(driver().label(copies[1].label), "Memcpy DtoH");
  for (const prof_gcu_record &copy : copies) {
    EXPECT_EQ(copy.bytes, 1u << 16);
    EXPECT_EQ(engine_name(copy), "SDMA");
  }
}

TEST(Capture, EveryKindOfWorkProducesItsRecords) {
  Collector collector;
  collector.subscribe(everything(1));
  run_sample_work(1, "all_records_kernel");
  collector.flush();

  std::multiset<std::string> seen;
  for (const prof_gcu_record &record : collector.records())
    seen.insert(engine_name(record) + "/" + item_name(record));
  for (const char *what : {"General/Operator", "General/Launch Kernel", "General/Task Pipeline",
                           "TS/TS Command Packet", "CQM/CQM Executable Execute"})
    EXPECT_EQ(seen.count(what), 1u) << what;
  EXPECT_EQ(seen.count("SIP/SIP Busy"), 6u);
  for (const char *event :
       {"sip_busy_without_wait", "sip_busy_with_wait", "sip_instructions", "sip_stall_cycles"})
    EXPECT_EQ(seen.count(std::string("SIPPMC/") + event), 6u) << event;
  EXPECT_EQ(seen.count("SDMA/DMA VC Execution"), 2u);
  EXPECT_EQ(seen.count("SDMA/DMA Busy"), 2u);
  EXPECT_EQ(seen.count("CDMA/DMA VC Execution"), 1u);
  EXPECT_EQ(seen.count("CDMA/DMA Busy"), 1u);
  EXPECT_EQ(seen.count("SIP_LITE/SIP Busy"), 1u); // the memset
  // The synchronous copies wait on the default stream, not through a synchronize call.
  EXPECT_EQ(seen.count("TS/TS Memory Wait"), 0u);

  for (const prof_gcu_record &record : collector.records_named("DMA VC Execution"))
    if (engine_name(record) == "CDMA") {
      EXPECT_STREQ(driver().label(record.label), "Memcpy DtoD");
    }
  std::vector<prof_gcu_record> memsets = collector.records_named("SIP Busy");
  auto memset = std::find_if(memsets.begin(), memsets.end(),
                             [](const prof_gcu_record &r) { return engine_name(r) == "SIP_LITE"; });
  ASSERT_NE(memset, memsets.end());
  EXPECT_STREQ(driver().label(memset->label), "Memset");
  EXPECT_EQ(memset->group, 1);
  EXPECT_EQ(memset->group_index, 0u);
  EXPECT_EQ(memset->bytes, 1u << 16);
}

TEST(Capture, CorrelationIdsTieApiCallsToDeviceRecords) {
  Collector collector;
  uint32_t runtime_launch = 14, runtime_h2d = 6;
  ASSERT_STREQ(topology().api_domains[0].functions[runtime_launch], "gcuLaunchKernel");
  ASSERT_STREQ(topology().api_domains[0].functions[runtime_h2d], "gcuMemcpyH2D");
  collector.subscribe(all_instances(0, "General", "Operator") +
                          all_instances(0, "SIP", "SIP Busy") +
                          all_instances(0, "SIPPMC", "sip_busy_with_wait") +
                          all_instances(0, "SDMA", "DMA VC Execution"),
                      all_api_functions());
  run_sample_work(0);
  collector.flush();

  std::vector<prof_gcu_api_record> apis = collector.apis();
  std::set<uint64_t> ids;
  const prof_gcu_api_record *launch = nullptr, *h2d = nullptr;
  for (const prof_gcu_api_record &api : apis) {
    // Calls that queue device work carry unique ids; the others carry 0.
    if (api.correlation_id != 0)
      EXPECT_TRUE(ids.insert(api.correlation_id).second) << "correlation ids are unique";
    EXPECT_EQ(api.struct_size, sizeof(prof_gcu_api_record));
    EXPECT_EQ(api.result, 0);
    EXPECT_LE(api.begin_ns, api.end_ns);
    if (api.function == runtime_launch) launch = &api;
    if (api.function == runtime_h2d) h2d = &api;
  }
  for (std::thread::id thread : collector.api_threads())
    EXPECT_EQ(thread, std::this_thread::get_id()) << "on_api runs on the calling thread";
  ASSERT_NE(launch, nullptr);
  ASSERT_NE(h2d, nullptr);
  EXPECT_EQ(launch->device, 0);
  EXPECT_NE(launch->correlation_id, 0u);
  EXPECT_NE(h2d->correlation_id, 0u);
  for (const prof_gcu_api_record &api : apis)
    if (topology().api_domains[0].functions[api.function] == std::string_view("gcuMalloc"))
      EXPECT_EQ(api.correlation_id, 0u) << "gcuMalloc queues no device work";

  std::vector<prof_gcu_record> operators = collector.records_named("Operator");
  ASSERT_EQ(operators.size(), 1u);
  EXPECT_EQ(operators[0].correlation_id, launch->correlation_id);
  EXPECT_GT(operators[0].op_id, 0u);
  EXPECT_NE(operators[0].stream, 0u);
  for (const char *item : {"SIP Busy", "sip_busy_with_wait"})
    for (const prof_gcu_record &record : collector.records_named(item)) {
      EXPECT_EQ(record.correlation_id, launch->correlation_id) << item;
      EXPECT_EQ(record.op_id, operators[0].op_id) << item;
    }
  std::vector<prof_gcu_record> copies = collector.records_named("DMA VC Execution");
  ASSERT_FALSE(copies.empty());
  EXPECT_EQ(copies[0].correlation_id, h2d->correlation_id);
  EXPECT_EQ(copies[0].op_id, 0u);
}

TEST(Capture, OpIdsCountUpPerLaunch) {
  Collector collector;
  collector.subscribe(all_instances(0, "General", "Operator"));
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(gcuLaunchKernel("counted", empty_kernel, nullptr, nullptr), gcuSuccess);
  ASSERT_EQ(gcuDeviceSynchronize(), gcuSuccess);
  collector.flush();
  std::vector<prof_gcu_record> operators = collector.records_named("Operator");
  ASSERT_EQ(operators.size(), 3u);
  EXPECT_EQ(operators[1].op_id, operators[0].op_id + 1);
  EXPECT_EQ(operators[2].op_id, operators[1].op_id + 1);
  EXPECT_NE(operators[0].correlation_id, operators[1].correlation_id);
}

TEST(Capture, NothingIsProducedWhileNotCollecting) {
  Collector collector;
  prof_gcu_capture_config config =
      collector.config(all_instances(0, "General", "Operator"), all_api_functions());
  config.collecting = 0;
  collector.subscribe(config);
  run_sample_work(0);
  collector.flush();
  EXPECT_TRUE(collector.records().empty());
  EXPECT_EQ(collector.stats(0).produced, 0u);
  EXPECT_FALSE(collector.apis().empty()) << "API calls are reported regardless";

  driver().set_collecting(collector.handle(), 1);
  run_sample_work(0, "now_collecting");
  collector.flush();
  ASSERT_EQ(collector.records().size(), 1u);
  EXPECT_STREQ(driver().label(collector.records()[0].label), "now_collecting");

  driver().set_collecting(collector.handle(), 0);
  run_sample_work(0, "off_again");
  collector.flush();
  EXPECT_EQ(collector.records().size(), 1u);
  EXPECT_EQ(collector.stats(0).produced, 1u);
}

TEST(Capture, TwoCapturesEachGetTheirOwnRecords) {
  Collector operators_only, operators_and_sips;
  operators_only.subscribe(all_instances(0, "General", "Operator"));
  operators_and_sips.subscribe(all_instances(0, "General", "Operator") +
                               all_instances(0, "SIP", "SIP Busy"));
  run_sample_work(0, "shared_kernel");
  operators_only.flush();
  operators_and_sips.flush();

  std::vector<prof_gcu_record> a = operators_only.records();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(operators_and_sips.records_named("Operator").size(), 1u);
  EXPECT_EQ(operators_and_sips.records_named("SIP Busy").size(), 6u);
  EXPECT_EQ(operators_and_sips.records_named("Operator")[0].correlation_id, a[0].correlation_id);

  operators_only.unsubscribe();
  run_sample_work(0, "after_one_left");
  operators_and_sips.flush();
  EXPECT_EQ(operators_only.records().size(), 1u);
  EXPECT_EQ(operators_and_sips.records_named("Operator").size(), 2u);
  EXPECT_NE(driver().stats(operators_only.handle(), 0, nullptr), 0);
}

TEST(Capture, NoCallbackRunsAfterUnsubscribeReturns) {
  Collector collector;
  collector.subscribe(everything(0), all_api_functions());
  std::atomic<bool> stop{false};
  std::atomic<int> launches{0};
  std::thread worker([&] {
    while (!stop) {
      gcuLaunchKernel("busy", empty_kernel, nullptr, nullptr);
      gcuStreamSynchronize(nullptr);
      ++launches;
    }
  });
  // Counted in launches, not time, so a loaded machine cannot starve either side.
  const auto wait_for_launches = [&](int count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (launches < count && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  wait_for_launches(5);
  collector.unsubscribe();
  const int at_unsubscribe = launches;
  wait_for_launches(at_unsubscribe + 5);
  stop = true;
  worker.join();
  EXPECT_EQ(collector.late_callbacks(), 0);
  EXPECT_FALSE(collector.records().empty());
  EXPECT_FALSE(collector.apis().empty());
}

TEST(Capture, SubscribeRefusesInvalidConfigsSayingWhy) {
  Collector collector;
  const std::vector<prof_gcu_item> items = all_instances(0, "SIP", "SIP Busy");
  const std::vector<prof_gcu_api_item> apis = all_api_functions();
  struct Case {
    const char *error;
    void (*change)(prof_gcu_capture_config &);
  };
  static prof_gcu_item bad_item;
  static prof_gcu_api_item bad_api;
  const Case cases[] = {
      {"struct_size 8 is smaller than 104 (prof_gcu_capture_config 1.0)",
       [](prof_gcu_capture_config &c) { c.struct_size = 8; }},
      {"buffer 7 is neither PROF_GCU_BUFFER_DEVICE nor PROF_GCU_BUFFER_HOST",
       [](prof_gcu_capture_config &c) { c.buffer = static_cast<prof_gcu_buffer_location>(7); }},
      {"device_buffer_bytes 0 holds no record (72 bytes each)",
       [](prof_gcu_capture_config &c) { c.device_buffer_bytes = 0; }},
      {"host_ring_bytes 0 holds no record (72 bytes each)",
       [](prof_gcu_capture_config &c) { c.host_ring_bytes = 0; }},
      {"watermark_bytes is 0", [](prof_gcu_capture_config &c) { c.watermark_bytes = 0; }},
      {"watermark_bytes 4194304 is not below host_ring_bytes 4194304",
       [](prof_gcu_capture_config &c) { c.watermark_bytes = c.host_ring_bytes; }},
      {"items are selected but on_records is null",
       [](prof_gcu_capture_config &c) { c.on_records = nullptr; }},
      {"API functions are selected but on_api is null",
       [](prof_gcu_capture_config &c) { c.on_api = nullptr; }},
      {"item_count is 3 but items is null",
       [](prof_gcu_capture_config &c) {
         c.items = nullptr;
         c.item_count = 3;
       }},
      {"items[0]: device 2 out of range (2 devices)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.device = 2;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"items[0]: engine_index 6 out of range for SIP (6 per group instance)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.engine_index = 6;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"items[0]: group_index 4 out of range for SIP (4 instances of its group)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.group_index = 4;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"items[0]: group -1 does not hold engine SIP (group 0)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.group = -1;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"items[0]: item 1 out of range for SIP (1 activities)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.item = 1;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"items[0]: engine 10 out of range (10 engines)",
       [](prof_gcu_capture_config &c) {
         bad_item = c.items[0];
         bad_item.engine = 10;
         c.items = &bad_item;
         c.item_count = 1;
       }},
      {"apis[0]: function 30 out of range (30 functions in RUNTIME)",
       [](prof_gcu_capture_config &c) {
         bad_api = {0, 30};
         c.apis = &bad_api;
         c.api_count = 1;
       }},
      {"apis[0]: domain 1 out of range (1 domains)",
       [](prof_gcu_capture_config &c) {
         bad_api = {1, 0};
         c.apis = &bad_api;
         c.api_count = 1;
       }},
  };
  for (const Case &test : cases) {
    prof_gcu_capture_config config = collector.config(items, apis);
    test.change(config);
    char error[256] = "";
    uint32_t handle = 0;
    EXPECT_NE(driver().subscribe(&config, &handle, error, sizeof(error)), 0) << test.error;
    EXPECT_STREQ(error, test.error);
  }
  char error[256] = "";
  uint32_t handle = 0;
  EXPECT_NE(driver().subscribe(nullptr, &handle, error, sizeof(error)), 0);
  EXPECT_STREQ(error, "config is null");
  prof_gcu_capture_config config = collector.config(items, apis);
  char tiny[8];
  EXPECT_NE(driver().subscribe(&config, nullptr, tiny, sizeof(tiny)), 0);
  EXPECT_STREQ(tiny, "handle ");
}
