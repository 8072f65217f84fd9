# toolchain/kernel: the unpacked headers made to build with this machine's
# tools, where they are unpacked, so that a plain "make -C KDIR M=DIR
# modules" works: absolute paths in their Makefiles point into the tree;
# cross headers default to the target's cross compiler; a kernel built with
# a gcc this machine lacks (bullseye's gcc-10, trixie's gcc-14) falls back
# to the machine's gcc for that target (bookworm's gcc-12), with the flags
# and attributes only the newer gcc knows mapped back; module BTF is
# skipped without a recent enough pahole. All of it goes into the tree: the
# headers' .kernelvariables, their generated autoconf.h, a wrapper for
# scripts/gen-btf.sh.
# Needs from toolchain/kernel: buildarch dist arch debarch cross, die and
# note; from fetch.sh: new R kdir_new. Sets kgcc cc btf (for the info file).

# headers_fix: every step below, in order.
headers_fix() {
	kv=$kdir_new/.kernelvariables
	cfg=$kdir_new/.config
	headers_paths
	headers_cc
	headers_btf
	headers_autoconf
}

# headers_paths: absolute paths in the headers' Makefiles (the flavour's
# Makefile includes the common one by absolute path) point into the tree.
headers_paths() {
	for mf in "$new"/root/usr/src/linux-headers-*/Makefile; do
		grep -q -e '/usr/src/linux-' -e '/usr/lib/linux-kbuild-' "$mf" || continue
		sed -i -e "s#\\([^A-Za-z0-9_./-]\\|^\\)/usr/src/linux-#\\1$R/usr/src/linux-#g" \
			-e "s#\\([^A-Za-z0-9_./-]\\|^\\)/usr/lib/linux-kbuild-#\\1$R/usr/lib/linux-kbuild-#g" "$mf" ||
			die "$mf: cannot rewrite"
	done
}

# headers_cc: the compiler. Debian names the one the kernel was built with
# (gcc-14 for trixie) in .kernelvariables. Where this machine lacks it, the
# target's unversioned gcc (bookworm's gcc-12) is the fallback. CC= on the
# make command line still wins.
headers_cc() {
	if [ $debarch != $buildarch ] && ! grep -q '^override CROSS_COMPILE = [a-z]' "$kv" 2>/dev/null; then
		# Cross headers: default to this target's cross compiler, so that a
		# plain make -C KDIR M=DIR builds for the kernel's architecture.
		{
			echo
			echo "# toolchain/kernel: these headers are for $arch: cross-compile by default."
			echo "ifeq (\$(origin CROSS_COMPILE),undefined)"
			echo "CROSS_COMPILE := $cross"
			echo "endif"
		} >>"$kv"
	fi
	kgcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$cfg" 2>/dev/null)
	want=$(sed -n 's/^CC *=.*)\(gcc-[0-9][0-9]*\) *$/\1/p; s/^CC *=.*)\(gcc\) *$/\1/p' "$kv" 2>/dev/null | head -n 1)
	if [ -z "$want" ] || command -v "$cross$want" >/dev/null 2>&1; then
		cc=$cross${want:-gcc}
		return 0
	fi
	command -v "${cross}gcc" >/dev/null 2>&1 ||
		note "$dist $arch: neither ${cross}$want nor ${cross}gcc is installed (install gcc for $arch)"
	{
		echo
		echo "# toolchain/kernel: this kernel was built with $want, which this machine"
		echo "# lacks: use it when present, else the target's default gcc."
		echo "CC := \$(if \$(shell command -v \$(CROSS_COMPILE)$want),\$(CROSS_COMPILE)$want,\$(CROSS_COMPILE)gcc)"
		# Kconfig recorded what the kernel's compiler accepts, and the
		# Makefile turns some of it into flags: where the compiler in use
		# lacks the flag, take the Makefile's own fallback (same code).
		# CONFIG symbol, then the flag it adds.
		for pair in CC_HAS_MIN_FUNCTION_ALIGNMENT:-fmin-function-alignment=16; do
			sym=${pair%%:*} flag=${pair#*:}
			grep -q "^CONFIG_$sym=y" "$cfg" || continue
			echo "ifeq (\$(shell \$(CC) -Werror $flag -S -x c /dev/null -o /dev/null 2>/dev/null && echo y),)"
			echo "override CONFIG_$sym :="
			echo "endif"
		done
		# riscv: extensions Kconfig found in the kernel's assembler, which
		# go into -march and into inline assembly (Zacas, Zabha; binutils
		# 2.40 has neither): where the assembler in use lacks one, the
		# module is built without it (autoconf.h below hides it), and uses
		# LR/SC, as the kernel does on a CPU without it.
		for e in ZACAS ZABHA; do
			grep -q "^CONFIG_TOOLCHAIN_HAS_$e=y" "$cfg" || continue
			echo "ifeq (\$(shell echo '.option arch, +$(echo $e | tr A-Z a-z)' | \$(CC) -c -x assembler -o /dev/null - 2>/dev/null && echo y),)"
			echo "override CONFIG_TOOLCHAIN_HAS_$e :="
			echo "override KCPPFLAGS += -DTOOLCHAIN_KERNEL_NO_$e"
			echo "endif"
		done
	} >>"$kv"
	cc=${cross}gcc
	note "$dist $arch: kernel built with $kgcc; $cross$want missing here: modules build with ${cross}gcc ($(${cross}gcc -dumpversion 2>/dev/null || echo absent))"
}

# headers_btf: module BTF. With vmlinux in the headers (trixie), kbuild runs
# pahole on every module, with flags for the kernel's pahole version.
# Without a pahole that recent (bookworm has 1.24, or none), modules are
# built without BTF, which loads all the same. PAHOLE= on the make command
# line still wins. Up to 6.x, pahole as "true" adds no BTF; from 7.x,
# scripts/gen-btf.sh fails on that, so it becomes a wrapper that runs it
# only with such a pahole. kbuild's note that pahole's version differs is
# then moot: pahole is not used.
headers_btf() {
	pv=$(sed -n 's/^CONFIG_PAHOLE_VERSION=//p' "$cfg" 2>/dev/null)
	btf=none
	if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$cfg" 2>/dev/null && [ -f "$kdir_new/vmlinux" ]; then
		btf="pahole >= ${pv:-0}"
		{
			echo
			echo "# toolchain/kernel: module BTF needs pahole >= ${pv:-0} (this kernel's); without"
			echo "# it, build modules without BTF (they load without)."
			echo "ifeq (\$(origin PAHOLE),file)"
			echo "ifeq (\$(shell v=\$\$(\$(PAHOLE) --version 2>/dev/null | tr -dc 0-9); [ \"\$\${v:-0}\" -ge ${pv:-0} ] && echo y),)"
			echo "override PAHOLE := true"
			echo "override PAHOLE_VERSION = \$(CONFIG_PAHOLE_VERSION)"
			echo "endif"
			echo "endif"
		} >>"$kv"
		for g in "$new"/root/usr/src/linux-headers-*/scripts/gen-btf.sh; do
			[ -f "$g" ] && [ ! -L "$g" ] || continue
			mv "$g" "$g.real" || die "$g: cannot rename"
			cat >"$g" <<EOS
#!/bin/sh
# toolchain/kernel: module BTF needs pahole >= ${pv:-0} (this kernel's). Without
# it (PAHOLE is then "true"), the module is left without BTF: it loads without.
v=\$(\${PAHOLE:-pahole} --version 2>/dev/null | tr -dc 0-9)
[ "\${v:-0}" -ge ${pv:-0} ] || exit 0
exec "\${CONFIG_SHELL:-/bin/sh}" "\$0.real" "\$@"
EOS
			chmod 755 "$g" || die "$g: cannot chmod"
		done
	elif [ "${pv:-0}" -gt 0 ]; then
		{
			echo
			echo "# toolchain/kernel: no module BTF from these headers (no vmlinux), so pahole"
			echo "# is not used, and kbuild's note that its version differs is moot."
			echo "ifeq (\$(origin PAHOLE),file)"
			echo "override PAHOLE_VERSION = \$(CONFIG_PAHOLE_VERSION)"
			echo "endif"
		} >>"$kv"
	fi
}

# headers_autoconf: attributes Kconfig found in the kernel's compiler, which
# C code tests by CONFIG_CC_HAS_*: an older gcc (bookworm's 12 for a kernel
# of gcc 15 or 16) warns that it ignores them. Each stays defined only for
# a compiler that has it, tested where the header is read. riscv's Zacas
# and Zabha (and the ISA options that need them) stay defined unless
# .kernelvariables found the assembler without them (headers_cc).
headers_autoconf() {
	ac=$kdir_new/include/generated/autoconf.h
	[ -f "$ac" ] || return 0
	awk '
		$0 == "#define CONFIG_CC_HAS_COUNTED_BY 1" { t = "__has_attribute(__counted_by__)" }
		$0 == "#define CONFIG_CC_HAS_COUNTED_BY_PTR 1" {
			t = "__has_attribute(__counted_by__) && (__GNUC__ >= 16 || __clang_major__ >= 22)"
		}
		$0 == "#define CONFIG_CC_HAS_ASSUME 1" { t = "__has_attribute(__assume__)" }
		$0 == "#define CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING 1" {
			t = "!defined(__clang__) && __GNUC__ >= 15"
		}
		$0 ~ /^#define CONFIG_(TOOLCHAIN_HAS|RISCV_ISA)_ZACAS 1$/ { t = "!defined(TOOLCHAIN_KERNEL_NO_ZACAS)" }
		$0 ~ /^#define CONFIG_(TOOLCHAIN_HAS|RISCV_ISA)_ZABHA 1$/ { t = "!defined(TOOLCHAIN_KERNEL_NO_ZABHA)" }
		t != "" { print "#if " t "\t/* toolchain/kernel: where the compiler has it */" }
		{ print }
		t != "" { print "#endif"; t = "" }' "$ac" >"$ac.new" && mv "$ac.new" "$ac" || die "$ac: cannot rewrite"
}
