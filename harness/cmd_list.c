/* `cyclebench list`: one line per kernel and ISA. */
#include <stdio.h>

#include "../kernels/kernel.h"
#include "args.h"
#include "commands.h"

int cmd_list(int argc, char **argv)
{
    if (argc > 0) {
        usage_error("list takes no arguments (got '%s')", argv[0]);
        return EXIT_USAGE;
    }
    printf("# kernel isa support    (cpu: %s; features: %s)\n",
           cpu_model_name(), cpu_feature_names());
    for (size_t i = 0; kernel_registry[i]; i++) {
        const kernel *k = kernel_registry[i];
        const isa_variant *v;
        for (size_t j = 0; (v = kernel_variant_at(k, j)); j++)
            printf("%s %s %s\n", k->name, v->isa,
                   kernel_variant_usable(k, v) ? "supported" : "unsupported");
    }
    return 0;
}
