/* bamboo-smp: the progress line of a phase that reports nothing itself (cli_phase.h). A thread
 * wakes once a second and redraws the elapsed time; it alone writes the line while the phase
 * runs, and cli_phase_end wipes it only after joining, so the two never write at once. */
#define _POSIX_C_SOURCE 200809L
#include "cli_phase.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static int muted;

void cli_progress_mute(void) { muted = 1; }

int cli_progress_wanted(void) { return !muted && isatty(STDERR_FILENO); }

static void draw(cli_phase *phase, double elapsed) {
  char line[160];
  int len = snprintf(line, sizeof line, "%s: %s %.0f s%s%s", phase->label, phase->what, elapsed,
                     phase->detail[0] ? ", " : "", phase->detail);
  if (len < 0) return;
  if (len >= (int)sizeof line) len = (int)sizeof line - 1;
  fprintf(stderr, "\r%s%*s", line, phase->width > len ? phase->width - len : 0, "");
  fflush(stderr);
  if (len > phase->width) phase->width = len;
}

/* pthread_cond_timedwait takes a CLOCK_REALTIME deadline. */
static struct timespec after(double seconds) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  long long ns = t.tv_nsec + (long long)(seconds * 1e9);
  t.tv_sec += (time_t)(ns / 1000000000);
  t.tv_nsec = (long)(ns % 1000000000);
  return t;
}

static void *tick(void *arg) {
  cli_phase *phase = arg;
  pthread_mutex_lock(&phase->lock);
  double wait = CLI_PHASE_QUIET_S;
  while (!phase->done) {
    struct timespec deadline = after(wait);
    while (!phase->done && pthread_cond_timedwait(&phase->wake, &phase->lock, &deadline) == 0) {}
    if (phase->done) break;
    double elapsed = bb_now() - phase->start;
    if (elapsed >= CLI_PHASE_QUIET_S) draw(phase, elapsed);
    wait = elapsed >= CLI_PHASE_QUIET_S ? 1.0 : CLI_PHASE_QUIET_S - elapsed;
  }
  pthread_mutex_unlock(&phase->lock);
  return NULL;
}

void cli_phase_begin(cli_phase *phase, const char *label, const char *what) {
  *phase = (cli_phase){.label = label ? label : "bamboo-smp", .what = what, .start = bb_now()};
  if (!cli_progress_wanted()) return;
  if (pthread_mutex_init(&phase->lock, NULL)) return;
  if (pthread_cond_init(&phase->wake, NULL)) {
    pthread_mutex_destroy(&phase->lock);
    return;
  }
  /* Without a thread the phase merely runs without a line. */
  if (pthread_create(&phase->ticker, NULL, tick, phase)) {
    pthread_cond_destroy(&phase->wake);
    pthread_mutex_destroy(&phase->lock);
    return;
  }
  phase->running = 1;
}

/* Called from the solving thread: only the text changes here, the ticker draws it. */
static void note(void *ctx, const char *what, uint64_t done, uint64_t total) {
  cli_phase *phase = ctx;
  pthread_mutex_lock(&phase->lock);
  if (total)
    snprintf(phase->detail, sizeof phase->detail, "%s %llu/%llu (%.0f%%)", what, (unsigned long long)done,
             (unsigned long long)total, 100.0 * done / total);
  else
    snprintf(phase->detail, sizeof phase->detail, "%s %llu", what, (unsigned long long)done);
  pthread_mutex_unlock(&phase->lock);
}

void cli_phase_attach(cli_phase *phase, bb_solve_opts *opts) {
  if (!phase->running) return;
  opts->progress = note;
  opts->progress_ctx = phase;
}

void cli_phase_end(cli_phase *phase) {
  if (!phase->running) return;
  pthread_mutex_lock(&phase->lock);
  phase->done = 1;
  pthread_cond_signal(&phase->wake);
  pthread_mutex_unlock(&phase->lock);
  pthread_join(phase->ticker, NULL);
  pthread_cond_destroy(&phase->wake);
  pthread_mutex_destroy(&phase->lock);
  phase->running = 0;
  if (phase->width) {
    fprintf(stderr, "\r%*s\r", phase->width, "");
    fflush(stderr);
  }
}
