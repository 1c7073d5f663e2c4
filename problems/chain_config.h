/* The configuration of a pendulum chain (Thomsen (ed.) 2005 section 3.4): its spec keys, their
 * parsing and canonical form.  One source for both readers of a chain spec: the problem
 * (problems/chain.c, in the library) and the quad-precision reference generator
 * (refsol/chain_ref.c), which links the same compiled object (CMake's mbdae_chain_config), so
 * that both integrate exactly the configuration the spec names.
 *
 * Keys: n= links (>= 1); m= masses, l= lengths, theta= initial angles, omega= initial angular
 * velocities, each one value for every link or a colon-separated list of n values (m=1:2:1);
 * tend= the end of the interval.  theta_k is the angle of rod k from the downward vertical
 * (Thomsen (ed.) 2005 (3.3.1) with y pointing down): rod k runs from mass k-1 (the hinge for k = 1)
 * to mass k along l_k (sin theta_k, cos theta_k).  Default: unit masses and lengths, every rod
 * horizontal (theta = pi/2) at rest, tend = 10 (doc/design.md). */
#ifndef MBDAE_CHAIN_CONFIG_H
#define MBDAE_CHAIN_CONFIG_H

#include <stddef.h>

/* Values of a per-link list: a list takes at least two characters per value ("1:") and a spec at
 * most 256 (MBDAE_RECORD_SPEC_LEN), so no list given in a spec is longer. */
enum { CHAIN_LIST_MAX = 128 };

typedef struct chain_list {
  int count;                /* 1: the value of every link; else n values */
  double v[CHAIN_LIST_MAX]; /* the values as given */
} chain_list;

typedef struct chain_config {
  int n;                   /* links (point masses) */
  chain_list mass, length; /* m=, l= */
  chain_list theta, omega; /* theta=, omega=: the start */
  double tend;             /* tend= */
} chain_config;

#define CHAIN_OPTIONS_HELP                                                                         \
  "n= (links, >= 1), m=, l=, theta=, omega= (one value or n values a:b:...), tend="

/* Gravity along +y (y points down), as for pendulum and dpendulum: Hafner & Poell, 2.1. */
#define CHAIN_GRAVITY 9.81

void chain_config_default(chain_config *c);
/* Apply key=value: 0; -1 with a message for a bad value; 1 when the key is not a chain key. */
int chain_config_set(chain_config *c, const char *key, const char *value, char *msg, size_t msglen);
/* After every key: each list holds one value or n values; 0 or -1 with a message. */
int chain_config_check(const chain_config *c, char *msg, size_t msglen);
/* The canonical "n=..,m=..,l=..,theta=..,omega=..,tend=.." (shortest round-trip numbers);
 * returns what snprintf returns. */
int chain_config_format(const chain_config *c, char *buf, size_t len);
/* 1 when every key but n= has its default value (the configurations with committed references). */
int chain_config_is_default(const chain_config *c);

/* Value of link k (0-based) of a list. */
double chain_value(const chain_list *list, int k);
/* 1 when theta is the double nearest to k pi/2 for an integer k in [-4, 4], with k in *k: such an
 * angle stands for k pi/2 exactly (cos of the rounded pi/2 is 6e-17, a rounding artefact), so
 * that a horizontal rod starts at y = 0 exactly, in the library and in the quad reference. */
int chain_quarter_turns(double theta, int *k);
/* (sin theta, cos theta), exact where chain_quarter_turns holds. */
void chain_direction(double theta, double *s, double *c);

#endif /* MBDAE_CHAIN_CONFIG_H */
