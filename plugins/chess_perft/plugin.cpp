// plugin.cpp - chess_perft.so's entry point.
#include "chess_game.hpp"

GSDK_PLUGIN(chess::Game, "1.0.0")
