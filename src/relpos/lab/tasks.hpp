// The lab's synthetic tasks: content tokens are 0 .. vocab-1; token `vocab` is the task's special
// token (separator, marker or delimiter). Targets are token ids (count: the count itself, capped at
// vocab-1); -1 marks positions without a loss.
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
  // Refuses configurations the task cannot serve (nullptr: any).
  void (*check)(const Config& config, const std::string& where);
};

// Every task, in the order rp.lab.tasks lists them.
const std::vector<Task>& tasks();

// The task with this id (validated by the options before).
const Task& findTask(const std::string& id);

}  // namespace relpos::lab
