/* How far the kernels' hot loops unroll, said once.
 *
 * The optimised build unrolls them (#pragma GCC unroll, honoured by gcc and
 * clang) so that each state vector stays in its register. The sanitized
 * build (the Makefile's SAN_CFLAGS) defines CB_COMPACT_CODE: loops stay
 * rolled and aes_internal.h's AES_BY_ROUNDS compiles one body for every key
 * size instead of three. The C, and so every memory access and every
 * operation the sanitizers check, is the same; only the code the compiler
 * emits is smaller. That is what keeps clang's sanitized AES objects from
 * taking minutes each to compile (docs/tests.md). */
#ifndef CB_UNROLL_H
#define CB_UNROLL_H

#define CB_PRAGMA(x) _Pragma(#x)
#ifdef CB_COMPACT_CODE
#define CB_UNROLL(n)
#else
#define CB_UNROLL(n) CB_PRAGMA(GCC unroll n)
#endif

#endif
