# What the scan cannot see, judged: sourced by tests/suites/pidns_test.sh
# (this machine) and tests/suites/kmod_test.sh (a guest), with lib.sh; checks
# what tests/guest/pidns_guest.sh left in O (a file per frame: NAME,
# NAME.stderr, NAME.rc). EXMAP (build/exmap-mini) is this machine's
# exmap-mini, which loads the capture taken inside the namespace.

# _pn_rollup FILE FIELD: a copied smaps_rollup's FIELD, in bytes
_pn_rollup() { awk -v f="$2:" '$1 == f { print $2 * 1024 }' "$1"; }

# _pn_pss NAME CSV ROLLUP TOL: the namespace's process (pid 1, alone with
# exmap-mini there) scanned, its eff_resident its Pss and its resident its
# Rss within TOL bytes (Pss is in kB)
_pn_pss() {
	check_eq "$1: the namespace's processes scanned: pid 1" \
		"$(awk -F, 'NR > 1 { print $1 }' "$2" | tr '\n' ' ')" "1 " "$(head -c 300 "$2.stderr" 2>/dev/null)"
	check_num "$1: pid 1 eff_resident = Pss" "$(col "$2" pid 1 eff_resident)" \
		"$(_pn_rollup "$3" Pss)" "$4"
	check_num "$1: pid 1 resident = Rss" "$(col "$2" pid 1 resident)" "$(_pn_rollup "$3" Rss)" "$4"
}

# _pn_figs CSV [PID]: PID's (1's) figures but writable, with outside
_pn_figs() {
	for f in vm mapped resident eff_mapped eff_resident sole swap outside; do
		printf '%s=%s ' $f "$(col "$1" pid "${2:-1}" $f)"
	done
}

# pidns_checks O SRCS...
pidns_checks() {
	o=$1
	shift
	for b in "$@"; do
		f=$o/pidns_in_$b
		_pn_pss "pid namespace ($b)" "$f" "$o/pidns_in_rollup_$b" 1024
		# the 8 MiB (and the binary) the process outside maps too: half its own
		check_cmd "pid namespace ($b): the file's 8 MiB shown as mapped outside too" \
			within 8388608 "$(col "$f" pid 1 outside)" ""
		out=$(col "$f" pid 1 outside)
		res=$(col "$f" pid 1 resident)
		want=none
		is_int "$out" && is_int "$res" && want=$((res - out / 2))
		check_num "pid namespace ($b): what the process outside maps too shared in two" \
			"$(col "$f" pid 1 eff_resident)" "$want" 8192
	done
	# the module's figures are pagemap's (but writable, which only it has exact)
	if [ $# -gt 1 ]; then
		check_eq "pid namespace: the module's figures are pagemap's" "$(_pn_figs "$o/pidns_in_$1")" \
			"$(_pn_figs "$o/pidns_in_$2")"
		check_eq "unreadable process: the module's figures are pagemap's" \
			"$(_pn_figs "$o/pidns_hide_$1" "$(sed -n 's/^ready //p' "$o/pidns_seen_ready")")" \
			"$(_pn_figs "$o/pidns_hide_$2" "$(sed -n 's/^ready //p' "$o/pidns_seen_ready")")"
	fi
	check_cmd "pid namespace: the note says what is mapped outside the view" \
		has '^outside the view: [0-9]* pages here are mapped by unseen' "$o/pidns_in.txt"
	check_cmd "pid namespace: the note names the PID namespace" \
		has '(another PID namespace)' "$o/pidns_in.txt"
	"${EXMAP:-build/exmap-mini}" -k -l "$o/pidns_in.cap" >"$o/pidns_loaded.txt" 2>"$o/pidns_loaded.err"
	check_cmd "pid namespace: its capture loads here to the report it gave there" \
		same_file "$o/pidns_in.txt" "$o/pidns_loaded.txt"
	f=$o/pidns_in_only
	# (the header's other columns as the build has them: dma-bufs or not)
	check_eq "-p: no outside column, the figures' there" \
		"$(head -n 1 "$f" | tr ',' '\n' | grep -cx 'outside\|eff_resident')" 1 \
		"header: $(head -n 1 "$f")"
	# what it shared with the process outside is its own again
	full=$(col "$o/pidns_in_$1" pid 1 eff_resident)
	out=$(col "$o/pidns_in_$1" pid 1 outside)
	want=none
	is_int "$full" && is_int "$out" && want=$((full + out / 2))
	check_num "-p: the pages it shared outside its own again" "$(col "$f" pid 1 eff_resident)" \
		"$want" 8192
	check_cmd "-p: the report says shares are among those named" \
		has '^shares: among the processes -p names alone$' "$o/pidns_in_only.txt"

	for b in "$@"; do
		f=$o/pidns_user_$b
		_pn_pss "user namespace ($b)" "$f" "$o/pidns_user_rollup_$b" 0
		check_eq "user namespace ($b): pid 1 swap = Swap" "$(col "$f" pid 1 swap)" \
			"$(_pn_rollup "$o/pidns_user_rollup_$b" Swap)"
	done
	check_cmd "user namespace: one line says pfns are hidden and what is lost" \
		has '^pfns hidden (no CAP_SYS_ADMIN in the init user namespace)' "$o/pidns_user.txt"

	hide=$(sed -n 's/^ready //p' "$o/pidns_hide_ready")
	seen=$(sed -n 's/^ready //p' "$o/pidns_seen_ready")
	for b in "$@"; do
		f=$o/pidns_hide_$b
		if [ -n "$(col "$f" pid "$hide" pid)" ]; then
			echo "skip unreadable process ($b): this kernel lets a reader without" \
				"CAP_SYS_PTRACE read a process that is not dumpable"
			continue
		fi
		check_cmd "unreadable process ($b): said on stderr" has 'could not be read' "$f.stderr"
		r=$o/pidns_hide_rollup_$b
		check_num "unreadable process ($b): the other's eff_resident = Pss" \
			"$(col "$f" pid "$seen" eff_resident)" "$(_pn_rollup "$r" Pss)" 1024
		check_cmd "unreadable process ($b): the file's 8 MiB shown as mapped outside too" \
			within 8388608 "$(col "$f" pid "$seen" outside)" ""
	done
}
