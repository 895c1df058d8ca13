// engine_choice.hpp - the `engine` key of [perft], [playouts], [nmcs] and [qlearning]: the plugin's batch tables, or
// the per-state rules through the core's generic code (the reference). Its word is read once, with the table; the
// drivers test the enum.
#pragma once

#include "config/config_keys.hpp"
#include "config/config_section.hpp"

namespace gsdk::host {

enum class Engine { batch, generic };

// The key, described by its algorithm (`doc` says what either engine runs there).
inline StringKey engine_key(const char* doc) {
  return {"engine", "batch", {"batch", "generic"}, doc};
}

// The engine `key` (an engine_key) asks for in `section`.
inline Engine read_engine(const ConfigSection& section, const StringKey& key) {
  return section.get(key) == "generic" ? Engine::generic : Engine::batch;
}

// Its word, as the results file and the report give it.
inline const char* engine_name(Engine engine) {
  return engine == Engine::generic ? "generic" : "batch";
}

} // namespace gsdk::host
