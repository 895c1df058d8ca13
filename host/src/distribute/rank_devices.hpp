// rank_devices.hpp - the share of its node's devices one MPI rank takes: local rank r of the L ranks on a node
// takes the GPUs g (by their place in [run] gpus, or all of the node's) with g % L == r, or GPU r % G when there are
// more ranks than GPUs; and the node's CPU threads divided by L unless [run] threads names a number (per rank).
#pragma once

#include "config/run_settings.hpp"
#include "distribute/mpi_world.hpp"

namespace gsdk::host {

// `settings` with its gpus and threads narrowed to this rank's share; `node_gpus` and `node_threads` are what the
// node has (0 GPUs: gpus stay as they are, for device selection to judge).
RunSettings rank_run_settings(const RunSettings& settings, const RankPlace& place, int node_gpus,
                              unsigned node_threads);

} // namespace gsdk::host
