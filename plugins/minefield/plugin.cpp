// plugin.cpp - minefield.so's entry point.
#include "minefield_game.hpp"

GSDK_PLUGIN(minefield::Game, "1.0.0")
