/* `cyclebench list [--json]`: every kernel and ISA. The text form is one
 * line per variant; the JSON form is the registry itself, for the Python
 * tools: each kernel's family, counterpart, options and what they accept,
 * the parts a composite is built from (what --isa=auto measures), and per
 * ISA whether it runs here and why not. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../kernels/external/external.h"
#include "../kernels/registry.h"
#include "args.h"
#include "commands.h"
#include "json_out.h"

static void print_text(void)
{
    printf("# kernel isa support    (cpu: %s; features: %s%s%s)\n",
           cpu_model_name(), cpu_feature_names(),
           cpu_emulator() ? "; emulated by " : "",
           cpu_emulator() ? cpu_emulator() : "");
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++)
            printf("%s %s %s\n", k->name, v->isa,
                   kernel_variant_usable(k, v) ? "supported" : "unsupported");
    }
}

static const char *kind_name(kernel_option_kind kind)
{
    return kind == KOPT_KIND_HEX ? "hex" : kind == KOPT_KIND_NUMBER ? "number"
                                                                    : "flag";
}

static void print_accepted(const kernel_arg *arg)
{
    if (arg->n_values) {
        printf(", \"values\": [");
        for (size_t i = 0; i < arg->n_values; i++)
            printf("%s%" PRIu64, i ? ", " : "", arg->values[i]);
        printf("]");
    } else {
        printf(", \"min\": %" PRIu64 ", \"max\": ", arg->min);
        /* 2^64-1 does not survive a double: "any" says it exactly. */
        if (arg->max == UINT64_MAX)
            printf("null");
        else
            printf("%" PRIu64, arg->max);
    }
}

static void print_options(const kernel *k)
{
    char accepted[160];
    printf("\"options\": [");
    for (const kernel_arg *arg = kernel_spec(k); arg->option; arg++) {
        const kernel_option_info *o = &kernel_options[arg->option];
        kernel_describe_accepted(arg, accepted, sizeof accepted);
        printf("%s\n      {\"name\": ", arg == kernel_spec(k) ? "" : ",");
        json_print_string(stdout, o->name);
        printf(", \"kind\": \"%s\", \"required\": %s", kind_name(o->kind),
               arg->required ? "true" : "false");
        if (o->kind != KOPT_KIND_FLAG) {
            printf(", \"unit\": \"%s\"", o->kind == KOPT_KIND_HEX ? "bytes"
                                                                  : "value");
            print_accepted(arg);
        }
        printf(", \"accepts\": ");
        json_print_string(stdout, accepted);
        printf("}");
    }
    printf("]");
}

static void print_isas(const kernel *k)
{
    char why[256], features[256];
    const isa_variant *v;
    printf("\"isas\": [");
    for (size_t j = 0; (v = kernel_variant_at(k, j)); j++) {
        const char *refusal = kernel_variant_refusal(k, v, why, sizeof why);
        cpu_describe(v->required, features, sizeof features);
        printf("%s\n      {\"name\": ", j ? "," : "");
        json_print_string(stdout, v->isa);
        printf(", \"requires\": ");
        json_print_string(stdout, features);
        printf(", \"supported\": %s", refusal ? "false" : "true");
        if (refusal) {
            printf(", \"reason\": ");
            json_print_string(stdout, refusal);
        }
        printf("}");
    }
    printf("]");
}

static void print_kernel(const kernel *k)
{
    printf("    {\"name\": ");
    json_print_string(stdout, k->name);
    printf(", \"family\": ");
    json_print_string(stdout, k->family);
    printf(", \"reference\": ");
    if (k->reference)
        json_print_string(stdout, k->reference->name);
    else
        printf("null");
    /* Another library's kernel, whether or not one of ours computes the
     * same thing (openssl:bf-cbc has no reference). */
    printf(", \"external\": %s,\n     \"min_len\": %zu, \"batch\": %zu, "
           "\"tag_len\": %zu, \"stages\": %zu,\n     ",
           k->table == external_row ? "true" : "false", kernel_min_len(k),
           kernel_batch(k), kernel_tag_len(k, NULL),
           k->n_stages);
    print_options(k);
    printf(",\n     \"parts\": [");
    for (size_t i = 0; i < kernel_n_parts(k); i++) {
        printf("%s", i ? ", " : "");
        json_print_string(stdout, k->parts[i]->name);
    }
    printf("],\n     ");
    print_isas(k);
    printf("}");
}

static void print_json(void)
{
    char disabled[256];
    cpu_describe(cpu_features_disabled(), disabled, sizeof disabled);
    printf("{\n  \"cpu\": {\"arch\": ");
    json_print_string(stdout, cpu_arch());
    printf(", \"model\": ");
    json_print_string(stdout, cpu_model_name());
    printf(", \"features\": ");
    json_print_string(stdout, cpu_feature_names());
    printf(", \"disabled\": ");
    json_print_string(stdout, disabled);
    printf(", \"emulator\": ");
    if (cpu_emulator())
        json_print_string(stdout, cpu_emulator());
    else
        printf("null");
    printf("},\n  \"kernels\": [\n");
    for (size_t i = 0; kernel_registry[i]; i++) {
        print_kernel(kernel_registry[i]);
        printf("%s\n", kernel_registry[i + 1] ? "," : "");
    }
    printf("  ]\n}\n");
}

int cmd_list(int argc, char **argv)
{
    char q[96];
    if (argc > 1 || (argc == 1 && strcmp(argv[0], "--json"))) {
        usage_error("list takes only --json (got %s)",
                    cli_quote(argv[argc > 1 && !strcmp(argv[0], "--json")],
                              q, sizeof q));
        return EXIT_USAGE;
    }
    if (argc == 1)
        print_json();
    else
        print_text();
    return fflush(stdout) == 0 ? 0 : 1;
}
