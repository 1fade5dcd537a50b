// What a scheme contributes to the extrapolation lab (src/relpos/lab): the lab owns the model and
// its training; a scheme's Term owns the positional inputs of its attention layers and any learned
// positional weights (T5's table, KERPLE's r1 and r2, FIRE's MLP), with hand-written backward
// passes, in float64. A scheme opts in through Scheme::lab (see docs/lab.md).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "relpos/base/params.hpp"
#include "relpos/base/rng.hpp"

namespace relpos {

struct Scheme;

namespace lab {

// The model a term serves. `options` are the lab's options as given (the scheme's own lab options,
// Hooks::options, among them); `where` names the call in errors.
struct TermSetup {
  int64_t heads = 1;
  int64_t headDim = 1;
  int64_t trainLength = 1;
  const Params* options = nullptr;
};

// A named block of learned positional weights of one layer (e.g. "t5.table").
struct WeightSlice {
  std::string name;
  size_t size = 0;
};

class Term {
 public:
  virtual ~Term() = default;
  // The learned positional weights of one layer, in order; the lab lays them out contiguously.
  virtual std::vector<WeightSlice> weights() const { return {}; }
  // Initial values of one layer's positional weights (drawn from the model's stream, if at all).
  virtual void initialise(double* /*w*/, Random& /*rng*/) const {}
  // Fixed inputs for sequences of length n; `eval` marks evaluation, which some schemes treat
  // differently (rope-linear interpolates past the training length).
  virtual void prepare(int64_t /*n*/, bool /*eval*/) {}

  // A bias B[h, i, j] over the causal part j <= i, written into `out` [heads, n, n] (zeros above),
  // from one layer's positional weights `w`; biasBackward adds d loss / d w to `g` given dB.
  virtual bool addsBias() const { return false; }
  virtual void bias(const double* /*w*/, double* /*out*/) const {}
  virtual void biasBackward(const double* /*w*/, const double* /*dB*/, double* /*g*/) const {}

  // Rotates every head of rows [n, heads * headDim] in place; backward applies the transpose.
  virtual bool rotates() const { return false; }
  virtual void rotate(double* /*rows*/, bool /*query*/, bool /*backward*/) const {}

  // Position vectors [n, width]: added to the keys (implicit, mixed) or to the token embeddings
  // (mode 'input'); empty when the scheme has none.
  virtual std::vector<double> vectors(int64_t /*width*/) const { return {}; }
};

// A scheme in the lab: the name it shows, the attention modes it accepts (mode 'auto' picks the
// first), the lab options it reads and the factory of its term.
struct Hooks {
  using MakeFn = std::unique_ptr<Term> (*)(const Scheme&, const TermSetup&);
  Hooks() = default;
  Hooks(const char* name, std::initializer_list<const char*> modes, std::vector<ParamInfo> options, MakeFn make)
      : name(name), modes(modes.begin(), modes.end()), options(std::move(options)), make(make) {}

  std::string name;
  std::vector<std::string> modes;
  std::vector<ParamInfo> options;
  MakeFn make = nullptr;
  // Sets the scheme's parameters for sequences of length n (optional; rope-linear interpolates by
  // n / trainLength at evaluation past the training length).
  void (*adjust)(Params& params, int64_t trainLength, int64_t n, bool eval) = nullptr;
  // Another name the lab accepts for this scheme (optional).
  std::string alias;
};

// Hooks::make for a term built from the setup alone.
template <class T>
std::unique_ptr<Term> makeTerm(const Scheme&, const TermSetup& setup) {
  return std::make_unique<T>(setup);
}

}  // namespace lab
}  // namespace relpos
