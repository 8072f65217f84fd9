# tests/run's scheduler, sourced by it: the suites declared one a line,
# each with what it needs, run on every core of the machine, the guests'
# boots shared between suites; each suite's log printed whole, in the order
# declared, with its time; at the end the failures again, the time in all
# and the five slowest suites, how busy the cores were, each job's start
# and end (TEST_TIMELINE), a warning past TEST_WARN_MIN minutes, and
# the closing "N passed, N failed".
#
#   suite NAME NEEDS CMD [ARG...]
#       a suite: CMD's output, whose last "N passed, N failed" line is its
#       result. NEEDS is "-" or words joined by commas:
#         root      needs root (without it, skipped: one failure says so)
#         host      runs this machine's workloads and reads the kernel's
#                   figures for them (shared binaries, swap, THP
#                   settings): one host suite at a time
#         quiet     measures memory or time: runs with nothing else beside
#         cores=N   keeps N cores busy (1)
#         key=K     a name for after= and phase=
#         after=K   starts once suite K ended
#         limit=S   stopped after S seconds (1800): a failure
#         phase=P@BOOT
#                   its guest part is phase P of the boot BOOT (tests/qemu/
#                   phases), run in the boot tests/run shares with other
#                   suites once the suite ended; the phase's lines are
#                   added to the suite's
#   guests NAME PHASE BOOT...
#       a suite made of phase PHASE of each BOOT (tests/lib/boots.sh): one
#       job per boot (limit 5400 s: it may build or fetch its kernel first;
#       the guest itself is bounded by its phases' budgets), with every
#       phase any suite attaches to it (the order in the guest: boots.sh's
#       PHASE_ORDER); each boot's lines after "== BOOT (SECONDS s; phases
#       ...)"; its time is its boots' (a shared boot counts for each)
#   run_suites
#       runs them: up to nproc cores at once (TEST_JOBS), jobs started in
#       the order declared as what they need allows (a quiet suite waits
#       for the machine to empty, and nothing starts before it); prints;
#       exits 0 when all passed, else 1. The boots' kernels are made
#       ready once the quiet jobs ended (tests/qemu/prefetch at nice 19);
#       a boot whose kernel is not ready yet lets the others pass while any
#       runs, and the prefetch goes on at the suites' priority from then.
#       When a core has been idle for TEST_SPARE_S seconds (10; 0: never;
#       at most 15) while the jobs take every core (guests that wait on
#       their clocks), one job more starts, the next the order allows (one
#       such at a time)
# TEST_PREFETCH (boot names): the kernels of a run to come made ready too,
# after this run's (.ci/run: make test-tinykernel's); the run waits for them.
# TEST_ONLY (an extended regular expression): only the suites whose name
# matches it are declared (the boots their phases need with them).
# Each job runs with tests/run's environment, stdin /dev/null, under
# timeout (its limit), from the repository. TEST_START (seconds since the
# epoch, the Makefile's) dates the whole make test for the warning.
# Names starting s_, j_ and _s_ are its own.

nsuites=0 njobs=0
# what dash says when a suite's line cannot run (SCRIPT: LINE: WHAT)
SHELL_ERR='^[^ ]+: [0-9]+: .+: (not found|Syntax error.*|Bad substitution|parameter not set)$'
S=$(mktemp -d /tmp/exmap-run.XXXXXX) || exit 2
trap 'rm -rf "$S"' EXIT

# _s_quote ARG...: the arguments as sh words
_s_quote() {
	for _s_a; do
		printf " '%s'" "$(printf '%s' "$_s_a" | sed "s/'/'\\\\''/g")"
	done
}

# _s_only NAME: NAME is to run (TEST_ONLY)
_s_only() {
	[ -z "${TEST_ONLY:-}" ] || printf '%s\n' "$1" | grep -Eq -- "$TEST_ONLY"
}

suite() {
	_s_only "$1" || return 0
	nsuites=$((nsuites + 1))
	eval "s_name_$nsuites=\$1 s_needs_$nsuites=\$2 s_kind_$nsuites=suite s_jobs_$nsuites="
	shift 2
	echo "exec$(_s_quote "$@")" >"$S/s$nsuites.cmd"
}

guests() {
	_s_only "$1" || return 0
	nsuites=$((nsuites + 1))
	eval "s_name_$nsuites=\$1 s_needs_$nsuites=root s_kind_$nsuites=guests s_phase_$nsuites=\$2 s_jobs_$nsuites="
	shift 2
	eval "s_boots_$nsuites=\$*"
}

# _s_need I WORD: suite I's NEEDS has WORD (or WORD=value: printed)
_s_need() {
	eval "_s_n=\$s_needs_$1"
	echo ",$_s_n," | tr ',' '\n' | awk -v w="$2" '$0 == w { print "y"; f = 1; exit }
		index($0, w "=") == 1 { print substr($0, length(w) + 2); f = 1; exit } END { exit !f }'
}

# _s_job KIND SUITE [BOOT]: a new job, its number in j
_s_job() {
	njobs=$((njobs + 1))
	j=$njobs
	eval "j_kind_$j=\$1 j_suite_$j=\$2 j_boot_$j=\${3:-} j_phases_$j= j_after_$j= j_state_$j=wait"
	eval "j_cores_$j=1 j_host_$j= j_quiet_$j= j_limit_$j=1800 j_start_$j=0 j_end_$j=0 j_rc_$j="
}

# _s_boot_job BOOT: the job of that boot (made when new), in j
_s_boot_job() {
	_s_k=1
	while [ $_s_k -le $njobs ]; do
		eval "[ \"\$j_kind_$_s_k\" = boot ] && [ \"\$j_boot_$_s_k\" = \"\$1\" ]" && { j=$_s_k; return; }
		_s_k=$((_s_k + 1))
	done
	_s_job boot 0 "$1"
	eval "j_limit_$j=5400"
}

# The jobs: one per suite, one per boot (in the place of the first suite
# that needs it); a suite's phase= joins its boot, after it.
_s_plan() {
	i=1
	while [ $i -le $nsuites ]; do
		eval "kind=\$s_kind_$i"
		if [ "$(id -u)" -ne 0 ] && [ -n "$(_s_need $i root)" ]; then
			eval "s_skip_$i=y"
			i=$((i + 1))
			continue
		fi
		eval "s_skip_$i="
		if [ "$kind" = guests ]; then
			eval "set -- \$s_boots_$i; p=\$s_phase_$i"
			for b; do
				_s_boot_job "$b"
				eval "j_phases_$j=\"\$j_phases_$j \$p\" s_jobs_$i=\"\$s_jobs_$i $j\""
			done
		else
			_s_job suite $i
			eval "s_jobs_$i=$j s_key_$i=\$(_s_need $i key)"
			eval "j_host_$j=\$(_s_need $i host) j_quiet_$j=\$(_s_need $i quiet)"
			c=$(_s_need $i cores) && eval "j_cores_$j=$c"
			l=$(_s_need $i limit) && eval "j_limit_$j=$l"
		fi
		i=$((i + 1))
	done
	# after= and phase=, now that every key is known
	i=1
	while [ $i -le $nsuites ]; do
		eval "sk=\$s_skip_$i"
		if [ -z "$sk" ] && [ "$(eval echo \$s_kind_$i)" = suite ]; then
			eval "sj=\$s_jobs_$i"
			if a=$(_s_need $i after); then
				k=1
				while [ $k -le $nsuites ]; do
					eval "[ \"\${s_key_$k:-}\" = \"\$a\" ] && [ -z \"\$s_skip_$k\" ]" &&
						eval "j_after_$sj=\"\$j_after_$sj \$s_jobs_$k\""
					k=$((k + 1))
				done
			fi
			if ph=$(_s_need $i phase); then
				_s_boot_job "${ph#*@}"
				eval "j_phases_$j=\"\$j_phases_$j ${ph%@*}\" j_after_$j=\"\$j_after_$j $sj\""
				eval "s_pjob_$i=$j s_pphase_$i=${ph%@*}"
			fi
		fi
		i=$((i + 1))
	done
}

now() { date +%s; }

# _s_start J: job J in the background, under timeout, its pid (timeout's,
# the leader of the job's process group) in S/jJ.pid
_s_start() {
	eval "kind=\$j_kind_$1 lim=\$j_limit_$1"
	if [ "$kind" = boot ]; then
		eval "echo \"exec tests/qemu/phases \$j_boot_$1 \$j_phases_$1\"" >"$S/j$1.sh"
	else
		eval "cp \"\$S/s\$j_suite_$1.cmd\" \"\$S/j$1.sh\""
	fi
	eval "j_state_$1=run j_start_$1=$(now)"
	(
		timeout -k 30 "$lim" sh "$S/j$1.sh" >"$S/j$1.log" 2>&1 </dev/null &
		echo $! >"$S/j$1.pid"
		wait $!
		_s_rc=$?
		# the CPU the job's processes used (the children's line)
		times >"$S/j$1.times"
		echo $_s_rc >"$S/j$1.rc.new" && mv "$S/j$1.rc.new" "$S/j$1.rc"
	) &
}

# _s_quiet_left: a quiet job has not ended yet
_s_quiet_left() {
	_s_k=1
	while [ $_s_k -le $njobs ]; do
		eval "[ -z \"\$j_quiet_$_s_k\" ] || [ \"\$j_state_$_s_k\" = done ]" || return 0
		_s_k=$((_s_k + 1))
	done
	return 1
}

# _s_prefetch: the boots' kernels made ready once the quiet jobs ended
# (nothing beside them: a build moves meminfo's figures), from the start
# of the rest (tests/qemu/prefetch, at nice 19: downloads and builds in the
# time the cores would wait), in the order of the boot jobs, then
# TEST_PREFETCH's (the boots of a run to come); pf its process group
# (timeout's)
_s_prefetch() {
	pf_started=y
	_s_b=
	j=1
	while [ $j -le $njobs ]; do
		eval "[ \"\$j_kind_$j\" != boot ] || _s_b=\"\$_s_b \$j_boot_$j\""
		j=$((j + 1))
	done
	_s_b="$_s_b ${TEST_PREFETCH:-}"
	[ -n "$(echo $_s_b)" ] || return 0
	rm -rf build/qemu/prefetch
	(
		nice -n 19 timeout -k 30 5400 sh tests/qemu/prefetch $_s_b >/dev/null 2>&1 </dev/null &
		echo $! >"$S/pf.pid.new" && mv "$S/pf.pid.new" "$S/pf.pid"
		wait $!
		: >"$S/pf.done"
	) &
	while [ ! -f "$S/pf.pid" ]; do sleep 0.1; done
	pf=$(cat "$S/pf.pid")
}

# _s_pf_on: the prefetch is still at work
_s_pf_on() {
	[ -n "$pf" ] && [ ! -f "$S/pf.done" ]
}

# _s_unready J: J is a boot whose kernel the prefetch is still making; a
# boot waiting there would hold a core idle: the others go first, and the
# prefetch goes on at the suites' priority from then
_s_unready() {
	eval "[ \"\$j_kind_$1\" = boot ]" || return 1
	_s_pf_on || return 1
	eval "[ ! -f \"build/qemu/prefetch/\$j_boot_$1.ready\" ]" || return 1
	if [ -z "$pf_raised" ]; then
		renice -n 0 -g "$pf" >/dev/null 2>&1
		pf_raised=y
	fi
}

# _s_can J: job J may start now (used: the cores running jobs keep busy);
# over=y when it would start beyond them, on a spare core
_s_can() {
	eval "after=\$j_after_$1 cores=\$j_cores_$1 host=\$j_host_$1 quiet=\$j_quiet_$1"
	for a in $after; do
		eval "[ \"\$j_state_$a\" = done ]" || return 1
	done
	# (with nothing running, a boot may as well wait for its kernel)
	[ "$used" -eq 0 ] || ! _s_unready "$1" || return 1
	[ -z "$quiet_running" ] || return 1
	[ -z "$quiet" ] || [ "$used" -eq 0 ] || return 1
	[ -z "$host" ] || [ -z "$host_running" ] || return 1
	over=
	[ "$used" -eq 0 ] || [ $((used + cores)) -le "$ncpu" ] ||
		{ [ -n "$spare" ] && [ "$cores" -eq 1 ] && over=y; }
}

# _s_spare: a core has been idle over the last TEST_SPARE_S seconds (10),
# while the jobs keep every core taken (a guest that waits on its clock, a
# suite that samples every second): one job more may start (into spare;
# none while the jobs are over the cores, none in the window after a start, none
# with TEST_SPARE_S=0). The prefetch's builds count as busy: its kernels
# have that time first.
_s_spare() {
	spare=
	_s_n=$((_s_n + 1))
	_s_v=$(_s_cpu)
	eval "_s_w$((_s_n % 16))=\"\$_s_v\""
	[ "${TEST_SPARE_S:-10}" -gt 0 ] && [ "${TEST_SPARE_S:-10}" -le 15 ] && [ -z "$extra_running" ] && [ "$used" -ge "$ncpu" ] || return 0
	[ $((_s_n - _s_n0)) -gt "${TEST_SPARE_S:-10}" ] || return 0
	eval "_s_a=\"\$_s_w$((_s_n % 16))\" _s_o=\"\$_s_w$(((_s_n - ${TEST_SPARE_S:-10}) % 16))\""
	spare=$(echo "$_s_a $_s_o" | awk -v n="$ncpu" '$2 > $4 && n * (1 - ($1 - $3) / ($2 - $4)) >= 0.8 { print "y" }')
}

# _s_tally LOG PREFIX: LOG's ok lines of PREFIX and all its FAIL lines
# (a failure whatever its name) counted into tp tf
_s_tally() {
	tp=$(awk -v p="ok   $2" 'index($0, p) == 1' "$1" 2>/dev/null | wc -l)
	tf=$(cat "$1" 2>/dev/null | grep -c '^FAIL ')
}

# _s_phase_lines BOOTJOB PHASE SUITENAME: the phase's lines of that boot,
# counted into tp tf (a missing log is a failure)
_s_phase_lines() {
	eval "b=\$j_boot_$1 rc=\$j_rc_$1"
	plog=build/qemu/boots/$b/$2.log
	pre=$(tests/lib/"$2"_phase.sh prefix "build/qemu/boots/$b/boot.env" "$2" 2>/dev/null)
	if [ -f "$plog" ] && [ -n "$pre" ]; then
		cat "$plog"
		_s_tally "$plog" "$pre"
		grep '^FAIL ' "$plog" | awk -v n="$3: " '{ print n $0 }' >>"$S/fails"
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			echo "FAIL $pre$2: the boot stopped at its time limit" | tee -a "$S/fails"
			tf=$((tf + 1))
		fi
	else
		cat "$S/j$1.log"
		echo "FAIL $b: $2: no results (tests/qemu/phases exit $rc)" | tee -a "$S/fails"
		tp=0 tf=1
	fi
}

# _s_print I: suite I's lines, result and time; adds to total_pass, total_fail
_s_print() {
	si=$1
	eval "name=\$s_name_$si kind=\$s_kind_$si jobs=\$s_jobs_$si"
	echo "== $name"
	if [ "$kind" = guests ]; then
		eval "p=\$s_phase_$si"
		sp=0 sf=0 secs=0 n=0
		for jj in $jobs; do
			eval "bs=\$((j_end_$jj - j_start_$jj)) ph=\$j_phases_$jj"
			echo "== $(eval echo \$j_boot_$jj) ($bs s; phases$ph)"
			secs=$((secs + bs))
			_s_phase_lines $jj "$p" "$name"
			sp=$((sp + tp)) sf=$((sf + tf)) n=$((n + 1))
		done
		echo "$sp passed, $sf failed ($secs s in $n boots)"
		total_pass=$((total_pass + sp)) total_fail=$((total_fail + sf))
		echo "$secs	$name" >>"$S/times"
		return
	fi
	eval "rc=\$j_rc_$jobs lim=\$j_limit_$jobs secs=\$((j_end_$jobs - j_start_$jobs)) pj=\${s_pjob_$si:-}"
	log=$S/j$jobs.log
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	# the result line with its time beside it
	awk -v r="$line" -v t=" ($secs s)" 'r != "" && $0 == r { n = NR } { l[NR] = $0 }
		END { for (i = 1; i <= NR; i++) print l[i] (i == n ? t : "") }' "$log"
	grep -E '^FAIL ' "$log" | awk -v n="$name: " '{ print n $0 }' >>"$S/fails"
	# the shell's own errors (a function gone, a typo) are failures too:
	# the suite went on past a line that did nothing
	grep -E "$SHELL_ERR" "$log" | awk -v n="$name: " '{ print "FAIL " n "the shell said: " $0 }' >"$S/sherr"
	if [ -s "$S/sherr" ]; then
		tee -a "$S/fails" <"$S/sherr"
		total_fail=$((total_fail + $(wc -l <"$S/sherr")))
	fi
	echo "$secs	$name" >>"$S/times"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "FAIL $name: stopped after $lim s, its time limit" | tee -a "$S/fails"
		total_fail=$((total_fail + 1))
		return
	fi
	if [ -z "$line" ]; then
		echo "FAIL $name: no result line (exit $rc)" | tee -a "$S/fails"
		total_fail=$((total_fail + 1))
		return
	fi
	set -- $line
	sp=$1 sf=$3
	if [ -n "$pj" ]; then
		eval "echo \"== \$j_boot_$pj: \$s_pphase_$si (\$((j_end_$pj - j_start_$pj)) s, a boot shared)\""
		eval "_s_phase_lines $pj \$s_pphase_$si \"\$name\""
		sp=$((sp + tp)) sf=$((sf + tf))
		echo "$sp passed, $sf failed with the guest's"
	fi
	total_pass=$((total_pass + sp)) total_fail=$((total_fail + sf))
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != 137 ] && [ "$3" -eq 0 ]; then
		echo "FAIL $name: exit $rc" | tee -a "$S/fails"
		total_fail=$((total_fail + 1))
	fi
}

# _s_printable I: every job of suite I (and of its phase) ended
_s_printable() {
	eval "jobs=\"\$s_jobs_$1 \${s_pjob_$1:-}\""
	for jj in $jobs; do
		eval "[ \"\$j_state_$jj\" = done ]" || return 1
	done
}

# _s_kill: every running job's process group ended (tests/run interrupted)
_s_kill() {
	for f in "$S"/j*.pid; do
		[ -f "$f" ] && kill -TERM -"$(cat "$f")" 2>/dev/null
	done
	[ -z "${pf:-}" ] || kill -TERM -"$pf" 2>/dev/null
}

# _s_cpu: the machine's CPU ticks, busy and in all (/proc/stat's cpu line;
# idle and iowait are not busy)
_s_cpu() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t; exit }' \
		/proc/stat 2>/dev/null
}

# _s_jcpu J: the CPU seconds job J's processes used (user and system,
# from the shell's times: its children's line)
_s_jcpu() {
	sed -n 2p "$S/j$1.times" 2>/dev/null | tr 'ms' '  ' |
		awk 'NF == 4 { printf "%d\n", $1 * 60 + $2 + $3 * 60 + $4 + 0.5; exit } END { if (NF != 4) print "-" }'
}

# _s_timeline FILE: each job's start and end (seconds from the first
# start), the CPU seconds it used and its name, in start order, where the
# cores' idle time can be seen
_s_timeline() {
	j=1
	while [ $j -le $njobs ]; do
		eval "k=\$j_kind_$j st=\${j_start_$j:-} en=\${j_end_$j:-}"
		if [ -n "$st" ] && [ -n "$en" ]; then
			if [ "$k" = boot ]; then
				eval "nm=\"boot \$j_boot_$j:\$j_phases_$j\""
			else
				eval "si=\$j_suite_$j"
				eval "nm=\$s_name_$si"
			fi
			eval "[ -z \"\${j_extra_$j:-}\" ] || nm=\"+\$nm\""
			printf '%d\t%d\t%s\t%s\n' $((st - t0)) $((en - t0)) "$(_s_jcpu $j)" "$(echo "$nm" | cut -c 1-70)"
		fi
		j=$((j + 1))
	done | sort -n >"$1" 2>/dev/null
}

run_suites() {
	# a suite that scans every process can tell the other suites' from the
	# machine's (tests/suites/capture_corrupt.sh)
	TEST_RUN_PID=$$
	export TEST_RUN_PID
	t0=$(now)
	cpu0=$(_s_cpu)
	ncpu=${TEST_JOBS:-$(nproc)}
	total_pass=0 total_fail=0
	: >"$S/fails"
	: >"$S/times"
	trap '_s_kill; rm -rf "$S"; exit 130' INT TERM
	_s_plan
	pf= pf_raised= pf_started=
	spare= extra_running= _s_n=0 _s_n0=0 nextra=0
	done_jobs=0 next=1
	while :; do
		# reap
		used=0 host_running= quiet_running= extra_running=
		j=1
		while [ $j -le $njobs ]; do
			eval "st=\$j_state_$j"
			if [ "$st" = run ] && [ -f "$S/j$j.rc" ]; then
				eval "j_state_$j=done j_end_$j=$(now) j_rc_$j=$(cat "$S/j$j.rc")"
				done_jobs=$((done_jobs + 1))
				st=done
			fi
			if [ "$st" = run ]; then
				eval "used=\$((used + j_cores_$j))"
				eval "[ -z \"\$j_host_$j\" ] || host_running=y; [ -z \"\$j_quiet_$j\" ] || quiet_running=y"
				eval "[ -z \"\${j_over_$j:-}\" ] || extra_running=y"
			fi
			j=$((j + 1))
		done
		# a job started over the cores is within them once another ended
		if [ -n "$extra_running" ] && [ "$used" -le "$ncpu" ]; then
			extra_running=
			j=1
			while [ $j -le $njobs ]; do eval "j_over_$j="; j=$((j + 1)); done
		fi
		[ -n "$pf_started" ] || _s_quiet_left || _s_prefetch
		_s_spare
		# start, in order; nothing passes a quiet job that waits
		j=1
		while [ $j -le $njobs ]; do
			eval "st=\$j_state_$j q=\$j_quiet_$j"
			if [ "$st" = wait ]; then
				if _s_can $j; then
					[ -z "$over" ] ||
						{ eval "j_extra_$j=y j_over_$j=y"; extra_running=y spare= nextra=$((nextra + 1)); }
					_s_start $j
					_s_n0=$_s_n
					eval "used=\$((used + j_cores_$j))"
					eval "[ -z \"\$j_host_$j\" ] || host_running=y; [ -z \"\$j_quiet_$j\" ] || quiet_running=y"
				elif [ -n "$q" ]; then
					break
				fi
			fi
			j=$((j + 1))
		done
		# print, in order
		while [ $next -le $nsuites ]; do
			eval "sk=\$s_skip_$next"
			if [ -z "$sk" ]; then
				_s_printable $next || break
				_s_print $next
			fi
			next=$((next + 1))
		done
		[ $next -le $nsuites ] || break
		sleep 1
	done
	# the kernels of a run to come (TEST_PREFETCH) may still be building
	if _s_pf_on; then
		echo "== waiting for the kernels TEST_PREFETCH names ($TEST_PREFETCH), made ahead for a run to come"
		renice -n 0 -g "$pf" >/dev/null 2>&1
	fi
	wait
	if [ -f build/qemu/prefetch/log ]; then
		awk '/: ready after/ { r++ } /: not had/ { n++; print "  prefetch: " $0 }
			END { printf "  kernels made ahead of their boots: %d ready, %d not had (build/qemu/prefetch/log)\n", r, n }' \
			build/qemu/prefetch/log
	fi
	if [ -n "$(i=1; while [ $i -le $nsuites ]; do eval "echo \$s_skip_$i"; i=$((i + 1)); done)" ]; then
		echo "FAIL integration and fixture: need root (CI runs as root)" | tee -a "$S/fails"
		total_fail=$((total_fail + 1))
	fi
	# The failures again, last, where a CI log's tail shows them
	if [ -s "$S/fails" ]; then
		echo "== what failed"
		cat "$S/fails"
	fi
	secs=$(($(now) - t0))
	echo "== time: $secs s ($((secs / 60)) min $((secs % 60)) s) for the suites${TEST_START:+, $(($(now) - TEST_START)) s for make test in all}; the slowest:"
	sort -rn "$S/times" | head -n 5 | awk -F'\t' '{ printf "%6d s  %s\n", $1, substr($2, 1, 70) }'
	# how busy the cores were, and when each job ran (TEST_TIMELINE)
	echo "$cpu0 $(_s_cpu)" | awk 'NF == 4 && $4 > $2 {
		printf "  the cores: %d%% busy over the suites (/proc/stat, the whole machine)\n", 100 * ($3 - $1) / ($4 - $2) }'
	echo "  jobs started beside the cores' jobs on a core idle ${TEST_SPARE_S:-10} s: $nextra (+ in the timeline)"
	tl=${TEST_TIMELINE:-${BUILD:-build}/test-timeline.txt}
	_s_timeline "$tl" && echo "  each job's start and end: $tl"
	all=$secs
	[ -z "${TEST_START:-}" ] || all=$(($(now) - TEST_START))
	if [ "$all" -gt $((${TEST_WARN_MIN:-45} * 60)) ]; then
		echo "WARNING: make test took $((all / 60)) min ($all s), more than ${TEST_WARN_MIN:-45}; the slowest suites:" \
			"$(sort -rn "$S/times" | head -n 3 | cut -f2 | cut -c 1-50 | sed 's/$/;/' | tr '\n' ' ')" >&2
	fi
	echo "$total_pass passed, $total_fail failed"
	[ "$total_fail" -eq 0 ]
}
