/* Where FlatZinc items come from in the user's model: MiniZinc's paths file and its path
 * strings.
 *
 * With "needsPathsFile": true in bamboo.msc, `minizinc` writes the symbol table it keeps
 * while flattening and passes `--paths FILE` to fzn-bamboo. One line per FlatZinc variable
 * and per constraint, three tab-separated fields (MiniZinc 2.6.4, found by experiment):
 *
 *   X_INTRODUCED_0_  men[1]  /home/u/m.mzn|14|26|14|28|id|men;|0|0|0|0|il|0;
 *   0                0       /home/u/m.mzn|17|12|17|55|ca|stable_matching_file;/.../x.mzn|36|5|...
 *
 * A variable's line starts with its FlatZinc name, a constraint's with its position among
 * the FlatZinc file's constraints (0-based, twice). The third field is a path: segments
 * "FILE|LINE|COL|LINE|COL|KIND|..." separated by ';', outermost first, so the first segment
 * that names a file is the user's own line (the call in the model, or the declaration).
 * `minizinc --keep-paths` writes the same path into each constraint's mzn_path("...")
 * annotation.
 *
 * Nothing in the file is trusted: a line that does not have this shape is skipped, and a
 * file that cannot be read leaves every message at its FlatZinc line. */
#ifndef FZN_PATHS_H
#define FZN_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fzn_paths fzn_paths;

/* A line in the user's files; `file` lives as long as the fzn_paths it came from. */
typedef struct fzn_location {
  const char *file;
  int line;
} fzn_location;

/* The user's location in a path string: the first segment naming a file and a line >= 1.
 * Copies the file's name into file[size] (false when there is none, or it does not fit). */
bool fzn_path_location(const char *path, char *file, size_t size, int *line);

/* What a paths file may hold: a line is a name and a call path, far below the first, and there
 * is one line per FlatZinc variable and constraint, so the second leaves room for tens of
 * millions. Past either the file is refused, so that --paths /dev/zero cannot fill memory. */
#define FZN_PATHS_LINE_MAX ((size_t)1 << 20)
#define FZN_PATHS_SIZE_MAX ((unsigned long long)1 << 32)

/* Reads a paths file. NULL when it cannot be opened or read, is over the limits above, or memory
 * runs out, with the reason in why[why_size]; lines it cannot use are skipped (an empty table is
 * not an error). */
fzn_paths *fzn_paths_read(const char *path, char *why, size_t why_size);
/* The same from an open stream (read to its end; not closed). */
fzn_paths *fzn_paths_read_stream(FILE *in, char *why, size_t why_size);
void fzn_paths_free(fzn_paths *paths); /* accepts NULL */

/* The location of the FlatZinc file's k-th constraint (0-based) and of the variable called
 * `name`; false when the table has none. */
bool fzn_paths_constraint(const fzn_paths *paths, int k, fzn_location *out);
bool fzn_paths_variable(const fzn_paths *paths, const char *name, fzn_location *out);

#ifdef __cplusplus
}
#endif
#endif
