#!/usr/bin/env bash
# growth-measure.sh: what more live tables cost each move. Parlour serves
# the same loadtest schedule (one rate, the moves spread over every
# table) holding SMALL live tables and then LARGE, the two taking turns
# (A B, then B A), each run against a fresh server on a fresh data
# folder. For every run it prints the load average before it, the
# server's CPU per accepted move, its resident set at the end and p99;
# then each size's runs and means and the ratio of the means, LARGE over
# SMALL.
#
#   bash docs/growth-measure.sh                        # from the repository's root
#   RUNS=5 RATE=4000 DOOR=ws bash docs/growth-measure.sh
#   SMALL=1000 LARGE=10000 DUR=20s bash docs/growth-measure.sh
#
# The server runs as docs/reference-measure.sh runs it (GOGC 400, at
# least four processors, `nice -n $NICE`). Nothing else should run
# meanwhile: compare figures only within one series.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
RATE=${RATE:-2000}
DOOR=${DOOR:-http}
SMALL=${SMALL:-1000}
LARGE=${LARGE:-10000}
DUR=${DUR:-10s}
PORT=${PORT:-18291}
NICE=${NICE:-5}
FLAGS=${FLAGS:-}

. docs/measure-lib.sh
measure_setup growth

# run TABLES: one loadtest run over that many live tables; a line
# "tables cpu rss p99 load" goes to $work/results.
run() {
	local tables=$1 data load rss server
	data=$(mktemp -d "$work/data.XXXXXX")
	nice -n "$NICE" "$BIN" serve --addr "127.0.0.1:$PORT" --data "$data" --log-level warn \
		--conns-per-addr $((tables * 20 + 4000)) >"$data/serve.log" 2>&1 &
	server=$!
	echo "$server" >>"$work/servers"
	await_server "$PORT" "$data/serve.log" "growth-measure: the server of $tables tables"
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "== $(date -u +%H:%M:%S) $tables tables, $DOOR, $RATE/s, load average $load"
	nice -n "$NICE" "$BIN" loadtest --url "http://127.0.0.1:$PORT" --transport "$DOOR" --tables "$tables" --conns "$SMALL" \
		--rate "$RATE" --duration "$DUR" --server-pid "$server" $FLAGS >"$work/last" 2>&1 || true
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0)
	cat "$work/last"
	kill -INT "$server"
	wait "$server" || true
	rm -rf "$data"
	awk -v t="$tables" -v rss="${rss:-0}" -v load="$load" "$usec"'
		/CPU per accepted move/ { cpu = usec($0) }
		/ack latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") { p = $(i + 1)
			n = p + 0; if (p ~ /µs$/) n /= 1000; if (p ~ /[^m]s$/ && p !~ /µs$/) n *= 1000; p99 = n } }
		/durability: / { if ($0 !~ /all [0-9]+ acknowledged moves found/) bad = 1 }
		END { printf "%s %s %.0f %d %.1f %s\n", t, (bad ? "NOT-DURABLE" : "ok"), cpu, rss, p99, load }' \
		"$work/last" >>"$work/results"
}

for i in $(seq "$RUNS"); do
	if [ $((i % 2)) -eq 1 ]; then order="$SMALL $LARGE"; else order="$LARGE $SMALL"; fi
	for tables in $order; do
		run "$tables"
	done
done

echo
echo "== $RUNS runs each, $DOOR, $RATE moves/s, $DUR a run${FLAGS:+, $FLAGS}; server CPU a move (µs), resident set at the end (MB), p99 (ms), load average before each run"
echo
echo "| tables | CPU a move, runs (mean) | RSS MB, runs (mean) | p99 ms | load averages |"
echo "|---|---|---|---|---|"
awk -v small="$SMALL" -v large="$LARGE" '
	{ k = $1; n[k]++; cpu[k] += $3; rss[k] += $4
	  cl[k] = cl[k] sprintf("%s%d", (n[k] > 1 ? ", " : ""), $3)
	  rl[k] = rl[k] sprintf("%s%.0f", (n[k] > 1 ? ", " : ""), $4 / 1024)
	  pl[k] = pl[k] sprintf("%s%.1f", (n[k] > 1 ? ", " : ""), $5)
	  ll[k] = ll[k] sprintf("%s%s", (n[k] > 1 ? ", " : ""), $6)
	  if ($2 != "ok") bad[k]++ }
	END {
		split(small " " large, ks, " ")
		for (i = 1; i <= 2; i++) { k = ks[i]; if (!n[k]) continue
			printf "| %s | %s (%.0f) | %s (%.0f) | %s | %s |%s\n", k, cl[k], cpu[k] / n[k], rl[k], rss[k] / n[k] / 1024, pl[k], ll[k], (bad[k] ? " NOT ALL DURABLE" : "") }
		if (n[small] && n[large]) printf "\nCPU a move, %s tables over %s: %.2fx\n", large, small, (cpu[large] / n[large]) / (cpu[small] / n[small])
	}' "$work/results"
