# 64-bit RISC-V (Debian riscv64, RV64GC, lp64d): Debian has the cross gcc
# (gcc-riscv64-linux-gnu) but no musl-dev:riscv64, so toolchain/musl builds
# musl from Debian's musl source package, once (about 20 s on 2 cores), into
# build/toolchain/musl-riscv64, and CC uses the specs file it installs.
# Every object and tool waits for it: TOOLCHAIN_DEPS is its stamp.
# A vendor toolchain: CROSS_COMPILE=prefix- (musl is then built with it), and
# MUSL_SPECS= if it is musl-native already (then none is built). After
# changing the compiler, rm -rf build/toolchain/musl-riscv64 (the stamp is there).
#
# Another target Debian's musl lacks: copy this file to toolchain/ARCH.mk
# and change the lines below, up to "The same for every such target"
# (toolchain/mips.mk is one such file for both of MIPS's byte orders).
CROSS_COMPILE ?= riscv64-linux-gnu-
CROSS_PKGS := gcc-riscv64-linux-gnu
MUSL_PREFIX := build/toolchain/musl-riscv64
BUILD := build/riscv64
QEMU := qemu-riscv64-static
KARCH := riscv
DEBARCH := riscv64

# riscv64 Linux has 4 KiB pages only (Svnapot's 64 KiB pages are huge
# pages, not a base page size): binutils' default alignment serves.
# A board dumps; loading captures (-l, diff, -S) is a host's work: left out
# of board builds, as on every cross target (LOAD=1 puts it in).
LOAD ?= 0
# Its budget is 96 KiB: with watch (about 10 KiB) in, browse (10.6 KiB here)
# stays out, as on MIPS; BROWSE=1 puts it in.
BROWSE ?= 0
# The cgroups view and each process's cgroup (8.5 KiB here) stay out too;
# CGROUPS=1 puts them in.
CGROUPS ?= 0
# Smaller: a function saves and restores its callee-saved registers by a
# call to libgcc's shared routines (__riscv_save_N) instead of inline: 4 KiB
# of the binary, which has a budget of 96 KiB (tests/suites/sizes.sh).
TARGET_CFLAGS := -msave-restore
# Optimised as one program at link time (the Makefile's LTO): 1.2 KB less
# (98,016 to 96,816 bytes).
LTO ?= 1

# The same for every such target.
MUSL_SPECS ?= $(MUSL_PREFIX)/lib/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
TOOLCHAIN_DEPS := $(if $(filter $(MUSL_PREFIX)/%,$(MUSL_SPECS)),$(MUSL_PREFIX)/musl.stamp)

# A pattern rule, so that it does not become the default goal (this file is
# read before the Makefile's "all"); .SECONDARY, so that make does not delete
# the stamp as an intermediate file when done.
# It runs again when this file or the script changes, and then rebuilds musl
# only if the compiler or MUSL_CFLAGS did.
$(MUSL_PREFIX)/%.stamp: toolchain/musl toolchain/riscv64.mk
	toolchain/musl $(CROSS_COMPILE:%-=%) $(MUSL_PREFIX) '$(MUSL_CFLAGS)'
.SECONDARY: $(MUSL_PREFIX)/musl.stamp
# dma-bufs, DRM clients and CMA's areas (src/dmabuf.h): 12.8 KiB here
# (111 328 bytes with them, 98 256 without, of 98 304): left out; DMABUF=1
# puts them in.
DMABUF ?= 0
