# 64-bit ARM (Debian arm64): the cross gcc with musl-dev:arm64's specs.
CROSS_COMPILE ?= aarch64-linux-gnu-
MUSL_SPECS ?= /usr/lib/aarch64-linux-musl/musl-gcc.specs
CC := $(CROSS_COMPILE)gcc $(if $(MUSL_SPECS),-specs $(MUSL_SPECS))
BUILD := build/arm64
QEMU := qemu-aarch64-static
KARCH := arm64
DEBARCH := arm64
