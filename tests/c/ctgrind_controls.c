/* build/tests/ctgrind-controls <early-exit|table-lookup|constant-time>: one
 * of the leak controls (tests/c/leak_controls.h) run on a secret marked for
 * memcheck, as leak/ctgrind_driver.c runs a kernel. tests/py/ctgrind_test.sh
 * runs it under valgrind through tools/cyclebench/leak/ctgrind.py's parser:
 * the first two must be flagged, the third clean. */
#include <stdio.h>
#include <string.h>

#include "../../leak/ctgrind.h"
#include "leak_controls.h"

int main(int argc, char **argv)
{
    uint8_t secret[CONTROL_SECRET_BYTES], guess[CONTROL_SECRET_BYTES];
    int result;
    if (argc != 2) {
        fprintf(stderr, "usage: ctgrind-controls early-exit|table-lookup|"
                "constant-time\n");
        return 2;
    }
    memset(secret, 0x5a, sizeof secret);
    memset(guess, 0x5a, sizeof guess);
    ct_secret(secret, sizeof secret);
    if (!strcmp(argv[1], "early-exit"))
        result = control_early_exit_equal(secret, guess);
    else if (!strcmp(argv[1], "table-lookup"))
        result = (int)control_table_lookup(secret);
    else if (!strcmp(argv[1], "constant-time"))
        result = control_constant_time_equal(secret, guess);
    else {
        fprintf(stderr, "ctgrind-controls: unknown control '%s'\n", argv[1]);
        return 2;
    }
    /* The answer is what the caller may learn. */
    ct_public(&result, sizeof result);
    printf("%s: %d\n", argv[1], result);
    return 0;
}
