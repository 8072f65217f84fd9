# exmap-mini. make: build/exmap-mini; make ARCH=arm|arm64|mips|mipsel|riscv64: build/ARCH/exmap-mini.
# make run: scan this machine (installing the compiler and musl if missing);
# make test: every test (installing all they need); make bench: the benchmark;
# make deb [ARCH=arm64|armhf]: Debian packages (toolchain/README.md, Packages).

ARCH ?=
# Debian's name for 32-bit ARM (make deb ARCH=armhf) is arm's.
override ARCH := $(patsubst armhf,arm,$(ARCH))
HOSTARCH := $(shell uname -m)
TARGET := $(if $(filter-out $(HOSTARCH),$(ARCH)),$(ARCH),native)
ifeq ($(wildcard toolchain/$(TARGET).mk),)
$(error no toolchain/$(TARGET).mk: ARCH may be arm (or armhf), arm64, mips, mipsel, riscv64 or empty)
endif
include toolchain/$(TARGET).mk

# A cross compiler that is not installed: one line before anything compiles
# (make setup installs the ones the tests use). A vendor CROSS_COMPILE that
# exists is taken as it is.
ifneq ($(CROSS_COMPILE),)
ifneq ($(filter-out setup clean,$(or $(MAKECMDGOALS),all)),)
ifeq ($(shell command -v $(CROSS_COMPILE)gcc 2>/dev/null),)
$(error make ARCH=$(ARCH): no $(CROSS_COMPILE)gcc here: install it with toolchain/setup cross (Debian: $(CROSS_PKGS)), or give CROSS_COMPILE=/path/to/prefix-)
endif
ifneq ($(filter /%,$(MUSL_SPECS)),)
ifeq ($(wildcard $(MUSL_SPECS)),)
$(error make ARCH=$(ARCH): no $(MUSL_SPECS) here: install it with toolchain/setup cross (Debian: $(CROSS_PKGS)), or give MUSL_SPECS= for a musl-native compiler)
endif
endif
endif
endif

# Ours first, then the caller's CPPFLAGS, CFLAGS and LDFLAGS (make CC=...
# CFLAGS=... as Buildroot and Yocto call it, any libc), which so add to them
# (and win where they disagree). Small: no unwind tables (nothing unwinds a C
# program), position-dependent code (a static executable), and sections the
# linker drops when nothing uses them. -MMD -MP: each object's headers.
# 64-bit off_t and ino_t with glibc and uClibc too (musl has nothing else;
# src/exmap.h checks), and 64-bit time_t where glibc offers it.
# WERROR=0: warnings stay warnings, for a compiler newer than the ones
# make test builds with (a distribution's or build system's).
WERROR ?= 1
XM_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -Os -Wall -Wextra \
	$(if $(filter 1,$(WERROR)),-Werror) -MMD -MP \
	-ffunction-sections -fdata-sections -fno-asynchronous-unwind-tables \
	-fno-unwind-tables -fno-pie $(TARGET_CFLAGS)
# LTO=1: optimised as one program at link time (-flto), in one partition
# (smaller than several), which makes board builds smaller: arm64 by 2.8 KB,
# arm, riscv64 and x86_64 as a board by 1.2 to 1.4 KB. The objects are fat
# (their machine code beside the compiler's IR), so that nm sees what each
# calls (tests/suites/libc_test.sh). Each target's file sets it: on for
# arm, arm64 and riscv64; off for MIPS (MIPS16 code grows by 1.2 KB with
# it) and for this machine's build (no smaller; and a build system's
# compiler, as Buildroot builds it by default, may lack LTO).
LTO ?= 0
ifeq ($(LTO),1)
XM_CFLAGS += -flto -flto-partition=one -ffat-lto-objects
endif
# The file laid out without padding (the 128 KiB a board allows is counted in
# file bytes): code and read-only data in one segment (x86 ld's default,
# separate-code, pads each to a page: 8 KiB); no RELRO (musl's static
# start-up never write-protects it, and its page alignment pads up to a
# page); data right after the code in the file, which a common page size
# of 4 KiB would pad up to 4 KiB on a target aligned for 64 KiB (arm64, MIPS).
# STATIC=0: linked as the C library's shared objects are, for a system built
# that way (Buildroot without BR2_STATIC_LIBS), with the linker's layout and
# RELRO, which a dynamic loader applies.
STATIC ?= 1
ifeq ($(STATIC),0)
XM_LDFLAGS := -no-pie -Wl,--gc-sections $(TARGET_LDFLAGS)
else
XM_LDFLAGS := -static -no-pie -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro \
	-Wl,-z,common-page-size=16 $(TARGET_LDFLAGS)
endif
BUILD_CFLAGS = $(XM_CFLAGS) $(CPPFLAGS) $(CFLAGS)
BUILD_LDFLAGS = $(XM_LDFLAGS) $(LDFLAGS)
HOSTCC := gcc
STRIP := $(if $(CROSS_COMPILE),$(CROSS_COMPILE)strip,strip)
PREFIX ?= /usr/local

SRCS := $(wildcard src/*.c)
LOADSRCS := src/capload.c src/caplog.c src/capcheck.c src/caplist.c src/diff.c src/cgdiff.c \
	src/sysroot.c src/wlog.c src/wlstate.c src/wlloss.c src/wlast.c src/slope.c src/trend.c src/trendrep.c \
	src/trendpage.c
# BROWSE=0: without the full-screen view (browse.c, term.c), for a board
# with no terminal to run it on; make bench says what it costs.
BROWSE ?= 1
ifeq ($(BROWSE),0)
SRCS := $(filter-out src/browse.c src/term.c,$(SRCS))
XM_CFLAGS += -DEXMAP_NO_BROWSE
endif
# DMABUF=0: without dma-bufs, DRM clients and CMA's areas (dmabuf.c,
# dmalist.c, dmaview.c, dmacap.c, dmadiff.c): no fd is read, no dmabuf
# view, no dma-buf columns; arm64's and riscv64's default (their budgets).
DMABUF ?= 1
ifeq ($(DMABUF),0)
SRCS := $(filter-out src/dmabuf.c src/dmalist.c src/dmaview.c src/dmacap.c src/dmadiff.c,$(SRCS))
XM_CFLAGS += -DEXMAP_NO_DMABUF
endif
# CGROUPS=0: without the cgroups view and each process's cgroup in captures,
# watch logs and metrics (cgroup.c, cgview.c, cgdiff.c), for a board short
# of room (arm64 and riscv64 until their builds have the 8.5 KiB it takes)
CGROUPS ?= 1
ifeq ($(CGROUPS),0)
SRCS := $(filter-out src/cgroup.c src/cgview.c src/cgdiff.c,$(SRCS))
LOADSRCS := $(filter-out src/cgdiff.c,$(LOADSRCS))
XM_CFLAGS += -DEXMAP_NO_CGROUPS
endif
# OUTSIDE=0: without the kernel's map counts where mappers are hidden
# (outside.c: a PID namespace's /proc, an unreadable process): shares among
# the processes seen, no OUTSD, and no smaps_rollup's figures where pfns are
# hidden; a PID namespace is still told (pidns.c) and said in one line;
# the default of arm, arm64 and riscv64 until their builds have the 3.3 to
# 3.9 KB it takes (their module guests run an OUTSIDE=1 build), and of make
# test's x86_64 board build.
OUTSIDE ?= 1
ifeq ($(OUTSIDE),0)
SRCS := $(filter-out src/outside.c,$(SRCS))
XM_CFLAGS += -DEXMAP_NO_OUTSIDE
endif
# LOAD=0: without what a host does with a board's captures (-l, diff, -S:
# capload.c, caplog.c, capcheck.c, caplist.c, diff.c, sysroot.c; reading a
# watch log back, wlog.c), for a board whose flash is tight; dump and watch stay.
LOAD ?= 1
ifeq ($(LOAD),0)
SRCS := $(filter-out $(LOADSRCS),$(SRCS))
XM_CFLAGS += -DEXMAP_NO_LOAD
endif
# PICTURES=0: without the folded and html views (folded.c, tree.c, html.c,
# page.c and the page's template, src/report.html), which a host makes from
# a board's capture; board builds (every cross target) leave them out, this
# machine's own build has them.
PICTURES ?= $(if $(filter native,$(TARGET)),1,0)
ifeq ($(PICTURES),0)
SRCS := $(filter-out src/folded.c src/tree.c src/html.c src/page.c src/trendpage.c,$(SRCS))
XM_CFLAGS += -DEXMAP_NO_PICTURES
endif
# The kernel's memory by owner (kowner.c, kownview.c). KOWNVIEW=0: each
# owner's figures alone, no callers or call sites, and no owner sections in
# this build's own ram view: its dump (a host shows them), watch and metrics
# keep them (arm64's default, its budget). KOWNERS=0: none at all (riscv64's).
KOWNERS ?= 1
KOWNVIEW ?= 1
ifeq ($(KOWNERS),0)
SRCS := $(filter-out src/kowner.c src/kownview.c,$(SRCS))
XM_CFLAGS += -DEXMAP_NO_KOWNERS
else ifeq ($(KOWNVIEW),0)
XM_CFLAGS += -DEXMAP_NO_KOWNVIEW
endif
HDRS := $(wildcard src/*.h) kmod/exmap_mini_abi.h
OBJS := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
LIBOBJS := $(filter-out $(BUILD)/obj/main.o,$(OBJS))
# The unit tests test the capture reader on every target, LOAD=0 or not
# (the captures view, a view, aside; and with LOAD=0 the trend view, whose
# cases run in this machine's unit tests).
UNITOBJS := $(sort $(LIBOBJS) $(filter-out %/caplist.o %/trendpage.o \
	$(if $(filter 0,$(LOAD)),%/trend.o %/trendrep.o),$(LOADSRCS:src/%.c=$(BUILD)/obj/%.o)))

all: $(BUILD)/exmap-mini

# The flags and sources a build was made with: when they change (CFLAGS=,
# BROWSE=0), its objects and binary are made again.
FLAGS_STAMP := $(BUILD)/obj/flags
FLAGS_NOW := $(CC) $(BUILD_CFLAGS) $(BUILD_LDFLAGS) $(SRCS)
ifneq ($(shell cat $(FLAGS_STAMP) 2>/dev/null),$(strip $(FLAGS_NOW)))
$(shell mkdir -p $(BUILD)/obj && printf '%s\n' '$(strip $(FLAGS_NOW))' >$(FLAGS_STAMP))
endif

# CCACHE=ccache: each object made through the compiler cache, which keeps
# it in the machine's cache (toolchain/cache.sh), under ccache/. make test
# sets it where ccache is installed (toolchain/setup test installs it), for
# its builds and the suites'. The compiler is known by what its -v says:
# musl-gcc is a script whose date says nothing of the gcc it runs.
CCACHE ?=
ifneq ($(CCACHE),)
export CCACHE_DIR ?= $(shell die() { exit 1; }; . toolchain/cache.sh && cache_root && echo "$$CACHE")/ccache
export CCACHE_COMPILERCHECK ?= %compiler% -v
endif

# TOOLCHAIN_DEPS: what a target's toolchain file needs built first (musl, say).
$(BUILD)/obj/%.o: src/%.c $(FLAGS_STAMP) | $(BUILD)/obj $(TOOLCHAIN_DEPS)
	$(CCACHE) $(CC) $(BUILD_CFLAGS) -c -o $@ $<

# The page's template goes into page.o (.incbin), the trend's drawing into
# trendpage.o, each packed by toolchain/lzpack.c, a tool of this machine's
# (35 KB of text in 18.7 KB: room the host's build needs within its 288 KiB).
$(BUILD)/obj/%.lz: src/% build/host/lzpack | $(BUILD)/obj
	build/host/lzpack $< $@
build/host/lzpack: toolchain/lzpack.c | build/host
	$(HOSTCC) -O2 -Wall -Wextra -Werror -o $@ $<
$(BUILD)/obj/page.o: $(BUILD)/obj/report.html.lz
$(BUILD)/obj/page.o: XM_CFLAGS += -DPAGE_TEMPLATE='"$(BUILD)/obj/report.html.lz"'
$(BUILD)/obj/trendpage.o: $(BUILD)/obj/trend.js.lz
$(BUILD)/obj/trendpage.o: XM_CFLAGS += -DTREND_SCRIPT='"$(BUILD)/obj/trend.js.lz"'
# What else compiles page.c and trendpage.c (tests/mk's sanitizer and fuzz
# builds) needs the packed texts made first, and named.
PAGE_LZ := $(if $(filter src/page.c,$(SRCS)),$(BUILD)/obj/report.html.lz $(BUILD)/obj/trend.js.lz)
PAGE_DEFS := -DPAGE_TEMPLATE='"$(BUILD)/obj/report.html.lz"' -DTREND_SCRIPT='"$(BUILD)/obj/trend.js.lz"'

# A musl built again (TOOLCHAIN_DEPS' stamp is newer) links again.
$(BUILD)/exmap-mini: $(OBJS) $(FLAGS_STAMP) $(TOOLCHAIN_DEPS)
	$(CC) $(BUILD_CFLAGS) $(BUILD_LDFLAGS) -o $@ $(OBJS)

# The unit tests, a file an area of src/ (tests/unit/unit.h lists them). A
# link of several sources leaves a .d of the last one's headers alone: the
# tests wait on every header instead.
UNIT_SRCS := $(addprefix tests/unit/,unit.c unit_text.c unit_pages.c unit_capture.c unit_ram.c \
	unit_trend.c)
$(BUILD)/unit: $(UNIT_SRCS) tests/unit/unit.h $(HDRS) $(UNITOBJS) $(TOOLCHAIN_DEPS) | $(BUILD)/obj
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ $(UNIT_SRCS) $(UNITOBJS)

# The benchmark's floor is built like exmap-mini, so the two compare fairly.
$(BUILD)/floor: tests/bench/floor.c | $(BUILD)/obj $(TOOLCHAIN_DEPS)
	$(CC) $(BUILD_CFLAGS) $(BUILD_LDFLAGS) -o $@ $<

-include $(OBJS:.o=.d) $(BUILD)/floor.d $(BUILD)/sysroot_drv.d

# The workloads and test programs (tests/work/NAME.c) and the benchmark's
# (tests/bench/NAME.c), static: for this machine in build/host/ (glibc), for
# the target in BUILD/tools/ (musl). Those on the workload library
# (tests/work/wl.c) link it.
WL_USERS := workload benchwork thpwork hugework readfault leakwork oddnames dmabufwork gpuwork
$(foreach d,build/host $(BUILD)/tools,$(WL_USERS:%=$(d)/%)): tests/work/wl.c tests/work/wl.h

build/host/%: tests/work/%.c | build/host
	$(HOSTCC) -static -O2 -Wall -Wextra -Werror -o $@ $(filter %.c,$^)

build/host/%: tests/bench/%.c | build/host
	$(HOSTCC) -static -O2 -Wall -Wextra -Werror -o $@ $<

# The census of RAM from each source (tests/unit/censusdump.c), on exmap-mini's
# objects, for the module's system test in a guest.
$(BUILD)/tools/censusdump: tests/unit/censusdump.c $(LIBOBJS) | $(TOOLCHAIN_DEPS)
	@mkdir -p $(BUILD)/tools
	$(CC) $(BUILD_CFLAGS) -Isrc $(BUILD_LDFLAGS) -o $@ tests/unit/censusdump.c $(LIBOBJS)

$(BUILD)/tools/%: tests/work/%.c | $(TOOLCHAIN_DEPS)
	@mkdir -p $(BUILD)/tools
	$(CC) -static -O2 -Wall -Wextra -Werror -o $@ $(filter %.c,$^)

$(BUILD)/obj build/host:
	mkdir -p $@

# Test areas bring their own rules.
include $(wildcard tests/mk/*.mk)

setup:
	toolchain/setup

unit: $(BUILD)/unit
	$(QEMU) $(BUILD)/unit

# What running needs and no more: the compiler and musl (toolchain/setup's
# build group; make test installs the rest). A partial report (exit 1: some
# process unreadable, named on stderr) is still the report; only a fatal
# error (2) fails the target.
run:
	toolchain/setup build
	$(MAKE) all
	$(BUILD)/exmap-mini || [ $$? -eq 1 ]

# What the tests run in a guest or on a board, by name (tests/work/NAME.c): for
# this machine in build/host/ (glibc, static), for a board in BUILD/tools/.
GUEST_TOOLS := workload churn runas twice thpwork readfault afterprobe hugework dmabufwork \
	mapfile noptrace
host_tools = $(GUEST_TOOLS:%=build/host/%)
board_tools = all build/$(1)/unit build/$(1)/fmt_test $(GUEST_TOOLS:%=build/$(1)/tools/%) \
	build/$(1)/tools/censusdump

# make test's builds use every core (TEST_JOBS, default nproc; a make -jN
# given on the command line is kept), and so do its suites (tests/run,
# tests/lib/sched.sh). TEST_START dates the whole run for tests/run's
# warning past 45 minutes.
TEST_JOBS ?= $(shell nproc)
TEST_J = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))
TEST_START := $(shell date +%s)
# TEST_CCACHE= builds the tests' objects without the compiler cache
TEST_CCACHE ?= $(shell command -v ccache 2>/dev/null)
test test-tinykernel: export CCACHE = $(TEST_CCACHE)
test: setup
	$(MAKE) $(TEST_J) all $(BUILD)/unit $(BUILD)/fmt_test $(host_tools) build/host/benchwork build/host/oddnames fixture \
		build/host/cgwork build/host/stopat build/host/gpuwork \
		elftest-deps $(BUILD)/tools/workload $(BUILD)/tools/censusdump $(BUILD)/sysroot_drv capfuzz-deps \
		$(BUILD)/wlogdump trend-deps fuzz-deps
	$(MAKE) $(TEST_J) -Orecurse test-builds
	TEST_START=$(TEST_START) TEST_JOBS=$(TEST_JOBS) tests/run $(BUILD)

# The boards' builds and the variants', after this machine's (which makes
# the host tools they share, lzpack): a make each, on one jobserver, so
# that one's link (serial, LTO's the longest) runs beside another's
# compiles; each one's output whole (-Orecurse). Builds that share a build
# directory or a musl (mips, riscv64) run in one, one after the other.
TEST_BUILDS := arm arm64 mipsel riscv64 mips arm64-dmabuf arm-outside arm64-outside x86_64 \
	nopictures noload nobrowse nooutside
test-builds: $(TEST_BUILDS:%=test-build-%)
test-build-arm:
	$(MAKE) ARCH=arm $(call board_tools,arm) build/arm/capture/prog build/arm/capture/prog.stripped \
		build/arm/tools/leakwork
test-build-arm64 test-build-mipsel: test-build-%:
	$(MAKE) ARCH=$* $(call board_tools,$*)
test-build-riscv64:
	$(MAKE) ARCH=riscv64 $(call board_tools,riscv64)
	$(MAKE) ARCH=riscv64 BUILD=build/riscv64-outside OUTSIDE=1 build/riscv64-outside/exmap-mini
test-build-mips:
	$(MAKE) ARCH=mips all build/mips/unit build/mips/fmt_test
	$(MAKE) ARCH=mips BUILD=build/mips-load LOAD=1 build/mips-load/exmap-mini
test-build-arm64-dmabuf:
	$(MAKE) ARCH=arm64 BUILD=build/arm64-dmabuf DMABUF=1 build/arm64-dmabuf/exmap-mini
test-build-arm-outside test-build-arm64-outside: test-build-%-outside:
	$(MAKE) ARCH=$* BUILD=build/$*-outside OUTSIDE=1 build/$*-outside/exmap-mini
test-build-x86_64:
	$(MAKE) BUILD=build/x86_64 LOAD=0 PICTURES=0 DMABUF=0 CGROUPS=0 OUTSIDE=0 LTO=1 build/x86_64/exmap-mini
test-build-nopictures:
	$(MAKE) BUILD=build/nopictures PICTURES=0 build/nopictures/exmap-mini
test-build-noload:
	$(MAKE) BUILD=build/noload LOAD=0 build/noload/exmap-mini
test-build-nobrowse:
	$(MAKE) BUILD=build/nobrowse BROWSE=0 build/nobrowse/exmap-mini
test-build-nooutside:
	$(MAKE) BUILD=build/nooutside OUTSIDE=0 build/nooutside/exmap-mini
.PHONY: test-builds $(TEST_BUILDS:%=test-build-%)

# The module on our own kernels without pagemap, x86_64 and an OpenWrt-like
# 32-bit MIPS board (Malta, mipsel): their first builds take minutes
# (toolchain/tinykernel caches them, once per machine), so it is a target of
# its own; CI runs it. And the ram view on the x86_64 one (no kpageflags: no
# census), in the same boot. Either failing fails the target.
test-tinykernel: setup
	$(MAKE) $(TEST_J) all $(host_tools) $(BUILD)/tools/censusdump
	$(MAKE) $(TEST_J) ARCH=mipsel $(call board_tools,mipsel)
	TEST_START=$(TEST_START) TEST_JOBS=$(TEST_JOBS) tests/run $(BUILD) tinykernel

# The board demo: the target's Debian kernel in qemu (-M virt for arm, arm64
# and riscv64), the module loaded, exmap-mini's report on the serial console;
# two captures taken there, left in $(BUILD)/board.log with the board's root
# ($(BUILD)/board-root, for -S), loaded by this machine's exmap-mini.
board: setup
	$(MAKE) all $(BUILD)/tools/workload
	$(MAKE) ARCH= all
	tests/suites/board.sh $(DEBARCH) $(BUILD) $(ARCH)

# The benchmark: tests/bench/bench.sh's cases (BENCH_CASES="sparse asan" picks
# some, BENCH_ROUNDS=N sets the rounds); the module against pagemap in one
# guest boot (tests/bench/kmod_bench.sh, trixie amd64). Then the size of a
# capture of the emulated board (qemu armhf), which the board's capture test
# measures as it takes it over the serial console, the bytes browse sends
# there per key press (tests/suites/browse_board.sh), and browse's size in each
# board's binary (tests/bench/browse_cost.sh).
bench: setup
	$(MAKE) all $(BUILD)/floor build/host/workload build/host/runstat \
		build/host/benchwork build/host/benchwork-asan build/host/mapfile $(BUILD)/watchcost $(BUILD)/kowncost
	$(MAKE) ARCH=arm all build/arm/tools/workload build/arm/capture/prog \
		build/arm/capture/prog.stripped build/arm/watchcost
	tests/bench/bench.sh $(BUILD)
	tests/bench/kmod_bench.sh
	tests/suites/capture_test.sh >$(BUILD)/capture-bench.log 2>&1 || \
		{ tail -20 $(BUILD)/capture-bench.log; exit 1; }
	grep '^capture size:\|^html page of the board\|^metrics of the emulated board' \
		$(BUILD)/capture-bench.log
	tests/suites/browse_board.sh >$(BUILD)/browse-bench.log 2>&1 || \
		{ tail -20 $(BUILD)/browse-bench.log; exit 1; }
	grep '^browse over serial:' $(BUILD)/browse-bench.log
	tests/bench/browse_cost.sh
	tests/bench/ram_bench.sh $(BUILD)
	tests/suites/ram_qemu.sh amd64 armhf >$(BUILD)/ram-bench.log 2>&1 || \
		{ tail -20 $(BUILD)/ram-bench.log; exit 1; }
	grep '^ram view on the emulated' $(BUILD)/ram-bench.log
	tests/bench/watch_bench.sh $(BUILD)
	tests/bench/watch_board.sh
	tests/bench/kmem_bench.sh

# make kmod KDIR=/path/to/kernel/build: the module for that kernel, built out
# of tree in $(BUILD)/kmod/<KDIR's name>/ so that kmod/ stays clean.
KMOD_OUT = $(BUILD)/kmod/$(notdir $(abspath $(KDIR)))
kmod:
	@test -n "$(KDIR)" || { echo "make kmod: give KDIR=/path/to/kernel/build" >&2; exit 2; }
	mkdir -p $(KMOD_OUT)
	rm -f $(KMOD_OUT)/*.c $(KMOD_OUT)/*.h
	cp kmod/Kbuild kmod/*.c kmod/*.h $(KMOD_OUT)/
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_OUT)) ARCH=$(KARCH) \
		$(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE)) modules

# make kernels-lock: toolchain/kernels.lock, the kernel packages of every
# DIST-ARCH the suites test, resolved afresh through indexes that verify (an
# entry whose index does not verify today is kept, with a warning).
kernels-lock:
	toolchain/kernel lock
.PHONY: kernels-lock

# make packages-lock: toolchain/packages.lock, the other Debian packages the
# tests and builds fetch (busybox-static for the guests, musl's source),
# resolved afresh through the indexes.
packages-lock:
	toolchain/packages lock
.PHONY: packages-lock

# The binary, stripped, and the manual page (src/exmap-mini.1). BINDIR and
# MANSECT: where a distribution puts a tool that needs root (Debian:
# BINDIR=/usr/sbin MANSECT=8, the page's section following the binary's).
BINDIR ?= $(PREFIX)/bin
MANSECT ?= 1
MANDIR = $(PREFIX)/share/man/man$(MANSECT)
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 $(BUILD)/exmap-mini $(DESTDIR)$(BINDIR)/exmap-mini
	$(STRIP) $(DESTDIR)$(BINDIR)/exmap-mini
	sed 's/^\(\.Dt EXMAP-MINI\) 1$$/\1 $(MANSECT)/' src/exmap-mini.1 \
		>$(DESTDIR)$(MANDIR)/exmap-mini.$(MANSECT)
	chmod 644 $(DESTDIR)$(MANDIR)/exmap-mini.$(MANSECT)

# make deb [ARCH=arm64|armhf]: Debian packages, the program's for this machine
# or for that board and the module's source for DKMS, in build/deb/DEBARCH/
# (toolchain/deb assembles the source tree: toolchain/debian/ as debian/).
deb:
	toolchain/deb $(DEBARCH)

clean:
	rm -rf build

.PHONY: all setup unit run test test-tinykernel board bench kmod install deb clean
