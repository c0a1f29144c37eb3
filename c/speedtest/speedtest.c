/* The btrfs hash-speedtest harness in C: one buffer of --size bytes is digested --iterations
 * times per contestant, timed with the time-stamp counter (rdtsc, fenced with lfence on both
 * sides) around the whole loop and with the monotonic clock beside it. As in
 * `arbor bench speedtest`: a warm-up of a tenth of the iterations, then --repetitions rounds,
 * each running every contestant once in turn (so that the host's drift falls on all rows
 * alike); the table shows the median cycles per iteration, cycles per byte, MB/s (10^6 bytes)
 * and the spread ((max - min) / median). Batch rows (x16) hash 16 messages per call and are
 * reported per message.
 *
 *   speedtest [--size BYTES] [--iterations N] [--repetitions R] [--filter TEXT] [ITERATIONS]
 *
 * ITERATIONS, as in btrfs's `hash-speedtest [iterations]`, is the same as --iterations.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arborhash.h"
#include "harness.h"

#if defined(__x86_64__)
#include <x86intrin.h>
static uint64_t cycles(void) {
  _mm_lfence();
  uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
}
#define HAVE_CYCLES 1
#else
static uint64_t cycles(void) { return 0; }
#define HAVE_CYCLES 0
#endif

static uint64_t nanos(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void null_nop(const uint8_t *buf, size_t len, uint8_t *out) {
  (void)buf;
  (void)len;
  (void)out;
}

static uint8_t copy_target[1 << 24];

static void null_memcpy(const uint8_t *buf, size_t len, uint8_t *out) {
  (void)out;
  memcpy(copy_target, buf, len < sizeof copy_target ? len : sizeof copy_target);
}

static const contestant baselines[] = {
    {"NULL-NOP", "-", "-", 1, null_nop},
    {"NULL-MEMCPY", "-", "-", 1, null_memcpy},
};

typedef struct {
  const contestant *c;
  double *cycles, *nanos; /* per message, one per repetition */
} row;

/* Times one loop of `iterations` calls; the digest's first byte feeds a sink so the calls
 * cannot be dropped. */
static volatile uint8_t sink;

static void time_loop(const contestant *c, const uint8_t *buf, size_t size, uint64_t iterations,
                      double *cyc, double *ns) {
  uint8_t out[BATCH * 64];
  memset(out, 0, sizeof out);
  uint64_t n0 = nanos(), c0 = cycles();
  for (uint64_t i = 0; i < iterations; i++) {
    c->run(buf, size, out);
    sink ^= out[0];
  }
  uint64_t c1 = cycles(), n1 = nanos();
  double per = (double)iterations * c->messages;
  *cyc = (double)(c1 - c0) / per;
  *ns = (double)(n1 - n0) / per;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of v (sorted in place) and the spread (max - min) / median in percent. */
static double median(double *v, int n, double *spread) {
  qsort(v, (size_t)n, sizeof *v, compare);
  double m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  *spread = m > 0 ? 100 * (v[n - 1] - v[0]) / m : 0;
  return m;
}

/* Whether the row's "name implementation api" contains one of the comma-separated filter
 * texts (case-insensitive). */
static int matches(const contestant *c, const char *filter) {
  if (filter == NULL) return 1;
  char label[256], alternatives[256];
  snprintf(label, sizeof label, "%s %s %s", c->name, c->implementation, c->api);
  snprintf(alternatives, sizeof alternatives, "%s", filter);
  for (char *save, *alt = strtok_r(alternatives, ",", &save); alt; alt = strtok_r(NULL, ",", &save)) {
    if (strcasestr(label, alt)) return 1;
  }
  return 0;
}

static void cpu_model(char *model, size_t len) {
  snprintf(model, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) == 0 && colon) {
      snprintf(model, len, "%s", colon + 2);
      model[strcspn(model, "\n")] = 0;
      break;
    }
  }
  fclose(f);
}

static const char usage[] =
    "usage: speedtest [--size BYTES] [--iterations N] [--repetitions R] [--filter TEXT] "
    "[ITERATIONS]\n";

/* The decimal number `text` into `*value`: 0 unless it is all digits and at most `max`. */
static int parse_count(const char *text, uint64_t max, uint64_t *value) {
  uint64_t v = 0;
  if (*text == 0) return 0;
  for (const char *p = text; *p; p++) {
    if (*p < '0' || *p > '9' || v > (max - (uint64_t)(*p - '0')) / 10) return 0;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  *value = v;
  return 1;
}

/* Exits with status 1 and a message naming the option whose value is bad. */
static void bad_value(const char *option, const char *value, const char *rule) {
  fprintf(stderr, "speedtest: %s %s: %s\n%s", option, value, rule, usage);
  exit(1);
}

int main(int argc, char **argv) {
  /* Each of the 16 batch messages is `size` bytes: 64 MiB caps the buffer at 1 GiB. */
  const uint64_t max_size = (uint64_t)1 << 26;
  size_t size = 4096;
  uint64_t iterations = 10000, value_u64;
  int repetitions = 5;
  const char *filter = NULL;
  int positional = 0;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--size") == 0 && value) {
      if (!parse_count(value, max_size, &value_u64)) bad_value("--size", value, "0 to 67108864 bytes");
      size = (size_t)value_u64;
      i++;
    } else if (strcmp(argv[i], "--iterations") == 0 && value) {
      if (!parse_count(value, UINT64_MAX, &iterations) || iterations == 0)
        bad_value("--iterations", value, "a positive integer");
      i++;
    } else if (strcmp(argv[i], "--repetitions") == 0 && value) {
      if (!parse_count(value, 1000, &value_u64) || value_u64 == 0)
        bad_value("--repetitions", value, "1 to 1000");
      repetitions = (int)value_u64;
      i++;
    } else if (strcmp(argv[i], "--filter") == 0 && value) {
      filter = argv[++i];
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (argv[i][0] != '-' && !positional) {
      if (!parse_count(argv[i], UINT64_MAX, &iterations) || iterations == 0)
        bad_value("iterations", argv[i], "a positive integer");
      positional = 1;
    } else {
      fprintf(stderr, "speedtest: unexpected argument %s\n%s", argv[i], usage);
      return 1;
    }
  }

  const table tables[] = {
      {baselines, sizeof baselines / sizeof baselines[0]},
      other_peers,
      libb2_blake2,
#ifndef NO_OFFICIAL_BLAKE3
      official_blake3,
#endif
      arborhash_blake2,
      arborhash_blake3,
      arborhash_extra,
  };
  row rows[64];
  int n = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    for (size_t i = 0; i < tables[t].count && n < 64; i++) {
      if (!matches(&tables[t].rows[i], filter)) continue;
      rows[n].c = &tables[t].rows[i];
      rows[n].cycles = calloc((size_t)repetitions, sizeof(double));
      rows[n].nanos = calloc((size_t)repetitions, sizeof(double));
      n++;
    }
  }

  /* One workload for every row: BATCH messages; single-message rows hash the first. */
  uint8_t *buf = malloc(BATCH * size + 1);
  if (buf == NULL) {
    fprintf(stderr, "speedtest: cannot allocate %zu bytes\n", BATCH * size + 1);
    return 1;
  }
  for (size_t i = 0; i < BATCH * size; i++) buf[i] = (uint8_t)(i * 131 + 7);
  double c, ns;
  for (int r = 0; r < n; r++) time_loop(rows[r].c, buf, size, iterations / 10 + 1, &c, &ns);
  for (int rep = 0; rep < repetitions; rep++) {
    for (int r = 0; r < n; r++) {
      time_loop(rows[r].c, buf, size, iterations, &rows[r].cycles[rep], &rows[r].nanos[rep]);
    }
  }

  char model[256];
  cpu_model(model, sizeof model);
  printf("CPU: %s\narborhash backend: %s\n", model, arborhash_backend());
  printf("size %zu B, %llu iterations, median of %d interleaved repetitions after a warm-up; %s; "
         "batch rows (x%d) are per message\n\n",
         size, (unsigned long long)iterations, repetitions,
         HAVE_CYCLES ? "time-stamp counter cycles" : "no cycle counter", BATCH);
  printf("%-12s %-18s %-27s %11s %11s %8s %7s\n", "contestant", "implementation", "api",
         "cycles/iter", "cycles/byte", "MB/s", "spread");
  for (int r = 0; r < n; r++) {
    double spread_c, spread_n;
    double mc = median(rows[r].cycles, repetitions, &spread_c);
    double mn = median(rows[r].nanos, repetitions, &spread_n);
    printf("%-12s %-18s %-27s %11.0f %11.2f %8.0f %6.1f%%\n", rows[r].c->name,
           rows[r].c->implementation, rows[r].c->api, mc, mc / (double)(size ? size : 1),
           mn > 0 ? (double)size / mn * 1e3 : 0, HAVE_CYCLES ? spread_c : spread_n);
    free(rows[r].cycles);
    free(rows[r].nanos);
  }
  free(buf);
  return 0;
}
