#include "pair_rounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/external/external.h"
#include "timer.h"

void pair_rounds_init(pair_rounds *p, unsigned rounds)
{
    /* the arrays' bound (--pair-rounds is refused beyond it already) */
    *p = (pair_rounds){ .rounds = rounds > PAIR_ROUNDS_MAX ? PAIR_ROUNDS_MAX
                                                           : rounds };
}

void pair_rounds_free(pair_rounds *p)
{
    free(p->pairs);
    p->pairs = NULL;
    p->n = p->capacity = 0;
}

const kernel *pair_rounds_ours(const kernel *k)
{
    const kernel *ours = external_kernel(k) ? k->reference : NULL;
    /* a chain, not a loop: the registry's references end at a kernel of
     * ours or at an external one with none */
    while (ours && external_kernel(ours))
        ours = ours->reference;
    return ours;
}

size_t pair_rounds_sizes(const size_t *sizes, size_t n,
                         size_t out[PAIR_ROUND_N_SIZES])
{
    static const size_t wanted[PAIR_ROUND_N_SIZES] = PAIR_ROUND_SIZES;
    size_t chosen = 0;
    for (size_t w = 0; w < PAIR_ROUND_N_SIZES && n; w++) {
        size_t best = sizes[0];
        double distance = INFINITY;
        for (size_t i = 0; i < n; i++) {
            double d = fabs(log((double)sizes[i] / (double)wanted[w]));
            /* ties to the smaller, as the summary's nearest_sizes
             * (peers.py) breaks them */
            if (d < distance || (d == distance && sizes[i] < best)) {
                distance = d;
                best = sizes[i];
            }
        }
        int repeat = 0;
        for (size_t i = 0; i < chosen; i++)
            repeat |= out[i] == best;
        if (!repeat)
            out[chosen++] = best;
    }
    return chosen;
}

int pair_rounds_add(pair_rounds *p, const timed_row *ours,
                    const timed_row *peer, size_t len)
{
    if (p->n == p->capacity) {
        size_t capacity = p->capacity ? 2 * p->capacity : 16;
        pair_entry *grown = realloc(p->pairs, capacity * sizeof *grown);
        if (!grown)
            return -1;
        p->pairs = grown;
        p->capacity = capacity;
    }
    p->pairs[p->n++] = (pair_entry){ .side = { *ours, *peer }, .len = len };
    return 0;
}

double pair_rounds_seconds(unsigned rounds, size_t pairs)
{
    return rounds * (double)pairs *
           (PAIR_ROUND_SECONDS + 2 * SAMPLER_WARMUP_SECONDS);
}

void pair_rounds_schedule(pair_rounds *p, size_t n_benchmarks)
{
    for (unsigned r = 0; r < p->rounds; r++)
        p->after[r] = p->rounds == 1
                          ? n_benchmarks / 2
                          : r * n_benchmarks / (p->rounds - 1);
    p->start = timer_start();
}

static void run_round(pair_rounds *p, unsigned round)
{
    double tsc_hz = timer_get_info()->tsc_hz;
    paired_config c = paired_default_config(tsc_hz, PAIR_ROUND_SECONDS);
    uint64_t t0 = timer_start();
    p->at[round] = (double)(t0 - p->start) / tsc_hz;
    fprintf(stderr, "pair round %u/%u: %zu pair%s of ours and a peer in "
            "turn, about %.1f s\n", round + 1, p->rounds, p->n,
            p->n == 1 ? "" : "s", pair_rounds_seconds(1, p->n));
    for (size_t i = 0; i < p->n; i++) {
        pair_entry *e = &p->pairs[i];
        uint64_t pair_start = timer_start();
        e->measured[round] =
            timed_kernel_pair(e->side, e->len, &c, &e->result[round]) == 0;
        e->seconds[round] = (double)(timer_start() - pair_start) / tsc_hz;
        if (!e->measured[round])
            fprintf(stderr, "pair round %u: %s@%s against %s at %zu B left "
                    "out: out of memory for its buffers or samples\n",
                    round + 1, e->side[0].k->name, e->side[0].v->isa,
                    e->side[1].k->name, e->len);
    }
}

double pair_rounds_run_due(pair_rounds *p, size_t started)
{
    uint64_t t0 = timer_start();
    while (p->n && p->done < p->rounds && p->after[p->done] <= started)
        run_round(p, p->done++);
    return (double)(timer_start() - t0) / timer_get_info()->tsc_hz;
}

void pair_rounds_describe(const pair_rounds *p, char *buf, size_t len)
{
    if (!p->rounds) {
        snprintf(buf, len, "none (--pair-rounds=0)");
        return;
    }
    if (!p->n) {
        snprintf(buf, len, "none: no kernel of ours and a peer of it in "
                 "this run");
        return;
    }
    int used = snprintf(buf, len, "%u round%s of %zu pairs (each kernel of "
                        "ours at its first row in the run against each "
                        "peer, in turn in %.0f ms blocks for %.2f s a pair), "
                        "after benchmarks", p->rounds,
                        p->rounds == 1 ? "" : "s", p->n,
                        SAMPLER_BLOCK_SECONDS * 1e3, PAIR_ROUND_SECONDS);
    for (unsigned r = 0; r < p->rounds && used > 0 && (size_t)used < len; r++)
        used += snprintf(buf + used, len - (size_t)used, "%s%zu",
                         r ? ", " : " ", p->after[r]);
}

char *pair_rounds_json(const pair_rounds *p)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    int first = 1;
    if (!f)
        return NULL;
    fputs("[", f);
    for (unsigned r = 0; r < p->done; r++)
        for (size_t i = 0; i < p->n; i++) {
            const pair_entry *e = &p->pairs[i];
            const paired_names names = { e->side[0].k->name,
                                         e->side[0].v->isa,
                                         e->side[1].k->name,
                                         e->side[1].v->isa };
            if (!e->measured[r])
                continue;
            fprintf(f, "%s\n    {\"round\": %u, \"after_benchmarks\": %zu, "
                    "\"at_seconds\": %.1f, ", first ? "" : ",", r,
                    p->after[r], p->at[r]);
            paired_print_json(f, &names, e->len, e->seconds[r],
                              &e->result[r], ", ");
            fputs("}", f);
            first = 0;
        }
    fputs("\n  ]", f);
    if (fclose(f)) {
        free(text);
        return NULL;
    }
    return text;
}
