# What the guests' scripts share, sourced in a qemu guest (busybox sh) as
# /test/lib.sh: tests/qemu/initramfs puts it there, beside /test/frame.sh.
#   await_ready OUT SECONDS [PID]
#       wait until OUT holds a "ready" line (the workloads of tests/work
#       print "ready PID..." once set up), looking every 0.1 s, at most
#       SECONDS, and only while PID (when given) lives; status 1 if it never
#       came
# Names starting _gl_ are its own.

await_ready() {
	_gl_n=$(($2 * 10))
	until grep -q '^ready' "$1" 2>/dev/null; do
		[ $_gl_n -gt 0 ] || return 1
		[ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
		_gl_n=$((_gl_n - 1))
		sleep 0.1
	done
}
