/* gsdk_plugin.h - the stable C ABI between the gsdk host and a game plugin.
 *
 * Rules (see docs/ABI_CHANGES.md for the history):
 *  - One frozen entry symbol, gsdk_negotiate. The host offers the range of ABI majors it accepts and
 *    its services; the plugin picks one or refuses with a message naming both sides.
 *  - Everything else is reached through named, append-only capability tables (get_proc). Every table
 *    starts with gsdk_header {type, size}; fields are only appended within a major version and a reader
 *    uses a field only when header.size covers it. An incompatible change gets a new table name.
 *  - Only C types cross: fixed-width integers, doubles, const char* to static storage, opaque handles,
 *    CUDA streams as void*. No enums as field types, no bool, no C++ types, no exceptions.
 *  - Errors are values: functions that can fail return GSDK_OK or an error code and write a message
 *    into a caller-owned buffer. Whoever allocates frees.
 *  - Game states are POD blobs of state_size bytes: memcpy-able, no pointers.
 */
#ifndef GSDK_PLUGIN_H
#define GSDK_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version: a plugin speaks exactly one major; minors only append. */
#define GSDK_ABI_MAJOR 1u
#define GSDK_ABI_MINOR 13u

#define GSDK_ENTRY_SYMBOL "gsdk_negotiate"

#if defined(_WIN32)
#define GSDK_EXPORT __declspec(dllexport)
#else
#define GSDK_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes. */
#define GSDK_OK 0
#define GSDK_ERR_INVALID_ARGUMENT 1
#define GSDK_ERR_UNSUPPORTED 2
#define GSDK_ERR_OUT_OF_MEMORY 3
#define GSDK_ERR_DEVICE 4
#define GSDK_ERR_INTERNAL 5
#define GSDK_ERR_VERSION 6

/* Struct type tags (gsdk_header.type). */
#define GSDK_TYPE_HOST_SERVICES 0x47530001u
#define GSDK_TYPE_NEGOTIATION 0x47530002u
#define GSDK_TYPE_PLUGIN_INFO 0x47530003u
#define GSDK_TYPE_GAME 0x47530004u
#define GSDK_TYPE_PLAYOUT_REQUEST 0x47530005u
#define GSDK_TYPE_PLAYOUT_SUMMARY 0x47530006u
#define GSDK_TYPE_CPU_PLAYOUTS 0x47530007u
#define GSDK_TYPE_CUDA_PLAYOUTS 0x47530008u
#define GSDK_TYPE_REPLAY 0x47530009u
#define GSDK_TYPE_SCORE_DISTRIBUTION 0x4753000au
#define GSDK_TYPE_CPU_PERFT 0x4753000bu   /* ABI 1.1 */
#define GSDK_TYPE_CUDA_PERFT 0x4753000cu  /* ABI 1.1 */
#define GSDK_TYPE_ENVIRONMENT 0x4753000du      /* ABI 1.2 */
#define GSDK_TYPE_QLEARNING_REQUEST 0x4753000eu /* ABI 1.2 */
#define GSDK_TYPE_CPU_QLEARNING 0x4753000fu    /* ABI 1.2 */
#define GSDK_TYPE_CUDA_QLEARNING 0x47530010u   /* ABI 1.2 */
#define GSDK_TYPE_RENDER 0x47530011u           /* ABI 1.2 */
#define GSDK_TYPE_CUDA_PLAYOUT_BATCHES 0x47530012u /* ABI 1.3 */
#define GSDK_TYPE_MOVE_CODES 0x47530013u           /* ABI 1.4 */
#define GSDK_TYPE_CUDA_LEVEL1_SEARCHES 0x47530014u /* ABI 1.4 */
#define GSDK_TYPE_CUDA_NRPA_SEARCHES 0x47530015u   /* ABI 1.5 */
#define GSDK_TYPE_CUDA_LEVEL2_SEARCHES 0x47530016u /* ABI 1.5 */
#define GSDK_TYPE_EXACT_STATES 0x47530017u         /* ABI 1.7 */
#define GSDK_TYPE_SEQUENCE_DOCUMENTS 0x47530018u   /* ABI 1.9 */
#define GSDK_TYPE_EVALUATION 0x47530019u           /* ABI 1.10 */
#define GSDK_TYPE_OBSERVATIONS 0x4753001au         /* ABI 1.11 */
#define GSDK_TYPE_BATCHED_STEPS 0x4753001bu        /* ABI 1.11 */
#define GSDK_TYPE_PERFT_KEYS 0x4753001cu           /* ABI 1.12 */

/* Capability table names for get_proc. */
#define GSDK_TABLE_GAME "gsdk.game.v1"
#define GSDK_TABLE_CPU_PLAYOUTS "gsdk.cpu_playouts.v1"
#define GSDK_TABLE_CUDA_PLAYOUTS "gsdk.cuda_playouts.v1"
#define GSDK_TABLE_REPLAY "gsdk.replay.v1"
#define GSDK_TABLE_SCORE_DISTRIBUTION "gsdk.score_distribution.v1"
#define GSDK_TABLE_CPU_PERFT "gsdk.cpu_perft.v1"   /* ABI 1.1 */
#define GSDK_TABLE_CUDA_PERFT "gsdk.cuda_perft.v1" /* ABI 1.1 */
#define GSDK_TABLE_ENVIRONMENT "gsdk.environment.v1"     /* ABI 1.2 */
#define GSDK_TABLE_CPU_QLEARNING "gsdk.cpu_qlearning.v1" /* ABI 1.2 */
#define GSDK_TABLE_CUDA_QLEARNING "gsdk.cuda_qlearning.v1" /* ABI 1.2 */
#define GSDK_TABLE_RENDER "gsdk.render.v1"               /* ABI 1.2 */
#define GSDK_TABLE_CUDA_PLAYOUT_BATCHES "gsdk.cuda_playout_batches.v1" /* ABI 1.3 */
#define GSDK_TABLE_MOVE_CODES "gsdk.move_codes.v1"                   /* ABI 1.4 */
#define GSDK_TABLE_CUDA_LEVEL1_SEARCHES "gsdk.cuda_level1_searches.v1" /* ABI 1.4 */
#define GSDK_TABLE_CUDA_NRPA_SEARCHES "gsdk.cuda_nrpa_searches.v1"     /* ABI 1.5 */
#define GSDK_TABLE_CUDA_LEVEL2_SEARCHES "gsdk.cuda_level2_searches.v1" /* ABI 1.5 */
#define GSDK_TABLE_EXACT_STATES "gsdk.exact_states.v1"                 /* ABI 1.7 */
#define GSDK_TABLE_SEQUENCE_DOCUMENTS "gsdk.sequence_documents.v1"     /* ABI 1.9 */
#define GSDK_TABLE_EVALUATION "gsdk.evaluation.v1"                     /* ABI 1.10 */
#define GSDK_TABLE_OBSERVATIONS "gsdk.observations.v1"                 /* ABI 1.11 */
#define GSDK_TABLE_BATCHED_STEPS "gsdk.batched_steps.v1"               /* ABI 1.11 */
#define GSDK_TABLE_PERFT_KEYS "gsdk.perft_keys.v1"                     /* ABI 1.12 */

typedef struct gsdk_header {
  uint32_t type;
  uint32_t size; /* sizeof the struct as its writer knew it */
} gsdk_header;

/* ---- negotiation ------------------------------------------------------------------------------ */

#define GSDK_LOG_DEBUG 0
#define GSDK_LOG_INFO 1
#define GSDK_LOG_WARNING 2
#define GSDK_LOG_ERROR 3

typedef struct gsdk_host_services {
  gsdk_header header;
  void* host_context;
  void (*log)(void* host_context, int32_t level, const char* message);
} gsdk_host_services;

typedef struct gsdk_negotiation {
  gsdk_header header;
  uint32_t abi_major_min; /* the host accepts plugins speaking any major in [min, max] */
  uint32_t abi_major_max;
  const gsdk_host_services* services;
} gsdk_negotiation;

typedef struct gsdk_plugin_info {
  gsdk_header header;
  uint32_t abi_major; /* the major the plugin picked */
  uint32_t abi_minor;
  const char* plugin_name;    /* unique among loaded plugins; also the game's name */
  const char* plugin_version; /* semantic version of the plugin itself */
  /* Returns the capability table of that name, or NULL when the plugin lacks it. */
  const void* (*get_proc)(const char* table_name);
} gsdk_plugin_info;

/* The one frozen entry point. Returns GSDK_OK, or GSDK_ERR_VERSION with a message naming the host's
 * range and the plugin's version. */
typedef int32_t (*gsdk_negotiate_fn)(const gsdk_negotiation* request, gsdk_plugin_info* info,
                                     char* error, uint32_t error_size);

/* ---- game parameters -------------------------------------------------------------------------- */

#define GSDK_PARAM_INT 0
#define GSDK_PARAM_REAL 1
#define GSDK_PARAM_BOOL 2
#define GSDK_PARAM_STRING 3

typedef struct gsdk_param_desc {
  const char* name;
  int32_t type; /* GSDK_PARAM_* */
  int32_t reserved;
  int64_t default_int; /* INT and BOOL (0/1) */
  double default_real;
  const char* default_string;
  double min_value; /* inclusive range for INT and REAL */
  double max_value;
  const char* doc;
} gsdk_param_desc;

typedef struct gsdk_param_value {
  const char* name;
  int32_t type;
  int32_t reserved;
  int64_t int_value;
  double real_value;
  const char* string_value;
} gsdk_param_value;

/* ---- the per-state game table (required) ------------------------------------------------------ */

typedef struct gsdk_game_instance gsdk_game_instance; /* opaque, owned by the plugin */

/* current_player results besides 0..player_count-1 */
#define GSDK_PLAYER_TERMINAL (-1)
#define GSDK_PLAYER_CHANCE (-2)

#define GSDK_GAME_FLAG_CHANCE 1u /* has chance nodes */

typedef struct gsdk_game {
  gsdk_header header;
  const char* name;
  const char* description;
  uint32_t player_count;
  uint32_t flags; /* GSDK_GAME_FLAG_* */
  uint32_t param_count;
  uint32_t reserved;
  const gsdk_param_desc* params;

  /* values holds one entry per declared parameter, in declaration order, already range-checked by
   * the host; the plugin may still refuse a combination. */
  int32_t (*create)(const gsdk_param_value* values, uint32_t value_count,
                    gsdk_game_instance** instance, char* error, uint32_t error_size);
  void (*destroy)(gsdk_game_instance* instance);

  uint32_t (*state_size)(const gsdk_game_instance* instance);
  uint32_t (*max_moves)(const gsdk_game_instance* instance); /* bound on legal_moves' count */
  /* Inclusive range of the integer score a finished playout yields (for one-player games the score,
   * for two-player games player 0's outcome). Reducers size histograms from it. */
  void (*score_range)(const gsdk_game_instance* instance, int64_t* min_score, int64_t* max_score);

  void (*initial_state)(const gsdk_game_instance* instance, void* state);
  int32_t (*current_player)(const gsdk_game_instance* instance, const void* state);
  /* Fills moves (capacity max_moves) with legal moves, or at a chance node with the outcomes and,
   * when probabilities is not NULL, their probabilities. Returns the count. */
  uint32_t (*legal_moves)(const gsdk_game_instance* instance, const void* state, uint32_t* moves,
                          double* probabilities);
  void (*apply_move)(const gsdk_game_instance* instance, void* state, uint32_t move);
  int64_t (*score)(const gsdk_game_instance* instance, const void* terminal_state);

  /* Text I/O. Return the characters needed (excluding NUL); write at most buffer_size bytes. */
  uint32_t (*state_to_string)(const gsdk_game_instance* instance, const void* state, char* buffer,
                              uint32_t buffer_size);
  uint32_t (*move_to_string)(const gsdk_game_instance* instance, const void* state, uint32_t move,
                             char* buffer, uint32_t buffer_size);
  int32_t (*state_from_string)(const gsdk_game_instance* instance, const char* text, void* state,
                               char* error, uint32_t error_size);
} gsdk_game;

/* ---- batch playouts (CPU and CUDA tables share request and summary) --------------------------- */

/* Playout number i of a request uses the random stream (seed, first_playout + i) and nothing else,
 * so results do not depend on how a range is split or where it runs. */
typedef struct gsdk_playout_request {
  gsdk_header header;
  uint64_t seed;
  uint64_t first_playout;
  uint64_t playout_count;
  const void* start_state; /* NULL: the initial state */
  int32_t simd_level;      /* CPU: highest instruction set allowed, GSDK_SIMD_* */
  int32_t reserved;
} gsdk_playout_request;

#define GSDK_SIMD_SCALAR 0
#define GSDK_SIMD_AVX2 1
#define GSDK_SIMD_AVX512 2

/* Exact, order-independent reduction of many playouts. histogram is caller-owned with
 * (score_max - score_min + 1) bins; bin k counts playouts that scored score_min + k. */
typedef struct gsdk_playout_summary {
  gsdk_header header;
  uint64_t playouts;
  int64_t best_score;      /* highest score seen */
  uint64_t best_playout;   /* lowest playout number that reached best_score */
  int64_t worst_score;     /* lowest score seen */
  uint64_t worst_playout;  /* lowest playout number that reached worst_score */
  uint64_t* histogram;
  uint32_t histogram_bins;
  int32_t reserved;
  double device_milliseconds; /* CUDA table: kernel time measured with events; 0 on CPU */
} gsdk_playout_summary;

typedef struct gsdk_cpu_playouts {
  gsdk_header header;
  /* Highest GSDK_SIMD_* level this build of the plugin can use on this processor. */
  int32_t (*best_simd_level)(void);
  /* Runs the request on the calling thread and adds into summary (which the host has reset). */
  int32_t (*run)(const gsdk_game_instance* instance, const gsdk_playout_request* request,
                 gsdk_playout_summary* summary, char* error, uint32_t error_size);
} gsdk_cpu_playouts;

typedef struct gsdk_cuda_playouts {
  gsdk_header header;
  /* Device scratch bytes the host must pass to run for a request of this size. */
  uint64_t (*scratch_bytes)(const gsdk_game_instance* instance, uint64_t playout_count);
  /* Runs the request on the given device and stream (a cudaStream_t), using scratch (device memory
   * from the host's arena). Synchronous: returns when summary holds the result. */
  int32_t (*run)(const gsdk_game_instance* instance, const gsdk_playout_request* request,
                 int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                 gsdk_playout_summary* summary, char* error, uint32_t error_size);
} gsdk_cuda_playouts;

/* ---- replay: show one stored playout move by move ---------------------------------------------- */

typedef struct gsdk_replay {
  gsdk_header header;
  /* Writes the move sequence of playout (seed, playout) from start_state (NULL: initial) into moves
   * (capacity move_capacity) and returns the move count, or 0 with error filled. */
  uint32_t (*playout_moves)(const gsdk_game_instance* instance, uint64_t seed, uint64_t playout,
                            const void* start_state, uint32_t* moves, uint32_t move_capacity,
                            char* error, uint32_t error_size);
} gsdk_replay;

/* ---- exact score distribution: lets the host test a run against the truth ---------------------- */

typedef struct gsdk_score_distribution {
  gsdk_header header;
  /* Probability of each score (bin k: score_min + k) for a uniformly random playout from the
   * initial state. */
  int32_t (*exact)(const gsdk_game_instance* instance, double* probabilities, uint32_t bins, char* error,
                   uint32_t error_size);
} gsdk_score_distribution;

/* ---- perft: count the leaves of the move tree (ABI 1.1) ---------------------------------------- */

/* perft(s, 0) = 1; perft(s, d) = sum over legal_moves(s) of perft(apply_move(s, m), d - 1), chance
 * outcomes counting as moves. It follows legal_moves alone: a state without legal moves adds nothing
 * below its ply, and a game may keep listing moves where current_player already reports an end (chess
 * does past its draw rules, as published perft tables count). A game that wants another convention
 * (a finished game as a leaf, say) expresses it through its legal moves, so that both tables below
 * agree with the per-state table exactly. */

typedef struct gsdk_cpu_perft {
  gsdk_header header;
  /* *leaves = perft(state, depth) for depth >= 1, computed on the calling thread. The host splits
   * big trees into subtrees and calls this from several threads at once. */
  int32_t (*count)(const gsdk_game_instance* instance, const void* state, uint32_t depth, uint64_t* leaves,
                   char* error, uint32_t error_size);
} gsdk_cpu_perft;

/* The batch kernels behind the core's breadth-first GPU perft. States are the per-state table's blobs
 * (state_size bytes each, packed back to back) and moves its move codes. Every pointer is device
 * memory of the current device; every call enqueues its work on stream (a cudaStream_t) and returns
 * without waiting, failing only when a launch fails. The host never passes more than 2^31 states or
 * children to one call. */
typedef struct gsdk_cuda_perft {
  gsdk_header header;
  /* Largest plies count_leaves accepts (>= 1); max_moves^leaf_plies must fit in 32 bits. */
  uint32_t leaf_plies;
  uint32_t reserved;
  /* counts[i] = perft(states[i], plies) for 1 <= plies <= leaf_plies. */
  int32_t (*count_leaves)(const gsdk_game_instance* instance, const void* states, uint32_t count, uint32_t plies,
                          uint32_t* counts, void* stream, char* error, uint32_t error_size);
  /* Writes the legal moves of states[i] to moves[offsets[i]], moves[offsets[i] + 1], ... where offsets
   * are the exclusive prefix sums of perft(states[i], 1). */
  int32_t (*generate_moves)(const gsdk_game_instance* instance, const void* states, uint32_t count,
                            const uint32_t* offsets, uint32_t* moves, void* stream, char* error,
                            uint32_t error_size);
  /* children[j] = states[parents[j]] after moves[j], for j < count; when child_counts is not NULL, also
   * child_counts[j] = perft(children[j], 1). */
  int32_t (*apply_moves)(const gsdk_game_instance* instance, const void* states, const uint32_t* parents,
                         const uint32_t* moves, uint32_t count, void* children, uint32_t* child_counts,
                         void* stream, char* error, uint32_t error_size);
  /* ABI 1.8, may be NULL: counts[j] = perft(states[parents[j]] after moves[j], plies) for j < count and
   * 1 <= plies <= leaf_plies, that is apply_moves and count_leaves in one call, the children never stored.
   * The host uses it for the level above the leaves when the plugin has it. */
  int32_t (*count_leaves_after_moves)(const gsdk_game_instance* instance, const void* states, const uint32_t* parents,
                                      const uint32_t* moves, uint32_t count, uint32_t plies, uint32_t* counts,
                                      void* stream, char* error, uint32_t error_size);
} gsdk_cuda_perft;

/* ---- tabular environments and multi-agent Q-learning (ABI 1.2) ------------------------------- */

/* A tabular environment: states 0..state_count-1, actions 0..action_count-1, deterministic steps.
 * An environment holds agent_count agents; each episode every agent starts on a state drawn uniformly
 * from start_states and moves until a step reports terminal. A training run follows the semantics of
 * sdk/include/gsdk/qlearning/semantics.hpp exactly, on every device. */
typedef struct gsdk_environment {
  gsdk_header header;
  uint32_t (*state_count)(const gsdk_game_instance* instance);
  uint32_t (*action_count)(const gsdk_game_instance* instance);
  uint32_t (*agent_count)(const gsdk_game_instance* instance);
  /* Steps an episode lasts at most (>= 1). */
  uint32_t (*step_limit)(const gsdk_game_instance* instance);
  /* Writes up to capacity start states (ascending) and returns how many there are; states may be NULL. */
  uint32_t (*start_states)(const gsdk_game_instance* instance, uint32_t* states, uint32_t capacity);
  /* The transition from a non-terminal state: next state, reward, and 1 when next is terminal. */
  void (*step)(const gsdk_game_instance* instance, uint32_t state, uint32_t action, uint32_t* next, float* reward,
               int32_t* terminal);
} gsdk_environment;

#define GSDK_QL_SHARED_TABLE 1u    /* one Q-table for all environments of the request (else one each) */
#define GSDK_QL_FIRST_MAX_TIES 2u  /* greedy ties go to the lowest action (else uniformly at random) */
#define GSDK_QL_ATOMIC_UPDATES 4u  /* CUDA: updates race through atomic adds (fastest, not reproducible) */

/* Per environment and episode, GSDK_QL_STAT_COUNT counters. */
#define GSDK_QL_STAT_SUCCESSES 0   /* agents whose terminal step paid a positive reward */
#define GSDK_QL_STAT_FAILURES 1    /* agents whose terminal step paid a negative reward */
#define GSDK_QL_STAT_STEPS 2       /* steps the episode lasted */
#define GSDK_QL_STAT_AGENT_STEPS 3 /* agent moves made (each active agent, each step) */
#define GSDK_QL_STAT_COUNT 4

/* Environments first_environment .. first_environment + environment_count - 1 train for episodes
 * first_episode .. first_episode + episode_count - 1. Agent a of environment e draws its random bits in
 * episode k from the stream (seed, e, a, k) alone, so a request may be cut into environment ranges
 * anywhere. All pointers are host memory. */
typedef struct gsdk_qlearning_request {
  gsdk_header header;
  uint64_t seed;
  uint32_t first_environment;
  uint32_t environment_count;
  uint32_t first_episode;
  uint32_t episode_count;
  uint32_t flags; /* GSDK_QL_* */
  float alpha;    /* learning rate */
  float gamma;    /* discount */
  uint32_t reserved;
  /* Episode i explores when a uniform 32-bit draw is below explore_thresholds[i] (epsilon * 2^32). */
  const uint32_t* explore_thresholds;
  /* In and out: environment_count tables (one with GSDK_QL_SHARED_TABLE) of state_count * action_count
   * values, value (s, a) at s * action_count + a. */
  float* q_tables;
  /* Out: environment_count * episode_count * GSDK_QL_STAT_COUNT counters, environment-major. */
  uint32_t* episode_stats;
  /* Added to when not NULL: environment_count * state_count counts of the states agents moved onto. */
  uint64_t* visits;
} gsdk_qlearning_request;

typedef struct gsdk_cpu_qlearning {
  gsdk_header header;
  /* Trains the request on the calling thread. */
  int32_t (*train)(const gsdk_game_instance* instance, const gsdk_qlearning_request* request, char* error,
                   uint32_t error_size);
} gsdk_cpu_qlearning;

typedef struct gsdk_cuda_qlearning {
  gsdk_header header;
  /* Device scratch bytes train needs for this request. */
  uint64_t (*scratch_bytes)(const gsdk_game_instance* instance, const gsdk_qlearning_request* request);
  /* Trains the request on the device and stream (a cudaStream_t) with scratch from the host's arena,
   * the whole run in device code; returns when the outputs are in host memory. *device_milliseconds
   * receives the kernel time. */
  int32_t (*train)(const gsdk_game_instance* instance, const gsdk_qlearning_request* request, int32_t device,
                   void* stream, void* scratch, uint64_t scratch_size, double* device_milliseconds, char* error,
                   uint32_t error_size);
} gsdk_cuda_qlearning;

/* ---- pictures (ABI 1.2) ------------------------------------------------------------------------ */

typedef struct gsdk_render {
  gsdk_header header;
  /* Draws the environment with the greedy policy of q_table (state_count * action_count values) and,
   * when visits is not NULL, a heat map of its state_count counts, as 8-bit RGB rows into rgb (capacity
   * bytes). Returns GSDK_OK with *width and *height set; with rgb NULL or too small it only sets them. */
  int32_t (*policy_image)(const gsdk_game_instance* instance, const float* q_table, const uint64_t* visits,
                          uint8_t* rgb, uint64_t capacity, uint32_t* width, uint32_t* height, char* error,
                          uint32_t error_size);
} gsdk_render;

/* ---- playouts from many start states in one launch (ABI 1.3) ---------------------------------- */

/* Player 0's results over the playouts from one start state: score > 0, == 0 and < 0. */
typedef struct gsdk_outcome_counts {
  uint32_t wins;
  uint32_t draws;
  uint32_t losses;
  uint32_t reserved;
} gsdk_outcome_counts;

/* What tree search needs to evaluate a batch of leaves at once. Playout j of states[i] uses the random
 * stream (seed, first_playout + i * playouts_per_state + j) and nothing else, so a batch counts exactly
 * what the states would give one after another through gsdk.cuda_playouts.v1 with consecutive ranges.
 * states (count blobs of state_size bytes) and outcomes (count entries, overwritten) are device memory
 * of device; the work is enqueued on stream (a cudaStream_t) and the call returns without waiting,
 * failing only when a launch fails. The host keeps count * playouts_per_state below 2^32. */
typedef struct gsdk_cuda_playout_batches {
  gsdk_header header;
  int32_t (*run)(const gsdk_game_instance* instance, uint64_t seed, uint64_t first_playout, const void* states,
                 uint32_t count, uint32_t playouts_per_state, int32_t device, void* stream,
                 gsdk_outcome_counts* outcomes, char* error, uint32_t error_size);
} gsdk_cuda_playout_batches;

/* ---- move codes: a small integer naming a move in its context (ABI 1.4) ----------------------- */

/* Learning searches (NRPA) keep one weight per move code. A code names a move together with the
 * context that makes it the same decision again (for snake-in-the-box: the head vertex and the
 * dimension flipped), so weights learned in one playout apply in another. Codes are deterministic:
 * the same state and move always give the same code, and different legal moves of one state get
 * different codes (the conformance suite checks both). */
typedef struct gsdk_move_codes {
  gsdk_header header;
  /* Every code is below this bound (>= 1). */
  uint32_t (*code_count)(const gsdk_game_instance* instance);
  /* The code of legal move `move` in the non-terminal state `state`. */
  uint32_t (*move_code)(const gsdk_game_instance* instance, const void* state, uint32_t move);
} gsdk_move_codes;

/* ---- level-1 nested Monte Carlo searches on a device (ABI 1.4) --------------------------------- */

/* What one level-1 search found: its best sequence's score and length, and the playouts it ran. */
typedef struct gsdk_level1_result {
  int64_t score;
  uint64_t playouts;   /* random streams used (replays of a best playout not counted) */
  uint32_t move_count; /* moves of the best sequence, from the start state to a terminal state */
  uint32_t reserved;
} gsdk_level1_result;

/* Level-1 NMCS (Cazenave 2009) of a one-player game, a whole search per call, as the core runs it on
 * the CPU: until the state is terminal, take the legal moves in legal_moves order; a child state that
 * is terminal scores exactly, every other child gets one playout, the n-th playout of search i drawing
 * the random stream (seed, first_streams[i] + n) exactly as gsdk.cpu_playouts.v1 plays it; the first
 * best child wins ties; when its score beats the best sequence found so far, the best sequence becomes
 * the moves played, the child's move and its playout's moves; then play the best sequence's next move.
 * A search from a terminal state returns its score and no moves. states (count blobs of state_size
 * bytes, which the searches may overwrite as they go), first_streams, results (count entries) and moves
 * (search i's sequence at i * max_game_length) are device memory of device; the work is enqueued on
 * stream and the call returns without waiting, failing only when a launch fails. */
typedef struct gsdk_cuda_level1_searches {
  gsdk_header header;
  /* The most moves a game can last from the initial state (the stride of `moves`). */
  uint32_t (*max_game_length)(const gsdk_game_instance* instance);
  int32_t (*run)(const gsdk_game_instance* instance, uint64_t seed, void* states, const uint64_t* first_streams,
                 uint32_t count, int32_t device, void* stream, gsdk_level1_result* results, uint32_t* moves,
                 char* error, uint32_t error_size);
  /* ABI 1.6: run, with a stop request (NULL when the plugin cannot stop its searches). `stop` is NULL or 4 bytes
   * of device memory of device that the host may set non-zero while the searches run (from another stream). A
   * search reads it at the start of each step and, having read non-zero, ends after that step: its result is
   * the best sequence found so far (complete: the moves played, the best child's move and its playout), its
   * score and the playouts it ran. While the stop stays 0 it computes exactly what run computes. */
  int32_t (*run_stoppable)(const gsdk_game_instance* instance, uint64_t seed, void* states,
                           const uint64_t* first_streams, uint32_t count, int32_t device, void* stream,
                           gsdk_level1_result* results, uint32_t* moves, const uint32_t* stop, char* error,
                           uint32_t error_size);
} gsdk_cuda_level1_searches;

/* ---- level-2 nested Monte Carlo searches on a device (ABI 1.5) ------------------------------- */

/* What one level-2 search found and did. */
typedef struct gsdk_level2_result {
  int64_t score;
  uint64_t playouts;
  uint64_t level1_searches;   /* its level-1 searches, those from terminal states included */
  uint64_t level1_steps;      /* moves their best sequences made */
  uint32_t move_count;        /* moves of the search's best sequence (in `moves`) */
  uint32_t record_move_count; /* moves of the sequence for the run's record (in `record_moves`) */
} gsdk_level2_result;

/* Level-2 NMCS as core's CPU frames run it, a whole search per call: at every step, a level-1 search (as
 * gsdk.cuda_level1_searches.v1 runs it) after each legal move in legal_moves order; the first best child
 * wins; when it beats the best sequence, the best sequence becomes the moves played, the child's move and
 * the child's sequence; then play the best sequence's next move. Streams: search i's c-th child (c = 0, 1,
 * ... over all its steps) has the id ids[i] * 1024 + c and draws its n-th playout from the stream
 * (seed, search_streams[i] + block * 2^20 + n), block being the XOR of the id's 20-bit digits. The record
 * sequence is, among the children's sequences (each prefixed by the moves played and the child's move) of
 * the best score, the lexicographically smallest: what the run's record keeps of everything the search
 * would offer it. states (count blobs), search_streams, ids, scratch (scratch_bytes(count) bytes), results,
 * moves and record_moves (max_game_length of gsdk.cuda_level1_searches.v1 per search) are device memory of
 * device; the work is enqueued on stream and the call returns without waiting. */
typedef struct gsdk_cuda_level2_searches {
  gsdk_header header;
  uint64_t (*scratch_bytes)(const gsdk_game_instance* instance, uint32_t count);
  int32_t (*run)(const gsdk_game_instance* instance, uint64_t seed, const void* states, const uint64_t* search_streams,
                 const uint64_t* ids, uint32_t count, int32_t device, void* stream, void* scratch,
                 uint64_t scratch_size, gsdk_level2_result* results, uint32_t* moves, uint32_t* record_moves,
                 char* error, uint32_t error_size);
  /* ABI 1.6: run, with a stop request as gsdk.cuda_level1_searches.v1's run_stoppable takes it (NULL when the
   * plugin cannot stop its searches). A search reads it after each child search and, having read non-zero,
   * ends there: its step's children searched so far count as the whole step, so its best and record
   * sequences are complete, and its counts are what it ran. */
  int32_t (*run_stoppable)(const gsdk_game_instance* instance, uint64_t seed, const void* states,
                           const uint64_t* search_streams, const uint64_t* ids, uint32_t count, int32_t device,
                           void* stream, void* scratch, uint64_t scratch_size, gsdk_level2_result* results,
                           uint32_t* moves, uint32_t* record_moves, const uint32_t* stop, char* error,
                           uint32_t error_size);
} gsdk_cuda_level2_searches;

/* ---- whole NRPA searches on a device (ABI 1.5) ----------------------------------------------- */

/* What one NRPA search found: its best sequence's score and length. */
typedef struct gsdk_nrpa_result {
  int64_t score;
  uint32_t move_count; /* moves of the best sequence, from the initial state to a terminal state */
  uint32_t reserved;   /* 0; since ABI 1.6, the playouts of a search that a stop request ended early */
} gsdk_nrpa_result;

/* NRPA (Rosin 2011) searches of level `level` >= 1 from the initial state, one per policy, computing what
 * core's CPU NRPA computes, bit for bit, with the arithmetic of gsdk/nrpa/policy_softmax.hpp:
 *  - level 0 is a playout: in a state with n > 1 legal moves (legal_moves order) it plays
 *    softmax_pick(softmax_weights(policy, their move codes), one uniform() of its stream); a state with one
 *    legal move draws nothing. The n-th playout of search i draws the stream (seed, first_streams[i] + n).
 *  - level l makes `iterations` calls of level l - 1, each from a copy of its policy. A call that scores at
 *    least the best so far replaces it. After every call the policy adapts to the best sequence: at each of
 *    its steps with n > 1 legal moves the chosen move's code gains alpha, then every legal move's code adds
 *    adaptation_loss(alpha, its weight, the step's total), all from the policy before that adaptation.
 * policies (count * code_count doubles: the searches' starting policies, overwritten as they adapt),
 * first_streams, scratch (scratch_bytes(count, level) bytes), results (count entries) and moves (search i's
 * best sequence at i * max_game_length) are device memory of device; the work is enqueued on stream and the
 * call returns without waiting, failing only when a launch fails. */
typedef struct gsdk_cuda_nrpa_searches {
  gsdk_header header;
  /* The most moves a game can last from the initial state (the stride of `moves`). */
  uint32_t (*max_game_length)(const gsdk_game_instance* instance);
  uint64_t (*scratch_bytes)(const gsdk_game_instance* instance, uint32_t count, uint32_t level);
  int32_t (*run)(const gsdk_game_instance* instance, uint64_t seed, uint32_t level, uint32_t iterations,
                 double alpha, double* policies, const uint64_t* first_streams, uint32_t count, int32_t device,
                 void* stream, void* scratch, uint64_t scratch_size, gsdk_nrpa_result* results, uint32_t* moves,
                 char* error, uint32_t error_size);
  /* ABI 1.6: run, with a stop request as gsdk.cuda_level1_searches.v1's run_stoppable takes it (NULL when the
   * plugin cannot stop its searches). A search reads it after each playout and, having read non-zero, ends
   * there: each of its open calls returns the best sequence it has to the level above, as if it had run all
   * its iterations, so the search's result is the best complete sequence of its playouts so far. The result's
   * `reserved` is then the number of playouts it ran (at least 1; saturated at 2^32 - 1); it stays 0 for a
   * search that ran whole. While the stop stays 0 it computes exactly what run computes. */
  int32_t (*run_stoppable)(const gsdk_game_instance* instance, uint64_t seed, uint32_t level, uint32_t iterations,
                           double alpha, double* policies, const uint64_t* first_streams, uint32_t count,
                           int32_t device, void* stream, void* scratch, uint64_t scratch_size,
                           gsdk_nrpa_result* results, uint32_t* moves, const uint32_t* stop, char* error,
                           uint32_t error_size);
} gsdk_cuda_nrpa_searches;

/* ---- states whose playouts report an exact outcome (ABI 1.7) ---------------------------------- */

/* A game may solve some states instead of playing them out at random (othello's exact_empties: an
 * exhaustive endgame search): every playout from such a state reports perfect play's outcome, at a
 * cost far above a random game's. This table tells the host which states those are, so that a tree
 * search can keep a solved node's value as final (no subtree below it). On a device a search can then
 * give such a node a provisional value from random playouts at once and solve it in a batch of its own
 * that runs beside the playout batches, instead of making every playout batch wait for its slowest
 * solve. The playout tables themselves are unchanged: they solve the exact states they are given. */
typedef struct gsdk_exact_states {
  gsdk_header header;
  /* 1 when playouts from the non-terminal state `state` report its exact outcome under this instance's
   * parameters, else 0. Cheap: called for every node a tree search creates. */
  int32_t (*is_exact)(const gsdk_game_instance* instance, const void* state);
  /* gsdk_cuda_playout_batches.run, except that exact states are played out at random like any other
   * (the same random streams). NULL when the plugin has no CUDA playout batches. */
  int32_t (*cuda_random_playout_batches)(const gsdk_game_instance* instance, uint64_t seed, uint64_t first_playout,
                                         const void* states, uint32_t count, uint32_t playouts_per_state,
                                         int32_t device, void* stream, gsdk_outcome_counts* outcomes, char* error,
                                         uint32_t error_size);
} gsdk_exact_states;

/* ---- a game's own document of a move sequence, and its independent check (ABI 1.9) ---------- */

/* The one-player searches (NMCS, NRPA) save the best sequence they find, and `gsdk replay --document` a stored
 * playout, as a JSON document for people and tools. Without this table the host writes {"format": "gsdk-moves",
 * "game", "score", "moves", "move_names"}. A game whose results have a form of their own, with a check written
 * apart from its rules, provides both here (snake-in-the-box: the path's vertices, checked square by square): the
 * host then saves the game's document, and passes every sequence a search reports through the game's check
 * before it logs or saves it. A document is a JSON object with at least "format" (a string) and "moves" (the
 * sequence, as the per-state table's moves), so that a search can start from it. */
typedef struct gsdk_sequence_documents {
  gsdk_header header;
  /* The document of `moves` (count moves from the initial state, ending the game) as JSON text: writes at most
   * buffer_size bytes, the NUL included, and returns the characters needed without it; 0 with error filled when
   * the sequence cannot be written. */
  uint32_t (*write)(const gsdk_game_instance* instance, const uint32_t* moves, uint32_t count, char* buffer,
                    uint32_t buffer_size, char* error, uint32_t error_size);
  /* GSDK_OK when `moves` passes the game's independent check, else GSDK_ERR_INVALID_ARGUMENT with the first
   * violation in error. */
  int32_t (*check)(const gsdk_game_instance* instance, const uint32_t* moves, uint32_t count, char* error,
                   uint32_t error_size);
} gsdk_sequence_documents;

/* ---- static evaluation and state hashes, for alpha-beta and evaluation-backed tree searches (ABI 1.10) -- */

/* A two-player game's heuristic worth of a state, so that a search can stop short of the end: alpha-beta at a
 * depth bound, UCT at a leaf instead of a random playout. Values are int32, not double, so that a CPU and a
 * GPU evaluation agree to the bit, a transposition table compares them exactly and no NaN can enter a search.
 * Every value lies strictly inside (-scale, scale): scale is worth more than any evaluation, so a search can
 * rank an exact result (a won game) above every heuristic one. */
typedef struct gsdk_evaluation {
  gsdk_header header;
  /* The bound of every evaluation under this instance's parameters: 1 .. 2^24. */
  int32_t (*scale)(const gsdk_game_instance* instance);
  /* values[k] = the worth of states[k] (count states of state_size bytes each, contiguous, none terminal nor
   * a chance node) to the player to move there, in (-scale, scale). GSDK_OK, or an error code with error
   * filled. */
  int32_t (*evaluate)(const gsdk_game_instance* instance, const void* states, uint32_t count, int32_t* values,
                      char* error, uint32_t error_size);
  /* A 64-bit hash of the state (the side to move included) for transposition tables: equal states hash
   * equal; different states should rarely collide. */
  uint64_t (*hash)(const gsdk_game_instance* instance, const void* state);
  /* evaluate on a CUDA device: states and values in device memory, work queued on `stream` (a cudaStream_t).
   * NULL when the plugin has no CUDA evaluation. */
  int32_t (*cuda_evaluate)(const gsdk_game_instance* instance, const void* states, uint32_t count, int32_t device,
                           void* stream, int32_t* values, char* error, uint32_t error_size);
} gsdk_evaluation;

/* ---- observations and batched steps, for vectorised environments (ABI 1.11) ------------------ */

/* A vectorised environment (the Python module's VectorEnv) steps n games side by side. Its actions are move codes
 * (gsdk.move_codes.v1, required for it): action c is the legal move whose code is c, so an agent sees a fixed
 * action space 0..code_count-1 and a mask of the legal ones. When a step ends a game the rewards are paid and the
 * game starts again from the initial state at once (auto-reset): rewards[k * player_count + p] is 0 unless the
 * step ended game k; then, for a one-player game, the score; for two players, +1, -1 or 0 for player 0 by the
 * sign of the score (player 0's outcome) and the opposite for player 1. A host steps any game with per-state rules
 * and move codes through the per-state table; gsdk.batched_steps.v1 lets a game do the same faster, and must give
 * the same states, rewards and masks (the conformance suite compares them). */

#define GSDK_ELEMENT_UINT8 1
#define GSDK_ELEMENT_FLOAT32 2
#define GSDK_OBSERVATION_MAX_RANK 8

/* A learner's view of a state: a dense row-major tensor of one shape and element type for every state of an
 * instance, a deterministic function of the state (the game documents its planes, e.g. from the view of the
 * player to move). */
typedef struct gsdk_observations {
  gsdk_header header;
  /* Writes min(rank, capacity) extents (each >= 1) of one state's observation and returns the rank,
   * 1 .. GSDK_OBSERVATION_MAX_RANK. */
  uint32_t (*shape)(const gsdk_game_instance* instance, uint32_t* extents, uint32_t capacity);
  /* GSDK_ELEMENT_*. */
  int32_t (*element_type)(const gsdk_game_instance* instance);
  /* The observations of count states (contiguous, state_size bytes each; terminal states included) into
   * observations: count blocks of prod(extents) elements. */
  void (*fill)(const gsdk_game_instance* instance, const void* states, uint32_t count, void* observations);
  /* fill on a CUDA device: states and observations in device memory, work queued on `stream` (a cudaStream_t).
   * NULL when the plugin has no CUDA observations. */
  int32_t (*cuda_fill)(const gsdk_game_instance* instance, const void* states, uint32_t count, int32_t device,
                       void* stream, void* observations, char* error, uint32_t error_size);
} gsdk_observations;

/* Many games of a game without chance nodes stepped at once, with the semantics above. The caller guarantees that
 * every states[k] is neither terminal nor a chance node and that actions[k] is the code of one of its legal moves.
 * A step applies that move; when the game ends it writes the rewards, sets terminated[k] = 1 and puts the initial
 * state in states[k], else terminated[k] = 0 and zero rewards. Then players[k] = the player to move in states[k]
 * and legal[k * code_count + c] = 1 exactly for the codes c of its legal moves (0 elsewhere). */
typedef struct gsdk_batched_steps {
  gsdk_header header;
  /* On the CPU, from the calling thread (the host splits a batch over its threads). NULL when absent. */
  int32_t (*step)(const gsdk_game_instance* instance, void* states, const uint32_t* actions, uint32_t count,
                  float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal, char* error,
                  uint32_t error_size);
  /* The same on a CUDA device: every array in device memory, work queued on `stream`. NULL without CUDA. */
  int32_t (*cuda_step)(const gsdk_game_instance* instance, void* states, const uint32_t* actions, uint32_t count,
                       int32_t device, void* stream, float* rewards, uint8_t* terminated, int32_t* players,
                       uint8_t* legal, char* error, uint32_t error_size);
  /* Puts the initial state in states[0..count) on the device, with players and legal as a step writes them.
   * NULL without CUDA. */
  int32_t (*cuda_reset)(const gsdk_game_instance* instance, void* states, uint32_t count, int32_t device,
                        void* stream, int32_t* players, uint8_t* legal, char* error, uint32_t error_size);
  /* ABI 1.13: step and cuda_step that also keep what a learner's final observation is made from: for every game k
   * the step ends, its final state (before the restart) goes to final_states[k] (state_size bytes a game, indexed as
   * states; device memory for the CUDA form); the rows of games that go on are not written. Everything else as step
   * and cuda_step. NULL when absent: a host then steps such games through the per-state rules on the CPU, and gives
   * no final observations on CUDA. */
  int32_t (*step_keeping_final)(const gsdk_game_instance* instance, void* states, const uint32_t* actions,
                                uint32_t count, float* rewards, uint8_t* terminated, int32_t* players, uint8_t* legal,
                                void* final_states, char* error, uint32_t error_size);
  int32_t (*cuda_step_keeping_final)(const gsdk_game_instance* instance, void* states, const uint32_t* actions,
                                     uint32_t count, int32_t device, void* stream, float* rewards,
                                     uint8_t* terminated, int32_t* players, uint8_t* legal, void* final_states,
                                     char* error, uint32_t error_size);
} gsdk_batched_steps;

/* ---- canonical states, for hashed perft (ABI 1.12) ---------------------------------------------- */

/* Hashed perft caches subtree counts under a hash of a state's bytes and the remaining depth. A state may hold
 * bytes that never change its subtree's counts (chess's move clocks); without this table such states miss each
 * other in the cache, and the count is still right. */

/* Canonical states for hashed perft. For every state s of the game, c = canonical(s) must be a state whose perft
 * counts equal s's at every depth, and canonical(c) == c byte for byte; bytes that never change a subtree (move
 * clocks, an en-passant square no pawn can take) are set to fixed values, so that transpositions share one key. */
typedef struct gsdk_perft_keys {
  gsdk_header header;
  /* out[i] = canonical(states[i]) for i < count; out may equal states (in place). Host memory. */
  int32_t (*canonical)(const gsdk_game_instance* instance, const void* states, uint32_t count, void* out,
                       char* error, uint32_t error_size);
  /* The same in device memory, enqueued on stream (a cudaStream_t) without waiting; NULL when the plugin has no
   * CUDA perft table. */
  int32_t (*cuda_canonical)(const gsdk_game_instance* instance, const void* states, uint32_t count, void* out,
                            void* stream, char* error, uint32_t error_size);
} gsdk_perft_keys;

/* The entry point every plugin exports. */
GSDK_EXPORT int32_t gsdk_negotiate(const gsdk_negotiation* request, gsdk_plugin_info* info,
                                   char* error, uint32_t error_size);

#ifdef __cplusplus
}
#endif

#endif /* GSDK_PLUGIN_H */
