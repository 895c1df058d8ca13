// plugin.cpp - connect_four.so's entry point: gsdk_negotiate, the one symbol the plugin exports.
#include "game.hpp"

GSDK_PLUGIN(connect_four::Game, "1.0.0")
