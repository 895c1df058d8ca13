// agent_spec.cpp - parsing and checking agent spec strings (syntax in agent_spec.hpp).
#include "play/agent_spec.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/near_miss.hpp"

namespace gsdk::host {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  for (size_t begin = 0;;) {
    const size_t end = std::min(text.find(separator, begin), text.size());
    parts.push_back(text.substr(begin, end - begin));
    if (end == text.size()) return parts;
    begin = end + 1;
  }
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// Reads one KEY=VALUE of a spec, with errors that quote the whole spec.
class SpecReader {
public:
  explicit SpecReader(std::string spec) : spec_(std::move(spec)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw AgentSpecError(fmt::format("agent spec '{}': {}", spec_, what));
  }

  // A number written as decimal digits or in scientific notation, when it is an integer in [min, max].
  uint64_t integer(const std::string& key, const std::string& value, uint64_t min, uint64_t max) const {
    const double parsed = number(value);
    if (!(parsed == std::floor(parsed) && parsed >= static_cast<double>(min) && parsed <= static_cast<double>(max)))
      fail(fmt::format("{} must be an integer from {} to {}, got '{}'", key, min, max, value));
    return static_cast<uint64_t>(parsed);
  }

  double real(const std::string& key, const std::string& value, double min, double max, bool open_min) const {
    const double parsed = number(value);
    if (!(parsed <= max && (open_min ? parsed > min : parsed >= min)))
      fail(fmt::format("{} must be a number {} {} and at most {}, got '{}'", key, open_min ? "above" : "from", min, max,
                       value));
    return parsed;
  }

  std::string choice(const std::string& key, const std::string& value, const std::vector<std::string>& choices) const {
    if (std::find(choices.begin(), choices.end(), value) == choices.end())
      fail(fmt::format("{} must be one of {}, got '{}'", key, join(choices), value));
    return value;
  }

private:
  // NaN for text that is not entirely a number.
  static double number(const std::string& value) {
    if (value.empty() || value.find_first_not_of("0123456789.eE+-") != std::string::npos) return std::nan("");
    size_t used = 0;
    try {
      const double parsed = std::stod(value, &used);
      return used == value.size() ? parsed : std::nan("");
    } catch (const std::exception&) {
      return std::nan("");
    }
  }

  std::string spec_;
};

// leaf_value=playout|eval|cutoff:K (K random plies, 1 .. 1000, before the evaluation).
void read_leaf_value(const SpecReader& reader, const std::string& value, core::AgentSettings& s) {
  const std::string cutoff = "cutoff:";
  if (value == "playout" || value == "eval") {
    s.leaf_value = value == "eval" ? core::LeafValue::evaluation : core::LeafValue::playout;
    return;
  }
  if (value.rfind(cutoff, 0) != 0)
    reader.fail(fmt::format("leaf_value must be playout, eval or cutoff:K (K random plies, then the evaluation), "
                            "got '{}'",
                            value));
  s.leaf_value = core::LeafValue::cutoff;
  s.cutoff_plies =
      static_cast<uint32_t>(reader.integer("the plies K of leaf_value=cutoff:K", value.substr(cutoff.size()), 1, 1000));
}

constexpr uint32_t kCudaLeaf = 16;
constexpr uint32_t kCudaBatch = 128;
constexpr uint32_t kCudaInFlight = 2;

const std::vector<std::string> kFlatKeys = {"playouts", "time", "leaf", "device", "gpu"};
const std::vector<std::string> kUctKeys = {"playouts", "time",    "leaf",       "batch",    "inflight", "c",
                                           "roots",    "threads", "device",     "gpu",      "nodes",    "reuse",
                                           "evaluate", "draw",    "leaf_value", "eval_unit"};
const std::vector<std::string> kAlphaBetaKeys = {"time", "depth", "tt_mb"};
constexpr double kAlphaBetaSeconds = 1; // a bare "alphabeta" thinks a second a move

} // namespace

const std::vector<std::string>& agent_kinds() {
  static const std::vector<std::string> kinds = {"random", "flatmc", "uct", "alphabeta"};
  return kinds;
}

core::AgentSettings parse_agent_spec(const std::string& spec) {
  const SpecReader reader(spec);
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  core::AgentSettings s;
  const std::vector<std::string>* allowed = nullptr;
  if (kind == "random") {
    s.kind = core::AgentKind::random;
  } else if (kind == "flatmc") {
    s.kind = core::AgentKind::flat_monte_carlo;
    s.leaf = 256;
    allowed = &kFlatKeys;
  } else if (kind == "uct") {
    s.kind = core::AgentKind::uct;
    allowed = &kUctKeys;
  } else if (kind == "alphabeta") {
    s.kind = core::AgentKind::alphabeta;
    s.seconds = kAlphaBetaSeconds;
    allowed = &kAlphaBetaKeys;
  } else {
    reader.fail(fmt::format("unknown agent '{}'{}; expected one of: {}", kind, did_you_mean(kind, agent_kinds()),
                            fmt::join(agent_kinds(), ", ")));
  }
  if (colon == std::string::npos) return s;
  if (!allowed) reader.fail(fmt::format("agent '{}' takes no options", kind));

  std::set<std::string> seen;
  for (const std::string& item : split(spec.substr(colon + 1), ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) reader.fail(fmt::format("expected key=value, got '{}'", item));
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key.rfind(kAgentParamPrefix, 0) == 0) {
      if (key.size() == kAgentParamPrefix.size()) reader.fail(fmt::format("'{}' names no parameter", item));
      if (!seen.insert(key).second) reader.fail(fmt::format("key '{}' is given twice", key));
      continue; // the agent's own game parameters: see agent_game.hpp
    }
    if (std::find(allowed->begin(), allowed->end(), key) == allowed->end())
      reader.fail(fmt::format("unknown key '{}' for {}{}; allowed keys: {}, param.NAME", key, kind,
                              did_you_mean(key, *allowed), join(*allowed)));
    if (!seen.insert(key).second) reader.fail(fmt::format("key '{}' is given twice", key));
    if (key == "playouts")
      s.playouts = reader.integer(key, value, 1, uint64_t{1} << 53);
    else if (key == "time")
      s.seconds = reader.real(key, value, 0, 86400, true);
    else if (key == "leaf")
      s.leaf = static_cast<uint32_t>(reader.integer(key, value, 1, 1u << 20));
    else if (key == "batch")
      s.batch = static_cast<uint32_t>(reader.integer(key, value, 1, 1u << 16));
    else if (key == "inflight")
      s.in_flight = static_cast<uint32_t>(reader.integer(key, value, 1, 2));
    else if (key == "c")
      s.exploration = reader.real(key, value, 0, 100, false);
    else if (key == "roots")
      s.roots = static_cast<uint32_t>(reader.integer(key, value, 1, 1024));
    else if (key == "threads")
      s.threads = static_cast<uint32_t>(reader.integer(key, value, 0, 4096));
    else if (key == "device")
      s.device =
          reader.choice(key, value, {"cpu", "cuda"}) == "cuda" ? core::PlayoutDevice::cuda : core::PlayoutDevice::cpu;
    else if (key == "gpu")
      s.gpu = static_cast<int>(reader.integer(key, value, 0, 1023));
    else if (key == "nodes")
      s.max_nodes = reader.integer(key, value, 16, 0xfffffffeu);
    else if (key == "depth")
      s.depth = static_cast<uint32_t>(reader.integer(key, value, 1, 1000));
    else if (key == "tt_mb")
      s.tt_mb = reader.integer(key, value, 0, 4096);
    else if (key == "draw")
      s.draw_value = reader.real(key, value, 0, 1, false);
    else if (key == "leaf_value")
      read_leaf_value(reader, value, s);
    else if (key == "eval_unit")
      s.eval_unit = reader.real(key, value, 0, 1 << 24, true);
    else if (key == "evaluate")
      s.evaluate_children = reader.choice(key, value, {"leaf", "children"}) == "children";
    else
      s.reuse = reader.choice(key, value, {"true", "false"}) == "true";
  }
  if (seen.count("playouts") && seen.count("time")) reader.fail("give playouts or time, not both");
  if (seen.count("eval_unit") && s.leaf_value == core::LeafValue::playout)
    reader.fail("eval_unit scales the evaluation of leaves: give it with leaf_value=eval or cutoff:K");
  if (s.kind == core::AgentKind::alphabeta && seen.count("depth") && !seen.count("time")) s.seconds = 0;
  // A GPU launch per leaf leaves the device idle and the tree small, and the host's selections bound
  // the tree: these are the settings measured best on an H100 (docs/perf/othello.md).
  if (s.kind == core::AgentKind::uct && s.device == core::PlayoutDevice::cuda) {
    if (!seen.count("leaf") && s.leaf_value == core::LeafValue::playout) s.leaf = kCudaLeaf;
    if (!seen.count("batch")) s.batch = kCudaBatch;
    if (!seen.count("inflight")) s.in_flight = kCudaInFlight;
    if (!seen.count("evaluate")) s.evaluate_children = true;
  }
  return s;
}

std::vector<std::string> agent_param_assignments(const std::string& spec) {
  std::vector<std::string> out;
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return out;
  for (const std::string& item : split(spec.substr(colon + 1), ','))
    if (item.rfind(kAgentParamPrefix, 0) == 0) out.push_back(item.substr(kAgentParamPrefix.size()));
  return out;
}

} // namespace gsdk::host
