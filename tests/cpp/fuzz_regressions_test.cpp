// Replays every input under tests/fuzz/regressions/<target>/ (inputs that once crashed a libFuzzer
// target, see scripts/fuzz.sh) through the same target code, natively: each must now end in a
// clean ArgumentError or a valid result.
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../fuzz/fuzz_targets.hpp"

namespace {

const std::string kRegressions = std::string(RELPOS_GOLDEN_DIR) + "/../../fuzz/regressions/";

std::vector<std::string> inputs(const std::string& target) {
  std::vector<std::string> files;
  if (DIR* dir = opendir((kRegressions + target).c_str())) {
    while (dirent* entry = readdir(dir)) {
      const std::string name = entry->d_name;
      if (name.empty() || name[0] == '.' || (name.size() > 3 && name.substr(name.size() - 3) == ".md")) continue;
      files.push_back(kRegressions + target + "/" + name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void replay(const std::string& target, int (*run)(const std::string&)) {
  for (const auto& file : inputs(target)) {
    SCOPED_TRACE(file);
    try {
      run(read(file));
    } catch (const fuzz::Finding& f) {
      ADD_FAILURE() << f.what;
    }
  }
}

}  // namespace

TEST(FuzzRegressions, Schemes) {
  replay("schemes", fuzz::runSchemes);
}
TEST(FuzzRegressions, Attention) {
  replay("attention", fuzz::runAttention);
}
TEST(FuzzRegressions, Analysis) {
  replay("analysis", fuzz::runAnalysis);
}
TEST(FuzzRegressions, Config) {
  replay("config", fuzz::runConfig);
}

// The seeds are valid calls: each must compute without error (guards the input format itself).
TEST(FuzzRegressions, GoldenSeedsAreValidCalls) {
  const std::string seed = R"({"op":"bias","id":"alibi","params":{"n":4,"heads":2}})";
  EXPECT_EQ(fuzz::runSchemes(seed), 0);
  const std::string attention =
      R"({"id":"rope","params":{"q":{"shape":[2,4],"data":[1,2,3,4,5,6,7,8]},"k":[[1,0,0,1],[0,1,1,0]],"queryOffset":1000000000}})";
  EXPECT_EQ(fuzz::runAttention(attention), 0);
}
