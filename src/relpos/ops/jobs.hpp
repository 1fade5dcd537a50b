// Long computations as resumable jobs: the caller runs step() until done(), between steps it can
// report progress and honour cancellation (the JS side yields to its event loop there, so a
// Web Worker can receive a cancel message). Each job owns all of its state.
#pragma once
#include <memory>
#include <string>

#include "relpos/base/params.hpp"
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

// kind: "attentionMap" (pooled long-context attention maps), "train" (the extrapolation lab).
// Validates params up front and throws ArgumentError like every other public call.
std::unique_ptr<Job> startJob(const std::string& kind, const Params& params);

}  // namespace relpos
