# The guests' boots, by name: which kernel, which qemu machine, memory,
# CPU, kernel arguments and device tree; sourced by tests/qemu/phases, which
# boots one and runs the phases attached to it (tests/README.md, "One boot,
# many phases").
#   DIST-ARCH         Debian's kernel (toolchain/kernel fetch DIST ARCH):
#                     DIST bullseye bookworm trixie trixie-backports sid;
#                     ARCH amd64 armhf (armmp, 1.5 GiB: HIGHMEM and HIGHPTE
#                     in play) arm64 arm64-16k (1 GiB, qemu -cpu max)
#                     rt-amd64 rt-arm64 (PREEMPT_RT, on amd64's and arm64's
#                     machine and binaries) mipsel (4kc-malta, 256 MiB)
#                     riscv64 (Svnapot; trixie's at Sv57)
#   DIST-riscv64-sv39, -sv48
#                     the same kernel at 3 and 4 levels of page tables
#                     (no4lvl, no5lvl) on qemu's default CPU
#   DIST-armhf-ramfs  armhf at 512 MiB, its initramfs a ramfs
#                     (rootfstype=ramfs), as on a kernel without tmpfs
#   DIST-armhf-dt     armhf at 512 MiB with qemu's device tree and a no-map
#                     reserved-memory region of REGION_BYTES added
#   nopagemap-amd64, nopagemap-mipsel, nozeropage-amd64
#                     our 6.1 (toolchain/tinykernel VARIANT ARCH), booted
#                     with what the variant needs (nozeropage: no_zero_page)
#   nozeropage-amd64-headonly, -outside
#                     nozeropage booted with kpageflags_buddy_head_only, or
#                     with free_outside_buddy=OUTSIDE_MIB M
#   allocinfo-amd64   our 6.12 with CONFIG_MEM_ALLOC_PROFILING on from boot
#                     (toolchain/tinykernel allocinfo amd64)
# Memory is 512 MiB but where said.
#
# boot_config BOOT   sets boot arch kind kdist karg variant bin tools karch
#                    mem cpu append mmu; 1 (why set) for a name it does not know
# boot_kernel W      fetches or builds the kernel (logs in W), sets image
#                    kdir (and dtb in W for -dt, append for our kernels);
#                    1 with why set when it cannot
# The phases' order in a guest that runs several: PHASE_ORDER (a phase
# not in it runs after these, in the order asked). The ram view goes first,
# on the quiet guest, before any module is loaded.
PHASE_ORDER="ram cgroup dmabuf gpu kmem kmod dkms"
OUTSIDE_MIB=96
REGION=exmap_test@50000000 REGION_BYTES=$((8 << 20))

boot_config() {
	boot=$1
	kind=debian kdist= karg= variant= append= cpu= mmu= mem=512M dt=
	case $boot in
	nopagemap-amd64|nopagemap-mipsel|nozeropage-amd64|nozeropage-amd64-headonly|nozeropage-amd64-outside|allocinfo-amd64)
		kind=tiny variant=${boot%%-*}
		arch=${boot#*-}
		arch=${arch%%-*}
		# the Malta board's 256 MiB, all of it low memory (above 256 MiB
		# its RAM is past what a kernel without HIGHMEM maps)
		[ "$arch" = mipsel ] && mem=256M ;;
	*-*)
		kdist=${boot%%-*}
		case $boot in trixie-backports-*) kdist=trixie-backports ;; esac
		arch=${boot#"$kdist"-}
		case $arch in
		riscv64-sv39) arch=riscv64 append=no4lvl mmu=sv39 ;;
		riscv64-sv48) arch=riscv64 append=no5lvl mmu=sv48 ;;
		rt-amd64|rt-arm64) karg=$arch arch=${arch#rt-} ;;
		armhf-ramfs) arch=armhf append=rootfstype=ramfs mem=512M ;;
		armhf-dt) arch=armhf dt=1 mem=512M ;;
		armhf) mem=1536M ;;
		arm64-16k) mem=1024M ;;
		mipsel) mem=256M ;;
		amd64|arm64|riscv64) ;;
		*) why="$boot: no such boot (tests/lib/boots.sh lists them)"; return 1 ;;
		esac ;;
	*)	why="$boot: no such boot (tests/lib/boots.sh lists them)"; return 1 ;;
	esac
	case $boot in
	trixie-riscv64) cpu=rv64,svnapot=on mmu=sv57 ;;
	*-riscv64) cpu=rv64,svnapot=on ;;
	esac
	case $arch in
	amd64) karch= bin=build tools=build/host ;;
	armhf) karch=arm bin=build/arm tools=build/arm/tools ;;
	arm64-16k) karch=arm64 bin=build/arm64 tools=build/arm64/tools ;;
	*) karch=$arch bin=build/$arch tools=build/$arch/tools ;;
	esac
}

# make_dtb W: the device tree the board boots with (qemu's own, dumped with
# the same -M and -m), decompiled, a reserved-memory node added (a second
# root node, which dtc merges), compiled to W/board.dtb.
make_dtb() {
	command -v dtc >/dev/null 2>&1 || { echo "dtc: not found (toolchain/setup test installs device-tree-compiler)"; return 1; }
	QEMU_MEM=$mem QEMU_DUMPDTB=$1/virt.dtb tests/qemu/boot armhf "$image" "$image" "$1/dump.log" || return 1
	dtc -q -I dtb -O dts -o "$1/virt.dts" "$1/virt.dtb" || return 1
	cat "$1/virt.dts" - >"$1/board.dts" <<EOF

/ {
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;

		$REGION {
			reg = <0x0 0x${REGION#*@} 0x0 $(printf '0x%x' $REGION_BYTES)>;
			no-map;
		};
	};
};
EOF
	dtc -q -I dts -O dtb -o "$1/board.dtb" "$1/board.dts"
}

boot_kernel() {
	dtb=
	if [ $kind = tiny ]; then
		toolchain/tinykernel "$variant" "$arch" >"$1/kernel.out" 2>"$1/kernel.log" ||
			{ why="kernel build: $(tail -n 3 "$1/kernel.log" | tr '\n' ' ')"; return 1; }
		_ka=$append
		eval "$(cat "$1/kernel.out")"
		append="$append${_ka:+ $_ka}"
		case $boot in
		*-headonly) append="$append kpageflags_buddy_head_only" ;;
		*-outside) append="$append free_outside_buddy=${OUTSIDE_MIB}M" ;;
		esac
		return 0
	fi
	toolchain/kernel fetch "$kdist" "${karg:-$arch}" >"$1/fetch.log" 2>&1 ||
		{ why="kernel fetch: $(tail -n 3 "$1/fetch.log" | tr '\n' ' ')"; return 1; }
	eval "$(toolchain/kernel path "$kdist" "${karg:-$arch}")"
	if [ -n "$dt" ]; then
		make_dtb "$1" >"$1/dtb.log" 2>&1 ||
			{ why="the device tree with a reserved-memory region: $(tail -n 3 "$1/dtb.log" | tr '\n' ' ')"; return 1; }
		dtb=$1/board.dtb
	fi
}
