// agent_spec.hpp - the text form of an agent on command lines and in configs:
//
//   KIND[:KEY=VALUE[,KEY=VALUE]...]
//
//   random                                  uniform over the legal moves
//   flatmc[:playouts=N|time=S][,leaf=N][,device=cpu|cuda][,gpu=K]
//   uct[:playouts=N|time=S][,leaf=N][,c=X][,roots=R][,threads=T][,device=cpu|cuda][,gpu=K][,nodes=N][,reuse=true|false]
//      [,leaf_value=playout|eval|cutoff:K][,eval_unit=U]
//   alphabeta[:time=S][,depth=D][,tt_mb=M]   needs the game's evaluation table (gsdk.evaluation.v1)
//
//   alphabeta: time= seconds per move (default 1, none when only depth= is given); depth= deepest iteration,
//   1 .. 1000 (deterministic without time=); tt_mb= transposition table MiB, 0 .. 4096 (default 16)
//   playouts  playouts per move, 1 .. 2^53 (default 10000; `1e5` is accepted)
//   time      seconds per move instead, > 0 .. 86400 (time and playouts exclude each other)
//   leaf      uct: playouts per evaluated leaf (default 1); flatmc: playouts per move per round when timed (default
//   256) c         uct: UCB1 exploration constant, 0 .. 100 (default 0.7; rewards are in [0, 1]) roots     uct:
//   independent trees, root visit counts merged, 1 .. 1024 (default 1) threads   uct: threads growing the trees, 0 ..
//   4096 (default 0: one per tree, at most the hardware's) device    where playouts run: cpu (default) or cuda gpu CUDA
//   device ordinal, 0 .. 1023 (default 0) nodes     uct: nodes per tree, 16 .. 2^32 - 2 (default 1048576) reuse uct:
//   keep the subtree of the moves played (default true) param.NAME  flatmc, uct: the agent's own value of the game's
//   parameter NAME, e.g. param.exact_empties=12
//             (any number of them; checked when the agent is made, see agent_game.hpp)
//   leaf_value  uct: how a new leaf is valued: playout (default: random playouts to the end), eval (the game's
//               evaluation, gsdk.evaluation.v1; leaf must be 1) or cutoff:K (K random plies, 1 .. 1000, then the
//               evaluation: early playout termination)
//   eval_unit   uct with evaluated leaves: the evaluation worth a reward of 1/(1+e^-1) = 0.73 (> 0; default the
//               game's evaluation scale / 16)
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gsdk/core/agents/agents.hpp"

namespace gsdk::host {

inline constexpr std::string_view kAgentParamPrefix = "param.";

class AgentSpecError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

// The kinds of agent a spec may name ("random", "flatmc", "uct", "alphabeta"), in the order messages list them.
const std::vector<std::string>& agent_kinds();

// Throws AgentSpecError naming the spec, the offending kind, key or value, and what is allowed.
core::AgentSettings parse_agent_spec(const std::string& spec);

// The spec's `param.NAME=VALUE` items as "NAME=VALUE" (what parse_agent_spec leaves to agent_game.hpp).
std::vector<std::string> agent_param_assignments(const std::string& spec);

} // namespace gsdk::host
