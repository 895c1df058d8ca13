// plugin.cpp - coin_runs.so's entry point: gsdk_negotiate, the one symbol the plugin exports.
#include "game.hpp"

GSDK_PLUGIN(coin_runs::Game, "1.0.0")
