# 32-bit MIPS, little-endian (Debian mipsel: o32, hard float; the MIPS 24Kc
# routers OpenWrt runs on): Debian has the
# cross gcc (gcc-mipsel-linux-gnu) but no musl-dev:mipsel, so toolchain/musl
# builds musl from Debian's musl source package, once (20-30 s on 2 cores),
# into build/toolchain/musl-mipsel, and CC uses the specs file it installs.
# Every object and tool waits for it: TOOLCHAIN_DEPS is its stamp.
# A vendor toolchain: CROSS_COMPILE=prefix- (musl is then built with it), and
# MUSL_SPECS= if it is musl-native already (then none is built). After
# changing the compiler, rm -rf build/toolchain/musl-mipsel (the stamp is there).
#
# (toolchain/mips.mk says how to make another such target.)
CROSS_COMPILE ?= mipsel-linux-gnu-
CROSS_PKGS := gcc-mipsel-linux-gnu
MUSL_PREFIX := build/toolchain/musl-mipsel
BUILD := build/mipsel
QEMU := qemu-mipsel-static
KARCH := mips
DEBARCH := mipsel

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

# The same for every such target.
MUSL_SPECS ?= $(MUSL_PREFIX)/lib/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
TOOLCHAIN_DEPS := $(if $(filter $(MUSL_PREFIX)/%,$(MUSL_SPECS)),$(MUSL_PREFIX)/musl.stamp)

# A pattern rule, so that it does not become the default goal (this file is
# read before the Makefile's "all"); .SECONDARY, so that make does not delete
# the stamp as an intermediate file when done.
# It runs again when this file or the script changes, and then rebuilds musl
# only if the compiler or MUSL_CFLAGS did.
$(MUSL_PREFIX)/%.stamp: toolchain/musl toolchain/mipsel.mk
	toolchain/musl $(CROSS_COMPILE:%-=%) $(MUSL_PREFIX) '$(MUSL_CFLAGS)'
.SECONDARY: $(MUSL_PREFIX)/musl.stamp
