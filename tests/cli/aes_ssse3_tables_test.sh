#!/usr/bin/env bash
# kernels/aes/aes_ssse3_tables.h is what its generator writes, and the
# generator's own model of the ssse3 AES (every S-box and inverse S-box
# byte, FIPS-197 appendix C at 128, 192 and 256 bits) holds.
set -u
. "$(dirname "$0")/cli_lib.sh"
gen="$(dirname "$0")/../../kernels/aes/aes_ssse3_tables.py"

if /usr/bin/python3 "$gen" --check 2>"$tmp/err"; then
    ok "aes_ssse3_tables.h is aes_ssse3_tables.py's output; its model passes FIPS-197 C"
else
    fail "aes_ssse3_tables.py --check: $(head -c 300 "$tmp/err")"
fi
finish
