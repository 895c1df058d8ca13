// plugin.cpp - snake.so's entry point.
#include "snake_game.hpp"

GSDK_PLUGIN(snake::Game, "1.0.0")
