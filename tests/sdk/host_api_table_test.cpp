// prof::host_api_table: the one builder of prof_host_api. Each minor's table
// ends at its last call with every entry up to it set, a host that lacks a
// call of a minor cannot build that minor's table, and the fake hosts a
// plugin's tests use offer every call their struct_size promises.
#include <prof/host_api_table.hpp>
#include <prof/plugin.hpp>
#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace {

// A host of ABI 1.5: every call up to emit_instant_args, no count_dropped.
struct HostOfMinor5 {
  static prof_string_id intern_string(void *, const char *, size_t) { return 1; }
  static prof_track_id declare_track(void *, const prof_track_desc *) { return 1; }
  static prof_stack_id intern_stack(void *, const prof_string_id *, uint32_t) { return 1; }
  static void emit_slice(void *, prof_track_id, uint64_t, uint64_t, prof_string_id, prof_string_id,
                         uint64_t) {}
  static void emit_instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
  static void emit_counter(void *, prof_track_id, uint64_t, double) {}
  static void emit_sample(void *, prof_track_id, uint64_t, prof_stack_id) {}
  static void emit_flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
  static prof_clock_id register_clock_domain(void *, const char *, double) { return 0; }
  static void add_calibration(void *, prof_clock_id, uint64_t, uint64_t) {}
  static uint64_t now(void *) { return 0; }
  static void log(void *, prof_log_level, const char *) {}
  static const char *get_option(void *, const char *) { return nullptr; }
  static const prof_session_info *session_info(void *) { return nullptr; }
  static void emit_stack(void *, prof_track_id, uint64_t, prof_stack_id, prof_string_id) {}
  static void emit_counter_for(void *, prof_track_id, uint64_t, double, uint64_t) {}
  static void emit_slice_args(void *, prof_track_id, uint64_t, uint64_t, prof_string_id,
                              prof_string_id, uint64_t, uint16_t, const prof_arg *, uint32_t) {}
  static void emit_instant_args(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id,
                                uint16_t, const prof_arg *, uint32_t) {}
};
struct CurrentHost : HostOfMinor5 {
  static inline uint64_t dropped = 0;
  static void count_dropped(void *, prof_drop_cause, uint64_t count) { dropped += count; }
};

template <class Host, int Minor>
concept Buildable = requires {
  prof::host_api_table<Host, Minor>();
};

static_assert(Buildable<HostOfMinor5, 5>);
static_assert(!Buildable<HostOfMinor5, 6>, "count_dropped is a call of ABI 1.6");
static_assert(!Buildable<HostOfMinor5, PROF_ABI_MINOR>);
static_assert(Buildable<CurrentHost, PROF_ABI_MINOR>);
static_assert(!Buildable<CurrentHost, PROF_ABI_MINOR + 1>, "no minor past this SDK's");

// The entries of `api` as raw pointers, in declaration order.
std::vector<const void *> entries(const prof_host_api &api) {
  std::vector<const void *> out;
  for (size_t at = offsetof(prof_host_api, intern_string); at < sizeof api; at += sizeof(void *)) {
    const void *entry;
    std::memcpy(&entry, reinterpret_cast<const char *>(&api) + at, sizeof entry);
    out.push_back(entry);
  }
  return out;
}

// How many entries a table of `struct_size` offers.
size_t offered(uint32_t struct_size) {
  return (struct_size - offsetof(prof_host_api, intern_string)) / sizeof(void *);
}

void expect_full_up_to_its_size(const prof_host_api &api, const char *what) {
  const std::vector<const void *> all = entries(api);
  const size_t count = offered(api.struct_size);
  ASSERT_LE(count, all.size()) << what;
  for (size_t i = 0; i < all.size(); ++i)
    if (i < count)
      EXPECT_NE(all[i], nullptr) << what << ": entry " << i << " is promised";
    else
      EXPECT_EQ(all[i], nullptr) << what << ": entry " << i << " is past struct_size";
}

} // namespace

TEST(HostApiTable, EachMinorEndsAtItsLastCallWithEveryEntrySet) {
  EXPECT_EQ(prof::host_api_size(1), offsetof(prof_host_api, emit_stack));
  EXPECT_EQ(prof::host_api_size(2), offsetof(prof_host_api, emit_counter_for));
  EXPECT_EQ(prof::host_api_size(4), prof::host_api_size(3)) << "1.4 added no host call";
  EXPECT_EQ(prof::host_api_size(PROF_ABI_MINOR), sizeof(prof_host_api));
  expect_full_up_to_its_size(prof::host_api_table<HostOfMinor5, 1>(), "1.1");
  expect_full_up_to_its_size(prof::host_api_table<HostOfMinor5, 3>(), "1.3");
  expect_full_up_to_its_size(prof::host_api_table<HostOfMinor5, 5>(), "1.5");
  expect_full_up_to_its_size(prof::host_api_table<CurrentHost>(), "current");
}

TEST(HostApiTable, ThePluginSideWrapperReachesTheCallsTheTableOffers) {
  constexpr prof_host_api current = prof::host_api_table<CurrentHost>();
  CurrentHost::dropped = 0;
  prof::Host(&current, nullptr).count_dropped(PROF_DROP_DEVICE_BUFFER_FULL, 3);
  EXPECT_EQ(CurrentHost::dropped, 3u);
  constexpr prof_host_api older = prof::host_api_table<CurrentHost, 5>();
  prof::Host(&older, nullptr).count_dropped(PROF_DROP_DEVICE_BUFFER_FULL, 3);
  EXPECT_EQ(CurrentHost::dropped, 3u) << "a 1.5 host has no count_dropped to call";
}

TEST(HostApiTable, TheFakeSourceHostOffersEveryCallItsSizePromises) {
  prof::testing::FakeSourceHost oldest;
  prof::testing::FakeSourceHost current(0, prof::testing::HostAbi::current);
  expect_full_up_to_its_size(*oldest.api(), "oldest fake");
  EXPECT_EQ(oldest.api()->struct_size, prof::host_api_size(1));
  expect_full_up_to_its_size(*current.api(), "current fake");
  EXPECT_EQ(current.api()->struct_size, sizeof(prof_host_api));
  prof::Host(current.api(), &current).count_dropped(PROF_DROP_KERNEL_LOST, 5);
  EXPECT_EQ(current.dropped(PROF_DROP_KERNEL_LOST), 5u);
}
