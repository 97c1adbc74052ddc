#!/usr/bin/env bash
# measure.sh: Colyseus 0.16 (server.js, driven by load.js) against
# Parlour's WebSocket door (parlour serve, driven by parlour loadtest
# --transport ws), on the same open-loop schedule: TABLES live tables of
# two seats, a socket a seat, RATE moves a second. The servers take turns
# (A B, then B A), each run against a fresh server; the summary gives each
# server's CPU per acknowledged move and resident set, with the runs
# beside their means, and the ratio of the means, Parlour over Colyseus.
# Parlour stores every move durably before acknowledging it (SQLite,
# fsync); Colyseus keeps its rooms in memory only. With REFERENCE=1 the
# reference server (parlour loadtest --target reference) takes its turn
# too; with ALT="FLAGS", a second parlour serve started with those flags
# (as "parlour-alt"), such as ALT="--commit-interval 4ms".
#
#   npm ci --prefix bench/peers/colyseus       # once (node_modules is not committed)
#   bash bench/peers/colyseus/measure.sh       # from the repository's root
#   RUNS=5 RATES="2000" DUR=15 bash bench/peers/colyseus/measure.sh
#
# Every process runs under `nice -n $NICE` (5 by default). The load
# average before each run is printed beside it: compare figures only
# within one series.
set -euo pipefail
cd "$(dirname "$0")/../../.."

RUNS=${RUNS:-3}
RATES=${RATES:-2000 4000}
TABLES=${TABLES:-1000}
DUR=${DUR:-10}
PORT=${PORT:-18491}
NICE=${NICE:-5}
REFERENCE=${REFERENCE:-}
ALT=${ALT:-}
here=bench/peers/colyseus

if [ ! -d "$here/node_modules/colyseus" ]; then
	echo "measure.sh: run npm ci --prefix $here first" >&2
	exit 2
fi
work=$(mktemp -d -t parlour-colyseus.XXXXXX)
cleanup() {
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

# run SERVER RATE: one run; a line "server rate cpu_us rss_kb p99 load
# reached" goes to $work/results (reached: the moves a second the run
# reached).
run() {
	local which=$1 rate=$2 data server load rss
	data=$(mktemp -d "$work/data.XXXXXX")
	case $which in
	parlour | parlour-alt)
		local flags=()
		if [ "$which" = parlour-alt ]; then read -r -a flags <<<"$ALT"; fi
		nice -n "$NICE" "$BIN" serve --addr "127.0.0.1:$PORT" --data "$data" --log-level warn \
			--conns-per-addr $((TABLES * 20 + 4000)) "${flags[@]}" >"$data/serve.log" 2>&1 &
		;;
	reference)
		nice -n "$NICE" "$BIN" loadtest --target reference --serve-only --reference-addr "127.0.0.1:$PORT" \
			--reference-data "$data" >"$data/serve.log" 2>&1 &
		;;
	colyseus)
		nice -n "$NICE" node "$here/server.js" "$PORT" >"$data/serve.log" 2>&1 &
		;;
	esac
	server=$!
	echo "$server" >>"$work/servers"
	for _ in $(seq 100); do
		if [ "$which" = colyseus ] && grep -q listening "$data/serve.log"; then break; fi
		if [ "$which" != colyseus ] && curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
		sleep 0.1
	done
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "== $(date -u +%H:%M:%S) $which, $rate/s, load average $load"
	if [ "$which" = colyseus ]; then
		nice -n "$NICE" node "$here/load.js" --url "ws://127.0.0.1:$PORT" --tables "$TABLES" --rate "$rate" \
			--duration "$DUR" --server-pid "$server" >"$work/last" 2>&1 || true
	else
		nice -n "$NICE" "$BIN" loadtest --url "http://127.0.0.1:$PORT" --transport ws --tables "$TABLES" --conns "$TABLES" \
			--rate "$rate" --duration "${DUR}s" --server-pid "$server" >"$work/last" 2>&1 || true
	fi
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server/status" 2>/dev/null || echo 0)
	cat "$work/last"
	kill -INT "$server"
	wait "$server" || true
	rm -rf "$data"
	awk -v w="$which" -v r="$rate" -v rss="${rss:-0}" -v load="$load" '
		function usec(v) { sub(/.*server /, "", v); sub(/,.*/, "", v); n = v + 0; if (v ~ /[0-9.]ms$/) n *= 1000; return n }
		/CPU per accepted move/ { cpu = usec($0) }
		/^rate / { v = $0; sub(/.*accepted [0-9]+ \(/, "", v); sub(/\/s.*/, "", v); reached = v + 0 }
		/ack latency/ { for (i = 1; i <= NF; i++) if ($i == "p99") { p = $(i + 1)
			n = p + 0; if (p ~ /µs$/) n /= 1000; if (p ~ /[^m]s$/ && p !~ /µs$/) n *= 1000; p99 = n } }
		END { printf "%s %s %.0f %d %.1f %s %d\n", w, r, cpu, rss, p99, load, reached }' "$work/last" >>"$work/results"
}

servers="parlour colyseus${REFERENCE:+ reference}${ALT:+ parlour-alt}"
for rate in $RATES; do
	for i in $(seq "$RUNS"); do
		order=$servers
		if [ $((i % 2)) -eq 0 ]; then order=$(echo "$servers" | awk '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "")}'); fi
		for which in $order; do
			run "$which" "$rate"
		done
	done
done

echo
echo "== $RUNS runs each, $TABLES tables, ${DUR}s a run, over WebSockets; server CPU a move (µs), resident set at the end (MB), p99 (ms), load average before each run"
echo
echo "| rate | server | moves/s reached | CPU a move, runs (mean) | Parlour / it | RSS MB, runs (mean) | p99 ms | load averages |"
echo "|---|---|---|---|---|---|---|---|"
for rate in $RATES; do
	for which in $servers; do
		awk -v w="$which" -v r="$rate" '
			$2 == r { n[$1]++; cpu[$1] += $3 }
			$1 == w && $2 == r {
				k++; rss += $4
				cl = cl sprintf("%s%d", (k > 1 ? ", " : ""), $3)
				rl = rl sprintf("%s%.0f", (k > 1 ? ", " : ""), $4 / 1024)
				pl = pl sprintf("%s%.1f", (k > 1 ? ", " : ""), $5)
				ll = ll sprintf("%s%s", (k > 1 ? ", " : ""), $6)
				ql = ql sprintf("%s%d", (k > 1 ? ", " : ""), $7)
			}
			END {
				if (!k) exit
				m = cpu[w] / n[w]; p = (n["parlour"] ? cpu["parlour"] / n["parlour"] : 0)
				printf "| %s/s | %s | %s | %s (%.0f) | %.2fx | %s (%.0f) | %s | %s |\n", r, w, ql, cl, m, (m > 0 ? p / m : 0), rl, rss / k / 1024, pl, ll
			}' "$work/results"
	done
done
