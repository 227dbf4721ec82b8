#!/bin/sh
# make fleet's step on each host, in the shipped checkout, under the
# machine's lock (fleet/playbook.yml holds it with flock): build, then
# `make bench` narrowed by KERNEL, ISA and SIZES from the environment.
# out/fleet-lock.txt records when this entry held the machine (seconds
# since the epoch), so overlapping timings on one machine would show.
set -eu
mkdir -p out
echo "held $(date +%s.%N)" >out/fleet-lock.txt
trap 'echo "released $(date +%s.%N)" >>out/fleet-lock.txt' EXIT
make -j"$(nproc)" build/cyclebench
make bench
