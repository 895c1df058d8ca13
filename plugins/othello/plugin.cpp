// plugin.cpp - othello.so's entry point.
#include "othello_game.hpp"

GSDK_PLUGIN(othello::Game, "1.0.0")
