/* Welch's t-test between two classes of measurements, computed online, and
 * dudect's battery of them (Reparaz, Balasch and Verbauwhede, "dude, is my
 * code constant time?", DATE 2017): one test on the raw timings and one per
 * cropping threshold, each on the timings below its threshold only.
 *
 * Cropping discards the long upper tail (interrupts, another process on
 * the CPU) that hides a small difference between the classes; the
 * thresholds spread from the 7th to the 99.9th percentile of a calibration
 * sample, so some test crops at the right place whatever the shape.
 *
 * Memory is fixed: a running count, mean and sum of squared deviations per
 * class and test (Welford's update), whatever the number of measurements. */
#ifndef CYCLEBENCH_WELCH_H
#define CYCLEBENCH_WELCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct welch {
    double n[2], mean[2], m2[2];
} welch;

/* Add x to class cls (0 or 1). */
void welch_push(welch *w, int cls, double x);
/* Welch's t statistic (mean of class 0 minus class 1, over the standard
 * error); 0 while a class has fewer than two values. */
double welch_t(const welch *w);

/* dudect's number of cropping thresholds. */
#define WELCH_CROPS 100
/* A test counts towards the largest |t| once each of its classes has this
 * many values (dudect's figure); below it, t is too noisy to read. The raw
 * test always counts. */
#define WELCH_ENOUGH 10000

/* Timings are whole TSC ticks, often in steps of many, so crops often
 * share a threshold: those share one test (a level), which keeps a push
 * down to the distinct thresholds above the value. */
typedef struct welch_battery {
    welch raw;
    welch level[WELCH_CROPS];
    uint64_t level_threshold[WELCH_CROPS]; /* ascending; keep values below */
    size_t n_levels;
    uint8_t crop_level[WELCH_CROPS];       /* crop i's level */
} welch_battery;

/* Thresholds from a calibration sample (sorted in place; n > 0), every
 * test empty. */
void welch_battery_init(welch_battery *b, uint64_t *sample, size_t n);
void welch_battery_push(welch_battery *b, int cls, uint64_t x);

typedef struct welch_max {
    double abs_t;       /* the largest |t| of the tests that count */
    int crop;           /* its test: -1 the raw one, else a crop index */
    uint64_t threshold; /* that crop's threshold (0 for the raw test) */
    double percentile;  /* and its percentile, 0-100 */
} welch_max;

welch_max welch_battery_max(const welch_battery *b);
/* Measurements in the raw test: every one pushed. */
uint64_t welch_battery_count(const welch_battery *b);

/* The percentile (0-1) of crop i: 1 - 0.5^(10 (i + 1) / WELCH_CROPS),
 * dense near the top, as in dudect. */
double welch_crop_percentile(int i);

#endif
