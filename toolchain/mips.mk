# 32-bit MIPS (Debian mips and mipsel: o32, hard float), big-endian here and
# little-endian through toolchain/mipsel.mk, which includes this file: the
# MIPS 24Kc routers OpenWrt runs on are mipsel. Debian has the cross gcc
# (gcc-mips-linux-gnu, gcc-mipsel-linux-gnu) but no musl-dev:mips or :mipsel,
# so toolchain/musl builds musl from Debian's musl source package, once
# (20-30 s on 2 cores), into build/toolchain/musl-ARCH, and CC uses the specs
# file it installs. Every object and tool waits for it: TOOLCHAIN_DEPS is
# its stamp.
# A vendor toolchain: CROSS_COMPILE=prefix- (musl is then built with it), and
# MUSL_SPECS= if it is musl-native already (then none is built). After
# changing the compiler, rm -rf build/toolchain/musl-ARCH (the stamp is there).
#
# Another target Debian's musl lacks: toolchain/riscv64.mk says how.
# TARGET (the Makefile's) is mips or mipsel.
CROSS_COMPILE ?= $(TARGET)-linux-gnu-
CROSS_PKGS := gcc-$(TARGET)-linux-gnu
MUSL_PREFIX := build/toolchain/musl-$(TARGET)
BUILD := build/$(TARGET)
QEMU := qemu-$(TARGET)-static
KARCH := mips
DEBARCH := $(TARGET)

# MIPS16e, the compressed ISA of the 4Kc, 24K, 34K, 74K and 1004K cores
# routers use (OpenWrt builds its packages so): a quarter smaller (132,016
# to 97,472 bytes here), some 10-20% slower per instruction, the scan's
# cost being mostly the kernel's. MIPS16=0 for a core without it.
MIPS16 ?= 1
# A static executable needs no position-independent calls: non-PIC code with
# PLTs is 8% smaller on MIPS (136,024 to 125,188 bytes stripped for mipsel);
# musl is built so too (it builds PIC by default), 2.3 KiB less.
TARGET_CFLAGS := -mno-shared -mplt $(if $(filter 1,$(MIPS16)),-mips16 -minterlink-compressed)
MUSL_CFLAGS := -mno-shared -mplt
# MIPS code is the largest: without browse (14 KiB here) the binary stays
# within the 128 KiB a router's flash allows; BROWSE=1 puts it in.
BROWSE ?= 0
# A board dumps; loading captures (-l, diff, -S: 27 KiB here) is a host's
# work: left out of board builds, as on every cross target (LOAD=1 puts it in).
LOAD ?= 0
# Not optimised at link time (the Makefile's LTO): MIPS16 code grows with it,
# by 1.2 KB (115,552 to 116,800 bytes for mips), as functions called once
# are inlined into their callers; LTO=1 puts it in.
LTO ?= 0

# The same for every such target.
MUSL_SPECS ?= $(MUSL_PREFIX)/lib/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
TOOLCHAIN_DEPS := $(if $(filter $(MUSL_PREFIX)/%,$(MUSL_SPECS)),$(MUSL_PREFIX)/musl.stamp)

# A pattern rule, so that it does not become the default goal (this file is
# read before the Makefile's "all"); .SECONDARY, so that make does not delete
# the stamp as an intermediate file when done.
# It runs again when this file or the script changes, and then rebuilds musl
# only if the compiler or MUSL_CFLAGS did.
$(MUSL_PREFIX)/%.stamp: toolchain/musl toolchain/mips.mk toolchain/$(TARGET).mk
	toolchain/musl $(CROSS_COMPILE:%-=%) $(MUSL_PREFIX) '$(MUSL_CFLAGS)'
.SECONDARY: $(MUSL_PREFIX)/musl.stamp
