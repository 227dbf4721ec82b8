/* Tor's CGO: all 44 vectors of C tor's cgo_vectors.inc (tests/vectors/
 * cgo_vectors.json) on every row, layer by layer (ET, PRF, UIV+ and its
 * update) and operation by operation (relay forward and backward, relay
 * originate, a client originating over three hops), with the states they
 * leave; then every row against generic on circuits of three hops whose
 * cells go both ways, originated ones (which rekey both ends, mid-sequence)
 * among random ones; misaligned and in-place payloads; the x4 operation
 * against four single ones; and the registry kernels' contract: known
 * answers, self-tests, runs of cells carrying state, four circuits' keys,
 * and the lengths they refuse. */
#include <stdlib.h>
#include <string.h>

#include "../../kernels/cgo/cgo.h"
#include "../../kernels/registry.h"
#include "check.h"
#include "vectors.h"

#define CELL CGO_PAYLOAD_BYTES
#define HOPS 3
#define EVENTS 60

static int usable(const cgo_impl *impl)
{
    if (cpu_supports(impl->v.required))
        return 1;
    SKIP("%s not supported by this CPU", impl->v.isa);
    return 0;
}

static const cgo_impl *generic_row(void)
{
    const cgo_impl *impl = cgo_impls;
    while (impl[1].v.isa)
        impl++;
    return impl;
}

/* A field of a vector as bytes, into out (at most cap); its length. */
static size_t field(const json_t *t, const char *name, uint8_t *out, size_t cap)
{
    size_t len;
    uint8_t *bytes = hex_decode(vector_string(t, name), &len);
    if (len > cap)
        len = cap;
    memcpy(out, bytes, len);
    free(bytes);
    return len;
}

/* Whether u holds the keys a setup from keys by the same row gives, by
 * what they do (the rows keep their schedules in forms of their own: the
 * ssse3 AES in another basis, generic POLYVAL without powers): the same
 * payload through UIV+ both ways, which uses all four keys, comes out the
 * same. */
static int uiv_has_keys(const cgo_uiv *u, const cgo_impl *impl,
                        const uint8_t keys[CGO_UIV_KEY_BYTES])
{
    static cgo_uiv want;
    uint8_t in[CELL], got[CELL], expect[CELL], h[16];
    uint64_t seed = 77;
    int same = 1;
    check_fill_random(in, CELL, &seed);
    check_fill_random(h, 16, &seed);
    cgo_uiv_setup(&want, impl, keys);
    for (int dir = 0; dir < 2; dir++) {
        cgo_uiv_fn *fn = dir ? impl->decrypt : impl->encrypt;
        fn(u, h, 2, got, in, NULL);
        fn(&want, h, 2, expect, in, NULL);
        same &= memcmp(got, expect, CELL) == 0;
    }
    return same;
}

/* A hop from a vector's {keys, nonce, tprime}. */
static void hop_from(cgo_hop *hop, const cgo_impl *impl, const json_t *state)
{
    uint8_t key[CGO_KEY_BYTES], tprime[16];
    field(state, "keys", key, CGO_UIV_KEY_BYTES);
    field(state, "nonce", key + CGO_UIV_KEY_BYTES, 16);
    field(state, "tprime", tprime, 16);
    cgo_hop_setup(hop, impl, key, tprime);
}

/* hop's state == the vector's {keys, nonce, tprime}. */
static int state_is(const cgo_hop *hop, const json_t *state)
{
    uint8_t want[CGO_UIV_KEY_BYTES], nonce[16], tprime[16];
    field(state, "keys", want, sizeof want);
    field(state, "nonce", nonce, 16);
    field(state, "tprime", tprime, 16);
    return uiv_has_keys(&hop->uiv, hop->impl, want) &&
           memcmp(hop->nonce, nonce, 16) == 0 &&
           memcmp(hop->tprime, tprime, 16) == 0;
}

static const json_t *group(const json_t *doc, const char *name, size_t n)
{
    const json_t *g = json_object_get(doc, name);
    CHECK(g && json_is_array(g) && json_array_size(g) == n,
          "%s: expected %zu vectors", name, n);
    return g && json_is_array(g) ? g : NULL;
}

/* Layers */

static size_t test_et(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "et", 4);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t keys[CGO_UIV_KEY_BYTES] = { 0 }, tweak[16 + 1 + CGO_X_R_BYTES],
            block[16], want[16];
        cgo_uiv u;
        field(t, "keys_kb_ku", keys, 32);
        CHECK(field(t, "tweak", tweak, sizeof tweak) == sizeof tweak,
              "et %zu: tweak length", i);
        field(t, "block", block, 16);
        field(t, "expect", want, 16);
        cgo_uiv_setup(&u, impl, keys);
        if (json_is_true(json_object_get(t, "encrypt")))
            cgo_et_encrypt(&u, tweak, tweak[16], tweak + 17, block);
        else
            cgo_et_decrypt(&u, tweak, tweak[16], tweak + 17, block);
        CHECK(memcmp(block, want, 16) == 0, "et %zu: got %s", i,
              check_hex(block, 16));
    }
    return g ? json_array_size(g) : 0;
}

static size_t test_prf(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "prf", 10);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t keys[CGO_UIV_KEY_BYTES] = { 0 }, input[16], got[CGO_X_R_BYTES],
            want[CGO_X_R_BYTES];
        int t1 = json_integer_value(json_object_get(t, "t")) != 0;
        cgo_uiv u;
        field(t, "keys_k_b", keys + 32, 32);
        field(t, "input", input, 16);
        size_t len = field(t, "expect", want, sizeof want);
        CHECK(len == (t1 ? 80u : (size_t)CGO_X_R_BYTES), "prf %zu: length %zu",
              i, len);
        cgo_uiv_setup(&u, impl, keys);
        memset(got, 0, sizeof got);
        cgo_prf_xor(&u, input, t1 ? CGO_PRF_T1_OFFSET : 0, got, len);
        CHECK(memcmp(got, want, len) == 0, "prf %zu (t = %d): got %s", i, t1,
              check_hex(got, len));
    }
    return g ? json_array_size(g) : 0;
}

/* UIV+ through the row's own function, aligned, in place and misaligned. */
static size_t test_uiv(const cgo_impl *impl, const json_t *doc)
{
    static uint8_t in[CELL + 64], out[CELL + 64];
    const json_t *g = group(doc, "uiv", 8);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t keys[CGO_UIV_KEY_BYTES], h[17], x[CELL], want[CELL];
        int encrypt = json_is_true(json_object_get(t, "encrypt"));
        cgo_uiv_fn *fn = encrypt ? impl->encrypt : impl->decrypt;
        cgo_uiv u;
        field(t, "keys_j_s", keys, sizeof keys);
        field(t, "tweak_h", h, sizeof h);
        field(t, "x_l", x, 16);
        field(t, "x_r", x + 16, CGO_X_R_BYTES);
        field(t, "y_l", want, 16);
        field(t, "y_r", want + 16, CGO_X_R_BYTES);
        cgo_uiv_setup(&u, impl, keys);
        for (size_t off = 0; off < 64; off += 21) {
            memcpy(in + off, x, CELL);
            fn(&u, h, h[16], out + (63 - off), in + off, NULL);
            CHECK(memcmp(out + (63 - off), want, CELL) == 0,
                  "uiv %zu (%s), in at +%zu, out at +%zu", i,
                  encrypt ? "encrypt" : "decrypt", off, 63 - off);
            fn(&u, h, h[16], in + off, in + off, NULL);
            CHECK(memcmp(in + off, want, CELL) == 0, "uiv %zu in place at +%zu",
                  i, off);
        }
    }
    return g ? json_array_size(g) : 0;
}

static size_t test_uiv_update(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "uiv_update", 5);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t keys[CGO_UIV_KEY_BYTES], nonce[16], want[CGO_UIV_KEY_BYTES],
            want_nonce[16];
        static cgo_uiv u;
        field(t, "keys_j_s", keys, sizeof keys);
        field(t, "nonce", nonce, 16);
        field(t, "new_keys", want, sizeof want);
        field(t, "new_nonce", want_nonce, 16);
        cgo_uiv_setup(&u, impl, keys);
        cgo_uiv_update(&u, nonce);
        CHECK(uiv_has_keys(&u, impl, want), "uiv_update %zu: keys", i);
        CHECK(memcmp(nonce, want_nonce, 16) == 0, "uiv_update %zu: nonce %s",
              i, check_hex(nonce, 16));
    }
    return g ? json_array_size(g) : 0;
}

/* Operations */

static void cell_of(const json_t *t, const char *first, const char *rest,
                    uint8_t cell[CELL])
{
    memset(cell, 0, 16);
    if (first)
        field(t, first, cell, 16);
    field(t, rest, cell + 16, CGO_X_R_BYTES);
}

static uint8_t command_of(const json_t *t)
{
    uint8_t cmd;
    field(t, "cmd", &cmd, 1);
    return cmd;
}

static size_t test_relay(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "relay", 7);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t in[CELL], want[CELL], got[CELL];
        int inbound = json_is_true(json_object_get(t, "inbound"));
        cgo_hop hop;
        hop_from(&hop, impl, json_object_get(t, "state_in"));
        cell_of(t, "tag", "msg", in);
        cell_of(t, "t_out", "msg_out", want);
        if (inbound)
            cgo_relay_backward(&hop, command_of(t), got, in, NULL);
        else
            CHECK(cgo_relay_forward(&hop, command_of(t), got, in, NULL) == 0,
                  "relay %zu recognized", i);
        CHECK(memcmp(got, want, CELL) == 0, "relay %zu (%s): got %s", i,
              inbound ? "backward" : "forward", check_hex(got, 32));
        CHECK(state_is(&hop, json_object_get(t, "state_out")),
              "relay %zu: state", i);
    }
    return g ? json_array_size(g) : 0;
}

static size_t test_relay_originate(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "relay_originate", 4);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        uint8_t in[CELL], want[CELL], got[CELL];
        cgo_hop hop;
        hop_from(&hop, impl, json_object_get(t, "state_in"));
        cell_of(t, NULL, "msg", in);
        memset(in, 0xa5, 16); /* ignored: the nonce goes there */
        cell_of(t, "t_out", "msg_out", want);
        cgo_relay_originate(&hop, command_of(t), got, in, NULL);
        CHECK(memcmp(got, want, CELL) == 0, "relay_originate %zu: got %s", i,
              check_hex(got, 32));
        CHECK(state_is(&hop, json_object_get(t, "state_out")),
              "relay_originate %zu: state", i);
    }
    return g ? json_array_size(g) : 0;
}

/* The target hop's layer, then those of the hops before it, outermost
 * (hop 1) last. */
static size_t test_client_originate(const cgo_impl *impl, const json_t *doc)
{
    const json_t *g = group(doc, "client_originate", 6);
    for (size_t i = 0; g && i < json_array_size(g); i++) {
        const json_t *t = json_array_get(g, i);
        const json_t *in_states = json_object_get(t, "state_in"),
                     *out_states = json_object_get(t, "state_out");
        int target = (int)json_integer_value(json_object_get(t, "target_hop"));
        uint8_t cell[CELL], want[CELL];
        cgo_hop hop[HOPS];
        for (int h = 0; h < HOPS; h++)
            hop_from(&hop[h], impl, json_array_get(in_states, h));
        cell_of(t, NULL, "msg", cell);
        cell_of(t, "t_out", "msg_out", want);
        cgo_client_originate(&hop[target - 1], command_of(t), cell, cell, NULL);
        for (int h = target - 2; h >= 0; h--)
            cgo_client_forward(&hop[h], command_of(t), cell, cell, NULL);
        CHECK(memcmp(cell, want, CELL) == 0,
              "client_originate %zu (hop %d): got %s", i, target,
              check_hex(cell, 32));
        for (int h = 0; h < HOPS; h++)
            CHECK(state_is(&hop[h], json_array_get(out_states, h)),
                  "client_originate %zu: hop %d's state", i, h + 1);
    }
    return g ? json_array_size(g) : 0;
}

static void test_vectors(const cgo_impl *impl, const json_t *doc)
{
    CASE("cgo C tor's 44 vectors, every layer and operation @%s", impl->v.isa);
    if (!usable(impl) || !CHECK(doc, "no tests/vectors/cgo_vectors.json"))
        return;
    size_t n = test_et(impl, doc) + test_prf(impl, doc) + test_uiv(impl, doc) +
               test_uiv_update(impl, doc) + test_relay(impl, doc) +
               test_relay_originate(impl, doc) +
               test_client_originate(impl, doc);
    CHECK(n == 44, "%zu vectors ran, expected 44", n);
}

/* Circuits: a client and HOPS relays from random key material, cells both
 * ways. The same events (one seed) are run on the row under test and on
 * generic, and every payload and flag must agree; the protocol must hold
 * too (each originated cell recognized at its hop and nowhere before,
 * its payload arriving intact), which it only does if both ends rekeyed
 * alike. */

typedef struct circuit {
    cgo_hop client_fwd[HOPS], client_back[HOPS], relay_fwd[HOPS],
        relay_back[HOPS];
} circuit;

static void circuit_setup(circuit *c, const cgo_impl *impl, uint64_t seed)
{
    for (int h = 0; h < HOPS; h++) {
        uint8_t fwd[CGO_KEY_BYTES], back[CGO_KEY_BYTES];
        check_fill_random(fwd, sizeof fwd, &seed);
        check_fill_random(back, sizeof back, &seed);
        cgo_hop_setup(&c->client_fwd[h], impl, fwd, NULL);
        cgo_hop_setup(&c->relay_fwd[h], impl, fwd, NULL);
        cgo_hop_setup(&c->client_back[h], impl, back, NULL);
        cgo_hop_setup(&c->relay_back[h], impl, back, NULL);
    }
}

/* One event; the payloads seen on the way appended to log. Returns 0 when
 * the protocol held. */
static int circuit_event(circuit *c, uint64_t *seed, uint8_t *log,
                         size_t *logged)
{
    uint8_t cell[CELL], sent[CELL];
    uint64_t r = check_random(seed);
    uint8_t cmd = (uint8_t)(r >> 8);
    int target = (int)((r >> 16) % HOPS), ok = 1;
    check_fill_random(sent, CELL, seed);
    memcpy(cell, sent, CELL);
    switch (r % 3) {
    case 0: /* the client originates for hop target */
        cgo_client_originate(&c->client_fwd[target], cmd, cell, cell, NULL);
        for (int h = target - 1; h >= 0; h--)
            cgo_client_forward(&c->client_fwd[h], cmd, cell, cell, NULL);
        for (int h = 0; h <= target; h++) {
            memcpy(log + *logged, cell, CELL);
            *logged += CELL;
            int recognized =
                cgo_relay_forward(&c->relay_fwd[h], cmd, cell, cell, NULL);
            ok &= recognized == (h == target);
        }
        ok &= memcmp(cell + 16, sent + 16, CGO_X_R_BYTES) == 0;
        break;
    case 1: /* hop target originates for the client */
        cgo_relay_originate(&c->relay_back[target], cmd, cell, cell, NULL);
        for (int h = target - 1; h >= 0; h--)
            cgo_relay_backward(&c->relay_back[h], cmd, cell, cell, NULL);
        for (int h = 0; h <= target; h++) {
            memcpy(log + *logged, cell, CELL);
            *logged += CELL;
            int recognized =
                cgo_client_backward(&c->client_back[h], cmd, cell, cell, NULL);
            ok &= recognized == (h == target);
            if (recognized)
                break;
        }
        ok &= memcmp(cell + 16, sent + 16, CGO_X_R_BYTES) == 0;
        break;
    default: { /* a random cell at the first relay: never recognized; on
                * a copy of its state, since the tag chain makes any cell
                * the client did not send break the circuit from there on */
        cgo_hop copy = c->relay_fwd[0];
        ok &= !cgo_relay_forward(&copy, cmd, cell, cell, NULL);
        memcpy(log + *logged, cell, CELL);
        *logged += CELL;
    }
    }
    return ok;
}

static void test_circuits(const cgo_impl *impl)
{
    static uint8_t want[EVENTS * (HOPS + 1) * CELL],
        got[EVENTS * (HOPS + 1) * CELL];
    static circuit a, b;
    CASE("cgo @%s == generic on 3-hop circuits, both ways, rekeying "
         "mid-sequence", impl->v.isa);
    if (!usable(impl))
        return;
    for (uint64_t trial = 1; trial <= 4; trial++) {
        uint64_t seed_a = trial * 1000, seed_b = seed_a;
        size_t n_a = 0, n_b = 0;
        int ok_a = 1, ok_b = 1;
        circuit_setup(&a, generic_row(), trial);
        circuit_setup(&b, impl, trial);
        for (int e = 0; e < EVENTS; e++) {
            ok_a &= circuit_event(&a, &seed_a, want, &n_a);
            ok_b &= circuit_event(&b, &seed_b, got, &n_b);
        }
        CHECK(ok_a, "trial %llu: generic broke the protocol",
              (unsigned long long)trial);
        CHECK(ok_b, "trial %llu: the protocol broke", (unsigned long long)trial);
        CHECK(n_a == n_b && memcmp(want, got, n_a) == 0,
              "trial %llu: payloads differ from generic",
              (unsigned long long)trial);
        for (int h = 0; h < HOPS; h++)
            CHECK(memcmp(a.relay_fwd[h].nonce, b.relay_fwd[h].nonce, 16) == 0 &&
                      memcmp(a.client_back[h].tprime, b.client_back[h].tprime,
                             16) == 0,
                  "trial %llu hop %d: states differ", (unsigned long long)trial,
                  h + 1);
    }
}

/* Four circuits through the x4 operation == each through the single one;
 * every fourth cell is one the client originated, so a circuit rekeys
 * while the others do not. */
static void test_x4(const cgo_impl *impl)
{
    static circuit c[CGO_X4], d[CGO_X4];
    uint64_t seed = 99;
    CASE("cgo relay forward x4 @%s == four single circuits", impl->v.isa);
    if (!usable(impl))
        return;
    for (int i = 0; i < CGO_X4; i++) {
        circuit_setup(&c[i], impl, 50 + (uint64_t)i);
        circuit_setup(&d[i], impl, 50 + (uint64_t)i);
    }
    for (int round = 0; round < 24; round++) {
        uint8_t cells[CGO_X4][CELL], single[CGO_X4][CELL], cmd[CGO_X4];
        uint8_t *out[CGO_X4];
        const uint8_t *in[CGO_X4];
        cgo_hop *hop[CGO_X4];
        for (int i = 0; i < CGO_X4; i++) {
            cmd[i] = (uint8_t)check_random(&seed);
            check_fill_random(cells[i], CELL, &seed);
            memcpy(single[i], cells[i], CELL);
            if ((round + i) % 4 == 0) /* for hop 1, on both copies */
                cgo_client_originate(&c[i].client_fwd[0], cmd[i], cells[i],
                                     cells[i], NULL);
            out[i] = cells[i];
            in[i] = cells[i];
            hop[i] = &c[i].relay_fwd[0];
        }
        cgo_relay_forward_x4(hop, cmd, out, in);
        for (int i = 0; i < CGO_X4; i++) {
            if ((round + i) % 4 == 0)
                cgo_client_originate(&d[i].client_fwd[0], cmd[i], single[i],
                                     single[i], NULL);
            cgo_relay_forward(&d[i].relay_fwd[0], cmd[i], single[i],
                              single[i], NULL);
            CHECK(memcmp(cells[i], single[i], CELL) == 0 &&
                      memcmp(c[i].relay_fwd[0].nonce, d[i].relay_fwd[0].nonce,
                             16) == 0,
                  "round %d circuit %d differs", round, i);
        }
    }
}

/* The kernels */

static void test_kernels(void)
{
    static const kernel *const kernels[] = {
        &kernel_tor_cgo_relay_forward,   &kernel_tor_cgo_relay_backward,
        &kernel_tor_cgo_relay_originate, &kernel_tor_cgo_relay_forward_x4,
        &kernel_tor_cgo_client_forward,  &kernel_tor_cgo_client_backward,
        &kernel_tor_cgo_client_originate,
    };
    char err[256];
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
        const kernel *k = kernels[i];
        const isa_variant *v;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
            CASE("%s@%s: known answer and self-test", k->name, v->isa);
            if (!kernel_variant_usable(k, v)) {
                SKIP("%s not supported by this CPU", v->isa);
                continue;
            }
            CHECK(kernel_self_test(k, v, err, sizeof err) == 0, "%s", err);
        }
    }
}

/* A kernel run over three cells == three runs of one cell carrying the
 * state (prepared); originate rekeys between them. */
static void test_kernel_runs(const cgo_impl *impl)
{
    const kernel *k = &kernel_tor_cgo_relay_originate;
    uint8_t in[3 * CELL], once[3 * CELL], each[3 * CELL];
    uint64_t seed = 3;
    kernel_args a, fresh;
    CASE("tor-cgo-relay-originate@%s: one run of 3 cells == 3 runs carrying "
         "state", impl->v.isa);
    if (!usable(impl))
        return;
    kernel_bench_args(k, &a);
    fresh = a;
    check_fill_random(in, sizeof in, &seed);
    CHECK(k->run(k, &impl->v, &a, in, sizeof in, once) == 0, "run");
    kernel_prepare(k, &impl->v, &a);
    for (int c = 0; c < 3; c++)
        k->run(k, &impl->v, &a, in + CELL * c, CELL, each + CELL * c);
    kernel_release(k, &a);
    CHECK(memcmp(once, each, sizeof once) == 0, "cells differ");
    /* The second cell alone, on a fresh state, comes out otherwise. */
    k->run(k, &impl->v, &fresh, in + CELL, CELL, each);
    CHECK(memcmp(once + CELL, each, CELL) != 0, "no state carried");
}

/* tor-cgo-relay-forward-x4 with four circuits' keys == tor-cgo-relay-
 * forward with each. */
static void test_x4_kernel_keys(const cgo_impl *impl)
{
    const kernel *x4 = &kernel_tor_cgo_relay_forward_x4,
                 *one = &kernel_tor_cgo_relay_forward;
    uint8_t keys[CGO_X4 * CGO_KEY_BYTES], in[CGO_X4 * 2 * CELL],
        got[CGO_X4 * 2 * CELL], want[2 * CELL];
    uint64_t seed = 11;
    CASE("tor-cgo-relay-forward-x4@%s: four circuits' keys", impl->v.isa);
    if (!usable(impl))
        return;
    check_fill_random(keys, sizeof keys, &seed);
    check_fill_random(in, sizeof in, &seed);
    kernel_args a = { .key = KERNEL_BYTES(keys, sizeof keys),
                      .cmd = KERNEL_NUMBER(7) };
    CHECK(x4->run(x4, &impl->v, &a, in, 2 * CELL, got) == 0, "x4 run");
    for (int i = 0; i < CGO_X4; i++) {
        kernel_args b = { .key = KERNEL_BYTES(keys + CGO_KEY_BYTES * i,
                                              CGO_KEY_BYTES),
                          .cmd = KERNEL_NUMBER(7) };
        one->run(one, &impl->v, &b, in + 2 * CELL * i, 2 * CELL, want);
        CHECK(memcmp(got + 2 * CELL * i, want, 2 * CELL) == 0,
              "circuit %d differs", i);
    }
}

static void test_refusals(void)
{
    const kernel *k = &kernel_tor_cgo_relay_forward;
    uint8_t key[4 * CGO_KEY_BYTES] = { 0 }, tprime[17] = { 0 };
    char err[256];
    kernel_args a = { .key = KERNEL_BYTES(key, CGO_KEY_BYTES) };
    CASE("tor-cgo kernels refuse what Tor would not send");
    CHECK(kernel_check(k, &a, CELL, err, sizeof err) == 0, "509: %s", err);
    CHECK(kernel_check(k, &a, 3 * CELL, err, sizeof err) == 0, "1527: %s", err);
    CHECK(kernel_check(k, &a, 0, err, sizeof err) != 0, "0 bytes taken");
    CHECK(kernel_check(k, &a, CELL - 1, err, sizeof err) != 0, "508 taken");
    CHECK(kernel_check(k, &a, CELL + 1, err, sizeof err) != 0, "510 taken");
    CHECK(kernel_check(k, &a, 2 * CELL - 1, err, sizeof err) != 0,
          "1017 taken");
    a.key.len = CGO_KEY_BYTES - 1;
    CHECK(kernel_check(k, &a, CELL, err, sizeof err) != 0, "79-byte key");
    a.key.len = CGO_X4 * CGO_KEY_BYTES;
    CHECK(kernel_check(k, &a, CELL, err, sizeof err) != 0,
          "320-byte key taken by the single kernel");
    CHECK(kernel_check(&kernel_tor_cgo_relay_forward_x4, &a, CELL, err,
                       sizeof err) == 0, "x4, 320-byte key: %s", err);
    a.key.len = CGO_KEY_BYTES;
    a.tprime = KERNEL_BYTES(tprime, 17);
    CHECK(kernel_check(k, &a, CELL, err, sizeof err) != 0, "17-byte tprime");
}

int main(void)
{
    json_t *doc = vector_json("cgo_vectors.json");
    for (const cgo_impl *impl = cgo_impls; impl->v.isa; impl++) {
        test_vectors(impl, doc);
        test_circuits(impl);
        test_x4(impl);
        test_kernel_runs(impl);
        test_x4_kernel_keys(impl);
    }
    test_kernels();
    test_refusals();
    if (doc)
        json_decref(doc);
    return check_finish();
}
