/* broken_plugin.c - hand-written C plugins that are wrong in exactly one way, for the ABI tests.
 * Built once per case with BROKEN_CASE set (see CMakeLists.txt); each case is named after what the
 * host must refuse:
 *   BROKEN_NO_ENTRY      exports no gsdk_negotiate at all
 *   BROKEN_ABI99         speaks ABI major 99 and refuses the host's range, naming both versions
 *   BROKEN_CLAIMS_ABI2   accepts, but answers that it picked ABI 2.7
 *   BROKEN_NO_GAME       has no gsdk.game.v1 table
 *   BROKEN_WRONG_TAG     its game table carries the CPU playout table's type tag
 *   BROKEN_SHORT_TABLE   its game table's header says it is 16 bytes
 *   BROKEN_NO_NAME       answers with an empty plugin name
 */
#include <stdio.h>
#include <string.h>

#include "gsdk/gsdk_plugin.h"

#define BROKEN_NO_ENTRY 1
#define BROKEN_ABI99 2
#define BROKEN_CLAIMS_ABI2 3
#define BROKEN_NO_GAME 4
#define BROKEN_WRONG_TAG 5
#define BROKEN_SHORT_TABLE 6
#define BROKEN_NO_NAME 7

#if BROKEN_CASE == BROKEN_NO_ENTRY

GSDK_EXPORT int32_t gsdk_negotiate_v0(void) { return 0; } /* close, but not the entry point */

#else

static gsdk_game game_table;

static const void* get_proc(const char* name) {
  if (!name || strcmp(name, GSDK_TABLE_GAME) != 0) return NULL;
#if BROKEN_CASE == BROKEN_NO_GAME
  return NULL;
#else
  game_table.header.type = GSDK_TYPE_GAME;
  game_table.header.size = sizeof(gsdk_game);
#if BROKEN_CASE == BROKEN_WRONG_TAG
  game_table.header.type = GSDK_TYPE_CPU_PLAYOUTS;
#elif BROKEN_CASE == BROKEN_SHORT_TABLE
  game_table.header.size = 16;
#endif
  game_table.name = "broken";
  return &game_table;
#endif
}

GSDK_EXPORT int32_t gsdk_negotiate(const gsdk_negotiation* request, gsdk_plugin_info* info, char* error,
                                   uint32_t error_size) {
#if BROKEN_CASE == BROKEN_ABI99
  (void)info;
  if (request->abi_major_min > 99 || request->abi_major_max < 99) {
    snprintf(error, error_size, "plugin 'abi99' speaks gsdk ABI 99.0 but the host accepts majors %u..%u",
             (unsigned)request->abi_major_min, (unsigned)request->abi_major_max);
    return GSDK_ERR_VERSION;
  }
#endif
  (void)request;
  (void)error;
  (void)error_size;
  info->header.type = GSDK_TYPE_PLUGIN_INFO;
  info->abi_major = GSDK_ABI_MAJOR;
  info->abi_minor = GSDK_ABI_MINOR;
#if BROKEN_CASE == BROKEN_CLAIMS_ABI2
  info->abi_major = 2;
  info->abi_minor = 7;
#endif
  info->plugin_name = BROKEN_NAME;
#if BROKEN_CASE == BROKEN_NO_NAME
  info->plugin_name = "";
#endif
  info->plugin_version = "0.0.1";
  info->get_proc = &get_proc;
  return GSDK_OK;
}

#endif
