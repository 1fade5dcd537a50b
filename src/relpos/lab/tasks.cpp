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

void same(std::vector<int32_t>&) {}
void reversed(std::vector<int32_t>& y) {
  std::reverse(y.begin(), y.end());
}
void sorted(std::vector<int32_t>& y) {
  std::sort(y.begin(), y.end());
}

// [a_0 .. a_{k-1}, SEP, b_0 .. b_{k-1}, SEP, c_0 .. c_{k-1}] with n = 3k + 2 and c = a + b in base
// `vocab`, every number least significant digit first (so each digit of c depends on the digits of
// the same place and the carry before it, not on the length); c has k + 1 digits, the last one only
// a target. Position 2k + 1 + t predicts c_t.
void addition(const Config& c, Rng& rng, Example& e) {
  const int64_t n = static_cast<int64_t>(e.tokens.size());
  const int64_t k = (n - 2) / 3;
  std::vector<int32_t> a(static_cast<size_t>(k)), b(static_cast<size_t>(k)), sum(static_cast<size_t>(k + 1));
  for (auto& v : a) v = content(c, rng);
  for (auto& v : b) v = content(c, rng);
  int32_t carry = 0;
  for (int64_t t = 0; t < k; ++t) {
    const int32_t s = a[t] + b[t] + carry;
    sum[t] = s % static_cast<int32_t>(c.vocab);
    carry = s / static_cast<int32_t>(c.vocab);
  }
  sum[k] = carry;
  for (int64_t t = 0; t < k; ++t) {
    e.tokens[t] = a[t];
    e.tokens[k + 1 + t] = b[t];
    e.tokens[2 * k + 2 + t] = sum[t];
  }
  e.tokens[k] = e.tokens[2 * k + 1] = special(c);
  for (int64_t t = 0; t <= k; ++t) e.targets[2 * k + 1 + t] = sum[t];
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

bool longerThanOffset(const Config& c, int64_t n) {
  return n > c.offset;
}
bool even(const Config&, int64_t n) {
  return n >= 2 && n % 2 == 0;
}
bool threeKPlusTwo(const Config&, int64_t n) {
  return n >= 5 && n % 3 == 2;
}
bool any(const Config&, int64_t n) {
  return n >= 1;
}

}  // namespace

const std::vector<Task>& tasks() {
  static const std::vector<Task> list = {
      {"copy", "Copy k back", "Predict the token `offset` positions back.", copy, longerThanOffset},
      {"retrieve", "Most recent marker",
       "Predict the token that followed the most recent marker (induction-style; needs 2 layers).", retrieve, any},
      {"duplicate", "Copy", "After a separator, write the first half again (even lengths).", afterSeparator<same>,
       even},
      {"reverse", "Reverse", "After a separator, write the first half backwards (even lengths).",
       afterSeparator<reversed>, even},
      {"sort", "Sort", "After a separator, write the first half in ascending order (even lengths).",
       afterSeparator<sorted>, even},
      {"addition", "Addition",
       "a SEP b SEP a+b: add two k-digit numbers in base vocab, least significant digit first (lengths 3k + 2).",
       addition, threeKPlusTwo},
      {"count", "Count since delimiter", "Predict how many tokens since the last delimiter (capped at vocab − 1).",
       count, any},
  };
  return list;
}

const Task& findTask(const std::string& id) {
  return findNamed(tasks(), &Task::id, id, "relpos.train", "task", "tasks");
}

std::vector<int64_t> taskLengths(const Config& c, int64_t upTo) {
  const Task& task = findTask(c.task);
  std::vector<int64_t> out;
  for (int64_t n = 1; n <= upTo; ++n) {
    if (task.fits(c, n)) out.push_back(n);
  }
  return out;
}

int64_t fitLength(const Config& c, int64_t n) {
  const Task& task = findTask(c.task);
  int64_t m = n;
  while (m > 1 && !task.fits(c, m)) --m;
  return m;
}

Example makeExample(const Config& c, int64_t n, Rng& rng) {
  Example e;
  e.tokens.assign(static_cast<size_t>(n), 0);
  e.targets.assign(static_cast<size_t>(n), -1);
  findTask(c.task).fill(c, rng, e);
  if (c.bos) {
    e.tokens.insert(e.tokens.begin(), static_cast<int32_t>(c.vocab + 1));
    e.targets.insert(e.targets.begin(), -1);
  }
  return e;
}

}  // namespace relpos::lab
