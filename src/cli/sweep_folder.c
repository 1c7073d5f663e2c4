/* The output folder of mbdae sweep as a whole: DIR/sweep.conf says which sweep wrote it and which
 * files that sweep owns, so that a later sweep into the folder can tell a rerun of the same sweep
 * from another one, and replace the earlier sweep's outputs without touching anything else.
 *
 * sweep.conf is "key: value" lines after "#" comment lines.  The settings (every option that
 * changes a row: configurations, solvers, tolerances, atol, h0, max-steps, linsys, repeat, timeout,
 * shard, ref) come first; then what the sweep writes, by name: "problems:" (the ids whose
 * <id>-{scd,mescd,drift}[-nres].{png,svg} it draws), "tables:" (its <...>-table.md files) and
 * "rows:" (the count N of runs-1.vec .. runs-N.vec side files it may write).  Names read back are
 * checked against those patterns before anything is removed, so that no edit of the file can make
 * a sweep remove another file. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep.h"

const char *const sweep_picture_kinds[SWEEP_NPICTURE_KINDS] = {
    "scd.png", "mescd.png", "drift.png", "scd-nres.png", "mescd-nres.png", "drift-nres.png",
    "scd.svg", "mescd.svg", "drift.svg", "scd-nres.svg", "mescd-nres.svg", "drift-nres.svg"};

/* The files of every sweep, whatever it swept. */
static const char *const fixed_outputs[] = {
    "runs.csv",     "runs.json",     "workprecision.gp",     "gnuplot.log",      "sweep.conf",
    "runs.csv.tmp", "runs.json.tmp", "workprecision.gp.tmp", "runs.partial.csv", "sweep.conf.tmp"};
enum { NFIXED = (int)(sizeof fixed_outputs / sizeof fixed_outputs[0]) };
enum { MAX_CONF = 1 << 20, MAX_VEC_ROWS = 10000000 };
static const char owned_keys[] = " problems tables rows ";

static void join(char *buf, size_t len, const char *dir, const char *name)
{
  snprintf(buf, len, "%s/%s", dir, name);
}

/* DIR/sweep.conf whole, or NULL (absent, unreadable, not a regular file or larger than
 * MAX_CONF). */
static char *read_conf(const char *dir)
{
  char path[4200];
  struct stat st;
  join(path, sizeof path, dir, "sweep.conf");
  FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "r") : NULL;
  char *text = f ? malloc(MAX_CONF + 1) : NULL;
  size_t got = text ? fread(text, 1, MAX_CONF + 1, f) : 0;
  if (f) {
    fclose(f);
  }
  if (!text || got > MAX_CONF) {
    free(text);
    return NULL;
  }
  text[got] = '\0';
  return text;
}

/* The line after line, or NULL after the last. */
static const char *next_line(const char *line)
{
  const char *nl = strchr(line, '\n');
  return nl && nl[1] ? nl + 1 : NULL;
}

/* The value of key in conf lines ("key: value\n"), its length in *len; NULL when absent. */
static const char *conf_value(const char *conf, const char *key, size_t *len)
{
  size_t klen = strlen(key);
  for (const char *line = *conf ? conf : NULL; line; line = next_line(line)) {
    if (strncmp(line, key, klen) == 0 && line[klen] == ':' && line[klen + 1] == ' ') {
      *len = strcspn(line + klen + 2, "\n");
      return line + klen + 2;
    }
  }
  return NULL;
}

static int is_owned_key(const char *key, size_t len)
{
  char word[40];
  snprintf(word, sizeof word, " %.*s ", (int)(len < 30 ? len : 30), key);
  return strstr(owned_keys, word) != NULL;
}

/* The first setting of `settings` that conf lacks or holds with another value, and the reverse:
 * 0 when they agree, else 1 with "key: A there, B here" in why. */
static int settings_differ(const char *conf, const char *settings, char *why, size_t len)
{
  for (int pass = 0; pass < 2; pass++) {
    const char *mine = pass ? conf : settings, *other = pass ? settings : conf;
    for (const char *line = *mine ? mine : NULL; line; line = next_line(line)) {
      size_t klen = strcspn(line, ":\n"), vlen = 0, olen = 0;
      if (line[0] == '#' || line[klen] != ':' || is_owned_key(line, klen)) {
        continue;
      }
      char key[64];
      snprintf(key, sizeof key, "%.*s", (int)(klen < 63 ? klen : 63), line);
      const char *v = conf_value(mine, key, &vlen), *o = conf_value(other, key, &olen);
      if (!o || olen != vlen || strncmp(o, v, vlen) != 0) {
        const char *there = pass ? v : o, *here = pass ? o : v;
        size_t tlen = pass ? vlen : olen, hlen = pass ? olen : vlen;
        snprintf(why, len, "%s: %.*s there, %.*s here", key, there ? (int)tlen : 4,
                 there ? there : "none", here ? (int)hlen : 4, here ? here : "none");
        return 1;
      }
    }
  }
  return 0;
}

int sweep_folder_state(const char *dir, const char *settings, char *why, size_t len)
{
  char *conf = read_conf(dir);
  if (conf) {
    int differ = settings_differ(conf, settings, why, len);
    free(conf);
    return differ ? SWEEP_FOLDER_OTHER : SWEEP_FOLDER_SAME;
  }
  DIR *d = opendir(dir);
  int entries = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  }
  if (d) {
    closedir(d);
  }
  snprintf(why, len, "%d entr%s and no sweep.conf", entries, entries == 1 ? "y" : "ies");
  return entries ? SWEEP_FOLDER_FOREIGN : SWEEP_FOLDER_EMPTY;
}

/* A name of [A-Za-z0-9_=.-] (no '/', not starting with '.'), at most 200 characters. */
static int plain_name(const char *s, size_t len)
{
  if (len == 0 || len > 200 || s[0] == '.') {
    return 0;
  }
  for (size_t i = 0; i < len; i++) {
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_=.-", s[i])) {
      return 0;
    }
  }
  return 1;
}

static void remove_in(const char *dir, const char *name)
{
  char path[4200];
  join(path, sizeof path, dir, name);
  remove(path);
}

/* Remove the files the owned lines of conf name: each word of "problems:" (its pictures), each
 * word of "tables:" that ends in -table.md, runs-1.vec .. runs-N.vec of "rows: N". */
static void remove_owned(const char *dir, const char *conf)
{
  size_t len = 0;
  char name[300];
  const char *v = conf_value(conf, "problems", &len);
  for (size_t i = 0; v && i < len;) {
    size_t w = strcspn(v + i, " \n");
    if (w > 0 && w <= 100 && plain_name(v + i, w) && !memchr(v + i, '.', w)) {
      for (int k = 0; k < SWEEP_NPICTURE_KINDS; k++) {
        snprintf(name, sizeof name, "%.*s-%s", (int)w, v + i, sweep_picture_kinds[k]);
        remove_in(dir, name);
      }
    }
    i += w + (w < len - i);
  }
  v = conf_value(conf, "tables", &len);
  for (size_t i = 0; v && i < len;) {
    size_t w = strcspn(v + i, " \n");
    if (w > 9 && plain_name(v + i, w) && strncmp(v + i + w - 9, "-table.md", 9) == 0) {
      snprintf(name, sizeof name, "%.*s", (int)w, v + i);
      remove_in(dir, name);
    }
    i += w + (w < len - i);
  }
  v = conf_value(conf, "rows", &len);
  long rows = v ? strtol(v, NULL, 10) : 0;
  for (long k = 1; k <= rows && k <= MAX_VEC_ROWS; k++) {
    snprintf(name, sizeof name, "runs-%ld.vec", k);
    remove_in(dir, name);
  }
}

void sweep_folder_clean(const char *dir, const char *owned, int keep_partial)
{
  char *conf = read_conf(dir);
  if (conf) {
    remove_owned(dir, conf);
    free(conf);
  }
  remove_owned(dir, owned);
  for (int k = 0; k < NFIXED; k++) {
    if (!keep_partial || strcmp(fixed_outputs[k], "runs.partial.csv") != 0) {
      remove_in(dir, fixed_outputs[k]);
    }
  }
}

int sweep_folder_write(const char *dir, const char *settings, const char *owned)
{
  char path[4200], tmp[4300];
  join(path, sizeof path, dir, "sweep.conf");
  FILE *out = sweep_open_atomic(path, tmp, sizeof tmp);
  if (!out) {
    return -1;
  }
  fputs("# The settings of the mbdae sweep in this folder, and the files it writes.  A sweep into\n"
        "# this folder with other settings is refused without --force; --resume needs the same.\n",
        out);
  fputs(settings, out);
  fputs(owned, out);
  return sweep_close_atomic(out, tmp, path);
}
