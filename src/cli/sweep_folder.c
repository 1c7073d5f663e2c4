/* The output folder of mbdae sweep as a whole: DIR/sweep.conf says which sweep wrote it and which
 * files that sweep owns, so that a later sweep into the folder can tell a rerun of the same sweep
 * from another one, and replace the earlier sweep's outputs without touching anything else: they
 * stay until the new sweep's set is complete (their names carried in "replaces-" lines until
 * then), so that a failed sweep leaves them as they were.
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

#include "new_file.h"
#include "sweep.h"

const char *const sweep_picture_kinds[SWEEP_NPICTURE_KINDS] = {
    "scd.png",      "mescd.png",      "tscd.png",      "tmescd.png",      "drift.png",
    "scd-nres.png", "mescd-nres.png", "tscd-nres.png", "tmescd-nres.png", "drift-nres.png",
    "scd.svg",      "mescd.svg",      "tscd.svg",      "tmescd.svg",      "drift.svg",
    "scd-nres.svg", "mescd-nres.svg", "tscd-nres.svg", "tmescd-nres.svg", "drift-nres.svg"};

enum { MAX_CONF = 1 << 20, MAX_VEC_ROWS = 10000000 };
static const char owned_keys[] =
    " problems tables rows replaces-problems replaces-tables replaces-rows ";

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

/* Each word of the value of key in conf, which must be a plain_name of at most max characters
 * (else skipped), as name with the suffix; fn(dir, name) for each. */
static void each_word(const char *dir, const char *conf, const char *key, size_t max,
                      const char *suffix, void (*fn)(const char *, const char *))
{
  size_t len = 0;
  char name[300];
  const char *v = conf_value(conf, key, &len);
  for (size_t i = 0; v && i < len;) {
    size_t w = strcspn(v + i, " \n");
    if (w > 0 && w <= max && plain_name(v + i, w)) {
      snprintf(name, sizeof name, "%.*s%s", (int)w, v + i, suffix);
      fn(dir, name);
    }
    i += w + (w < len - i);
  }
}

/* The pictures of problem `name` (an id, no '.'). */
static void remove_pictures(const char *dir, const char *name)
{
  char path[340];
  for (int k = 0; !strchr(name, '.') && k < SWEEP_NPICTURE_KINDS; k++) {
    snprintf(path, sizeof path, "%s-%s", name, sweep_picture_kinds[k]);
    remove_in(dir, path);
  }
}

static void remove_table(const char *dir, const char *name)
{
  size_t n = strlen(name);
  if (n > 9 && strcmp(name + n - 9, "-table.md") == 0) {
    remove_in(dir, name);
  }
}

/* Remove the files the owned lines of conf name, their keys prefixed by `prefix` ("" or
 * "replaces-"): each word of "problems:" (its pictures), each word of "tables:" that ends in
 * -table.md, runs-1.vec .. runs-N.vec of "rows: N". */
static void remove_owned(const char *dir, const char *conf, const char *prefix)
{
  char key[40];
  snprintf(key, sizeof key, "%sproblems", prefix);
  each_word(dir, conf, key, 100, "", remove_pictures);
  snprintf(key, sizeof key, "%stables", prefix);
  each_word(dir, conf, key, 200, "", remove_table);
  snprintf(key, sizeof key, "%srows", prefix);
  size_t len = 0;
  char name[64];
  const char *v = conf_value(conf, key, &len);
  long rows = v ? strtol(v, NULL, 10) : 0;
  for (long k = 1; k <= rows && k <= MAX_VEC_ROWS; k++) {
    snprintf(name, sizeof name, "runs-%ld.vec", k);
    remove_in(dir, name);
  }
}

/* conf's value of key, then of prefix+key, as one space-separated text (malloc'd; "" when
 * neither). */
static char *joined_values(const char *conf, const char *key)
{
  char pkey[40];
  size_t a = 0, b = 0;
  snprintf(pkey, sizeof pkey, "replaces-%s", key);
  const char *va = conf_value(conf, key, &a), *vb = conf_value(conf, pkey, &b);
  char *text = malloc(a + b + 2);
  if (text) {
    snprintf(text, a + b + 2, "%.*s%s%.*s", va ? (int)a : 0, va ? va : "", va && vb ? " " : "",
             vb ? (int)b : 0, vb ? vb : "");
  }
  return text;
}

char *sweep_folder_replaced(const char *dir)
{
  char *conf = read_conf(dir), *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  for (int k = 0; conf && out && k < 2; k++) {
    char *words = joined_values(conf, k ? "tables" : "problems");
    if (words && words[0]) {
      fprintf(out, "replaces-%s: %s\n", k ? "tables" : "problems", words);
    }
    free(words);
  }
  if (conf && out) { /* the larger count of side files */
    size_t a = 0, b = 0;
    const char *va = conf_value(conf, "rows", &a), *vb = conf_value(conf, "replaces-rows", &b);
    long ra = va ? strtol(va, NULL, 10) : 0, rb = vb ? strtol(vb, NULL, 10) : 0;
    if (ra > 0 || rb > 0) {
      fprintf(out, "replaces-rows: %ld\n", ra > rb ? ra : rb);
    }
  }
  free(conf);
  if (!out || fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

void sweep_folder_drop_replaced(const char *dir)
{
  char *conf = read_conf(dir);
  if (conf) {
    remove_owned(dir, conf, "replaces-");
    free(conf);
  }
}

int sweep_folder_forget_replaced(const char *dir)
{
  char *conf = read_conf(dir), path[4200];
  if (!conf || !strstr(conf, "\nreplaces-")) {
    free(conf);
    return 0;
  }
  new_file nf;
  join(path, sizeof path, dir, "sweep.conf");
  FILE *out = new_file_open(&nf, path);
  for (const char *line = conf; out && line; line = next_line(line)) {
    size_t len = strcspn(line, "\n");
    if (strncmp(line, "replaces-", 9) != 0) {
      fprintf(out, "%.*s\n", (int)len, line);
    }
  }
  free(conf);
  return out ? new_file_commit(&nf) : -1;
}

int sweep_folder_write(const char *dir, const char *settings, const char *owned)
{
  char path[4200];
  new_file nf;
  join(path, sizeof path, dir, "sweep.conf");
  FILE *out = new_file_open(&nf, path);
  if (!out) {
    return -1;
  }
  fputs("# The settings of the mbdae sweep in this folder, and the files it writes.  A sweep into\n"
        "# this folder with other settings is refused without --force; --resume needs the same.\n",
        out);
  fputs(settings, out);
  fputs(owned, out);
  return new_file_commit(&nf);
}
