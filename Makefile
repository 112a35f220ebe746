# lockscope - live kernel lock contention observer
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= gcc
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BUILD := build

CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -D_GNU_SOURCE -I$(BUILD) -Ibpf -Iuser
LDLIBS := -lbpf -lelf -lz -ljson-c -lm -lmicrohttpd -lcap-ng -lpthread
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) \
	-Ivmlinux/$(ARCH) -Ibpf

# Pure C parts (no libbpf): unit-tested without root.
MODEL_SRCS := user/caps.c user/kallsyms.c user/hist.c user/model.c user/naming.c \
	user/log.c user/sources.c user/view_text.c user/export_json.c \
	user/cli.c user/run.c user/export_prom.c user/netaddr.c user/privs.c \
	user/top_model.c user/top_text.c
AGENT_SRCS := user/collector.c user/collector_probes.c user/probe.c user/cmd_doctor.c \
	user/cmd_hist.c user/cmd_top.c user/main.c user/cmd_serve.c \
	user/serve_http.c user/view_tui.c
# record and compare: the reader, metrics, statistics and writers
MODEL_SRCS += user/record_read.c user/metrics.c user/compare.c \
	user/view_compare.c user/record_write.c user/outfile.c
AGENT_SRCS += user/cmd_record.c user/cmd_compare.c
MODEL_OBJS := $(MODEL_SRCS:user/%.c=$(BUILD)/%.o)
AGENT_OBJS := $(AGENT_SRCS:user/%.c=$(BUILD)/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

WORKLOADS := $(BUILD)/pipe_hammer $(BUILD)/mmap_hammer $(BUILD)/lock_spread

.PHONY: all clean test unit-tests tests-build check-format format install \
	uninstall fuzz fuzz-build bench soak

all: lockscope

$(BUILD):
	mkdir -p $(BUILD)/tests

$(BUILD)/lockscope.bpf.o: bpf/lockscope.bpf.c bpf/lockscope.h vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/lockscope.skel.h: $(BUILD)/lockscope.bpf.o
	$(BPFTOOL) gen skeleton $< name lockscope_bpf > $@.tmp && mv $@.tmp $@

# The owner reader: a separate object, so a kernel refusing it loses only it.
$(BUILD)/owner.bpf.o: bpf/owner.bpf.c bpf/lockscope.h vmlinux/$(ARCH)/vmlinux.h | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/owner.skel.h: $(BUILD)/owner.bpf.o
	$(BPFTOOL) gen skeleton $< name owner_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/collector.o $(BUILD)/collector_probes.o: $(BUILD)/lockscope.skel.h
$(BUILD)/collector.o: $(BUILD)/owner.skel.h

$(BUILD)/view_tui.o: CFLAGS += $(CURSES_CFLAGS)

$(BUILD)/%.o: user/%.c $(wildcard user/*.h) bpf/lockscope.h | $(BUILD)
	$(CC) $(CFLAGS) -c $< -o $@

lockscope: $(MODEL_OBJS) $(AGENT_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(CURSES_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(MODEL_OBJS) | $(BUILD)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(MODEL_OBJS) $(LDLIBS) -lcmocka

$(BUILD)/%_hammer: tests/workloads/%_hammer.c | $(BUILD)
	$(CC) $(CFLAGS) -pthread -o $@ $<

$(BUILD)/lock_spread: tests/workloads/lock_spread.c | $(BUILD)
	$(CC) $(CFLAGS) -pthread -o $@ $<

tests-build: lockscope $(UNIT_BINS) $(WORKLOADS) fuzz-build

# libFuzzer harnesses (clang, ASan + UBSan) over the pure C parts: the
# kallsyms parser and file reader, the command line, the record reader.
FUZZ_CC ?= clang
FUZZ_SAN := address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -g -O1 -Wall -D_GNU_SOURCE -Ibpf -Iuser
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_OBJS := $(MODEL_SRCS:user/%.c=$(BUILD)/fuzz/%.o)
FUZZ_SECONDS ?= 300

$(BUILD)/fuzz/%.o: user/%.c $(wildcard user/*.h) bpf/lockscope.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -c $< -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< \
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
bench: lockscope $(WORKLOADS)
	python3 bench/bench.py

# Ten minutes under load, RSS and map fill every minute (SOAK_MINUTES).
soak: lockscope $(WORKLOADS)
	bench/soak.sh

unit-tests: $(UNIT_BINS)
	tests/run-unit.sh $(UNIT_BINS)

# The whole suite: unit tests, then integration tests on this kernel.
test: tests-build
	tests/run.sh

# Binary, man page and systemd unit; PREFIX and DESTDIR as usual.
install: lockscope
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0755 lockscope $(DESTDIR)$(SBINDIR)/lockscope
	install -m 0644 man/lockscope.8 $(DESTDIR)$(MANDIR)/man8/lockscope.8
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/lockscope.service.in \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp
	mv $(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service.tmp \
		$(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/lockscope \
		$(DESTDIR)$(MANDIR)/man8/lockscope.8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/lockscope.service

format:
	clang-format -i bpf/*.c bpf/*.h user/*.c user/*.h tests/unit/*.c

clean:
	rm -rf $(BUILD) lockscope
