/* Speed of BLAKE3 subtree hashing in C against one-shot hashing of the same bytes: an input of
 * PIECES pieces of 1 MiB, hashed (a) piece by piece with arborhash_blake3_hash, and (b) piece by
 * piece with arborhash_blake3_hash_subtree at each piece's offset, then (c) the whole input as
 * a tree: (b) and the merges up to the root, against (d) arborhash_blake3_hash of the whole,
 * and (e) piece by piece with arborhash_blake3_subtree_hasher fed in UPDATE-byte writes (its
 * new and free included), against (a).
 * Each measurement is one-shot, subtree, subtree, one-shot of the same bytes in a row (so that
 * the host's drift falls on both sides alike), in the calling thread's CPU time; the table
 * gives the ratios (one-shot time over subtree time: above 1 means the subtrees are faster):
 * median, quartiles, extremes and the interquartile spread over the median.
 *
 *   subtrees [ROUNDS]   (default 15, 1 to 1000)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arborhash.h"

#define PIECE (1u << 20)
#define PIECES 32
/* The incremental hasher's write size: a typical read buffer. */
#define UPDATE (64u << 10)

static uint8_t *input;
static uint8_t cvs[PIECES][32];
static volatile uint8_t sink;

/* The calling thread's CPU time: a busy host's descheduling does not count. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double one_shot_piece(size_t i) {
  uint8_t out[32];
  double t = now();
  if (arborhash_blake3_hash(input + i * PIECE, PIECE, out) != ARBORHASH_OK) exit(1);
  t = now() - t;
  sink ^= out[0];
  return t;
}

static double subtree_piece(size_t i) {
  double t = now();
  if (arborhash_blake3_hash_subtree(ARBORHASH_BLAKE3_MODE_HASH, NULL, (uint64_t)i * PIECE,
                                    input + i * PIECE, PIECE, cvs[i]) != ARBORHASH_OK)
    exit(1);
  t = now() - t;
  sink ^= cvs[i][0];
  return t;
}

static double incremental_piece(size_t i) {
  double t = now();
  arborhash_blake3_subtree_hasher *h;
  if (arborhash_blake3_subtree_hasher_new(ARBORHASH_BLAKE3_MODE_HASH, NULL, (uint64_t)i * PIECE,
                                          &h) != ARBORHASH_OK)
    exit(1);
  for (size_t at = 0; at < PIECE; at += UPDATE) {
    if (arborhash_blake3_subtree_hasher_update(h, input + i * PIECE + at, UPDATE) != ARBORHASH_OK)
      exit(1);
  }
  if (arborhash_blake3_subtree_hasher_finalize_non_root(h, cvs[i]) != ARBORHASH_OK) exit(1);
  arborhash_blake3_subtree_hasher_free(h);
  t = now() - t;
  sink ^= cvs[i][0];
  return t;
}

/* The whole input as PIECES subtrees merged pairwise up to the root (PIECES is a power of
 * two), into hash; returns the time taken. */
static double subtree_tree(uint8_t hash[32]) {
  double t = now();
  for (size_t i = 0; i < PIECES; i++) {
    if (arborhash_blake3_hash_subtree(ARBORHASH_BLAKE3_MODE_HASH, NULL, (uint64_t)i * PIECE,
                                      input + i * PIECE, PIECE, cvs[i]) != ARBORHASH_OK)
      exit(1);
  }
  for (size_t n = PIECES; n > 2; n /= 2) {
    for (size_t i = 0; i < n / 2; i++) {
      if (arborhash_blake3_merge_subtrees_non_root(cvs[2 * i], cvs[2 * i + 1],
                                                   ARBORHASH_BLAKE3_MODE_HASH, NULL,
                                                   cvs[i]) != ARBORHASH_OK)
        exit(1);
    }
  }
  if (arborhash_blake3_merge_subtrees_root(cvs[0], cvs[1], ARBORHASH_BLAKE3_MODE_HASH, NULL, 0,
                                           hash, 32) != ARBORHASH_OK)
    exit(1);
  return now() - t;
}

static double one_shot_whole(uint8_t hash[32]) {
  double t = now();
  if (arborhash_blake3_hash(input, (size_t)PIECES * PIECE, hash) != ARBORHASH_OK) exit(1);
  return now() - t;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One row: the median ratio, the quartiles, the extremes and the interquartile spread. */
static void report(const char *name, double *ratios, size_t n, double best_one_shot, size_t bytes) {
  qsort(ratios, n, sizeof *ratios, compare);
  double median = ratios[n / 2], q1 = ratios[n / 4], q3 = ratios[3 * n / 4];
  printf("%-26s %6zu %7.3f %7.3f %7.3f %7.3f %7.3f %6.1f%% %8.0f\n", name, n, median, q1, q3,
         ratios[0], ratios[n - 1], (q3 - q1) / median * 100, (double)bytes / best_one_shot / 1e6);
}

int main(int argc, char **argv) {
  int rounds = 15;
  if (argc > 2 || (argc == 2 && (strspn(argv[1], "0123456789") != strlen(argv[1]) ||
                                 sscanf(argv[1], "%d", &rounds) != 1 || rounds < 1 ||
                                 rounds > 1000))) {
    fprintf(stderr, "usage: subtrees [ROUNDS]   (1 to 1000, default 15)\n");
    return 1;
  }
  input = malloc((size_t)PIECES * PIECE);
  double *piece_ratios = calloc((size_t)rounds * PIECES, sizeof(double));
  double *incremental_ratios = calloc((size_t)rounds * PIECES, sizeof(double));
  double *tree_ratios = calloc((size_t)rounds, sizeof(double));
  if (input == NULL || piece_ratios == NULL || incremental_ratios == NULL || tree_ratios == NULL)
    return 1;
  for (size_t i = 0; i < (size_t)PIECES * PIECE; i++) input[i] = (uint8_t)(i * 131 + 7);
  /* The tree gives the one-shot hash, or the timing would mean nothing. */
  uint8_t a[32], b[32];
  subtree_tree(a);
  one_shot_whole(b);
  if (memcmp(a, b, 32) != 0) {
    fprintf(stderr, "subtrees: the merged tree differs from the one-shot hash\n");
    return 1;
  }
  /* The incremental CVs equal the one-call ones. */
  for (size_t i = 0; i < PIECES; i++) {
    uint8_t one_call[32];
    subtree_piece(i);
    memcpy(one_call, cvs[i], 32);
    incremental_piece(i);
    if (memcmp(one_call, cvs[i], 32) != 0) {
      fprintf(stderr, "subtrees: piece %zu's incremental CV differs\n", i);
      return 1;
    }
  }
  double best_piece = 1e30, best_whole = 1e30;
  for (int r = 0; r < rounds; r++) {
    /* Each piece one-shot, subtree, subtree, one-shot: a ratio of neighbours. */
    for (size_t i = 0; i < PIECES; i++) {
      double t1 = one_shot_piece(i), t2 = subtree_piece(i), t3 = subtree_piece(i);
      double t4 = one_shot_piece(i);
      piece_ratios[(size_t)r * PIECES + i] = (t1 + t4) / (t2 + t3);
      /* And one-shot, incremental, incremental, one-shot. */
      double u1 = one_shot_piece(i), u2 = incremental_piece(i), u3 = incremental_piece(i);
      double u4 = one_shot_piece(i);
      incremental_ratios[(size_t)r * PIECES + i] = (u1 + u4) / (u2 + u3);
      best_piece = t1 < best_piece ? t1 : best_piece;
      best_piece = t4 < best_piece ? t4 : best_piece;
    }
    double t1 = one_shot_whole(b), t2 = subtree_tree(a), t3 = subtree_tree(a);
    double t4 = one_shot_whole(b);
    tree_ratios[r] = (t1 + t4) / (t2 + t3);
    best_whole = t1 < best_whole ? t1 : best_whole;
    best_whole = t4 < best_whole ? t4 : best_whole;
    sink ^= a[0] ^ b[0];
  }
  printf("arborhash backend %s, %d rounds over %d pieces of 1 MiB, one thread, thread CPU time\n",
         arborhash_backend(), rounds, PIECES);
  printf("one-shot time / subtree time (above 1: the subtrees are faster)\n");
  printf("%-26s %6s %7s %7s %7s %7s %7s %7s %8s\n", "", "pairs", "median", "q1", "q3", "min",
         "max", "IQR", "MB/s (1)");
  report("each 1 MiB piece", piece_ratios, (size_t)rounds * PIECES, best_piece, PIECE);
  report("each piece, 64 KiB writes", incremental_ratios, (size_t)rounds * PIECES, best_piece,
         PIECE);
  report("32 MiB as a merged tree", tree_ratios, (size_t)rounds, best_whole,
         (size_t)PIECES * PIECE);
  printf("(1) the one-shot hash's best time\n");
  free(input);
  free(piece_ratios);
  free(incremental_ratios);
  free(tree_ratios);
  return 0;
}
