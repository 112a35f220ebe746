# lockscope - live kernel lock contention observer
# ARCH names the BTF header (vmlinux/$(ARCH)) and the target.  Another
# ARCH than the host's cross-builds with Debian's multiarch toolchain
# (CROSS_COMPILE, libraries from /usr/lib/<triplet>) into build-$(ARCH)/;
# CROSS_COMPILE=aarch64-linux-gnu- alone implies ARCH=arm64.
triplet_arch = $(if $(filter aarch64-%,$(1)),arm64,$(if $(filter x86_64-%,$(1)),x86,))
HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH ?= $(or $(call triplet_arch,$(CROSS_COMPILE)),$(HOST_ARCH))
TRIPLET_x86 := x86_64-linux-gnu
TRIPLET_arm64 := aarch64-linux-gnu
CLANG ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config
LLVM_STRIP ?= llvm-strip
NPROC := $(shell nproc 2>/dev/null || echo 1)

# Quiet by default: one "CC file" line per step; V=1 prints the commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-8s %s\n' $(1) $(2);
endif

# A recipe that fails leaves no half-written target behind.
.DELETE_ON_ERROR:
ifeq ($(ARCH),$(HOST_ARCH))
BUILD := build
LOCKSCOPE := lockscope
COMPLETION := $(BUILD)/lockscope.bash
else
CROSS_COMPILE ?= $(TRIPLET_$(ARCH))-
BUILD := build-$(ARCH)
LOCKSCOPE := $(BUILD)/lockscope
COMPLETION :=
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(TRIPLET_$(ARCH))/pkgconfig:/usr/share/pkgconfig $(PKG_CONFIG)
endif
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -D_GNU_SOURCE -I$(BUILD) -Ibpf -Iuser
# CI builds with warnings as errors (CI=true there); WERROR=1 does it here.
WERROR ?= $(if $(filter true 1,$(CI)),1,)
ifeq ($(WERROR),1)
CFLAGS += -Werror
endif
DEPFLAGS = -MMD -MP
LDLIBS := -lbpf -lelf -lz -ljson-c -lm -lmicrohttpd -lcap-ng -lpthread
CURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
	-Ivmlinux/$(ARCH) -Ibpf
# -g makes the BTF that CO-RE relocates against; the DWARF beside it is
# never read (the skeleton embeds the object): llvm-strip -g drops it.
BPF_BUILD = $(call say,BPF,$@)$(CLANG) $(BPF_CFLAGS) $(1) -c $< -o $@ && \
	$(LLVM_STRIP) -g $@

# Sources by role (docs/architecture.md).  Only user/collect/ talks to
# libbpf; the agent's other parts that need a library the unit tests do not
# link (libmicrohttpd's server, ncurses) or the collector itself are listed
# here; everything else is pure C, unit-tested and fuzzed without root.
USER_SRCS := $(sort $(wildcard user/*/*.c))
AGENT_SRCS := $(wildcard user/collect/*.c) $(wildcard user/cmd/cmd_*.c) \
	user/cmd/main.c user/serve/http.c user/view/tui.c
MODEL_SRCS := $(filter-out $(AGENT_SRCS),$(USER_SRCS))
MODEL_OBJS := $(MODEL_SRCS:user/%.c=$(BUILD)/%.o)
AGENT_OBJS := $(AGENT_SRCS:user/%.c=$(BUILD)/%.o)
COLLECT_OBJS := $(filter $(BUILD)/collect/%,$(AGENT_OBJS))

UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

WORKLOADS := $(BUILD)/pipe_hammer $(BUILD)/mmap_hammer $(BUILD)/genl_hammer \
	$(BUILD)/lock_spread $(BUILD)/holder_hammer $(BUILD)/chain_hammer \
	$(BUILD)/whatif_hammer

.PHONY: all clean test test-unit test-static test-integration test-vm check-quick \
	test-vm-arm64 test-vm-kvm guest-arm64 \
	tests-build check-format format install \
	uninstall fuzz fuzz-build bench soak

all: $(LOCKSCOPE) $(COMPLETION)

# Only the architectures whose vmlinux.h ships can build the BPF objects.
ifeq ($(wildcard vmlinux/$(ARCH)/vmlinux.h),)
ifeq ($(filter clean format check-format test-static,$(MAKECMDGOALS)),)
$(error lockscope: failed to find vmlinux/$(ARCH)/vmlinux.h: no BTF header ships for ARCH=$(ARCH) (shipped: $(notdir $(wildcard vmlinux/*))); generate one with scripts/gen-vmlinux.sh)
endif
endif

$(BUILD):
	$(Q)mkdir -p $(BUILD)/tests

$(BUILD)/lockscope.bpf.o: bpf/lockscope.bpf.c bpf/lockscope.h $(wildcard bpf/*.bpf.h) vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,)

$(BUILD)/lockscope.skel.h: $(BUILD)/lockscope.bpf.o
	$(call say,GEN,$@)$(BPFTOOL) gen skeleton $< name lockscope_bpf > $@.tmp && mv $@.tmp $@

# The owner reader: a separate object, so a kernel refusing it loses only it.
$(BUILD)/owner.bpf.o: bpf/owner.bpf.c bpf/lockscope.h vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,)

$(BUILD)/owner.skel.h: $(BUILD)/owner.bpf.o
	$(call say,GEN,$@)$(BPFTOOL) gen skeleton $< name owner_bpf > $@.tmp && mv $@.tmp $@

# Hold times (--hold): a separate object too, loaded only when asked for.
$(BUILD)/hold.bpf.o: bpf/hold.bpf.c bpf/lockscope.h bpf/common.bpf.h bpf/shared_maps.bpf.h vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,)

$(BUILD)/hold.skel.h: $(BUILD)/hold.bpf.o
	$(call say,GEN,$@)$(BPFTOOL) gen skeleton $< name hold_bpf > $@.tmp && mv $@.tmp $@

# Compat builds for kernels without BPF atomic fetch ops (before 5.12): the
# same sources with LS_NO_FETCH_ATOMICS (bpf/common.bpf.h).  The collector
# opens the main skeleton over a compat object's bytes (user/collect/
# objects.c), so each pair must have the same programs, maps and variables:
# their skeletons, generated under one name without the ELF bytes, must be
# identical, or the build stops.
$(BUILD)/lockscope_compat.bpf.o: bpf/lockscope.bpf.c bpf/lockscope.h $(wildcard bpf/*.bpf.h) vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,-DLS_NO_FETCH_ATOMICS)

$(BUILD)/hold_compat.bpf.o: bpf/hold.bpf.c bpf/lockscope.h bpf/common.bpf.h bpf/shared_maps.bpf.h vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,-DLS_NO_FETCH_ATOMICS)

SKEL_LAYOUT = awk '/__elf_bytes\(size_t \*sz\)$$/ {skip=1} !skip; skip && /^}$$/ {skip=0}'

$(BUILD)/%_compat.skel.h: $(BUILD)/%_compat.bpf.o $(BUILD)/%.skel.h
	$(call say,GEN,$@)$(BPFTOOL) gen skeleton $< name $*_bpf | $(SKEL_LAYOUT) > $@.layout
	$(Q)$(SKEL_LAYOUT) $(BUILD)/$*.skel.h | cmp -s - $@.layout || \
		{ echo "lockscope: failed to pair $< with $(BUILD)/$*.bpf.o: their programs, maps or variables differ" >&2; exit 1; }
	$(Q)rm -f $@.layout
	$(Q)$(BPFTOOL) gen skeleton $< name $*_compat_bpf > $@.tmp && mv $@.tmp $@

# make bench's floor: stripped programs on the same tracepoints, and their
# loader (bench/floor.py).
BENCH_FLOOR := $(BUILD)/floor.bpf.o $(BUILD)/floor_load
$(BUILD)/floor.bpf.o: bench/floor.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(call BPF_BUILD,)

$(BUILD)/floor_load: bench/floor_load.c | $(BUILD)
	$(call say,CC,$<)$(CC) $(CFLAGS) -o $@ $< -lbpf -lelf -lz

# The skeletons are generated: the collector's objects wait for them.
$(COLLECT_OBJS): $(BUILD)/lockscope.skel.h $(BUILD)/owner.skel.h \
	$(BUILD)/hold.skel.h $(BUILD)/lockscope_compat.skel.h \
	$(BUILD)/hold_compat.skel.h

$(BUILD)/view/tui.o: CFLAGS += $(CURSES_CFLAGS)

$(BUILD)/%.o: user/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(LOCKSCOPE): $(MODEL_OBJS) $(AGENT_OBJS)
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CURSES_LIBS)

# Bash completion of commands and options, made from lockscope's own help
# (the options table), so it cannot fall behind it (native builds only: it
# runs the binary).
$(BUILD)/lockscope.bash: lockscope scripts/gen-completion.sh
	$(call say,GEN,$@)scripts/gen-completion.sh ./lockscope > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/%: tests/unit/%.c $(MODEL_OBJS) | $(BUILD)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $< $(MODEL_OBJS) $(LDLIBS) -lcmocka

# The BTF walker, the sysfs reader of slab aliases and the comm reader are
# the collector's, with no skeleton behind them: their unit tests link their
# objects too.
COLLECT_TESTED_OBJS := $(BUILD)/collect/btf_names.o $(BUILD)/collect/slab_sysfs.o \
	$(BUILD)/collect/comm.o
$(BUILD)/tests/collect/%: tests/unit/collect/%.c $(MODEL_OBJS) $(COLLECT_TESTED_OBJS) | $(BUILD)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $< $(MODEL_OBJS) $(COLLECT_TESTED_OBJS) $(LDLIBS) -lcmocka

$(BUILD)/%_hammer: tests/workloads/%_hammer.c | $(BUILD)
	$(call say,CC,$<)$(CC) $(CFLAGS) -pthread -o $@ $<

$(BUILD)/lock_spread: tests/workloads/lock_spread.c | $(BUILD)
	$(call say,CC,$<)$(CC) $(CFLAGS) -pthread -o $@ $<

# The arm64 guest's binaries (tests/integration/test_vm_arm64.sh), always in
# build-arm64/: cross-built on x86, native on aarch64.  Without that
# compiler the suite skips the arm64 guest, saying why.
ARM64_CC := $(if $(filter arm64,$(HOST_ARCH)),$(CC),$(TRIPLET_arm64)-gcc)
GUEST_ARM64 := build-arm64/lockscope build-arm64/pipe_hammer \
	build-arm64/mmap_hammer build-arm64/genl_hammer
GUEST_ARM64_IF_CC := $(if $(shell command -v $(ARM64_CC)),guest-arm64)

guest-arm64:
	$(MAKE) ARCH=arm64 BUILD=build-arm64 LOCKSCOPE=build-arm64/lockscope \
		$(GUEST_ARM64)

tests-build: lockscope $(UNIT_BINS) $(WORKLOADS) $(BENCH_FLOOR) fuzz-build $(GUEST_ARM64_IF_CC)

# libFuzzer harnesses (clang, ASan + UBSan) over the pure C parts: the
# kallsyms parser and file reader, the command line, the record reader.
FUZZ_CC ?= clang
FUZZ_SAN := address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -g -O1 -Wall -D_GNU_SOURCE -Ibpf -Iuser
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_OBJS := $(MODEL_SRCS:user/%.c=$(BUILD)/fuzz/%.o)
FUZZ_SECONDS ?= 300

$(BUILD)/fuzz/%.o: user/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c $< -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(call say,LD,$@)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< \
		$(FUZZ_OBJS) -ljson-c -lm -lcap-ng

fuzz-build: $(FUZZ_BINS)

# kept between builds (make would delete them as intermediates)
.SECONDARY: $(FUZZ_OBJS)

# A longer run of every harness (FUZZ_SECONDS each); the suite runs a few
# seconds of each (tests/integration/test_fuzz.sh).
fuzz: fuzz-build
	LS_FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_BINS)

# Overhead next to reference observers, self-cost, agent CPU/RSS, start-up
# time: not part of the test suite (minutes, and needs a quiet machine).
bench: lockscope $(WORKLOADS) $(BENCH_FLOOR)
	python3 bench/bench.py

# Ten minutes under load, RSS and map fill every minute (SOAK_MINUTES).
soak: lockscope $(WORKLOADS)
	bench/soak.sh

# Test tiers; each prints "N passed, N failed, N skipped".  make test runs
# them all (what CI runs): static checks (format, layout), unit tests
# (cmocka, no root), integration tests on this kernel, the qemu guest tier.
test-static:
	tests/run.sh static

test-unit: $(UNIT_BINS)
	tests/run.sh unit

test-integration: tests-build
	tests/run.sh integration

test-vm: lockscope $(WORKLOADS) $(GUEST_ARM64_IF_CC)
	tests/run.sh vm

test-vm-arm64: guest-arm64
	tests/run.sh vm arm64

# the KVM guest alone (pinned vs unpinned vCPUs); skips in about 15 s where
# nested KVM cannot boot the guest
test-vm-kvm: lockscope $(WORKLOADS)
	tests/run.sh vm kvm

# make test builds with a job per CPU (a fresh clone's build was a minute
# on one of two CPUs); make -jN test keeps the N given.
test:
	$(MAKE) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) tests-build
	tests/run.sh all

# The development loop, about a minute: static checks, unit tests and one
# smoke run on this kernel (tests/integration/test_smoke.sh); make test
# stays the whole suite.
check-quick: lockscope $(UNIT_BINS) $(WORKLOADS)
	tests/run.sh quick

# Binary, man page, systemd unit and (native builds) bash completion;
# PREFIX and DESTDIR as usual.
install: $(LOCKSCOPE) $(COMPLETION)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	$(if $(COMPLETION),install -d $(DESTDIR)$(BASHCOMPDIR))
	$(if $(COMPLETION),install -m 0644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/lockscope)
	install -m 0755 $(LOCKSCOPE) $(DESTDIR)$(SBINDIR)/lockscope
	install -m 0644 man/lockscope.8 $(DESTDIR)$(MANDIR)/man8/lockscope.8
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/lockscope.service.in \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp
	mv $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp \
		$(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/lockscope \
		$(DESTDIR)$(MANDIR)/man8/lockscope.8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service \
		$(DESTDIR)$(BASHCOMPDIR)/lockscope

FORMAT_FILES = $(wildcard bpf/*.c bpf/*.h user/*/*.c user/*/*.h \
	tests/unit/*/*.c tests/fuzz/*.c tests/workloads/*.c bench/*.c)

format:
	clang-format -i $(FORMAT_FILES)

# Fails, naming each file and line, where clang-format would change a thing.
check-format:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(LOCKSCOPE)

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/fuzz/*/*.d)
