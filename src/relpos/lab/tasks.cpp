#include "relpos/lab/tasks.hpp"

#include <algorithm>

#include "relpos/base/errors.hpp"

namespace relpos::lab {

namespace {

int32_t special(const Config& c) {
  return static_cast<int32_t>(c.vocab);
}

int32_t content(const Config& c, Rng& rng) {
  return static_cast<int32_t>(rng.below(c.vocab));
}

void copy(const Config& c, Rng& rng, Example& e) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  for (int64_t i = 0; i < n; ++i) e.tokens[i] = content(c, rng);
  for (int64_t i = c.offset; i < n; ++i) e.targets[i] = e.tokens[i - c.offset];
}

// Markers at random positions (about one in eight, never two in a row); at every later position the
// target is the token that followed the most recent marker (an induction-style lookup).
void retrieve(const Config& c, Rng& rng, Example& e) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  for (int64_t i = 0; i < n; ++i) {
    const bool marker = i + 1 < n && (i == 0 || e.tokens[i - 1] != special(c)) && rng.below(8) == 0;
    e.tokens[i] = marker ? special(c) : content(c, rng);
  }
  int64_t last = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (last >= 0 && i > last + 1 && e.tokens[i] != special(c)) e.targets[i] = e.tokens[last + 1];
    if (e.tokens[i] == special(c)) last = i;
  }
}

// [x_1 .. x_m, SEP, y_1 .. y_{m-1}]: position m-1+t+1 predicts y_{t+1}, i.e. target[m+t] = y[t],
// with y the first half transformed.
template <void (*Transform)(std::vector<int32_t>&)>
void afterSeparator(const Config& c, Rng& rng, Example& e) {
  const int64_t m = static_cast<int64_t>(e.tokens.size()) / 2;
  std::vector<int32_t> x(static_cast<size_t>(m));
  for (auto& v : x) v = content(c, rng);
  std::vector<int32_t> y = x;
  Transform(y);
  for (int64_t i = 0; i < m; ++i) e.tokens[i] = x[i];
  e.tokens[m] = special(c);
  for (int64_t t = 0; t + 1 < m; ++t) e.tokens[m + 1 + t] = y[t];
  for (int64_t t = 0; t < m; ++t) e.targets[m + t] = y[t];
}

void reversed(std::vector<int32_t>& y) {
  std::reverse(y.begin(), y.end());
}
void sorted(std::vector<int32_t>& y) {
  std::sort(y.begin(), y.end());
}

// Tokens since the last delimiter (position 0 is a delimiter).
void count(const Config& c, Rng& rng, Example& e) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  int64_t last = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool delimiter = i == 0 || rng.below(8) == 0;
    e.tokens[i] = delimiter ? special(c) : content(c, rng);
    if (delimiter) last = i;
    e.targets[i] = static_cast<int32_t>(std::min<int64_t>(i - last, c.vocab - 1));
  }
}

void offsetBelowLength(const Config& c, const std::string& where) {
  if (c.offset >= c.length) throwRange(where + ": offset must be < length");
}
void evenLength(const Config& c, const std::string& where) {
  if (c.length % 2 != 0) throwRange(where + ": reverse/sort need an even length");
}

}  // namespace

const std::vector<Task>& tasks() {
  static const std::vector<Task> list = {
      {"copy", "Copy k back", "Predict the token `offset` positions back.", copy, offsetBelowLength},
      {"retrieve", "Most recent marker",
       "Predict the token that followed the most recent marker (induction-style; needs 2 layers).", retrieve, nullptr},
      {"reverse", "Reverse", "After a separator, write the first half backwards.", afterSeparator<reversed>,
       evenLength},
      {"sort", "Sort", "After a separator, write the first half in ascending order.", afterSeparator<sorted>,
       evenLength},
      {"count", "Count since delimiter", "Predict how many tokens since the last delimiter (capped at vocab − 1).",
       count, nullptr},
  };
  return list;
}

const Task& findTask(const std::string& id) {
  for (const Task& t : tasks()) {
    if (t.id == id) return t;
  }
  std::vector<std::string> known;
  for (const Task& t : tasks()) known.push_back(t.id);
  throwUnknownName("relpos.train", "task", id, known, "tasks", false);
}

Example makeExample(const Config& c, int64_t n, Rng& rng) {
  Example e;
  e.tokens.assign(static_cast<size_t>(n), 0);
  e.targets.assign(static_cast<size_t>(n), -1);
  findTask(c.task).fill(c, rng, e);
  return e;
}

}  // namespace relpos::lab
