/* The registry kernels tor-cgo-{relay,client}-{forward,backward,originate}
 * and tor-cgo-relay-forward-x4: one hop's CGO state (or four circuits'),
 * from Tor's 80 bytes of key material, --tprime and --cmd, through a run of
 * 509-byte payloads, each cell's state carried to the next as a circuit's
 * is. Prepared, as benchmarks are, the state carries from call to call
 * too, so that timing includes the rekeying an originated or recognized
 * cell causes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgo.h"
#include "../registry.h"

/* A kernel's param: its operation, an index into ops. */
enum cgo_op {
    OP_RELAY_FORWARD,
    OP_RELAY_BACKWARD,
    OP_RELAY_ORIGINATE,
    OP_CLIENT_FORWARD,
    OP_CLIENT_BACKWARD,
    OP_CLIENT_ORIGINATE,
};

static cgo_cell_fn *const ops[] = {
    [OP_RELAY_FORWARD] = cgo_relay_forward,
    [OP_RELAY_BACKWARD] = cgo_relay_backward,
    [OP_RELAY_ORIGINATE] = cgo_relay_originate,
    [OP_CLIENT_FORWARD] = cgo_client_forward,
    [OP_CLIENT_BACKWARD] = cgo_client_backward,
    [OP_CLIENT_ORIGINATE] = cgo_client_originate,
};

/* A kernel's hops: one, or one per circuit of the x4 kernel. */
typedef struct cgo_hops {
    cgo_hop hop[CGO_X4];
} cgo_hops;

static uint8_t command(const kernel_args *a)
{
    return a->cmd.set ? (uint8_t)a->cmd.num : CGO_RELAY_COMMAND;
}

/* Circuit i's key material: --key holds one circuit's for all, or each
 * circuit's in turn. */
static const uint8_t *circuit_key(const kernel_args *a, size_t i)
{
    return a->key.len == CGO_KEY_BYTES ? a->key.bytes
                                       : a->key.bytes + CGO_KEY_BYTES * i;
}

static void hops_setup(const kernel *k, const isa_variant *v,
                       const kernel_args *a, cgo_hops *hops)
{
    for (size_t i = 0; i < kernel_batch(k); i++)
        cgo_hop_setup(&hops->hop[i], (const cgo_impl *)v, circuit_key(a, i),
                      a->tprime.set ? a->tprime.bytes : NULL);
}

static void cgo_prepare(const kernel *k, const isa_variant *v, kernel_args *a)
{
    cgo_hops *hops = aligned_alloc(64, sizeof *hops);
    if (hops) {
        hops_setup(k, v, a, hops);
        for (size_t i = 0; i < kernel_batch(k); i++)
            cgo_hop_add_secret(a, &hops->hop[i]);
    }
    a->prepared = hops;
}

/* The prepared hops if they are this row's, else fresh ones in *local. */
static cgo_hops *hops_for(const kernel *k, const isa_variant *v,
                          const kernel_args *a, cgo_hops *local)
{
    cgo_hops *p = a->prepared;
    if (p && p->hop[0].impl == (const cgo_impl *)v)
        return p;
    hops_setup(k, v, a, local);
    return local;
}

static int cgo_run_staged(const kernel *k, const isa_variant *v,
                          const kernel_args *a, const uint8_t *in, size_t len,
                          uint8_t *out, uint64_t *ticks)
{
    _Alignas(64) cgo_hops local;
    cgo_hop *hop = &hops_for(k, v, a, &local)->hop[0];
    uint8_t cmd = command(a);
    for (size_t at = 0; at + CGO_PAYLOAD_BYTES <= len; at += CGO_PAYLOAD_BYTES)
        ops[k->param](hop, cmd, out + at, in + at, ticks);
    return 0;
}

static int cgo_run(const kernel *k, const isa_variant *v, const kernel_args *a,
                   const uint8_t *in, size_t len, uint8_t *out)
{
    return cgo_run_staged(k, v, a, in, len, out, NULL);
}

/* Four messages of len bytes back to back, message i circuit i's cells. */
static int cgo_x4_run(const kernel *k, const isa_variant *v,
                      const kernel_args *a, const uint8_t *in, size_t len,
                      uint8_t *out)
{
    _Alignas(64) cgo_hops local;
    cgo_hops *hops = hops_for(k, v, a, &local);
    cgo_hop *hop[CGO_X4];
    uint8_t cmd[CGO_X4];
    for (int i = 0; i < CGO_X4; i++) {
        hop[i] = &hops->hop[i];
        cmd[i] = command(a);
    }
    for (size_t at = 0; at + CGO_PAYLOAD_BYTES <= len;
         at += CGO_PAYLOAD_BYTES) {
        uint8_t *cell_out[CGO_X4];
        const uint8_t *cell_in[CGO_X4];
        for (int i = 0; i < CGO_X4; i++) {
            cell_out[i] = out + len * (size_t)i + at;
            cell_in[i] = in + len * (size_t)i + at;
        }
        cgo_relay_forward_x4(hop, cmd, cell_out, cell_in);
    }
    return 0;
}

static int cgo_check(const kernel *k, const kernel_args *a, size_t len,
                     char *err, size_t errlen)
{
    (void)a;
    if (len % CGO_PAYLOAD_BYTES == 0)
        return 0;
    snprintf(err, errlen, "%s takes whole %d-byte relay payloads, one cell "
             "after another: %zu bytes is not a multiple of %d", k->name,
             CGO_PAYLOAD_BYTES, len, CGO_PAYLOAD_BYTES);
    return -1;
}

/* Any fixed key material serves for timing. */
static const uint8_t bench_key[CGO_KEY_BYTES] =
    "cyclebench CGO key material: KB, KU, K, B and the nonce, 80 bytes..";

static void cgo_bench_args(const kernel *k, kernel_args *a)
{
    (void)k;
    *a = (kernel_args){ .key = KERNEL_BYTES(bench_key, sizeof bench_key) };
}

/* Known answers */

/* C tor's cgo_vectors.inc, as tests/vectors/cgo_vectors.json has them:
 * relay vectors 4 and 5 (one state, forward and backward give the same
 * payload), relay_originate vector 1 (the same state and payload) and
 * client_originate vector 2 (target hop 1: that hop's layer alone). */
static const char relay_key[] =
    "3ab14ee71f417dc6cba5aaaba8eff9c3cd5f408020b4e8586ff734dad4aff593"
    "f4d863afbc519eba44d6e8643ae3fabf7ba8cd0803094d82b18acb03c1207927"
    "e616de4990c8efc5e58131f635f35776";
static const char relay_tprime[] = "310495f73b4d20f4d8069bb1d2ed5638";
#define RELAY_CMD 0x88
static const char relay_in[] =
    "5de86524ea1542e8f1b8ea118c12d1fd43f965f6b01b939d972a2b9bd3b2cefe"
    "4315da3f97b51af875dc7717b97d9ac37c9e18e4a00fdcc65dde90ebd6c2909f"
    "a3e1d83cb07863596408f94334522c1e04688855c44dbee3bad7ab2872c1b874"
    "93766c6e0639bcdbbb2717be2d848c37ef034607f6b05facec43f5c1ef99a786"
    "31ab8387385cf0b272b0759513807451c63b4ba7f8908e5822b43bea59013c4b"
    "ba59ab70dd9951ad1d015ccc9b4067aa02cc40d530e2e2bc473906f03a69f5f9"
    "2183d2094af98edd23199940572edf095a42ec9be535982d6bdf8e525cf2a260"
    "11082d0ad019bd3580be817b1049db2e3ca35ee1212b15faa2c35bd4b342c930"
    "cc44e77336d84fcbd36454aa3a3cd7961047b58fd26383d1fbe0beb250f8389c"
    "1e949728d3d8218b36f4989e3499ced2e660b7ed6a5edb51a36f2fe9f32238f1"
    "a318141fcb3bed2c8a34efb5f98b8bccf2548fb542826e6abf3db576ccb064c9"
    "05c246ecb4ecd5d638e7d3705b549df99de126227485f8dcb499dabc6f3e5d97"
    "35a70f1073f708293b2855dd64c981bdfceb8c75bd7d692f7a2d26f453c302d4"
    "593af2bb17a785d52bc87914f62056326dbedb8b5d45333dc7fca8d5eea986b1"
    "c19ff122b60c74f9220a3eaddf0f40ee105fee1c336c93afef1804a81bb57f91"
    "8dbd7ef220428dd26c6d83c95e6adcec8f997b8ed810dcdc0bb3867f37";
static const char relay_out[] =
    "84fe1db6790ae6e32e418a70bb70d695be638eacedc6fbbdf8d9f75f414b3b43"
    "ff4fdef3c261a24ffec5eae75a3a1016432bdfc6df956b1e19eb011dc891238d"
    "86938ee98d7e0beac3df360818e45aff037e42e345153f5814937d53f92492b0"
    "3f526c3e85464912742bbb26df3258e7fe0e3fdd7c8b855122543a6d277f896b"
    "ec6875e6d320d5f329b90d1e57ea2aa9691542c13c9601f7dae18313737387a8"
    "5eff1ba244be546cd1511782555b8ab90306bd85170e3a489c13f892f4430ae3"
    "9c49ab1514d05b510709da34651dbe600f68642541ee9ab2163a0e442b601701"
    "4c80e05b622d53fa40cbd5eaafbfec34289c5b48c2908a2e7749e1c3f0cceab5"
    "7bea1f3c925756e477d0c32c1d6262f259a5b20b8234aba22c36604fa6c9f0b9"
    "53724089b549b7442adae8a91a7a7c3070aad0099d3cb94c17b2f767a8933bba"
    "e1de8322d73d9688f6f211b9b3922e758b2407179083490d3bd2d3f366e012f8"
    "6aa268c2d24ea843953b3cc4a83f33c795f5df035da1c7ef4b160d013d201adc"
    "c469def9b4c6334cb9f091f789ba1a23cb2a667564eea9ea3a24c5f1fea54c8f"
    "7842ba6266c5405b6cf5f611ee4d0253b09500ce0e704ae2b9aad6271b59ac3e"
    "34a446c03c1cf261757c6798d6cc9fe6be8793666d8d046cb5aee99a0598184b"
    "3c614444a7b0ed812fe46c1e7ae9a0aee9f49908e705896edf53a3a90f";
static const char originate_out[] =
    "b8b3b69f6e175a5649013ca99c83829194773462bcfb3728ec6f2f4e3b702023"
    "4abd8a6fa778a49788509b6452556e951f49a20a552035b38143907c59788c68"
    "65dac89ec22af08cc98ed1fcf55debccd3bb18c91340205524b36e1ec0ca0c08"
    "2f79c575e7e0c77ade4b6084f6b6a12592f9a24c715bc92ee2531641cb11c6e9"
    "a462242354d655c392fccc1c84af5217cefb9806eb9990cf36034188600b2a12"
    "3d860d0c661362f511e7d4eafc46a38c030fbe884a681fedef9c043757934357"
    "84579a3640ce2d75d9553936e877c3c24b33e0ffa88d59fed2fbbaf91e446c8d"
    "37a6b1400f7dfcd6ba8fa425c36e111a71c661f81ac8824524038a8dab5ac5a1"
    "7014f4e7af5638e27e14869b51a9a2ff43fc9b3d7205e9f2e9f20c80d52778c2"
    "6589179631345b0cedcb76d4862e3f88dcd27074da5d8b36ce7f2fbb972dafe3"
    "27fd0e68620f5b284b1a7f1e64e33df2abd0f4aabe30b0e168f52ea39f1c5755"
    "276bc5c25cfa3960c2646ac13cbf2d9d1748e9c8db3664a98b4ef4e6f4a401cd"
    "e973a62f0d4a6409447dfd2500b916015e50d79eeaa6508295d7959cb45af82b"
    "2b1b081b84911f9feeb994ddc5c472b342eef82d611809051658215158b99f5e"
    "3002e97f343e3b29eaad6489557573780b13956e4665dd0b859631d9937d4f90"
    "e0f810b36babfe8a1371b6eb985fd600d8353962cca9ce5b9d2ebf0da8";
static const char client_key[] =
    "80819c55d001b73b8d51a5c9ce4fc8e2a197bd4891f0f38df791e92fc687c992"
    "14992b6749f5b96d6477f7a2821029f714de39b47396fff84b79406ceb667213"
    "475cec821a2bb29682c9de4ed89fa2bc";
static const char client_tprime[] = "63c839b54659920bbf42c8a76eedc3a9";
#define CLIENT_CMD 0x00
static const char client_in[] =
    "0000000000000000000000000000000032b9e80d44f7fd35dc254f1b07cd10ca"
    "91e1c9ba7835a9581e99245677c1ecec22de4e30ef1799ab658305c8266d4f1c"
    "71e4ad51cd9d5798de85ece04f6ee9636ad4a14a132278df2c34a449b7d53cf7"
    "1fb4e55affbc7cbc6699b97356a81d4f70591177aa509df7d8ada37bd7c60820"
    "59081e8058087bd5e357544b2b2067c62a3cb123592b44bef8ccb5f259e859ac"
    "8d6c9cf599605b370a067dced095f96dd03b3577d20b78afeb8c25cbe3b2e52f"
    "2105e952603af981a739216fc6fa29f1a417ea501199a74bab8821e828a1e66e"
    "8e0de40138aca846902f7e2c5545cb2263a8b148e65fd793abbd831d97771d5e"
    "cbc07bcde5b5cfa02489783302174b36f7570c546fcb05b1d1031089b806d9b5"
    "4d2b0ebf0fa0ce8b486e26c36825b55a1bcdd001b4a6ab3686ae3b5fef350083"
    "7a1eb58e44602c87ce6d384d3dab73fc18e662f03a4112c6fd70ee2063a5dd37"
    "bc159f2584b8bcc63106ff6f219cb3e45d57e3b78c88fb0acbba7b58f2f3c54d"
    "1877160199583876e1a321bfaa813e0ce1e1803fff094e437ca879ab2d852480"
    "50f720bfac980a8455f1bd83ad8648af0052a3ff1203a75b033254edcbfc144c"
    "53ec72b603b404aac06021d51524953e9d267c912cc82d61b70d47775d80451a"
    "e59071ce7596f3dfe60ff0f636ec06689993ed52f8efd7d04415350421";
static const char client_out[] =
    "7d05e89f33820206b821fdd7a7465525f97feaae58ac1c0e4a69df97b1da3641"
    "d0c8795a1ab5e957d94629b9b181129b58bdc5df73588c0068bc67ef14a50d8c"
    "b8dd1dce8c1c5ff6b7a0616bbde921f442dd876b3622f88918ba01234920759d"
    "4ec3f1079f4d5029b9903fd2b9c60540b89b59134c36b64b58509791cb6b3074"
    "f84fed410f27cd4d868a9cb59df2ebe9e3358ed557c4ed2d91e7f3080468734d"
    "f02536d5e30c27d4021d5ce00eb38b08cde074587fb321510139c4d865da92a4"
    "b0ba3833d8b110e3c81e3226099677f91f570add37f6867e9faae6331bc0ca19"
    "e475ac75d8dd688b1d77cfa5c28f3e0838bb3f8457bbe7bfb567826cf4291310"
    "8c268d710253c74dc09def9885c61a3e0ca65231121d746a720d0f6454d09613"
    "e9620c0ffe922be22aae5c7e5ac17b083cff28c48c1c205834880689df9dfc50"
    "85775695ac3931dce1b05a669c96664fcdb86794d3883de5f9396c351ef26880"
    "f8f5d1f64bde7c73fdf177363343a37497de8e9aa4e139c196c9069e4b9a4cfc"
    "71e89a8deb80a2a1810e9584002f3d054e64c7e3afd7f215cdac0ea35ae8e6e8"
    "8c290006ef80c1a193be34f89ac8ac8f03971c2d8f35fa0ceddf9a34d9482bc9"
    "cb9787faf942606131abcce19b6ab1aba23bd45c31d15e1189987114f5076619"
    "16aae148f80b03a3d769a277ca9ce8c2e9d46f4b58319a72627eba3024";

/* The vectors above fit their buffers. */
static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
    return (size_t)kernel_hex_decode(hex, out, cap);
}

static int cgo_known_answer(const kernel *k, const isa_variant *v, char *err,
                            size_t errlen)
{
    const enum cgo_op op = (enum cgo_op)k->param;
    const int client = op >= OP_CLIENT_FORWARD;
    const char *key_hex = op == OP_CLIENT_ORIGINATE ? client_key : relay_key;
    const char *in_hex, *want_hex, *source;
    uint8_t key[CGO_KEY_BYTES], tprime[16];
    uint8_t in[CGO_X4][CGO_PAYLOAD_BYTES], want[CGO_X4][CGO_PAYLOAD_BYTES];
    size_t cells = kernel_batch(k);
    switch (op) {
    case OP_RELAY_ORIGINATE:
        in_hex = relay_in, want_hex = originate_out;
        source = "C tor's CGO relay_originate vector 1";
        break;
    case OP_CLIENT_ORIGINATE:
        in_hex = client_in, want_hex = client_out;
        source = "C tor's CGO client_originate vector 2 (hop 1)";
        break;
    default:
        /* The clients' operations decrypt what the relay's encrypt. */
        in_hex = client ? relay_out : relay_in;
        want_hex = client ? relay_in : relay_out;
        source = client ? "C tor's CGO relay vectors 4-5, inverted"
                        : "C tor's CGO relay vectors 4-5";
    }
    unhex(key, sizeof key, key_hex);
    unhex(tprime, sizeof tprime, op == OP_CLIENT_ORIGINATE ? client_tprime
                                                           : relay_tprime);
    for (size_t i = 0; i < cells; i++) {
        unhex(in[i], sizeof in[i], in_hex);
        unhex(want[i], sizeof want[i], want_hex);
    }
    kernel_args a = {
        .key = KERNEL_BYTES(key, sizeof key),
        .tprime = KERNEL_BYTES(tprime, sizeof tprime),
        .cmd = KERNEL_NUMBER(op == OP_CLIENT_ORIGINATE ? CLIENT_CMD : RELAY_CMD),
    };
    return kernel_check_known_answer(k, v, &a, in[0], CGO_PAYLOAD_BYTES,
                                     want[0], cells * sizeof want[0], source,
                                     err, errlen);
}

/* An auto row: the AES and POLYVAL rows measured fastest here, fused where
 * a row of the table pairs the same two. */
static void cgo_compose(const kernel *k, const isa_variant *const part[],
                        isa_variant *row)
{
    (void)k;
    cgo_pair((cgo_impl *)row, part[0]->isa, part[1]->isa);
}

#define CGO_ARGS(key_note, ...)                                               \
    { { KARG_NEEDS(KEY, __VA_ARGS__), .note = key_note },                     \
      { KARG_TAKES(TPRIME, CGO_TAG_BYTES),                                    \
        .note = "the previous cell's tag T'; zeros by default" },             \
      { KARG_TAKES_RANGE(CMD, 0, 255),                                        \
        .note = "the cell's command byte; 2, RELAY, by default" } }
#define CGO_KEY_NOTE "UIV+'s keys KB, KU, K, B, then the nonce"

#define CGO_KERNEL(var, kname, op, keys, run_fn, staged_fn, stages, cells)   \
    const kernel var = {                                                      \
        .name = kname,                                                        \
        .family = "tor-cgo",                                                  \
        .table = &cgo_impls[0].v,                                             \
        .row_size = sizeof cgo_impls[0],                                      \
        .param = op,                                                          \
        .args = keys,                                                         \
        .min_len = CGO_PAYLOAD_BYTES,                                         \
        .min_len_why = "one 509-byte relay payload",                          \
        .check = cgo_check,                                                   \
        .run = run_fn,                                                        \
        .bench_args = cgo_bench_args,                                         \
        .known_answer = cgo_known_answer,                                     \
        .prepare = cgo_prepare,                                               \
        .run_staged = staged_fn,                                              \
        .stage_names = (stages) ? cgo_stage_names : NULL,                     \
        .n_stages = (stages) ? CGO_STAGES : 0,                                \
        .batch = cells,                                                       \
        .parts = { &kernel_aes128_ctr, &kernel_polyval },                     \
        .compose = cgo_compose,                                               \
    }
#define CGO_ONE_CIRCUIT CGO_ARGS(CGO_KEY_NOTE, CGO_KEY_BYTES)
#define CGO_SINGLE(var, kname, op)                                            \
    CGO_KERNEL(var, kname, op, CGO_ONE_CIRCUIT, cgo_run, cgo_run_staged, 1, 1)

CGO_SINGLE(kernel_tor_cgo_relay_forward, "tor-cgo-relay-forward",
           OP_RELAY_FORWARD);
CGO_SINGLE(kernel_tor_cgo_relay_backward, "tor-cgo-relay-backward",
           OP_RELAY_BACKWARD);
CGO_SINGLE(kernel_tor_cgo_relay_originate, "tor-cgo-relay-originate",
           OP_RELAY_ORIGINATE);
CGO_SINGLE(kernel_tor_cgo_client_forward, "tor-cgo-client-forward",
           OP_CLIENT_FORWARD);
CGO_SINGLE(kernel_tor_cgo_client_backward, "tor-cgo-client-backward",
           OP_CLIENT_BACKWARD);
CGO_SINGLE(kernel_tor_cgo_client_originate, "tor-cgo-client-originate",
           OP_CLIENT_ORIGINATE);
/* Four circuits, one payload run each; --key is one circuit's material for
 * all four or each one's in turn. */
CGO_KERNEL(kernel_tor_cgo_relay_forward_x4, "tor-cgo-relay-forward-x4",
           OP_RELAY_FORWARD,
           CGO_ARGS("one circuit's KB, KU, K, B, nonce for all four, or "
                    "four circuits' in turn", CGO_KEY_BYTES,
                    CGO_X4 * CGO_KEY_BYTES),
           cgo_x4_run, NULL, 0, CGO_X4);
