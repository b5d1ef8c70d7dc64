// describe_address: exported and static functions by name, other code as
// module+offset.
#include <prof/stacks/address_name.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <thread>
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
  // A return address inside the C library's qsort (the comparison's caller).
  static uintptr_t inside = 0;
  int values[2] = {2, 1};
  qsort(values, 2, sizeof(int), [](const void *a, const void *b) {
    if (inside == 0) inside = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    return *static_cast<const int *>(a) - *static_cast<const int *>(b);
  });
  ASSERT_NE(inside, 0u);
  const std::string name = describe_address(inside);
  EXPECT_TRUE(name.find("qsort") != std::string::npos || name.find("libc.so.6+0x") == 0) << name;
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
