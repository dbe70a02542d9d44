/* bamboo-smp: progress for a phase whose code reports none of its own (reading or generating an
 * instance, an SMI/HR or HRC solve). Once the phase has run CLI_PHASE_QUIET_S seconds, a line
 * "LABEL: WHAT N s" on stderr counts the seconds until the phase ends and the line is wiped.
 * Only when stderr is a terminal and -q was not given (cli_progress_wanted), so files, pipes and
 * scripts see nothing of it. */
#ifndef BB_CLI_PHASE_H
#define BB_CLI_PHASE_H

#include <pthread.h>

#include "solve.h"

/* Runs shorter than this show no line at all. */
#define CLI_PHASE_QUIET_S 2.0

typedef struct cli_phase {
  int running; /* a ticker thread was started */
  int done;
  const char *label, *what;
  double start;
  int width;       /* characters of the line shown, 0 if none */
  char detail[64]; /* the solver's last report (cli_phase_attach), "" if none */
  pthread_t ticker;
  pthread_mutex_t lock;
  pthread_cond_t wake;
} cli_phase;

/* -q: no progress line of any kind (cli_progress_attach included). */
void cli_progress_mute(void);
/* Whether a progress line may be drawn: stderr is a terminal and no -q. */
int cli_progress_wanted(void);

/* `label` and `what` must outlive the phase. */
void cli_phase_begin(cli_phase *phase, const char *label, const char *what);
void cli_phase_end(cli_phase *phase);
/* Has the solver's own progress reports (proposals so far) shown on the phase's line, after the
 * seconds; one writer for the line, so the two never interleave. Nothing when no line is shown. */
void cli_phase_attach(cli_phase *phase, bb_solve_opts *opts);

#endif
