#!/usr/bin/env bash
# make fuzz's bounded pass for make test (fuzz/run.sh --bounded): every
# kernel in one target for 35 s, the command-line parser for 8 s, from the
# committed seeds and the corpus earlier passes grew under the build
# directory, where any artefact stays for its replay command.
build=$(dirname "${1:-build/cyclebench}")
exec "$(dirname "$0")/../../fuzz/run.sh" --bin-dir="$build/fuzz" \
    --out="$build/fuzz-test" --bounded
