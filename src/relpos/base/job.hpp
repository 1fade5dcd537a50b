// Long computations as resumable jobs: the caller runs step() until done(), between steps it can
// report progress and honour cancellation (the JS side yields to its event loop there, so a
// Web Worker can receive a cancel message). Each job owns all of its state.
#pragma once
#include <cstdint>

#include "relpos/base/tensor.hpp"

namespace relpos {

class Job {
 public:
  virtual ~Job() = default;
  // Does about `budget` units of work (a job-defined unit, e.g. one query row) and returns the
  // fraction done so far, in [0, 1].
  virtual double step(int64_t budget) = 0;
  virtual bool done() const = 0;
  // The finished result; only valid once done().
  virtual Result result() = 0;
};

// A job that can report partial state between steps (the binding's jobPeek): the training job
// returns the loss and gradient-norm curves so far.
class PeekableJob : public Job {
 public:
  virtual Result peek() const = 0;
};

}  // namespace relpos
