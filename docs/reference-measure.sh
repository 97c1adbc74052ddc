#!/usr/bin/env bash
# reference-measure.sh: Parlour against the reference server (the
# smallest Go server doing Parlour's durable job, `parlour loadtest
# --target reference`), as docs/performance.md's "Against the limit"
# compares them: the same loadtest schedule driving each, door by door
# and rate by rate, the two servers taking turns (A B, then B A), each
# run against a fresh server on a fresh data folder. For every run it
# prints the load average before it, the server's CPU per accepted move,
# its resident set at the end of the run and p99; then, per door and
# rate, each server's runs and means and the ratio of the means,
# Parlour over the reference.
#
#   bash docs/reference-measure.sh                  # from the repository's root
#   RUNS=5 RATES="2000" DOORS=ws DUR=15s bash docs/reference-measure.sh
#   BIN=../old/parlour bash docs/reference-measure.sh  # a binary built before
#   FLAGS="--stagger=false" bash docs/reference-measure.sh
#
# Both servers run with the same Go runtime settings (GOGC 400, at least
# four processors) and under `nice -n $NICE` (5 by default), as does the
# load tool. Nothing else should run meanwhile: compare figures only
# within one series. Data folders live in a temporary folder, removed at
# the end.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
RATES=${RATES:-1000 2000 4000}
DOORS=${DOORS:-http ws}
TABLES=${TABLES:-1000}
DUR=${DUR:-10s}
PORT=${PORT:-18291}
NICE=${NICE:-5}
FLAGS=${FLAGS:-}

. docs/measure-lib.sh
measure_setup reference

# start SERVER DATA: starts parlour serve or the reference server on
# $PORT with its data in DATA; its process id goes to $server.
start() {
	local which=$1 data=$2
	if [ "$which" = parlour ]; then
		nice -n "$NICE" "$BIN" serve --addr "127.0.0.1:$PORT" --data "$data" --log-level warn \
			--conns-per-addr $((TABLES * 20 + 4000)) >"$data/serve.log" 2>&1 &
	else
		nice -n "$NICE" "$BIN" loadtest --target reference --serve-only --reference-addr "127.0.0.1:$PORT" \
			--reference-data "$data" >"$data/serve.log" 2>&1 &
	fi
	server=$!
	echo "$server" >>"$work/servers"
	await_server "$PORT" "$data/serve.log" "reference-measure: $which"
}

# run SERVER DOOR RATE: one loadtest run; a line "door rate server cpu
# rss p99 load" goes to $work/results.
run() {
	local which=$1 door=$2 rate=$3 data load rss
	data=$(mktemp -d "$work/data.XXXXXX")
	start "$which" "$data"
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "== $(date -u +%H:%M:%S) $which, $door, $rate/s, load average $load"
	nice -n "$NICE" "$BIN" loadtest --url "http://127.0.0.1:$PORT" --transport "$door" --tables "$TABLES" --conns "$TABLES" \
		--rate "$rate" --duration "$DUR" --server-pid "$server" $FLAGS >"$work/last" 2>&1 || true
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0)
	cat "$work/last"
	note_steal "$which, $door, $rate/s" "$work/last"
	kill -INT "$server"
	wait "$server" || true
	rm -rf "$data"
	awk -v w="$which" -v d="$door" -v r="$rate" -v rss="${rss:-0}" -v load="$load" "$usec"'
		/CPU per accepted move/ { cpu = usec($0) }
		/ack latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") { p = $(i + 1)
			n = p + 0; if (p ~ /µs$/) n /= 1000; if (p ~ /[^m]s$/ && p !~ /µs$/) n *= 1000; p99 = n } }
		/durability: / { if ($0 !~ /all [0-9]+ acknowledged moves found/) bad = 1 }
		END { printf "%s %s %s %s %.0f %d %.1f %s\n", d, r, w, (bad ? "NOT-DURABLE" : "ok"), cpu, rss, p99, load }' \
		"$work/last" >>"$work/results"
}

for rate in $RATES; do
	for door in $DOORS; do
		for i in $(seq "$RUNS"); do
			if [ $((i % 2)) -eq 1 ]; then order="parlour reference"; else order="reference parlour"; fi
			for which in $order; do
				run "$which" "$door" "$rate"
			done
		done
	done
done

echo
echo "== $RUNS runs each, $TABLES tables, $DUR a run${FLAGS:+, $FLAGS}; server CPU a move (µs), resident set at the end (MB), p99 (ms), load average before each run"
echo
echo "| door | rate | Parlour: CPU a move, runs (mean) | reference: CPU a move, runs (mean) | CPU ratio | Parlour RSS MB (mean) | reference RSS MB (mean) | RSS ratio | p99 ms, Parlour / reference | load averages, Parlour / reference |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for rate in $RATES; do
	for door in $DOORS; do
		awk -v d="$door" -v r="$rate" '
			$1 == d && $2 == r {
				k = $3; n[k]++; cpu[k] += $5; rss[k] += $6
				cl[k] = cl[k] sprintf("%s%d", (n[k] > 1 ? ", " : ""), $5)
				rl[k] = rl[k] sprintf("%s%.0f", (n[k] > 1 ? ", " : ""), $6 / 1024)
				pl[k] = pl[k] sprintf("%s%.1f", (n[k] > 1 ? ", " : ""), $7)
				ll[k] = ll[k] sprintf("%s%s", (n[k] > 1 ? ", " : ""), $8)
				if ($4 != "ok") bad[k]++
			}
			END {
				if (!n["parlour"] || !n["reference"]) exit
				cp = cpu["parlour"] / n["parlour"]; cr = cpu["reference"] / n["reference"]
				rp = rss["parlour"] / n["parlour"] / 1024; rr = rss["reference"] / n["reference"] / 1024
				printf "| %s | %s/s | %s (%.0f) | %s (%.0f) | %.2fx | %s (%.0f) | %s (%.0f) | %.2fx | %s / %s | %s / %s |%s\n",
					d, r, cl["parlour"], cp, cl["reference"], cr, (cr > 0 ? cp / cr : 0),
					rl["parlour"], rp, rl["reference"], rr, (rr > 0 ? rp / rr : 0), pl["parlour"], pl["reference"],
					ll["parlour"], ll["reference"], (bad["parlour"] + bad["reference"] ? " NOT ALL DURABLE" : "")
			}' "$work/results"
	done
done
print_steal
