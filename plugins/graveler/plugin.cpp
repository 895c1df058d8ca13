// plugin.cpp - graveler.so's entry point.
#include "graveler_game.hpp"

GSDK_PLUGIN(graveler::Game, "1.0.0")
