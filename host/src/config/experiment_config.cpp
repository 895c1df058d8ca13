// experiment_config.cpp - an experiment file checked against its schema with file:line:column messages:
// the keys every experiment has here, its algorithm's own table by the algorithm (one of those handed in).
#include "config/experiment_config.hpp"

#include <filesystem>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "config/config_section.hpp"
#include "config/overrides.hpp"
#include "config/quoted_value.hpp"
#include "config/toml_reader.hpp"
#include "report/input_file.hpp"
#include "report/near_miss.hpp"

namespace gsdk::host {

namespace {

const IntegerKey kSeed{"seed", 1, 0, INT64_MAX, "the experiment's seed: results depend on (config, seed) only"};

const StringKey kDevice{"device", "auto", {"auto", "cpu", "cuda", "all"}, "where to run"};
const IntegerKey kThreads{"threads", 0, 0, 4096, "CPU worker threads (0: every hardware thread)"};
const IntegerKey kStreams{"streams", 2, 1, 64, "CUDA streams per GPU"};
const StringKey kSimd{"simd", "auto", {"auto", "avx512", "avx2", "scalar"}, "highest CPU instruction set"};

std::vector<std::string> names_of(const AlgorithmTables& algorithms) {
  std::vector<std::string> names;
  for (const AlgorithmTable* algorithm : algorithms) names.push_back(algorithm->info().name);
  return names;
}

const AlgorithmTable& read_algorithm(const ConfigSection& top, const std::string& name,
                                     const AlgorithmTables& algorithms) {
  for (const AlgorithmTable* algorithm : algorithms)
    if (algorithm->info().name == name) return *algorithm;
  const std::vector<std::string> names = names_of(algorithms);
  throw located_error(*top.node("algorithm"), fmt::format("'algorithm' is {}{}; expected one of: {}", quote_value(name),
                                                          did_you_mean(name, names), join_words(names)));
}

// The tables of the other algorithms do not apply; [run] does not apply to an algorithm that says so.
void refuse_foreign_tables(const ConfigSection& top, const AlgorithmTable& driver, const AlgorithmTables& algorithms) {
  const std::string& name = driver.info().name;
  for (const std::string& other : names_of(algorithms)) {
    if (other == name) continue;
    if (const toml::node* n = top.node(other))
      throw located_error(*n, fmt::format("[{}] applies to algorithm = \"{}\", not \"{}\"", other, other, name));
  }
  if (const toml::node* n = top.node("run"); n && !driver.info().no_run_table.empty())
    throw located_error(
        *n, fmt::format("[run] does not apply to algorithm = \"{}\": {}", name, driver.info().no_run_table));
}

constexpr size_t kMaxNameBytes = 200; // results/<name>.best.json and the like stay within a file name's 255

// What is wrong with `name` as the file name the results are saved under, or "" when nothing is.
std::string name_problem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (name == "." || name == "..") return "is a folder's name";
  if (name.find('/') != std::string::npos) return "contains '/'";
  for (const char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "contains a control character";
  if (name.size() > kMaxNameBytes) return fmt::format("is {} bytes long", name.size());
  return "";
}

// The value shown in a message: control characters escaped, a long one cut.
std::string shown(const std::string& value) {
  std::string text;
  for (const char c : value.substr(0, 60))
    text += static_cast<unsigned char>(c) < 0x20 || c == 0x7f
                ? fmt::format("\\x{:02x}", static_cast<unsigned>(static_cast<unsigned char>(c)))
                : std::string(1, c);
  return value.size() > 60 ? text + "..." : text;
}

// `name` names the results file (results/<name>.json), so it must be a file name, not a path: "../../x" would
// write outside results/, "" would write results/.json.
std::string read_name(const ConfigSection& top, const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  const std::string name = top.string("name", stem);
  const std::string problem = name_problem(name);
  if (problem.empty()) return name;
  const std::string expected = fmt::format("expected a file name: not empty, no '/', not '.' or '..', no control "
                                           "characters, at most {} bytes",
                                           kMaxNameBytes);
  if (const toml::node* n = top.node("name"))
    throw top.error(*n, "name", fmt::format("is \"{}\", which {}; {}", shown(name), problem, expected));
  throw ConfigError(fmt::format("{}: the experiment's name defaults to the file's stem \"{}\", which {}; set 'name' "
                                "to a file name",
                                file, shown(name), problem));
}

RunSettings read_run(const ConfigSection& r) {
  r.allow_only({"device", "threads", "gpus", "streams", "simd"});
  RunSettings run;
  run.device = *parse_device(r.get(kDevice)); // one of the key's choices, each a request's word
  run.threads = static_cast<unsigned>(r.get(kThreads));
  run.gpus = r.integer_list("gpus", 0, 1023);
  run.streams = static_cast<unsigned>(r.get(kStreams));
  run.simd = r.get(kSimd);
  return run;
}

ExperimentConfig validate(toml::table doc, const std::string& file, const AlgorithmTables& algorithms) {
  ExperimentConfig c;
  c.file = file;
  const ConfigSection top(doc, "the experiment's top level");
  std::vector<std::string> top_keys = {"game", "algorithm", "seed", "name", "params"};
  for (const std::string& name : names_of(algorithms)) top_keys.push_back(name);
  top_keys.insert(top_keys.end(), {"run", "output"});
  top.allow_only(top_keys);
  c.game = top.required_string("game");
  c.algorithm = top.required_string("algorithm");
  c.algorithm_where = top.node("algorithm")->source();
  const AlgorithmTable& driver = read_algorithm(top, c.algorithm, algorithms);
  c.seed = static_cast<uint64_t>(top.get(kSeed));
  c.name = read_name(top, file);
  if (top.table("params")) {
    // Moved, not copied: toml++ drops source locations when it copies a node, and parameter errors
    // are reported later against these nodes. The results file's copy in `raw` needs no locations.
    c.params = std::move(*doc["params"].as_table());
    doc.insert_or_assign("params", c.params);
  }

  refuse_foreign_tables(top, driver, algorithms);
  const AlgorithmInfo& info = driver.info();
  const toml::table* table = top.table(info.name);
  if (!table)
    throw ConfigError(
        located(doc.source(), fmt::format("missing required table [{}] for algorithm \"{}\"", info.name, info.name)));
  const ConfigSection section(*table, "[" + info.name + "]");
  section.allow_only(key_names(info.keys));
  const toml::table* output_table = top.table("output");
  std::optional<ConfigSection> output;
  if (output_table) output.emplace(*output_table, "[output]");
  c.settings = driver.read(section, output ? &*output : nullptr);

  if (const toml::table* run = top.table("run")) c.run = read_run(ConfigSection(*run, "[run]"));
  if (output) {
    std::vector<std::string> keys{"file", "plot", "events"};
    for (const std::string& key : key_names(info.output_keys)) keys.push_back(key);
    output->allow_only(keys);
    // An empty path asks for no file (as everywhere in [output]): never refused.
    const auto asks_for_a_file = [](const toml::node* n) { return n && n->value_or(std::string("?")) != ""; };
    if (const toml::node* n = output->node("plot"); asks_for_a_file(n) && !info.no_plot.empty())
      throw located_error(
          *n, fmt::format("[output] plot does not apply to algorithm = \"{}\": {}", info.name, info.no_plot));
    if (const toml::node* n = output->node("events"); asks_for_a_file(n) && !info.no_events.empty())
      throw located_error(
          *n, fmt::format("[output] events does not apply to algorithm = \"{}\": {}", info.name, info.no_events));
    c.output_file = output->string("file", "");
    c.plot_file = output->string("plot", "");
    c.events_file = output->string("events", "");
  }
  c.raw = std::move(doc);
  return c;
}

} // namespace

ExperimentConfig read_experiment_document(toml::table document, const std::string& source_name,
                                          const AlgorithmTables& algorithms) {
  return validate(std::move(document), source_name, algorithms);
}

ExperimentConfig read_experiment_text(const std::string& text, const std::string& source_name,
                                      const AlgorithmTables& algorithms, const std::vector<std::string>& overrides,
                                      const std::vector<OptionOverride>& options) {
  toml::table doc;
  try {
    doc = parse_toml(text, source_name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(located(e.source(), fmt::format("TOML syntax error: {}", e.description())));
  }
  for (size_t i = 0; i < overrides.size(); ++i) apply_override(doc, overrides[i], fmt::format("--set[{}]", i + 1));
  for (const OptionOverride& option : options) apply_override(doc, option.text, option.origin);
  return read_experiment_document(std::move(doc), source_name, algorithms);
}

ExperimentConfig read_experiment_file(const std::string& path, const AlgorithmTables& algorithms,
                                      const std::vector<std::string>& overrides,
                                      const std::vector<OptionOverride>& options) {
  // A folder opens and reads as empty, and a FIFO blocks: both are refused before reading.
  std::error_code ec;
  const auto kind = std::filesystem::status(path, ec).type();
  if (kind == std::filesystem::file_type::directory)
    throw ConfigError(fmt::format("{}: is a directory, expected a TOML experiment file", path));
  if (kind != std::filesystem::file_type::regular && kind != std::filesystem::file_type::not_found && !ec)
    throw ConfigError(fmt::format("{}: is not a regular file, expected a TOML experiment file", path));
  InputFile in = open_input_file(path);
  if (!in.failure.empty()) throw ConfigError(fmt::format("{}: cannot open the experiment file: {}", path, in.failure));
  std::stringstream text;
  text << in.stream.rdbuf();
  const std::string content = text.str();
  if (content.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ConfigError(fmt::format("{}: is empty, expected a TOML experiment file", path));
  if (const size_t nul = content.find('\0'); nul != std::string::npos)
    throw ConfigError(
        fmt::format("{}: is a binary file (a NUL byte at offset {}), expected a TOML experiment file", path, nul));
  return read_experiment_text(content, path, algorithms, overrides, options);
}

} // namespace gsdk::host
