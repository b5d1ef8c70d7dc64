#include "gcusim_test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace gcusim_test {
namespace {

bool is_gcusim_variable(const char *entry) { return std::strncmp(entry, "GCUSIM_", 7) == 0; }

// The model reads its environment once: tests in this process see the
// defaults whatever the shell had, and children get only what they ask for.
const bool environment_cleared = [] {
  if (std::getenv("GCUSIM_TEST_CHILD") != nullptr) return false;
  std::vector<std::string> names;
  for (char **entry = environ; *entry != nullptr; ++entry)
    if (is_gcusim_variable(*entry)) {
      std::string text = *entry;
      names.push_back(text.substr(0, text.find('=')));
    }
  for (const std::string &name : names)
    unsetenv(name.c_str());
  return true;
}();

} // namespace

uint32_t engine_index(const char *name) {
  const prof_gcu_topology &t = topology();
  for (uint32_t e = 0; e < t.engine_count; ++e)
    if (std::strcmp(t.engines[e].name, name) == 0) return e;
  ADD_FAILURE() << "no engine " << name;
  return 0;
}

uint32_t item_index(uint32_t engine, const char *name) {
  const prof_gcu_engine_desc &desc = topology().engines[engine];
  for (uint32_t i = 0; i < desc.activity_count; ++i)
    if (std::strcmp(desc.activities[i], name) == 0) return i;
  for (uint32_t i = 0; i < desc.event_count; ++i)
    if (std::strcmp(desc.events[i], name) == 0) return i;
  ADD_FAILURE() << "engine " << desc.name << " has no item " << name;
  return 0;
}

namespace {
void add_instances(std::vector<prof_gcu_item> &items, uint32_t device, uint32_t engine,
                   uint32_t item) {
  const prof_gcu_topology &t = topology();
  const prof_gcu_engine_desc &desc = t.engines[engine];
  uint32_t groups = desc.group < 0 ? 1 : t.groups[desc.group].count;
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t i = 0; i < desc.count; ++i)
      items.push_back({device, desc.group, g, engine, i, item});
}
} // namespace

std::vector<prof_gcu_item> all_instances(uint32_t device, const char *engine,
                                         const char *activity) {
  std::vector<prof_gcu_item> items;
  uint32_t e = engine_index(engine);
  add_instances(items, device, e, item_index(e, activity));
  return items;
}

std::vector<prof_gcu_item> everything(uint32_t device) {
  std::vector<prof_gcu_item> items;
  const prof_gcu_topology &t = topology();
  for (uint32_t e = 0; e < t.engine_count; ++e) {
    const prof_gcu_engine_desc &desc = t.engines[e];
    uint32_t count = desc.activity_count > 0 ? desc.activity_count : desc.event_count;
    for (uint32_t i = 0; i < count; ++i)
      add_instances(items, device, e, i);
  }
  return items;
}

std::vector<prof_gcu_api_item> all_api_functions() {
  std::vector<prof_gcu_api_item> apis;
  for (uint32_t f = 0; f < topology().api_domains[0].function_count; ++f)
    apis.push_back({0, f});
  return apis;
}

std::string engine_name(const prof_gcu_record &record) {
  return topology().engines[record.engine].name;
}

std::string item_name(const prof_gcu_record &record) {
  const prof_gcu_engine_desc &desc = topology().engines[record.engine];
  return record.kind == PROF_GCU_RECORD_COUNTER ? desc.events[record.item]
                                                : desc.activities[record.item];
}

Collector::~Collector() {
  if (subscribed_) unsubscribe();
}

prof_gcu_capture_config Collector::config(const std::vector<prof_gcu_item> &items,
                                          const std::vector<prof_gcu_api_item> &apis) {
  items_ = items;
  apis_selected_ = apis;
  prof_gcu_capture_config config{};
  config.struct_size = sizeof(config);
  config.buffer = PROF_GCU_BUFFER_DEVICE;
  config.device_buffer_bytes = 1 << 20;
  config.host_ring_bytes = 4 << 20;
  config.watermark_bytes = 2 << 20;
  config.flush_period_ms = 0;
  config.items = items_.data();
  config.item_count = static_cast<uint32_t>(items_.size());
  config.apis = apis_selected_.data();
  config.api_count = static_cast<uint32_t>(apis_selected_.size());
  config.on_records = &Collector::on_records;
  config.on_api = &Collector::on_api;
  config.user = this;
  config.collecting = 1;
  return config;
}

void Collector::subscribe(const prof_gcu_capture_config &config) {
  char error[256] = "";
  ASSERT_EQ(driver().subscribe(&config, &handle_, error, sizeof(error)), 0) << error;
  subscribed_ = true;
}

void Collector::unsubscribe() {
  driver().unsubscribe(handle_);
  subscribed_ = false;
  closed_ = true;
}

prof_gcu_buffer_stats Collector::stats(uint32_t device) const {
  prof_gcu_buffer_stats stats{};
  stats.struct_size = sizeof(stats);
  EXPECT_EQ(driver().stats(handle_, device, &stats), 0);
  return stats;
}

std::vector<prof_gcu_record> Collector::records() {
  std::lock_guard lock(mutex_);
  return records_;
}

std::vector<prof_gcu_api_record> Collector::apis() {
  std::lock_guard lock(mutex_);
  return api_records_;
}

std::vector<std::thread::id> Collector::api_threads() {
  std::lock_guard lock(mutex_);
  return api_threads_;
}

std::vector<prof_gcu_record> Collector::records_named(const std::string &item) {
  std::vector<prof_gcu_record> named;
  for (const prof_gcu_record &record : records())
    if (item_name(record) == item) named.push_back(record);
  return named;
}

void Collector::on_records(void *user, const prof_gcu_record *records, size_t count) {
  auto *self = static_cast<Collector *>(user);
  if (self->closed_) ++self->late_callbacks_;
  std::lock_guard lock(self->mutex_);
  self->records_.insert(self->records_.end(), records, records + count);
}

void Collector::on_api(void *user, const prof_gcu_api_record *record) {
  auto *self = static_cast<Collector *>(user);
  if (self->closed_) ++self->late_callbacks_;
  std::lock_guard lock(self->mutex_);
  self->api_records_.push_back(*record);
  self->api_threads_.push_back(std::this_thread::get_id());
}

ChildResult run_program(const std::string &program, const std::vector<std::string> &args,
                        const std::vector<std::string> &env) {
  ChildResult result;
  char output_path[] = "/tmp/gcusim-test-XXXXXX";
  int fd = mkstemp(output_path);
  if (fd < 0) return result;
  close(fd);

  std::vector<std::string> environment;
  for (char **entry = environ; *entry != nullptr; ++entry)
    if (!is_gcusim_variable(*entry)) environment.emplace_back(*entry);
  environment.insert(environment.end(), env.begin(), env.end());
  std::vector<char *> envp, argv;
  for (std::string &entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> arguments{program};
  arguments.insert(arguments.end(), args.begin(), args.end());
  for (std::string &argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output_path, O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned == 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  } else {
    result.output = "cannot run " + program + ": " + std::strerror(spawned) + "\n";
  }
  std::ifstream file(output_path);
  std::stringstream text;
  text << file.rdbuf();
  result.output += text.str();
  unlink(output_path);
  return result;
}

ChildResult run_test_in_child(const std::string &test, const std::vector<std::string> &env) {
  std::vector<std::string> child_env = env;
  child_env.emplace_back("GCUSIM_TEST_CHILD=1");
  return run_program("/proc/self/exe", {"--gtest_filter=" + test}, child_env);
}

bool in_child() { return std::getenv("GCUSIM_TEST_CHILD") != nullptr; }

void sleep_kernel(void *ms, unsigned, unsigned) {
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<int *>(ms)));
}

void empty_kernel(void *, unsigned, unsigned) {}

} // namespace gcusim_test
