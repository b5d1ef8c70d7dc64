// --python-functions-trace's lists: nsys's and asys's JSON forms become the
// python source's `functions` text; anything else is one line naming the
// file, where in it, and what was expected.
#include "tools/prof/cli/python_functions_list.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace prof::cli {
namespace {

class PythonFunctionsList : public ::testing::Test {
protected:
  std::string list(const std::string &json) {
    const std::string path = dir_.file("list" + std::to_string(++files_) + ".json");
    std::ofstream(path) << json;
    return path;
  }
  /// The error for `json`, without "prof: --python-functions-trace FILE:".
  std::string error_of(const std::string &json) {
    const std::string path = list(json);
    try {
      python_functions_option(path);
    } catch (const UsageError &e) {
      const std::string prefix = "prof: --python-functions-trace " + path + ":";
      const std::string text = e.what();
      return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
    }
    return "accepted";
  }

  testing::ScratchDir dir_{"prof-python-functions-list"};
  int files_ = 0;
};

TEST_F(PythonFunctionsList, EveryFormBecomesModuleQualnameEntries) {
  EXPECT_EQ(python_functions_option("pytorch"), "pytorch");
  const std::string file = list(R"([
    "torch.nn.functional.relu",
    "torch.optim.sgd:SGD.step",
    {"module": "threading"},
    {"module": "torch.nn.functional", "domain": "Torch Domain",
     "functions": ["sigmoid", {"function": "Adadelta.step", "module": "torch.optim.adadelta",
                               "domain": "Child Domain"}]}
  ])");
  EXPECT_EQ(python_functions_option(file),
            "torch.nn.functional:relu;torch.optim.sgd:SGD.step;threading:*;"
            "torch.nn.functional:sigmoid@Torch Domain;"
            "torch.optim.adadelta:Adadelta.step@Child Domain");
  EXPECT_EQ(python_functions_option("pytorch," + file + ",pytorch"),
            "pytorch;" + python_functions_option(file) + ";pytorch");
}

TEST_F(PythonFunctionsList, BadListsSayWhereAndWhatWasExpected) {
  EXPECT_EQ(error_of(R"({"module": "m"})"), "1:1: expected a list of functions or modules");
  EXPECT_EQ(error_of("[]"), "1:1: expected at least one function or module");
  EXPECT_EQ(error_of(R"(["relu"])"), "1:2: 'relu': expected MODULE.FUNCTION or MODULE:QUALNAME");
  EXPECT_EQ(error_of(R"(["m:"])"), "1:2: '' is not a function name (FUNCTION or Class.method)");
  EXPECT_EQ(error_of(R"(["m..x:f"])"), "1:2: 'm..x' is not a module name");
  EXPECT_EQ(error_of(R"j(["m:f()"])j"),
            "1:2: 'f()' is not a function name (FUNCTION or Class.method)");
  EXPECT_EQ(error_of(R"([{"functions": ["f"]}])"), "1:2: expected \"module\"");
  EXPECT_EQ(error_of(R"([{"module": 3}])"),
            "1:13: expected \"module\" as a string, found a number");
  EXPECT_EQ(error_of(R"([{"module": "m", "function": ["f"]}])"),
            "1:30: unknown key \"function\" (expected \"module\", \"domain\", \"functions\")");
  EXPECT_EQ(error_of(R"([{"module": "m", "functions": []}])"),
            "1:31: expected \"functions\" as a list of function names");
  EXPECT_EQ(error_of(R"([{"module": "m", "domain": "a;b"}])"),
            "1:28: expected a domain name without ';', '@' or line breaks");
  EXPECT_EQ(error_of(R"(["__main__.f"])"),
            "1:2: functions of __main__ cannot be traced: they are defined as the program runs");
  EXPECT_EQ(error_of(R"([1, 2)"),
            "1:6: expected ',' or ']' after an array element, found end of input");
  EXPECT_EQ(error_of(R"([7])"),
            "1:2: expected a string or an object with \"module\", found a number");
}

TEST_F(PythonFunctionsList, TheOptionItselfMustNameSomething) {
  EXPECT_THROW(python_functions_option(""), UsageError);
  EXPECT_THROW(python_functions_option("pytorch,,pytorch"), UsageError);
  try {
    python_functions_option(dir_.file("missing.json"));
    ADD_FAILURE() << "accepted";
  } catch (const UsageError &e) {
    EXPECT_EQ(std::string(e.what()), "prof: --python-functions-trace " + dir_.file("missing.json") +
                                         ": cannot read the file; expected pytorch or a JSON "
                                         "list of functions");
  }
  // Neither a device that never ends nor a folder is read.
  for (const std::string &path : {std::string("/dev/zero"), dir_.path()}) {
    try {
      python_functions_option(path);
      ADD_FAILURE() << path << " accepted";
    } catch (const UsageError &e) {
      EXPECT_EQ(std::string(e.what()), "prof: --python-functions-trace " + path +
                                           ": not a regular file; expected pytorch or a JSON "
                                           "list of functions");
    }
  }
}

} // namespace
} // namespace prof::cli
