# The watch bench, guest side: run as /test/run.sh in a qemu guest (busybox
# sh) with exmap-mini, watchcost and workload in /test; tests/bench/
# watch_board.sh measures on the host. The board's processes (init, the
# shells) and a workload of a parent and 3 children, as the capture test
# has them; then watchcost's pairs (a sample's CPU against a plain scan's),
# then "exmap-mini watch INTERVAL SAMPLES" straight to the serial console,
# between two marks, and watchcost's figures framed after.
INTERVAL=60 SAMPLES=12 ROUNDS=15
[ -f /test/params ] && . /test/params
cd /test || exit 1
. /test/frame.sh
. /test/lib.sh
: >/tmp/w1.out
./workload -n 3 -f 256 -c 256 -p 128 -d /tmp >/tmp/w1.out 2>&1 &
await_ready /tmp/w1.out 60
./watchcost "$ROUNDS" >/tmp/cost 2>/tmp/cost.err
echo "watch-mark begin"
./exmap-mini watch "$INTERVAL" "$SAMPLES"
echo "watch-mark end $?"
frame_begin watch
frame_file w1 /tmp/w1.out
frame_file cost /tmp/cost
frame_file cost.err /tmp/cost.err
frame_end
kill "$(sed -n 's/^ready \([0-9]*\).*/\1/p' /tmp/w1.out)"
