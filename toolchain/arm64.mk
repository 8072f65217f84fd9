# 64-bit ARM (Debian arm64): the cross gcc with musl-dev:arm64's specs.
CROSS_COMPILE ?= aarch64-linux-gnu-
MUSL_SPECS ?= /usr/lib/aarch64-linux-musl/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
BUILD := build/arm64
QEMU := qemu-aarch64-static
KARCH := arm64
DEBARCH := arm64
CROSS_PKGS := gcc-aarch64-linux-gnu musl-dev:arm64
# arm64 kernels run 4, 16 (Raspberry Pi 5, Asahi) or 64 KiB pages: every
# segment is aligned for the largest, so one binary runs on all of them.
# (No RELRO, as on every target: the Makefile's XM_LDFLAGS.)
MAXPAGE ?= 65536
TARGET_LDFLAGS := -Wl,-z,max-page-size=$(MAXPAGE)
# No frame pointer (GCC keeps one on AArch64 at -Os, as on no other target
# here): 1.4 KiB less; nothing unwinds the program (no unwind tables either).
TARGET_CFLAGS := -fomit-frame-pointer
# A board dumps; loading captures (-l, diff, -S) is a host's work: left out
# of board builds, as on every cross target (LOAD=1 puts it in).
LOAD ?= 0
# Optimised as one program at link time (the Makefile's LTO): 2.8 KB less
# (129,128 to 126,272 bytes).
LTO ?= 1
# dma-bufs, DRM clients and CMA's areas (src/dmabuf.h): 16.2 KiB here, and
# the build is 129 424 bytes without them, 146 024 with them (about 135 000
# with browse left out instead): left out until there is room; DMABUF=1
# puts them in (a board with a display or a camera has the flash).
DMABUF ?= 0
# The cgroups view and each process's cgroup (8.5 KiB here) stay out until the
# build has that room within its 128 KiB; CGROUPS=1 puts them in.
CGROUPS ?= 0
