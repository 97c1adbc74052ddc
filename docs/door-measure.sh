#!/usr/bin/env bash
# door-measure.sh: the two doors side by side, as docs/performance.md
# compares them (issue 20): the same loadtest schedule over HTTP and over
# WebSockets, each run against a fresh parlour serve, the doors taking
# turns so that a slow spell of the machine falls on both. It prints each
# run's report, then each door's server CPU per accepted move and p99 (the
# runs, their mean) and the ratio of the means, socket over HTTP.
#
#   bash docs/door-measure.sh                  # from the repository's root
#   RUNS=5 RATE=2500 DUR=30s bash docs/door-measure.sh
#   BIN=/tmp/parlour-old bash docs/door-measure.sh   # a binary built before
#   FLAGS="--stagger=false" bash docs/door-measure.sh # more loadtest flags
#
# One run's CPU per move varies by a tenth or more on a shared machine:
# compare means over several runs, and only with runs of the same series.
# Nothing else should run meanwhile (the script prints the load average
# before each run). Data folders live in a temporary folder, removed at
# the end.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
RATE=${RATE:-2000}
DUR=${DUR:-15s}
TABLES=${TABLES:-1000}
PORT=${PORT:-18191}
DOORS=${DOORS:-ws http}
FLAGS=${FLAGS:-}

work=$(mktemp -d /tmp/parlour-doors.XXXXXX)
server=
cleanup() {
	if [ -n "$server" ]; then kill -INT "$server" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${BIN:-}" ]; then
	BIN=$work/parlour
	go build -o "$BIN" ./cmd/parlour
fi

# run DOOR: one loadtest run through DOOR against a fresh server; its
# report goes to stdout and to $work/DOOR.
run() {
	local door=$1 data
	data=$(mktemp -d "$work/data.XXXXXX")
	# Each socket is a connection of its own: let the load tool's address
	# hold them all (two a table, and the next tables' while games turn over).
	"$BIN" serve --addr "127.0.0.1:$PORT" --data "$data" --log-level warn --conns-per-addr $((TABLES * 5 + 1000)) >"$data/serve.log" 2>&1 &
	server=$!
	for _ in $(seq 50); do
		if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
		sleep 0.1
	done
	echo "== $(date -u +%H:%M:%S) $door, load average $(cut -d' ' -f1 /proc/loadavg)"
	"$BIN" loadtest --url "http://127.0.0.1:$PORT" --transport "$door" --tables "$TABLES" --conns "$TABLES" \
		--rate "$RATE" --duration "$DUR" --server-pid "$server" $FLAGS 2>&1 | tee -a "$work/$door"
	kill -INT "$server"
	wait "$server" || true
	server=
	rm -rf "$data"
}

for i in $(seq "$RUNS"); do
	# The doors take turns, and each round starts with the other door.
	order=$DOORS
	if [ $((i % 2)) -eq 0 ]; then order=$(echo "$DOORS" | awk '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "")}'); fi
	for door in $order; do run "$door"; done
done

echo
echo "== $RUNS runs a door at $RATE/s for $DUR, $TABLES tables${FLAGS:+, $FLAGS}"
for door in $DOORS; do
	awk -v door="$door" '
		/CPU per accepted move/ { v = $0; sub(/.*server /, "", v); sub(/,.*/, "", v)
			u = v; sub(/[0-9.]+/, "", u); n = v + 0
			if (u == "ms") n *= 1000
			cpu[++c] = n }
		/ack latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") { p = $(i + 1)
			n = p + 0; if (p ~ /µs$/) n /= 1000; if (p ~ /[^m]s$/ && p !~ /µs$/) n *= 1000; p99[++q] = n } }
		/durability: / { if ($0 !~ /all [0-9]+ acknowledged moves found/) bad++ }
		END {
			s = 0; line = ""
			for (i = 1; i <= c; i++) { s += cpu[i]; line = line sprintf(" %.0f", cpu[i]) }
			pl = ""
			for (i = 1; i <= q; i++) pl = pl sprintf(" %.1f", p99[i])
			printf "%s: server CPU a move%s µs (mean %.0f); p99%s ms%s\n", door, line, (c ? s / c : 0), pl, (bad ? sprintf("; %d runs NOT all durable", bad) : "")
			print (c ? s / c : 0) > "'"$work"'/" door ".mean"
		}' "$work/$door"
done
if [ -f "$work/ws.mean" ] && [ -f "$work/http.mean" ]; then
	awk -v w="$(cat "$work/ws.mean")" -v h="$(cat "$work/http.mean")" 'BEGIN { if (h > 0) printf "socket / HTTP: %.2fx\n", w / h }'
fi
