// describe_address: exported and static functions by name, other code as
// module+offset.
#include <prof/stacks/address_name.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace prof::stacks {
namespace {

// Not exported (the dynamic symbol table does not have it): only the full
// symbol table names it.
[[gnu::noinline]] uintptr_t return_address_in_static_function() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}
[[gnu::noinline]] uintptr_t call_site_in_static_caller() {
  const uintptr_t address = return_address_in_static_function();
  asm volatile("" ::: "memory"); // keep the call a call, not a tail call
  return address;
}

TEST(AddressName, NamesStaticFunctionsFromTheFullSymbolTable) {
  const std::string name = describe_address(call_site_in_static_caller());
  EXPECT_NE(name.find("call_site_in_static_caller"), std::string::npos) << name;
}

TEST(AddressName, NamesExportedFunctions) {
  // Inside the C library's getpid (no sanitizer intercepts it): its dynamic symbol.
  const auto inside = reinterpret_cast<uintptr_t>(&getpid) + 1;
  EXPECT_NE(describe_address(inside).find("getpid"), std::string::npos) << describe_address(inside);
  EXPECT_EQ(describe_address(inside, SymbolTables::dynamic_only), describe_address(inside));
}

TEST(AddressName, DynamicOnlyLeavesStaticFunctionsAsOffsets) {
  const std::string name =
      describe_address(call_site_in_static_caller(), SymbolTables::dynamic_only);
  EXPECT_EQ(name.rfind("stacks_tests+0x", 0), 0u) << name;
}

// A forked child names frames with a cache of its own: the parent's lock may
// have been held by a thread the child does not have.
TEST(AddressName, AForkedChildNamesFrames) {
  const uintptr_t site = call_site_in_static_caller();
  EXPECT_NE(describe_address(site).find("call_site_in_static_caller"), std::string::npos);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0)
    _exit(describe_address(site).find("call_site_in_static_caller") != std::string::npos ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(AddressName, ThreadsNameAtOnce) {
  const uintptr_t site = call_site_in_static_caller();
  std::vector<std::thread> threads;
  std::vector<std::string> names(4);
  for (std::size_t i = 0; i < names.size(); ++i)
    threads.emplace_back([&, i] { names[i] = describe_address(site); });
  for (auto &thread : threads)
    thread.join();
  for (const auto &name : names)
    EXPECT_EQ(name, names[0]);
  EXPECT_EQ(describe_address(1), "[unknown] 0x0");
}

} // namespace
} // namespace prof::stacks
