# cyclebench: `make` builds build/cyclebench; `make test`, `make bench`.
#
# Every kernel source is compiled into its own object. A file named
# <primitive>_<isa>.c gets that ISA's flags (FLAGS_<isa>) and nothing else
# does, so the binary starts on any CPU of its architecture and picks
# variants at run time.
#
# make ARCH=aarch64 on an x86-64 host cross-builds the same sources with
# aarch64-linux-gnu-gcc into build/aarch64/ (docs/arm64.md); on the
# architecture's own host ARCH is that host's and the build is build/.

HOST_ARCH := $(shell uname -m)
# Only from the command line: an ARCH in the environment is often another
# tool's (Debian's and Linux's builds set one).
ifneq ($(origin ARCH),command line)
ARCH    := $(HOST_ARCH)
endif
ARCHES  := x86_64 aarch64
$(if $(filter $(ARCH),$(ARCHES)),,$(error ARCH=$(ARCH) is not one cyclebench builds for: use one of $(ARCHES)))
ifeq ($(ARCH),$(HOST_ARCH))
CROSS   :=
BUILD   := build
else
CROSS   := $(ARCH)-linux-gnu-
BUILD   := build/$(ARCH)
endif
CC      := $(CROSS)gcc
CXX     := $(CROSS)g++
PYTHON  ?= /usr/bin/python3
# The Python tools run as modules: the core package tools/cyclebench/ and
# the features above it at the top, plots/ and profiles/ ($(PYTOOL) plots,
# $(PYTOOL) cyclebench.<module>; tools/cyclebench/__init__.py lists them).
PYTOOL  = PYTHONPATH='$(CURDIR):$(CURDIR)/tools' $(PYTHON) -m
OPT     ?= -O3
# -g for the line tables and symbols that perf, gdb and llvm-mca's loops
# are found by; without gcc's tracking of each variable's location through
# the optimised code, which nothing here reads and which was more than half
# of the compile time of the large AES kernels (aes_ssse3.c: 112 CPU s with
# it, 52 without, the same instructions either way; docs/tests.md).
DEBUG   := -g -fno-var-tracking-assignments
CFLAGS  := -std=c11 $(OPT) $(DEBUG) -Wall -Wextra -Werror -D_GNU_SOURCE
CXXFLAGS := -std=c++17 $(OPT) $(DEBUG) -Wall -Wextra -Werror
# libgcrypt, the third peer (kernels/external/gcrypt/): GCRYPT= builds
# without it, its kernels then listed with why not. A cross build does so
# by default: Debian's libgcrypt20-dev cannot be installed for two
# architectures at once.
GCRYPT  ?= $(if $(CROSS),,1)
CFLAGS  += $(if $(GCRYPT),-DCB_HAVE_GCRYPT)
GCRYPT_LIBS := $(if $(GCRYPT),-lgcrypt)
# libbenchmark is C++: gbench.cc is the one C++ file, and every link pulls in
# the C++ runtime for it.
LDLIBS  := -lbenchmark -lpfm -lsodium -lcrypto $(GCRYPT_LIBS) -lstdc++ -lpthread -lm

# Kernel sources are kernels/<primitive>/<primitive>.c (the table and the
# registry kernels) or kernels/<primitive>/<primitive>_<suffix>.c, where the
# suffix is an ISA, compiled with that ISA's flags (FLAGS_<isa>) and nothing
# else, or a role below, which is not a variant and gets no flags. Every
# other file (kernels/*.c, kernels/external/, harness, tests) gets none, so
# the binary starts on any CPU of its architecture and picks variants at run
# time. Each architecture has its ISAs; a file whose suffix is the other
# architecture's ISA is not built here (chacha_avx2.c on aarch64,
# chacha_neon.c on x86-64), and its table row is under #if defined(__x86_64__)
# or #elif defined(__aarch64__).
ISAS_x86_64 := generic sse2 ssse3 sse41 avx2 avx512 avx512ifma aesni vaes_avx2 \
        vaes_avx512 pclmul vpclmul_avx2 vpclmul_avx512
# Advanced SIMD is part of the armv8-a baseline; ce is the AES and PMULL
# Cryptography Extensions; sha3 adds EOR3, RAX1, XAR and BCAX.
ISAS_aarch64 := generic neon ce sha3 sve2
ISAS := $(ISAS_$(ARCH))
OTHER_ISAS := $(filter-out $(ISAS),$(foreach a,$(ARCHES),$(ISAS_$a)))
ifeq ($(ARCH),x86_64)
FLAGS_generic     :=
FLAGS_sse2        := -msse2
FLAGS_ssse3       := -mssse3
FLAGS_sse41       := -msse4.1
FLAGS_avx2        := -mavx2
FLAGS_avx512      := -mavx512f -mavx512vl -mavx512bw
FLAGS_avx512ifma  := -mavx512f -mavx512vl -mavx512bw -mavx512ifma
FLAGS_aesni       := -msse4.1 -maes -mpclmul
FLAGS_vaes_avx2   := -mavx2 -maes -mpclmul -mvaes -mvpclmulqdq
FLAGS_vaes_avx512 := -mavx512f -mavx512vl -mavx512bw -maes -mpclmul -mvaes -mvpclmulqdq
FLAGS_pclmul      := -msse4.1 -mpclmul
FLAGS_vpclmul_avx2 := -mavx2 -mpclmul -mvpclmulqdq
FLAGS_vpclmul_avx512 := -mavx512f -mavx512vl -mavx512bw -mpclmul -mvpclmulqdq
else
FLAGS_generic     :=
FLAGS_neon        := -march=armv8-a
FLAGS_ce          := -march=armv8-a+crypto
FLAGS_sha3        := -march=armv8.2-a+sha3+crypto
FLAGS_sve2        := -march=armv8.5-a+sve2
endif
# Suffixes that are not ISAs: registry kernels over another primitive's
# table (aes_kernels.c, cgo_kernels.c), and what a primitive's variants
# share (aes_internal.c).
KERNEL_ROLES := kernels internal

# The suffix of a kernel source: its file name less "<directory name>_"
# (the whole name for <primitive>.c).
isa_of = $(patsubst $(notdir $(patsubst %/,%,$(dir $1)))_%,%,$(basename $(notdir $1)))
isa_flags = $(if $(filter kernels/external/%,$1),,$(FLAGS_$(call isa_of,$1)))

# Sources of the other architecture's ISAs.
other_arch_src = $(foreach f,$1,$(if $(filter kernels/external/%,$f),,$(if \
    $(filter $(call isa_of,$f),$(OTHER_ISAS)),$f)))
SKIPPED_SRC = $(call other_arch_src,$(wildcard kernels/*/*.c))
KERNEL_SRC  := $(filter-out $(SKIPPED_SRC),\
               $(wildcard kernels/*.c kernels/*/*.c kernels/external/*/*.c))
# A kernel source whose suffix is neither an ISA nor a role would silently
# get no flags, or the wrong ones: refused, naming the fix.
VARIANT_SRC := $(filter-out kernels/external/%,$(wildcard kernels/*/*.c))
BAD_SUFFIX  := $(firstword $(foreach f,$(VARIANT_SRC),$(if $(filter \
    $(call isa_of,$f),$(ISAS) $(OTHER_ISAS) $(KERNEL_ROLES)),,$(if $(filter \
    $(call isa_of,$f),$(basename $(notdir $f))),$(if $(filter \
    $(notdir $(patsubst %/,%,$(dir $f))).c,$(notdir $f)),,$f),$f))))
$(if $(BAD_SUFFIX),$(error $(BAD_SUFFIX): '$(call isa_of,$(BAD_SUFFIX))' is neither an ISA nor a role: name it <primitive>_<isa>.c, or add the suffix to ISAS_$(ARCH) (with FLAGS_) or KERNEL_ROLES in the Makefile))
# The timing-leak commands (leak/) are part of the binary; the ctgrind
# driver is a program of its own.
HARNESS_SRC := $(wildcard harness/*.c harness/*.cc) \
               $(filter-out leak/ctgrind_driver.c,$(wildcard leak/*.c))
TEST_SRC    := $(wildcard tests/c/test_*.c)
TEST_SUPPORT_SRC := tests/c/check.c tests/c/vectors.c tests/c/leak_controls.c \
                    tests/c/peers.c \
                    tests/c/wycheproof.c
# The tests read the JSON vector files with jansson.
TEST_LDLIBS := -ljansson

KERNEL_OBJ  := $(KERNEL_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_OBJ := $(patsubst %,$(BUILD)/obj/%.o,$(basename $(HARNESS_SRC)))
CLI_OBJ     := $(filter-out $(BUILD)/obj/harness/main.o,$(HARNESS_OBJ))
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN    := $(TEST_SRC:tests/c/%.c=$(BUILD)/tests/%)

# The same kernels and tests again under AddressSanitizer and UBSan, built
# once for two uses: the sanitized test programs (asan-tests/) and make
# fuzz's targets. clang-14 compiles them with libFuzzer's coverage hooks
# (fuzzer-no-link), which cost nothing where no fuzzer links: the test
# programs link the sanitizers' runtimes alone, the fuzz targets libFuzzer's
# too. Each ISA's object keeps that ISA's flags.
SAN_CC      := clang-14
SAN_CXX     := clang++-14
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -O1 with line tables only (what a sanitizer's report needs): at -O2 with
# full debug information the sanitized kernels took a third longer to
# compile, and unoptimised ones ran the sanitized tests for minutes.
# SAN_OPT=-O2 (in a fresh build directory) for long fuzzing runs.
SAN_OPT     ?= -O1 -gline-tables-only
# Compact code (kernels/unroll.h): the same C with its loops rolled and one
# AES body for every key size, which cut the sanitized AES objects' compile
# from 64-128 CPU seconds each to a few (docs/tests.md).
# SAN_COMPACT= (in a fresh build directory) sanitizes and fuzzes the
# unrolled code the benchmark runs instead.
SAN_COMPACT ?= -DCB_COMPACT_CODE
SAN_CFLAGS  := -std=c11 $(SAN_OPT) -Wall -Wextra -Werror -D_GNU_SOURCE \
               $(SAN_FLAGS) -fsanitize=fuzzer-no-link $(if $(GCRYPT),-DCB_HAVE_GCRYPT) \
               $(SAN_COMPACT)
SAN_CXXFLAGS := -std=c++17 $(SAN_OPT) -Wall -Wextra -Werror \
               $(SAN_FLAGS) -fsanitize=fuzzer-no-link
ASAN_KERNEL_OBJ := $(KERNEL_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_CLI_OBJ := $(CLI_OBJ:$(BUILD)/obj/%=$(BUILD)/asan/%)
ASAN_TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(BUILD)/asan/%.o)
ASAN_TEST_BIN := $(TEST_SRC:tests/c/%.c=$(BUILD)/asan-tests/%)

.PHONY: all deps bench-deps test bench clean
# Keep every object: none of them is an intermediate to delete, and a
# deletion would print after the test run's closing line.
.SECONDARY:
all: $(BUILD)/cyclebench

# What results record about the build. The stamp file changes only when they
# do, so a new commit or compiler rebuilds results.o and nothing else.
# make fleet ships a copy without .git and passes the commit it came from.
GIT_COMMIT := $(or $(GIT_COMMIT),$(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown))
COMPILER   := $(shell $(CC) --version | head -1)
BUILD_INFO := -DCB_COMPILER='"$(COMPILER)"' -DCB_CFLAGS='"$(CFLAGS)"' \
              -DCB_GIT_COMMIT='"$(GIT_COMMIT)"'
$(shell mkdir -p $(BUILD) && echo '$(BUILD_INFO)' | cmp -s - $(BUILD)/build-info || \
        echo '$(BUILD_INFO)' > $(BUILD)/build-info)
$(BUILD)/obj/harness/results.o $(BUILD)/asan/harness/results.o: $(BUILD)/build-info
$(BUILD)/obj/harness/results.o: CFLAGS += $(BUILD_INFO)
$(BUILD)/asan/harness/results.o: SAN_CFLAGS += $(BUILD_INFO)

# The commands install what they need first and then build in parallel:
# a make of their own, so that nothing compiles before its headers are
# there. JOBS=n sets how many at once; a -j given to make is kept as it is.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
build_parallel = @$(MAKE) --no-print-directory \
    $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS)) $1

deps:
	@ci/install-deps.sh

# What building, benching and the charts need, without the other tools.
bench-deps:
	@ci/install-deps.sh bench

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(BUILD)/asan/%.o: %.c
	@mkdir -p $(@D)
	$(SAN_CC) $(SAN_CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.cc
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/asan/%.o: %.cc
	@mkdir -p $(@D)
	$(SAN_CXX) $(SAN_CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/cyclebench: $(KERNEL_OBJ) $(HARNESS_OBJ)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/c/%.c $(TEST_SUPPORT_OBJ) $(KERNEL_OBJ) $(CLI_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ $(TEST_LDLIBS) $(LDLIBS)

$(BUILD)/asan-tests/%: $(BUILD)/asan/tests/c/%.o $(ASAN_TEST_SUPPORT_OBJ) $(ASAN_KERNEL_OBJ) $(ASAN_CLI_OBJ)
	@mkdir -p $(@D)
	$(SAN_CXX) $(SAN_FLAGS) $^ -o $@ $(TEST_LDLIBS) $(LDLIBS)

# AVX-512 kernels tested where AVX-512 is missing (tests/c/emulated/emulated.h):
# each <test program>:<kernel file> below compiles that file again against
# plain-C stand-ins for the zmm intrinsics (tests/c/emulated/immintrin.h,
# first on the include path) with the flags those need, its global symbols
# suffixed _emulated, and links it into that test beside the real object.
# They are built unoptimised: every stand-in is inlined, so the optimiser
# faces functions many times a kernel's size and would make this one file
# the longest step of the build, for the same checks.
EMULATED_OPT := -O0
EMULATED_KERNELS := $(if $(filter x86_64,$(ARCH)),\
                    test_aes:kernels/aes/aes_vaes_avx512.c \
                    test_poly1305:kernels/poly1305/poly1305_avx512.c)
EMULATED_FLAGS := -Itests/c/emulated $(FLAGS_aesni) -Wno-psabi -DCB_COMPACT_CODE
define emulated_kernel # <test program>:<kernel file>
$(BUILD)/tests/$(word 1,$(subst :, ,$1)): $(BUILD)/emulated/$(basename $(word 2,$(subst :, ,$1))).o
$(BUILD)/asan-tests/$(word 1,$(subst :, ,$1)): $(BUILD)/asan-emulated/$(basename $(word 2,$(subst :, ,$1))).o
endef
$(foreach e,$(EMULATED_KERNELS),$(eval $(call emulated_kernel,$e)))
emulated_rename = nm -g --defined-only $@.tmp | awk '{ print $$3, $$3 "_emulated" }' >$@.syms && \
    objcopy --redefine-syms=$@.syms $@.tmp $@ && rm -f $@.tmp $@.syms

$(BUILD)/emulated/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(EMULATED_OPT) $(EMULATED_FLAGS) -MMD -MP -MT $@ -MF $(@:.o=.d) -c $< -o $@.tmp
	$(emulated_rename)

$(BUILD)/asan-emulated/%.o: %.c
	@mkdir -p $(@D)
	$(SAN_CC) $(SAN_CFLAGS) $(EMULATED_OPT) $(EMULATED_FLAGS) -MMD -MP -MT $@ -MF $(@:.o=.d) -c $< -o $@.tmp
	$(emulated_rename)

# make ctgrind's driver: the kernels with their secret marked for memcheck
# (leak/ctgrind.h), compiled like the rest with no ISA flags; and the tests'
# deliberately leaky controls, marked the same way.
CTGRIND_DRIVER := $(BUILD)/ctgrind-driver
CTGRIND_CONTROLS := $(BUILD)/tests/ctgrind-controls
# What the kernels link with, without the harness's libraries.
KERNEL_LDLIBS := -lsodium -lcrypto $(GCRYPT_LIBS) -lpthread -lm
$(CTGRIND_DRIVER): $(BUILD)/obj/leak/ctgrind_driver.o $(KERNEL_OBJ) $(BUILD)/obj/harness/args.o
	$(CC) $(CFLAGS) $^ -o $@ $(KERNEL_LDLIBS)

$(CTGRIND_CONTROLS): $(BUILD)/obj/tests/c/ctgrind_controls.o $(BUILD)/obj/tests/c/leak_controls.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@

# make fuzz's targets: the sanitized objects above, linked with libFuzzer.
FUZZ_BIN := $(BUILD)/fuzz/fuzz-kernel $(BUILD)/fuzz/fuzz-cli
FUZZ_LINK = @mkdir -p $(@D) && $(SAN_CC) -fsanitize=fuzzer,address,undefined $^ -o $@ $(KERNEL_LDLIBS)

$(BUILD)/fuzz/fuzz-kernel: $(BUILD)/asan/fuzz/kernel_target.o $(ASAN_KERNEL_OBJ)
	$(FUZZ_LINK)

$(BUILD)/fuzz/fuzz-cli: $(BUILD)/asan/fuzz/cli_target.o $(BUILD)/asan/harness/args.o $(ASAN_KERNEL_OBJ)
	$(FUZZ_LINK)

# What make test runs. A cross build makes plain objects only: its tests
# run under qemu (tests/run_aarch64.sh), where the sanitizers and libFuzzer
# would cost minutes and check nothing the native pass does not.
# The emulated objects first, then the kernels that take longest to
# compile (docs/tests.md): each is one long file, and every test program
# links it, so started late it would leave one CPU idle at the end.
EMULATED_OBJ := $(foreach e,$(EMULATED_KERNELS),$(foreach t,emulated \
    $(if $(CROSS),,asan-emulated),$(BUILD)/$t/$(basename $(word 2,$(subst :, ,$e))).o))
LONG_SRC_x86_64  := kernels/aegis/aegis_ssse3.c kernels/aes/aes_vaes_avx512.c \
                    kernels/aes/aes_vaes_avx2.c kernels/aes/aes_aesni.c
LONG_SRC_aarch64 := kernels/aes/aes_neon.c kernels/aegis/aegis_neon.c \
                    kernels/aes/aes_ce.c kernels/cgo/cgo_ce.c
LONG_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard $(LONG_SRC_$(ARCH))))
TEST_PROGRAMS := $(EMULATED_OBJ) $(LONG_OBJ) $(BUILD)/cyclebench $(TEST_BIN) $(CTGRIND_DRIVER) \
    $(if $(CROSS),,$(ASAN_TEST_BIN) $(CTGRIND_CONTROLS) $(FUZZ_BIN))
.PHONY: test-programs
test-programs: $(TEST_PROGRAMS)

# On an x86-64 host make test also cross-builds for aarch64 and runs that
# build's tests under qemu-aarch64 (tests/run.sh calls tests/run_aarch64.sh).
# make ARCH=aarch64 test there runs that pass alone.
# The cross build is a make of its own (its variables differ) under the
# same job slots, so that both builds share the CPUs to the end.
.PHONY: cross-test-programs
cross-test-programs:
	+@$(MAKE) --no-print-directory ARCH=aarch64 \
	    CC='$(filter ccache,$(CC)) aarch64-linux-gnu-gcc' \
	    CXX='$(filter ccache,$(CXX)) aarch64-linux-gnu-g++' test-programs
test: deps
ifeq ($(CROSS)$(HOST_ARCH),x86_64)
	$(call build_parallel,test-programs cross-test-programs)
else
	$(call build_parallel,test-programs)
endif
ifeq ($(CROSS),)
	@tests/run.sh $(BUILD)
else
	@tests/run_aarch64.sh $(BUILD)
endif

# make bench [KERNEL=regex] [ISA=name] [SIZES=list] [REPS=n] [MIN_TIME=s]
# [MAX_TIME=s] [PAIR_ROUNDS=n]: the full sweep by default, then its summary.
# Results go to out/results/<UTC time>.json, .csv and .summary.md, and to
# latest.*.
bench: bench-deps
	$(call build_parallel,$(BUILD)/cyclebench)
	$(BUILD)/cyclebench bench --results-dir=out/results \
	    $(if $(KERNEL),'--benchmark_filter=$(KERNEL)') $(if $(ISA),--isa=$(ISA)) \
	    $(if $(SIZES),--sizes=$(SIZES)) $(if $(REPS),--benchmark_repetitions=$(REPS)) \
	    $(if $(MIN_TIME),--benchmark_min_time=$(MIN_TIME)) \
	    $(if $(MAX_TIME),--max-time=$(MAX_TIME)) \
	    $(if $(PAIR_ROUNDS),--pair-rounds=$(PAIR_ROUNDS))
	@CYCLEBENCH_BIN=$(BUILD)/cyclebench $(PYTOOL) cyclebench.summary out/results/latest.json

# make plots [RESULTS=file] [CLOCK=tsc|core]: charts of a results file in
# out/plots/. make scenario NAME=lioness|isa-ladder|disk|aead|bulk|tor|hash|all
# [REPS=n] [MIN_TIME=s] [CPU=n]: a published experiment rerun, in out/scenarios/.
# make compare BASE=a.json NEW=b.json [THRESHOLD=5]: exits 1 on a slowdown.
.PHONY: plots scenario compare report fleet
plots: bench-deps
	$(PYTOOL) plots '$(or $(RESULTS),out/results/latest.json)' \
	    --out=out/plots $(if $(CLOCK),--clock=$(CLOCK))

scenario: bench-deps
	$(call build_parallel,$(BUILD)/cyclebench)
	$(PYTOOL) cyclebench.scenario '$(NAME)' --bin=$(BUILD)/cyclebench \
	    --out=out/scenarios $(if $(REPS),--repetitions=$(REPS)) \
	    $(if $(MIN_TIME),--min-time=$(MIN_TIME)) $(if $(CPU),--cpu=$(CPU))

compare: bench-deps
	$(PYTOOL) cyclebench.compare '$(BASE)' '$(NEW)' --out=out/compare \
	    $(if $(THRESHOLD),--threshold=$(THRESHOLD))

# Where report, fleet, profile and diff write.
OUT ?= out

# make report [RESULTS="a.json b.json out/fleet"]: one self-contained page
# (and Markdown) over several machines' results, in $(OUT)/report/; by
# default over out/results/latest.json and out/fleet/.
report: deps
	$(PYTOOL) cyclebench.report $(RESULTS) --out=$(OUT)/report

# make fleet INVENTORY=hosts.ini [KERNEL=regex] [ISA=name] [SIZES=list]
# [GIT_URL=url GIT_REF=commit]: make bench on every host of an Ansible
# inventory (fleet/playbook.yml, fleet/README.md), results fetched into
# $(OUT)/fleet/<host>/, then the report over them. When a host failed, the
# report's header says why and the recipe fails after writing it.
fleet: deps
	@test -e '$(INVENTORY)' || { echo "make fleet: INVENTORY='$(INVENTORY)'" \
	    "names no file: name an Ansible inventory (see fleet/README.md)" >&2; exit 2; }
	FLEET_OUT='$(abspath $(OUT))/fleet' FLEET_KERNEL='$(KERNEL)' FLEET_ISA='$(ISA)' \
	    FLEET_SIZES='$(SIZES)' FLEET_GIT_URL='$(GIT_URL)' FLEET_GIT_REF='$(GIT_REF)' \
	    ansible-playbook -i '$(INVENTORY)' --forks=50 fleet/playbook.yml; \
	played=$$?; \
	$(PYTOOL) cyclebench.report $(OUT)/fleet --out=$(OUT)/report || exit $$?; \
	failed=$$(cd $(OUT)/fleet && ls */error.txt 2>/dev/null | sed 's,/error.txt,,' | paste -sd' '); \
	if [ -n "$$failed" ] || [ $$played -ne 0 ]; then \
	    echo "make fleet: failed hosts (named in the report's header): $${failed:-see ansible's output}" >&2; \
	    exit 1; fi

# make profile KERNEL=name [ISA=name] [SIZE=509] [SECONDS=3] [CALLGRAPH=fp|dwarf]
# [MCPU=native|znver4|icelake-server|...]: the kernel under perf record, split
# per function, its hot loops through llvm-mca beside the measurement, in
# $(OUT)/profiles/ and $(OUT)/plots/. make diff A=kernel@isa B=kernel@isa
# [SIZE=] [SECONDS=] [MCPU=]: both profiled, their hottest code side by side
# under perf annotate with each one's bottleneck, in $(OUT)/diff/.
PROFILE_FLAGS = --bin=$(BUILD)/cyclebench --out=$(OUT) $(if $(SIZE),--size=$(SIZE)) \
            $(if $(SECONDS),--seconds=$(SECONDS)) $(if $(MCPU),--mcpu=$(MCPU))
#
# make profile ARCH=aarch64 KERNEL=name [ISA=name] [SIZE=16384]
# [MCPU=cortex-a53,...] on an x86-64 host: the aarch64 build's calls counted
# under qemu-aarch64 and its hot loops through llvm-mca for ARM cores, in
# $(OUT)/profiles/aarch64/; predicted, nothing timed (docs/profile.md).
.PHONY: profile diff
profile: deps
	$(call build_parallel,$(BUILD)/cyclebench)
ifeq ($(if $(CROSS),$(HOST_ARCH)),x86_64)
	$(PYTOOL) profiles.emulated '$(KERNEL)' $(if $(ISA),--isa=$(ISA)) \
	    --bin=$(BUILD)/cyclebench --out=$(OUT) $(if $(SIZE),--size=$(SIZE)) \
	    $(if $(MCPU),--mcpu=$(MCPU))
else
	$(PYTOOL) profiles '$(KERNEL)' $(if $(ISA),--isa=$(ISA)) \
	    $(if $(CALLGRAPH),--call-graph=$(CALLGRAPH)) $(PROFILE_FLAGS)
endif

diff: deps
	$(call build_parallel,$(BUILD)/cyclebench)
	$(PYTOOL) profiles.diff '$(A)' '$(B)' $(PROFILE_FLAGS)

# make ctgrind KERNEL=<name|all> [ISA=name] [SIZE=n]: each variant under
# valgrind's memcheck with its secret marked, sites in $(OUT)/leak/.
# make leak-table [SECONDS=per-variant]: that and `cyclebench leak` for
# every variant, as $(OUT)/leak/summary.md, .csv and .png.
.PHONY: ctgrind leak-table
ctgrind: deps
	$(call build_parallel,$(BUILD)/cyclebench $(CTGRIND_DRIVER))
	$(PYTOOL) cyclebench.leak.ctgrind '$(KERNEL)' $(if $(ISA),--isa=$(ISA)) \
	    $(if $(SIZE),--size=$(SIZE)) --bin=$(BUILD)/cyclebench \
	    --driver=$(CTGRIND_DRIVER) --out=$(OUT)/leak

leak-table: deps
	$(call build_parallel,$(BUILD)/cyclebench $(CTGRIND_DRIVER))
	$(PYTOOL) cyclebench.leak.table --bin=$(BUILD)/cyclebench \
	    --driver=$(CTGRIND_DRIVER) --out=$(OUT)/leak \
	    --results=$(OUT)/results/latest.json $(if $(SECONDS),--seconds=$(SECONDS)) \
	    $(if $(KERNEL),'--kernel=$(KERNEL)')

# make fuzz [KERNEL=regex] [SECONDS=n]: coverage-guided differential
# fuzzing (docs/fuzz.md). One target per kernel, found by walking
# the registry: its ISA variants and the other libraries' kernels of the
# same computation against its generic, AEADs also refusing changed
# messages; and one for the command-line parser. Each runs SECONDS
# (default 60), its corpus growing in $(OUT)/fuzz/<target>/ from the seeds
# in tests/fuzz/, any crash or divergence kept there with the one command
# that replays it. `make test` runs a bounded pass of 45 s.
.PHONY: fuzz
fuzz: deps
	$(call build_parallel,$(FUZZ_BIN))
	fuzz/run.sh --bin-dir=$(BUILD)/fuzz --out=$(OUT)/fuzz \
	    $(if $(KERNEL),'--kernel=$(KERNEL)') $(if $(SECONDS),--seconds=$(SECONDS))

clean:
	rm -rf $(BUILD)

# A native build's folder holds the cross builds' folders: their
# dependencies are theirs.
-include $(shell find $(BUILD) $(foreach a,$(ARCHES),-path $(BUILD)/$a -prune -o) \
    -name '*.d' -print 2>/dev/null)
