// The lab's synthetic tasks: content tokens are 0 .. vocab-1; token `vocab` is the task's special
// token (separator, marker, delimiter or the plus and equals of addition); with `bos`, token
// `vocab + 1` opens every sequence. Targets are token ids (count: the count
// itself, capped at vocab-1); -1 marks positions without a loss.
#pragma once
#include <string>
#include <vector>

#include "relpos/lab/lab.hpp"

namespace relpos::lab {

struct Task {
  std::string id;
  std::string name;
  std::string description;
  // Fills tokens and targets of one sequence of the example's length.
  void (*fill)(const Config& config, Rng& rng, Example& example);
  // Whether the task can lay out a sequence of n tokens (reverse and sort: even n; addition:
  // n = 3k + 2). Training and evaluation lengths must be such lengths.
  bool (*fits)(const Config& config, int64_t n);
};

// The lengths from 1 to `upTo` the task of `config` can lay out, ascending.
std::vector<int64_t> taskLengths(const Config& config, int64_t upTo);
// The longest length <= n the task can lay out (n itself when it can).
int64_t fitLength(const Config& config, int64_t n);

// Every task, in the order rp.lab.tasks lists them.
const std::vector<Task>& tasks();

// The task with this id (validated by the options before).
const Task& findTask(const std::string& id);

}  // namespace relpos::lab
