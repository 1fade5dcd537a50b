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

// Each libFuzzer target (tests/fuzz/fuzz_<name>.cpp) with the folder of its regressions.
struct Target {
  const char* name;
  int (*run)(const std::string&);
};
const Target kTargets[] = {{"schemes", fuzz::runSchemes},   {"attention", fuzz::runAttention},
                           {"analysis", fuzz::runAnalysis}, {"config", fuzz::runConfig},
                           {"maps", fuzz::runMaps},         {"lab", fuzz::runLab}};

class FuzzRegressionsOf : public ::testing::TestWithParam<Target> {};

}  // namespace

TEST_P(FuzzRegressionsOf, ReplayCleanly) {
  replay(GetParam().name, GetParam().run);
}
INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressionsOf, ::testing::ValuesIn(kTargets),
                         [](const ::testing::TestParamInfo<Target>& info) { return std::string(info.param.name); });

// The seeds are valid calls: each must compute without error (guards the input format itself).
TEST(FuzzRegressions, GoldenSeedsAreValidCalls) {
  const std::string seed = R"({"op":"bias","id":"alibi","params":{"n":4,"heads":2}})";
  EXPECT_EQ(fuzz::runSchemes(seed), 0);
  const std::string attention =
      R"({"id":"rope","params":{"q":{"shape":[2,4],"data":[1,2,3,4,5,6,7,8]},"k":[[1,0,0,1],[0,1,1,0]],"queryOffset":1000000000}})";
  EXPECT_EQ(fuzz::runAttention(attention), 0);
  // Jobs: a map run to the end in small steps, one cancelled midway, a short training run.
  EXPECT_EQ(fuzz::runMaps(R"({"params":{"n":64,"scheme":"alibi","heads":2,"size":16},"budgets":[1,4]})"), 0);
  EXPECT_EQ(fuzz::runMaps(R"({"params":{"n":40,"scheme":"rope","d":8,"seed":2,"size":8},"cancelAfter":2})"), 0);
  EXPECT_EQ(fuzz::runLab(R"({"params":{"scheme":"alibi","length":4,"dModel":8,"dFF":8,"batch":2,"steps":2,)"
                         R"("evalSequences":1,"heads":2},"budgets":[3]})"),
            0);
}
