#include "welch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void welch_push(welch *w, int cls, double x)
{
    double delta = x - w->mean[cls];
    w->n[cls] += 1;
    w->mean[cls] += delta / w->n[cls];
    w->m2[cls] += delta * (x - w->mean[cls]);
}

double welch_t(const welch *w)
{
    if (w->n[0] < 2 || w->n[1] < 2)
        return 0;
    double diff = w->mean[0] - w->mean[1];
    double se = sqrt(w->m2[0] / (w->n[0] - 1) / w->n[0] +
                     w->m2[1] / (w->n[1] - 1) / w->n[1]);
    if (se == 0)
        return diff == 0 ? 0 : copysign(INFINITY, diff);
    return diff / se;
}

double welch_crop_percentile(int i)
{
    return 1 - pow(0.5, 10.0 * (i + 1) / WELCH_CROPS);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void welch_battery_init(welch_battery *b, uint64_t *sample, size_t n)
{
    memset(b, 0, sizeof *b);
    qsort(sample, n, sizeof *sample, compare_u64);
    for (int i = 0; i < WELCH_CROPS; i++) {
        size_t at = (size_t)(welch_crop_percentile(i) * (double)n);
        uint64_t threshold = sample[at < n ? at : n - 1];
        /* Percentiles ascend, so a new threshold is above the last. */
        if (!b->n_levels || threshold != b->level_threshold[b->n_levels - 1])
            b->level_threshold[b->n_levels++] = threshold;
        b->crop_level[i] = (uint8_t)(b->n_levels - 1);
    }
}

void welch_battery_push(welch_battery *b, int cls, uint64_t x)
{
    welch_push(&b->raw, cls, (double)x);
    for (size_t j = b->n_levels; j-- > 0 && x < b->level_threshold[j];)
        welch_push(&b->level[j], cls, (double)x);
}

static int enough(const welch *w)
{
    return w->n[0] >= WELCH_ENOUGH && w->n[1] >= WELCH_ENOUGH;
}

welch_max welch_battery_max(const welch_battery *b)
{
    welch_max m = { fabs(welch_t(&b->raw)), -1, 0, 0 };
    for (int i = 0; i < WELCH_CROPS; i++) {
        const welch *w = &b->level[b->crop_level[i]];
        double t = fabs(welch_t(w));
        if (enough(w) && t > m.abs_t)
            m = (welch_max){ t, i, b->level_threshold[b->crop_level[i]],
                             100 * welch_crop_percentile(i) };
    }
    return m;
}

uint64_t welch_battery_count(const welch_battery *b)
{
    return (uint64_t)(b->raw.n[0] + b->raw.n[1]);
}
