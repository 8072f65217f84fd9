# 32-bit MIPS, little-endian (Debian mipsel: o32, hard float; the MIPS 24Kc
# routers OpenWrt runs on): the same settings as big-endian mips, in
# toolchain/mips.mk, which names its compiler, musl, build and qemu by
# TARGET (mipsel here).
include toolchain/mips.mk
