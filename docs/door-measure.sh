#!/usr/bin/env bash
# door-measure.sh: the two doors side by side, as docs/performance.md
# compares them: the same loadtest schedule over HTTP and over
# WebSockets, each run against a fresh parlour serve. It prints each
# run's report, then each door's server CPU per accepted move and p99 (the
# runs, their mean) and the ratio of the means, socket over HTTP.
#
#   bash docs/door-measure.sh                  # from the repository's root
#   RUNS=5 RATE=2500 DUR=30s bash docs/door-measure.sh
#   BIN=../old/parlour bash docs/door-measure.sh   # a binary built before
#   TOOL=./parlour BIN=../old/parlour bash ...     # its server, this load tool
#   FLAGS="--stagger=false" bash docs/door-measure.sh # more loadtest flags
#   PAIRED=1 RUNS=4 bash docs/door-measure.sh        # both doors at once
#   FLAGS="--new-sockets" bash docs/door-measure.sh  # a new pair of sockets
#                                     # a table, not the last game's moved on
#
# By default the doors take turns, each round starting with the other
# door, so that a slow spell of the machine falls on both. One run's CPU
# per move still varies by a tenth or more from the next: compare means
# over several runs, and only within one series.
#
# With PAIRED=1 the doors run at the same time, each against a server of
# its own (on PORT and PORT+1, swapped every round), each at RATE over
# TABLES tables (1,000/s over 500 by default, half the load a door runs
# alone): whatever slows the machine slows both at once, and each round
# prints its own ratio. The doors' preparations differ in length, so
# their measured spans overlap by most, not all, of DUR.
#
# Nothing else should run meanwhile (the script prints the load average
# before each run). On a virtual machine the host can take the processors
# from under both server and tool, and the CPU a process is counted holds
# what was taken while it ran: each run's report says how much (its
# "machine:" line), and the summary gives it beside the CPU a move. Data
# folders live in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

PAIRED=${PAIRED:-}
RUNS=${RUNS:-3}
if [ -n "$PAIRED" ]; then
	RATE=${RATE:-1000}
	TABLES=${TABLES:-500}
else
	RATE=${RATE:-2000}
	TABLES=${TABLES:-1000}
fi
DUR=${DUR:-15s}
PORT=${PORT:-18191}
DOORS=${DOORS:-ws http}
FLAGS=${FLAGS:-}
if [ -n "$PAIRED" ] && [ "$(echo "$DOORS" | wc -w)" -ne 2 ]; then
	echo "door-measure: PAIRED runs two doors at once; DOORS names $DOORS" >&2
	exit 2
fi

work=$(mktemp -d -t parlour-doors.XXXXXX)
cleanup() {
	# The servers still running, if the script was stopped midway.
	if [ -f "$work/servers" ]; then
		while read -r pid; do kill -INT "$pid" 2>/dev/null || true; done <"$work/servers"
	fi
	wait || true
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${BIN:-}" ]; then
	BIN=$work/parlour
	go build -o "$BIN" ./cmd/parlour
fi
TOOL=${TOOL:-$BIN}

# run DOOR PORT: one loadtest run through DOOR against a fresh server on
# PORT; its report goes to $work/DOOR (added to) and to $work/last.DOOR.
run() {
	local door=$1 port=$2 data server
	data=$(mktemp -d "$work/data.XXXXXX")
	# Each socket is a connection of its own, and one address may hold a
	# quarter of --conns-per-addr as streams and sockets: let the load
	# tool's address hold them all (two a table, and the next tables'
	# while games turn over).
	"$BIN" serve --addr "127.0.0.1:$port" --data "$data" --log-level warn --conns-per-addr $((TABLES * 20 + 4000)) >"$data/serve.log" 2>&1 &
	server=$!
	echo "$server" >>"$work/servers"
	for _ in $(seq 50); do
		if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
		sleep 0.1
	done
	"$TOOL" loadtest --url "http://127.0.0.1:$port" --transport "$door" --tables "$TABLES" --conns "$TABLES" \
		--rate "$RATE" --duration "$DUR" --server-pid "$server" $FLAGS >"$work/last.$door" 2>&1 || true
	cat "$work/last.$door" >>"$work/$door"
	kill -INT "$server"
	wait "$server" || true
	rm -rf "$data"
}

# usec is an awk function: the server's CPU per accepted move, in µs,
# from a report's "CPU per accepted move" line.
usec='function usec(v) { sub(/.*server /, "", v); sub(/,.*/, "", v); n = v + 0; if (v ~ /[0-9.]ms$/) n *= 1000; return n }'

# cpu FILE: the server's CPU per accepted move in the report FILE, in µs.
cpu() {
	awk "$usec"' /CPU per accepted move/ { print usec($0) }' "$1"
}

for i in $(seq "$RUNS"); do
	# Each round starts with the other door (or, paired, gives each door
	# the other port).
	order=$DOORS
	if [ $((i % 2)) -eq 0 ]; then order=$(echo "$DOORS" | awk '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "")}'); fi
	if [ -z "$PAIRED" ]; then
		for door in $order; do
			echo "== $(date -u +%H:%M:%S) $door, load average $(cut -d' ' -f1 /proc/loadavg)"
			run "$door" "$PORT"
			cat "$work/last.$door"
		done
		continue
	fi
	echo "== $(date -u +%H:%M:%S) round $i, both doors at once, load average $(cut -d' ' -f1 /proc/loadavg)"
	port=$PORT
	for door in $order; do
		run "$door" "$port" &
		port=$((port + 1))
	done
	wait
	for door in $order; do
		echo "-- $door"
		cat "$work/last.$door"
	done
	set -- $DOORS
	awk -v a="$(cpu "$work/last.$1")" -v b="$(cpu "$work/last.$2")" -v n="$1 / $2" \
		'BEGIN { if (a > 0 && b > 0) { printf "round %d: %s %.2fx\n", '"$i"', n, a / b; print a / b >> "'"$work"'/ratios" } else printf "round %d: no ratio (a run gave no CPU figure)\n", '"$i"' }'
done

echo
echo "== $RUNS runs a door at $RATE/s for $DUR, $TABLES tables${FLAGS:+, $FLAGS}${PAIRED:+, both doors at once}"
for door in $DOORS; do
	awk -v door="$door" "$usec"'
		/CPU per accepted move/ { cpu[++c] = usec($0) }
		/ack latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") { p = $(i + 1)
			n = p + 0; if (p ~ /µs$/) n /= 1000; if (p ~ /[^m]s$/ && p !~ /µs$/) n *= 1000; p99[++q] = n } }
		/durability: / { if ($0 !~ /all [0-9]+ acknowledged moves found/) bad++ }
		/ machine: / { v = $0; sub(/ more taken by the host.*/, "", v); sub(/.*, /, "", v); steal[++t] = v + 0 }
		END {
			s = 0; line = ""
			for (i = 1; i <= c; i++) { s += cpu[i]; line = line sprintf(" %.0f", cpu[i]) }
			pl = ""
			for (i = 1; i <= q; i++) pl = pl sprintf(" %.1f", p99[i])
			sl = ""
			for (i = 1; i <= t; i++) sl = sl sprintf(" %.2f", steal[i])
			printf "%s: server CPU a move%s µs (mean %.0f); p99%s ms%s%s\n", door, line, (c ? s / c : 0), pl,
				(t ? "; processors taken by the host" sl : ""), (bad ? sprintf("; %d runs NOT all durable", bad) : "")
			print (c ? s / c : 0) > "'"$work"'/" door ".mean"
		}' "$work/$door"
done
if [ -f "$work/ws.mean" ] && [ -f "$work/http.mean" ]; then
	awk -v w="$(cat "$work/ws.mean")" -v h="$(cat "$work/http.mean")" 'BEGIN { if (h > 0) printf "socket / HTTP: %.2fx\n", w / h }'
fi
if [ -f "$work/ratios" ]; then
	awk '{ s += $1; line = line sprintf(" %.2f", $1); n++ } END { printf "rounds:%s (mean %.2fx)\n", line, s / n }' "$work/ratios"
fi
