/* The Stable Marriage constraint (SMC): its propagation logic, independent of any solver.
 *
 * stable_matching(men, women, pm, pw) over 2n rank-valued variables (docs/constraint.md):
 * men[i] = k iff man i marries pm[i][k], and then women[pm[i][k]] is man i's rank in her
 * list. The solutions are exactly the stable matchings the domains allow; a pair removed by a
 * side constraint can still block.
 *
 * The logic is [Travasci 2025]'s Algorithm 2 (after [Gent 2001] and [Unsworth 2005]; see
 * docs/references.md) driven by events, with both corrections the paper describes
 * (removeValue and inst handle men and women). Every rule is one of three:
 *   channel:   a pair removed from one side's domain is removed from the other side's;
 *   stability: a man whose domain starts at rank r makes every woman he ranks above r
 *              take someone better than him, and the woman at r someone no worse;
 *              with BB_SMC_GS_LISTS the same holds with the sexes swapped;
 *   marriage:  an assigned person assigns the partner.
 * From full domains the fixpoint is the man-oriented GS-lists (men-proposing) or the
 * GS-lists (gs-lists, which is arc consistency: all stable matchings then enumerate
 * without a single failure).
 *
 * The host solver supplies domain operations (bb_smc_domains) and tells the core which
 * variables changed; the core keeps O(n) integers per search node (bb_smc_node) and
 * reads the preference data (bb_smc_prefs) shared by every node. This header is that
 * contract; the process-wide settings of the paths (tail threshold, the hybrid's
 * calibration, the root batch, whether a GPU is there) are in smc_tuning.h. */
#ifndef BB_SMC_H
#define BB_SMC_H

#include "bb_common.h"
#include "smc_domains.h"
#include "smc_status.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_smc_strength {
  BB_SMC_GS_LISTS = 0,     /* both sides propose: GS-lists, arc consistency (default) */
  BB_SMC_MEN_PROPOSING = 1 /* [Travasci 2025]: man-oriented GS-lists */
} bb_smc_strength;

/* "gs-lists" / "men-proposing"; parse returns false on an unknown name. */
const char *bb_smc_strength_name(bb_smc_strength strength);
bool bb_smc_strength_parse(const char *name, bb_smc_strength *out);

/* --- Preference data: validated once at post time, then shared and read-only. --- */

typedef struct bb_smc_prefs bb_smc_prefs;

/* Validates and takes a copy of pm (pm_rows x pm_cols, row-major) and pw for a constraint
 * over n_men and n_women variables. The base (0 or 1) is read off the matrices; ranks in
 * the solver's variables use the same base. Errors (BB_ERR_INPUT, message naming the
 * offending row or column in the user's base): arrays of different lengths, a matrix not
 * n x n, a value outside base..base+n-1, a row that is not a permutation, pm and pw with
 * different bases. The result starts with one reference. */
bb_smc_prefs *bb_smc_prefs_new(int n_men, int n_women, const int *pm, int pm_rows, int pm_cols, const int *pw,
                               int pw_rows, int pw_cols, bb_error *err);
/* Incomplete lists (SMI; HR reaches the core as SMI over hospital posts, docs/minizinc.md). n_men
 * and n_women may differ, and each person ranks a subset of the other side. Man i's list is
 * pm[i * pm_cols + 0 .. pm_len[i] - 1]: distinct ids base..base + n_women - 1, favourite
 * first; the rest of the row is ignored (padding). Likewise pw for the women. base is 0 or 1.
 * A pair is acceptable iff each lists the other; a one-sided entry's rank is never a
 * solution value (it is removed from that person's domain). A person's variable takes ranks
 * base..base + len, where base + len means unmatched. Errors (BB_ERR_INPUT) name the row in
 * the user's base: a length outside 0..cols, an id out of range, an id listed twice. */
bb_smc_prefs *bb_smc_prefs_new_smi(int n_men, int n_women, int base, const int *pm, const int *pm_len, int pm_cols,
                                   const int *pw, const int *pw_len, int pw_cols, bb_error *err);
/* The same from CSR lists (bamboo-smp's bb_hr form): man i's list is m_list[m_start[i] ..
 * m_start[i + 1]), 0-based women's ids; likewise for the women. base is the variables' (and
 * the messages') base. */
bb_smc_prefs *bb_smc_prefs_new_smi_csr(int n_men, int n_women, int base, const uint32_t *m_start,
                                       const uint32_t *m_list, const uint32_t *w_start, const uint32_t *w_list,
                                       bb_error *err);
/* The shape of a constraint, for either form. Variables 0..men-1 are the men, men..men+women-1
 * the women. var's list has bb_smc_prefs_len entries: ranks 0..len-1 name a partner and, with
 * incomplete lists, rank len means unmatched (the complete form has no such value: len = n).
 * bb_smc_partner gives the variable at var's rank (0-based), or -1 when there is none there
 * (rank len, or a one-sided entry). */
int bb_smc_prefs_men(const bb_smc_prefs *prefs);
int bb_smc_prefs_women(const bb_smc_prefs *prefs);
int bb_smc_prefs_vars(const bb_smc_prefs *prefs);
bool bb_smc_prefs_incomplete(const bb_smc_prefs *prefs);
int bb_smc_prefs_len(const bb_smc_prefs *prefs, int var);
int bb_smc_partner(const bb_smc_prefs *prefs, int var, int rank);
/* The complete form from 0-based lists the caller hands over (n x n each, row-major; freed
 * by the prefs, or at once on an error): no copy of the input, for large instances read from
 * a file. base is the variables'. Rows must be permutations (checked). */
bb_smc_prefs *bb_smc_prefs_adopt(int n, int base, int32_t *men_choice, int32_t *women_choice, bb_error *err);
/* bb_smc_prefs_new's meaning, checks and messages, over matrices the caller hands over
 * (malloc'd; freed by the prefs, or at once on an error), which become the 0-based lists in
 * place: no copy of the input (fzn-bamboo's literal arrays). */
bb_smc_prefs *bb_smc_prefs_take(int n_men, int n_women, int32_t *pm, int pm_rows, int pm_cols, int32_t *pw, int pw_rows,
                                int pw_cols, bb_error *err);
bb_smc_prefs *bb_smc_prefs_retain(bb_smc_prefs *prefs);
void bb_smc_prefs_release(bb_smc_prefs *prefs); /* accepts NULL; frees with the last reference */
int bb_smc_prefs_n(const bb_smc_prefs *prefs);
int bb_smc_prefs_base(const bb_smc_prefs *prefs);
/* 0-based views of the data: woman at man i's rank k, man at woman j's rank k, and the
 * inverse ranks. */
int bb_smc_man_choice(const bb_smc_prefs *prefs, int man, int rank);
int bb_smc_woman_choice(const bb_smc_prefs *prefs, int woman, int rank);
int bb_smc_man_rank(const bb_smc_prefs *prefs, int man, int woman);
int bb_smc_woman_rank(const bb_smc_prefs *prefs, int woman, int man);

/* --- The host solver's side: bb_smc_domains (smc_domains.h), on variables 0..n-1 the men
 * and n..2n-1 the women, values 0-based ranks (the host adds its base). --- */

/* --- Per-search-node state: what the last propagation saw of every domain. --- */

typedef struct bb_smc_node bb_smc_node;

/* Bytes of a node for size n (O(n)); nodes are plain memory: the host allocates them
 * where it likes and copies one with memcpy when its search copies a node. */
size_t bb_smc_node_bytes(int n);
/* A fresh node: nothing seen yet, so the first propagation examines every variable. */
void bb_smc_node_init(bb_smc_node *node, int n);
/* The same for a constraint of either form (incomplete lists included): hosts use these. */
size_t bb_smc_node_bytes_for(const bb_smc_prefs *prefs);
void bb_smc_node_init_for(bb_smc_node *node, const bb_smc_prefs *prefs);
/* Number of variables the node has not yet seen assigned. */
int bb_smc_node_unassigned(const bb_smc_node *node);
/* No propagation has run on the node's lineage yet (the next one is the first). */
bool bb_smc_node_fresh(const bb_smc_node *node);

/* --- Events and propagation. --- */

/* Scratch for one propagation: work queue and pending removals. Not part of a node's
 * state (a node is copied only at a fixpoint, when the scratch is empty), so each host
 * propagator owns one and never copies it. */
typedef struct bb_smc_scratch bb_smc_scratch;
bb_smc_scratch *bb_smc_scratch_new(int n, bb_error *err);
bb_smc_scratch *bb_smc_scratch_for(const bb_smc_prefs *prefs, bb_error *err); /* either form */
void bb_smc_scratch_free(bb_smc_scratch *scratch);                            /* accepts NULL */

/* Events between propagations, as the host's advisors see them. A variable whose bounds
 * moved or that was assigned needs only bb_smc_note_changed; removals strictly inside the
 * bounds are told with their range, or as unknown when the host cannot say which (the
 * core then scans that domain). */
void bb_smc_note_changed(bb_smc_scratch *scratch, int var);
void bb_smc_note_removed(bb_smc_scratch *scratch, int var, int lo, int hi);
void bb_smc_note_unknown(bb_smc_scratch *scratch, int var);
/* Drops recorded events (after a failure elsewhere made them moot). */
void bb_smc_scratch_clear(bb_smc_scratch *scratch);

/* bb_smc_propagate answers (smc_status.h) BB_SMC_FIX (at the fixpoint, some variable
 * unassigned), BB_SMC_FAILED (no stable matching is left in the domains), BB_SMC_SOLVED (every
 * variable assigned: the domains are a stable matching) or BB_SMC_NOMEM. */

typedef struct bb_smc_counters {
  uint64_t propagations, rounds, channel_removals, bound_updates, scans;
} bb_smc_counters;

/* Runs the rules to the fixpoint from the recorded events (all of them on a fresh node).
 * Work is proportional to what changed: the values that left the domains since the last
 * propagation, plus the domains of variables with unknown removals. counters may be NULL. */
bb_smc_status bb_smc_propagate(const bb_smc_prefs *prefs, bb_smc_strength strength, bb_smc_node *node,
                               bb_smc_scratch *scratch, const bb_smc_domains *domains, bb_smc_counters *counters);

/* --- Where a propagation runs ([Travasci 2025] section 4). ---
 * BB_SMC_PATH_CPU runs the event rules above (the first propagation as smc_root.c's batch).
 * BB_SMC_PATH_GPU runs the proposals in parallel on the GPU (cuda/gpu_smc.cu), the tail
 * of few free proposers on the CPU, and writes back compact results; without a usable GPU,
 * or when a CUDA call fails, it warns once per constraint and runs on the CPU.
 * BB_SMC_PATH_EMULATED is the same parallel algorithm on host threads (smc_accel_emul.c): how CI,
 * which has no GPU, tests it. BB_SMC_PATH_AUTO picks CPU or GPU for each propagation from
 * the number of free proposers and the size of the change (smc_hybrid.c). Every path gives
 * the same domains. */
typedef enum bb_smc_path {
  BB_SMC_PATH_AUTO = 0,
  BB_SMC_PATH_CPU = 1,
  BB_SMC_PATH_GPU = 2,
  BB_SMC_PATH_EMULATED = 3
} bb_smc_path;

const char *bb_smc_path_name(bb_smc_path path);

/* What one propagation saw and did, for measurements (bench/smc_gpu_bench.c). */
typedef struct bb_smc_run_info {
  bb_smc_path path;     /* where it ran (never AUTO) */
  int free_proposers;   /* proposers whose minimum moved (all of them on a fresh node) */
  int modified;         /* variables the host reported changed */
  long long old_domain; /* their total domain size when the last propagation ended */
  int uploaded;         /* records sent to the parallel engine */
  int tail;             /* proposers the CPU tail finished */
  int rounds;           /* parallel proposal rounds */
  int written;          /* variables the parallel path wrote back */
  int handed_over;      /* the hybrid started on the CPU and handed a cascade to the GPU */
  double t_gather, t_propose, t_tail, t_settle, t_apply, t_total; /* seconds */
} bb_smc_run_info;

/* bb_smc_propagate on a chosen path. info may be NULL. */
bb_smc_status bb_smc_propagate_on(const bb_smc_prefs *prefs, bb_smc_strength strength, bb_smc_path path,
                                  bb_smc_node *node, bb_smc_scratch *scratch, const bb_smc_domains *domains,
                                  bb_smc_counters *counters, bb_smc_run_info *info);

/* Readies the parallel engine for a constraint posted on `path` (GPU, EMULATED, or AUTO when
 * the hybrid may take the GPU at this n): the pair matrix goes to the device and the calling
 * thread gets its lane, so that the first propagation does not pay for them. Other search
 * threads get theirs on their first parallel propagation. Errors are not fatal: the
 * propagations then warn and run on the CPU. */
bb_status bb_smc_prepare(const bb_smc_prefs *prefs, bb_smc_path path, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
