// experiment_config.cpp - schema checks for experiment files with file:line:column messages.
#include "experiment_config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "agent_spec.hpp"
#include "best_sequence_file.hpp"

namespace gsdk::host {

std::string located(const toml::source_region& where, const std::string& message) {
  const std::string file = where.path ? *where.path : std::string("<config>");
  return fmt::format("{}:{}:{}: {}", file, where.begin.line, where.begin.column, message);
}

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

const char* type_name(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::string: return "a string";
  case toml::node_type::integer: return "an integer";
  case toml::node_type::floating_point: return "a floating-point number";
  case toml::node_type::boolean: return "a boolean";
  case toml::node_type::table: return "a table";
  case toml::node_type::array: return "an array";
  default: return "a date/time";
  }
}

// Walks one table, refusing keys outside `allowed` and reading typed values with located errors.
class Section {
public:
  Section(const toml::table& table, std::string label) : table_(table), label_(std::move(label)) {}

  void allow_only(const std::vector<std::string>& allowed) const {
    for (const auto& [key, node] : table_) {
      if (std::find(allowed.begin(), allowed.end(), std::string(key.str())) != allowed.end()) continue;
      throw ConfigError(located(key.source(), fmt::format("unknown key '{}' in {}; valid keys: {}", key.str(), label_,
                                                          join(allowed))));
    }
  }

  const toml::node* node(const std::string& key) const { return table_.get(key); }

  std::string string(const std::string& key, const std::string& fallback, const std::vector<std::string>& choices = {}) const {
    const toml::node* n = node(key);
    if (!n) return fallback;
    if (!n->is_string()) throw error(*n, key, fmt::format("must be a string, got {}", type_name(*n)));
    const std::string value = n->as_string()->get();
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value) == choices.end())
      throw error(*n, key, fmt::format("is \"{}\"; expected one of: {}", value, join(choices)));
    return value;
  }

  bool boolean(const std::string& key, bool fallback) const {
    const toml::node* n = node(key);
    if (!n) return fallback;
    if (!n->is_boolean()) throw error(*n, key, fmt::format("must be true or false, got {}", type_name(*n)));
    return n->as_boolean()->get();
  }

  std::string required_string(const std::string& key) const {
    if (!node(key))
      throw ConfigError(located(table_.source(), fmt::format("missing required key '{}' in {}", key, label_)));
    return string(key, "");
  }

  // Integers; a float is accepted when it is integral (so `count = 1e9` works).
  int64_t integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) const {
    const toml::node* n = node(key);
    if (!n) return fallback;
    int64_t value = 0;
    if (n->is_integer()) {
      value = n->as_integer()->get();
    } else if (n->is_floating_point() && std::floor(n->as_floating_point()->get()) == n->as_floating_point()->get() &&
               std::abs(n->as_floating_point()->get()) < 9.2e18) {
      value = static_cast<int64_t>(n->as_floating_point()->get());
    } else {
      throw error(*n, key, fmt::format("must be an integer, got {}", type_name(*n)));
    }
    if (value < min || value > max)
      throw error(*n, key, fmt::format("= {} is out of range [{}, {}]", value, min, max));
    return value;
  }

  // A real number in [min, max]; integers are accepted.
  double real(const std::string& key, double fallback, double min, double max) const {
    const toml::node* n = node(key);
    if (!n) return fallback;
    double value = 0;
    if (n->is_floating_point())
      value = n->as_floating_point()->get();
    else if (n->is_integer())
      value = static_cast<double>(n->as_integer()->get());
    else
      throw error(*n, key, fmt::format("must be a number, got {}", type_name(*n)));
    if (!(value >= min && value <= max)) throw error(*n, key, fmt::format("= {} is out of range [{}, {}]", value, min, max));
    return value;
  }

  std::vector<int> integer_list(const std::string& key, int min, int max) const {
    const toml::node* n = node(key);
    if (!n) return {};
    if (!n->is_array()) throw error(*n, key, fmt::format("must be an array of integers, got {}", type_name(*n)));
    std::vector<int> out;
    for (const auto& item : *n->as_array()) {
      if (!item.is_integer()) throw error(item, key, fmt::format("entries must be integers, got {}", type_name(item)));
      const int64_t v = item.as_integer()->get();
      if (v < min || v > max) throw error(item, key, fmt::format("entry {} is out of range [{}, {}]", v, min, max));
      out.push_back(static_cast<int>(v));
    }
    return out;
  }

  void require(const std::string& key) const {
    if (!node(key))
      throw ConfigError(located(table_.source(), fmt::format("missing required key '{}' in {}", key, label_)));
  }

  // A leaf count: a non-negative integer, or a decimal string for counts beyond TOML's 64-bit integers.
  core::uint128 count(const std::string& key) const {
    const toml::node& n = *node(key);
    if (n.is_integer() && n.as_integer()->get() >= 0) return static_cast<core::uint128>(n.as_integer()->get());
    if (n.is_integer()) throw error(n, key, fmt::format("= {} is negative", n.as_integer()->get()));
    if (!n.is_string())
      throw error(n, key, fmt::format("must be an integer or a decimal string, got {}", type_name(n)));
    const std::string& text = n.as_string()->get();
    const core::uint128 max = ~core::uint128{0};
    core::uint128 value = 0;
    for (char ch : text) {
      const unsigned digit = static_cast<unsigned>(ch - '0');
      if (digit > 9 || value > (max - digit) / 10)
        throw error(n, key, fmt::format("is \"{}\"; expected the decimal digits of a count below 2^128", text));
      value = value * 10 + digit;
    }
    if (text.empty()) throw error(n, key, "is an empty string; expected decimal digits");
    return value;
  }

  const toml::table* table(const std::string& key) const {
    const toml::node* n = node(key);
    if (!n) return nullptr;
    if (!n->is_table()) throw error(*n, key, fmt::format("must be a table ([{}]), got {}", key, type_name(*n)));
    return n->as_table();
  }

private:
  ConfigError error(const toml::node& n, const std::string& key, const std::string& what) const {
    return ConfigError(located(n.source(), fmt::format("'{}' in {} {}", key, label_, what)));
  }

  const toml::table& table_;
  std::string label_;
};

// "a.b=value": value parsed as TOML, or taken as a string when it is not valid TOML. The value and
// the keys it creates carry the location "--set[N]:1:column" (columns of the override's own text), so
// an error in an override is located like an error in the file.
void apply_override(toml::table& doc, const std::string& text, size_t index) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(fmt::format("--set \"{}\": expected key=value, e.g. playouts.count=1000", text));
  const std::string path = text.substr(0, eq);
  const std::string value_text = text.substr(eq + 1);
  const std::string source = fmt::format("--set[{}]", index + 1);
  // "v" padded to the key's width puts the value at the column it has in `text`.
  std::string prefix(eq + 1, ' ');
  prefix.front() = 'v';
  prefix.back() = '=';
  toml::table parsed;
  try {
    parsed = toml::parse(prefix + value_text, source);
  } catch (const toml::parse_error&) {
    std::string quoted = "\"";
    for (char ch : value_text) quoted += (ch == '"' || ch == '\\') ? std::string("\\") + ch : std::string(1, ch);
    try {
      parsed = toml::parse(prefix + quoted + "\"", source);
    } catch (const toml::parse_error&) {
      parsed = toml::table{{"v", value_text}};
    }
  }
  toml::table* target = &doc;
  std::vector<std::string> keys;
  std::vector<toml::source_region> key_sources;
  for (size_t begin = 0;;) {
    const size_t end = std::min(path.find('.', begin), path.size());
    keys.push_back(path.substr(begin, end - begin));
    toml::source_region where;
    where.begin = where.end = {1, static_cast<toml::source_index>(begin + 1)};
    where.path = std::make_shared<const std::string>(source);
    key_sources.push_back(std::move(where));
    if (end == path.size()) break;
    begin = end + 1;
  }
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    toml::node* child = target->get(keys[i]);
    if (!child) {
      target->insert(toml::key(keys[i], key_sources[i]), toml::table{});
      child = target->get(keys[i]);
    }
    if (!child->is_table())
      throw ConfigError(fmt::format("--set \"{}\": '{}' is not a table", text, keys[i]));
    target = child->as_table();
  }
  target->insert_or_assign(toml::key(keys.back(), key_sources.back()), std::move(*parsed.get("v")));
}

ConfigError located_error(const toml::node& n, const std::string& message) {
  return ConfigError(located(n.source(), message));
}

void refuse_other_sections(const Section& top, const std::string& algorithm) {
  for (const char* section : {"playouts", "perft", "qlearning", "match", "nmcs", "nrpa"}) {
    if (section == algorithm) continue;
    if (const toml::node* n = top.node(section))
      throw located_error(*n, fmt::format("[{}] applies to algorithm = \"{}\", not \"{}\"", section, section, algorithm));
  }
}

void read_playouts(const Section& top, const toml::table& doc, ExperimentConfig& c) {
  refuse_other_sections(top, "playouts");
  const toml::table* playouts = top.table("playouts");
  if (!playouts)
    throw ConfigError(located(doc.source(), "missing required table [playouts] for algorithm \"playouts\""));
  const Section pl(*playouts, "[playouts]");
  pl.allow_only({"count", "start_state", "engine"});
  if (!pl.node("count")) throw ConfigError(located(playouts->source(), "missing required key 'count' in [playouts]"));
  c.playouts = static_cast<uint64_t>(pl.integer("count", 0, 1, int64_t{1} << 53));
  if (pl.node("start_state")) c.start_state = pl.string("start_state", "");
  c.engine = pl.string("engine", "batch", {"batch", "generic"});
}

PerftPosition read_position(const toml::table& entry, size_t index) {
  const Section s(entry, fmt::format("[[perft.positions]] entry {}", index + 1));
  s.allow_only({"name", "position", "depth", "expect"});
  PerftPosition p;
  p.position = s.required_string("position");
  p.where = s.node("position")->source();
  s.require("depth");
  p.depth = static_cast<uint32_t>(s.integer("depth", 0, 0, 64));
  p.name = s.string("name", p.position);
  if (s.node("expect")) p.expect = s.count("expect");
  return p;
}

void read_perft(const Section& top, const toml::table& doc, ExperimentConfig& c) {
  refuse_other_sections(top, "perft");
  const toml::table* perft = top.table("perft");
  if (!perft) throw ConfigError(located(doc.source(), "missing required table [perft] for algorithm \"perft\""));
  const Section p(*perft, "[perft]");
  p.allow_only({"divide", "engine", "positions"});
  c.perft.divide = p.boolean("divide", false);
  c.perft.engine = p.string("engine", "batch", {"batch", "generic"});
  const toml::node* list = p.node("positions");
  if (!list)
    throw ConfigError(located(perft->source(), "missing required key 'positions' in [perft]: add a "
                                               "[[perft.positions]] table per position"));
  if (!list->is_array())
    throw located_error(*list, fmt::format("'positions' in [perft] must be an array of tables ([[perft.positions]]), "
                                           "got {}", type_name(*list)));
  if (list->as_array()->empty()) throw located_error(*list, "'positions' in [perft] needs at least one position");
  for (const toml::node& item : *list->as_array()) {
    if (!item.is_table())
      throw located_error(item, fmt::format("'positions' in [perft] must hold tables, got {}", type_name(item)));
    c.perft.positions.push_back(read_position(*item.as_table(), c.perft.positions.size()));
  }
}

void read_qlearning(const Section& top, const toml::table& doc, ExperimentConfig& c) {
  refuse_other_sections(top, "qlearning");
  const toml::table* table = top.table("qlearning");
  if (!table) throw ConfigError(located(doc.source(), "missing required table [qlearning] for algorithm \"qlearning\""));
  const Section q(*table, "[qlearning]");
  q.allow_only({"environments", "episodes", "alpha", "gamma", "epsilon_start", "epsilon_end", "epsilon_decay",
                "tie_break", "update", "q_table", "test_episodes", "engine"});
  QLearningConfig& ql = c.qlearning;
  constexpr int64_t kMaxEnvironments = 1 << 22;
  if (const toml::node* n = q.node("environments"); n && n->is_array()) {
    const std::vector<int> sizes = q.integer_list("environments", 1, kMaxEnvironments);
    if (sizes.empty()) throw located_error(*n, "'environments' in [qlearning] needs at least one entry");
    ql.environments.assign(sizes.begin(), sizes.end());
  } else {
    ql.environments = {static_cast<uint32_t>(q.integer("environments", 1, 1, kMaxEnvironments))};
  }
  core::QLearningSettings& st = ql.settings;
  st.episodes = static_cast<uint32_t>(q.integer("episodes", st.episodes, 1, 10000000));
  st.alpha = static_cast<float>(q.real("alpha", st.alpha, 0.0, 1.0));
  st.gamma = static_cast<float>(q.real("gamma", st.gamma, 0.0, 1.0));
  st.epsilon_start = q.real("epsilon_start", st.epsilon_start, 0.0, 1.0);
  st.epsilon_end = q.real("epsilon_end", st.epsilon_end, 0.0, 1.0);
  st.epsilon_decay = q.real("epsilon_decay", st.epsilon_decay, 0.0, 1.0);
  st.first_max_ties = q.string("tie_break", "random", {"random", "first"}) == "first";
  st.atomic_updates = q.string("update", "deterministic", {"deterministic", "atomic"}) == "atomic";
  st.shared_table = q.string("q_table", "per_environment", {"per_environment", "shared"}) == "shared";
  st.test_episodes = static_cast<uint32_t>(q.integer("test_episodes", st.test_episodes, 0, 1000000));
  ql.generic = q.string("engine", "batch", {"batch", "generic"}) == "generic";
}

void read_match(const Section& top, const toml::table& doc, ExperimentConfig& c) {
  refuse_other_sections(top, "match");
  if (const toml::node* n = top.node("run"))
    throw located_error(*n, "[run] does not apply to algorithm = \"match\": each agent spec names its device "
                            "(e.g. \"uct:playouts=10000,device=cuda\")");
  const toml::table* table = top.table("match");
  if (!table) throw ConfigError(located(doc.source(), "missing required table [match] for algorithm \"match\""));
  const Section m(*table, "[match]");
  m.allow_only({"games", "agents", "record", "opening_plies", "parallel"});
  m.require("games");
  c.match.games = static_cast<uint32_t>(m.integer("games", 0, 1, kMaxMatchGames));
  m.require("agents");
  const toml::node* agents = m.node("agents");
  if (!agents->is_array() || agents->as_array()->size() != 2)
    throw located_error(*agents, "'agents' in [match] must be an array of two agent specs, e.g. [\"uct:playouts=10000\", "
                                 "\"random\"] (A, then B)");
  for (size_t i = 0; i < 2; ++i) {
    const toml::node& spec = *agents->as_array()->get(i);
    if (!spec.is_string())
      throw located_error(spec, fmt::format("'agents' in [match] must hold strings (agent specs), got {}", type_name(spec)));
    c.match.specs[i] = spec.as_string()->get();
    try {
      c.match.agents[i] = parse_agent_spec(c.match.specs[i]);
    } catch (const AgentSpecError& e) {
      throw located_error(spec, e.what());
    }
  }
  c.match.record_file = m.string("record", "");
  c.match.opening_plies = static_cast<uint32_t>(m.integer("opening_plies", 0, 0, kMaxOpeningPlies));
  c.match.parallel = static_cast<uint32_t>(m.integer("parallel", 1, 1, kMaxParallelGames));
}

// Where both searches share a key, they share its meaning and range.
core::SearchBudget read_budget(const Section& s) {
  core::SearchBudget budget;
  budget.time_seconds = s.real("time_seconds", 0, 0, 1e7);
  budget.restarts = static_cast<uint32_t>(s.integer("restarts", 0, 0, UINT32_MAX - 1));
  budget.searches_in_parallel = static_cast<uint32_t>(s.integer("searches_in_parallel", 1, 1, 1 << 22));
  if (s.node("stop_at_score")) budget.stop_at_score = s.integer("stop_at_score", 0, INT64_MIN, INT64_MAX);
  return budget;
}

// [nmcs] start_moves (a list of moves), start_from (a best-sequence file whose moves to play first) or
// starts_from (a JSON Lines file of sequences, e.g. an earlier run's [output] searches: one start each).
std::vector<std::vector<uint32_t>> read_starts(const Section& s) {
  const std::string keys[] = {"start_moves", "start_from", "starts_from"};
  const std::string* given = nullptr;
  for (const std::string& key : keys) {
    const toml::node* node = s.node(key);
    if (!node) continue;
    if (given)
      throw ConfigError(located(node->source(), fmt::format("[nmcs] takes one of 'start_moves', 'start_from' and "
                                                            "'starts_from', not both '{}' and '{}'",
                                                            *given, key)));
    given = &key;
  }
  if (!given) return {};
  if (*given == "start_moves") {
    const std::vector<int> moves = s.integer_list("start_moves", 0, std::numeric_limits<int>::max());
    return {{moves.begin(), moves.end()}};
  }
  const std::string path = s.string(*given, "");
  try {
    if (*given == "start_from") return {read_best_moves(path)};
    return read_sequence_lines(path);
  } catch (const std::runtime_error& e) {
    throw ConfigError(located(s.node(*given)->source(), fmt::format("'{}' in [nmcs]: {}", *given, e.what())));
  }
}

void read_nested_search(const Section& top, const toml::table& doc, ExperimentConfig& c) {
  refuse_other_sections(top, c.algorithm);
  const toml::table* table = top.table(c.algorithm);
  if (!table)
    throw ConfigError(located(doc.source(), fmt::format("missing required table [{}] for algorithm \"{}\"", c.algorithm,
                                                        c.algorithm)));
  const Section s(*table, "[" + c.algorithm + "]");
  if (c.algorithm == "nmcs") {
    s.allow_only({"level", "time_seconds", "restarts", "searches_in_parallel", "stop_at_score", "engine", "pipeline",
                  "cpu_level1_searches", "device_level", "start_moves", "start_from", "starts_from",
                  "skip_finished_starts"});
    c.nested.nmcs.starts = read_starts(s);
    c.nested.nmcs.skip_finished_starts = s.boolean("skip_finished_starts", false);
    c.nested.nmcs.level = static_cast<uint32_t>(s.integer("level", 1, 1, 16));
    c.nested.nmcs.budget = read_budget(s);
    c.nested.nmcs.pipeline = s.boolean("pipeline", true);
    c.nested.cpu_level1_searches = s.boolean("cpu_level1_searches", false);
    c.nested.nmcs_device_level = static_cast<uint32_t>(s.integer("device_level", 1, 1, 2));
    c.nested.generic = s.string("engine", "batch", {"batch", "generic"}) == "generic";
    return;
  }
  s.allow_only({"level", "iterations", "alpha", "time_seconds", "restarts", "searches_in_parallel", "stop_at_score",
                "device_level"});
  c.nested.nrpa.level = static_cast<uint32_t>(s.integer("level", 1, 1, 16));
  c.nested.nrpa.iterations = static_cast<uint32_t>(s.integer("iterations", 100, 1, 1000000));
  c.nested.nrpa.alpha = s.real("alpha", 1.0, 0.0, 100.0);
  c.nested.nrpa.budget = read_budget(s);
  c.nested.nrpa_device_level = static_cast<uint32_t>(s.integer("device_level", 2, 1, 16));
}

ExperimentConfig validate(toml::table doc, const std::string& file) {
  ExperimentConfig c;
  c.file = file;
  const Section top(doc, "the experiment's top level");
  top.allow_only({"game", "algorithm", "seed", "name", "params", "playouts", "perft", "qlearning", "match", "nmcs",
                  "nrpa", "run", "output"});
  c.game = top.required_string("game");
  c.algorithm = top.required_string("algorithm");
  const std::vector<std::string> algorithms = {"playouts", "perft", "qlearning", "match", "nmcs", "nrpa"};
  if (std::find(algorithms.begin(), algorithms.end(), c.algorithm) == algorithms.end()) {
    const toml::node* n = top.node("algorithm");
    throw ConfigError(located(n->source(), fmt::format("'algorithm' is \"{}\"; expected one of: {}", c.algorithm,
                                                       join(algorithms))));
  }
  c.seed = static_cast<uint64_t>(top.integer("seed", 1, 0, INT64_MAX));
  c.name = top.string("name", std::filesystem::path(file).stem().string());
  if (top.table("params")) {
    // Moved, not copied: toml++ drops source locations when it copies a node, and parameter errors
    // are reported later against these nodes. The results file's copy in `raw` needs no locations.
    c.params = std::move(*doc["params"].as_table());
    doc.insert_or_assign("params", c.params);
  }

  if (c.algorithm == "perft")
    read_perft(top, doc, c);
  else if (c.algorithm == "qlearning")
    read_qlearning(top, doc, c);
  else if (c.algorithm == "match")
    read_match(top, doc, c);
  else if (c.algorithm == "nmcs" || c.algorithm == "nrpa")
    read_nested_search(top, doc, c);
  else
    read_playouts(top, doc, c);

  if (const toml::table* run = top.table("run")) {
    const Section r(*run, "[run]");
    r.allow_only({"device", "threads", "gpus", "streams", "simd"});
    c.run.device = r.string("device", "auto", {"auto", "cpu", "cuda", "all"});
    c.run.threads = static_cast<unsigned>(r.integer("threads", 0, 0, 4096));
    c.run.gpus = r.integer_list("gpus", 0, 1023);
    c.run.streams = static_cast<unsigned>(r.integer("streams", 2, 1, 64));
    c.run.simd = r.string("simd", "auto", {"auto", "avx512", "avx2", "scalar"});
  }
  if (const toml::table* out = top.table("output")) {
    const Section o(*out, "[output]");
    std::vector<std::string> keys{"file", "plot", "events"};
    if (c.algorithm == "nmcs" || c.algorithm == "nrpa") keys.push_back("best");
    if (c.algorithm == "nmcs") keys.insert(keys.end(), {"searches", "searches_kept"});
    o.allow_only(keys);
    c.output_file = o.string("file", "");
    c.plot_file = o.string("plot", "");
    c.events_file = o.string("events", "");
    c.best_file = o.string("best", "");
    c.searches_file = o.string("searches", "");
    c.searches_kept = static_cast<uint32_t>(o.integer("searches_kept", 1000, 1, 1 << 24));
  }
  c.raw = std::move(doc);
  return c;
}

} // namespace

ExperimentConfig parse_experiment(const std::string& text, const std::string& source_name,
                                  const std::vector<std::string>& overrides) {
  toml::table doc;
  try {
    doc = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(located(e.source(), fmt::format("TOML syntax error: {}", e.description())));
  }
  for (size_t i = 0; i < overrides.size(); ++i) apply_override(doc, overrides[i], i);
  return validate(std::move(doc), source_name);
}

ExperimentConfig load_experiment(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot open the experiment file", path));
  std::stringstream text;
  text << in.rdbuf();
  return parse_experiment(text.str(), path, overrides);
}

} // namespace gsdk::host
