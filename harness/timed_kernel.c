#include "timed_kernel.h"

#include <stdlib.h>
#include <string.h>

#include "gbench.h"
#include "timer.h"

/* Turns the plaintext in buf into its ciphertext (out is scratch of the
 * same length), so that a decryption is timed on what it would really get. */
static void encrypt_in_place(const kernel *k, const isa_variant *v,
                             kernel_args a, uint8_t *buf, size_t len,
                             uint8_t *out)
{
    a.decrypt = (kernel_value){ 0 };
    k->run(k, v, &a, buf, len, out);
    memcpy(buf, out, len * kernel_batch(k));
}

int timed_kernel_open(timed_kernel *t, const kernel *k, const isa_variant *v,
                      const kernel_args *a, size_t len)
{
    size_t batch = kernel_batch(k);
    *t = (timed_kernel){ .k = k, .v = v, .len = len, .a = *a };
    cpu_clear_upper_state(); /* whatever ran before */
    t->in = kernel_buffer(len * batch);
    t->out = kernel_buffer(kernel_out_len(k, a, len) * batch);
    if (!t->in || !t->out) {
        free(t->in);
        free(t->out);
        return -1;
    }
    kernel_fill_message(t->in, len * batch);
    if (t->a.decrypt.set)
        encrypt_in_place(k, v, t->a, t->in, len, t->out);
    kernel_prepare(k, v, &t->a);
    return 0;
}

void timed_kernel_close(timed_kernel *t)
{
    kernel_release(t->k, &t->a);
    free(t->in);
    free(t->out);
}

static uint64_t time_calls(void *ctx, uint64_t calls)
{
    const timed_kernel *t = ctx;
    const kernel *k = t->k;
    uint64_t overhead = timer_get_info()->overhead_ticks;
    uint64_t t0 = timer_start();
    for (uint64_t i = 0; i < calls; i++) {
        k->run(k, t->v, &t->a, t->in, t->len, t->out);
        gb_clobber_memory();
    }
    uint64_t ticks = timer_stop() - t0;
    return ticks > overhead ? ticks - overhead : 0;
}

static uint64_t tsc_now(void *ctx)
{
    (void)ctx;
    return timer_start();
}

sampler_source timed_kernel_source(timed_kernel *t)
{
    return (sampler_source){ time_calls, tsc_now, t };
}

int timed_kernel_pair(const timed_row side[2], size_t len,
                      const paired_config *c, paired_result *r)
{
    timed_kernel t[2];
    if (timed_kernel_open(&t[0], side[0].k, side[0].v, side[0].a, len))
        return -1;
    if (timed_kernel_open(&t[1], side[1].k, side[1].v, side[1].a, len)) {
        timed_kernel_close(&t[0]);
        return -1;
    }
    const sampler_source src[2] = { timed_kernel_source(&t[0]),
                                    timed_kernel_source(&t[1]) };
    const double bytes[2] = { (double)(len * kernel_batch(side[0].k)),
                              (double)(len * kernel_batch(side[1].k)) };
    int status = paired_run(c, src, bytes, r);
    timed_kernel_close(&t[0]);
    timed_kernel_close(&t[1]);
    return status;
}
