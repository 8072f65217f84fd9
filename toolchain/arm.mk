# 32-bit ARM, EABI, hard float (Debian armhf): the cross gcc with the musl
# specs that musl-dev:armhf ships. A vendor toolchain: CROSS_COMPILE=prefix-,
# and MUSL_SPECS= if it is musl-native already.
CROSS_COMPILE ?= arm-linux-gnueabihf-
MUSL_SPECS ?= /usr/lib/arm-linux-musleabihf/musl-gcc.specs
CROSS_PKGS := gcc-arm-linux-gnueabihf musl-dev:armhf
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
BUILD := build/arm
QEMU := qemu-arm-static
KARCH := arm
DEBARCH := armhf
# A board dumps; loading captures (-l, diff, -S) is a host's work: left out
# of board builds, as on every cross target (LOAD=1 puts it in).
LOAD ?= 0
# Optimised as one program at link time (the Makefile's LTO): 1.4 KB less
# (106,344 to 104,924 bytes).
LTO ?= 1
