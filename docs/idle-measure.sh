#!/usr/bin/env bash
# idle-measure.sh: the cost of waiting, as docs/performance.md's "The
# cost of waiting" measures it, each run against a fresh `parlour serve`
# on a fresh data folder:
#
#   idle: the server's CPU with 1,000 live tables and 2,000 open sockets
#         and no moves, read each second for a minute (`parlour loadtest
#         --idle-cpu`): the median, p90 and mean of the seconds;
#   rates: the server's CPU per move at 250 and at 2,000 moves/s, the two
#         rates taking turns (A B, then B A), and the ratio of the means;
#         beside it the load tool's own CPU per move at each rate, a
#         control: its work per move is the same at both rates, so its
#         ratio shows what a process pays for that work at the lower
#         rate (an idle machine's wake-ups) with no server in it.
#
# With OLD set to a binary built before, each configuration runs on both
# binaries in turn, so that the two are compared within one series. With
# REFERENCE=1 the rates also run against the reference server (`parlour
# loadtest --target reference`), the least a durable server spends.
#
#   bash docs/idle-measure.sh                          # from the repository's root
#   OLD=../old/parlour RUNS=3 bash docs/idle-measure.sh
#   PARTS=idle WINDOW=120s bash docs/idle-measure.sh
#   PARTS=rates REFERENCE=1 bash docs/idle-measure.sh
#   SFLAGS="--procs 2" bash docs/idle-measure.sh     # flags for parlour serve
#   PARTS=rates DOOR=ws bash docs/idle-measure.sh      # the rates over the WebSocket (default http)
#
# The load average is printed before each run; compare figures only
# within one series. Data folders live in a temporary folder, removed at
# the end.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
PARTS=${PARTS:-idle rates}
TABLES=${TABLES:-1000}
SOCKETS=${SOCKETS:-2000}
WINDOW=${WINDOW:-60s}
LOW=${LOW:-250}
HIGH=${HIGH:-2000}
DUR=${DUR:-15s}
DOOR=${DOOR:-http}
PORT=${PORT:-18391}
NICE=${NICE:-5}
SFLAGS=${SFLAGS:-}

. docs/measure-lib.sh
measure_setup idle
bins="new"
if [ -n "${OLD:-}" ]; then bins="old new"; fi
rbins=$bins
if [ -n "${REFERENCE:-}" ]; then rbins="$bins reference"; fi
binary() { if [ "$1" = old ]; then echo "$OLD"; else echo "$BIN"; fi; }

# start WHICH DATA: starts the binary WHICH's parlour serve on $PORT with
# its data in DATA; its process id goes to $server.
start() {
	local bin data=$2
	bin=$(binary "$1")
	nice -n "$NICE" "$bin" serve --addr "127.0.0.1:$PORT" --data "$data" --log-level warn \
		--conns-per-addr $((TABLES * 20 + SOCKETS + 4000)) $SFLAGS >"$data/serve.log" 2>&1 &
	server=$!
	echo "$server" >>"$work/servers"
	await_server "$PORT" "$data/serve.log" "idle-measure: the $1 server"
}

stop() {
	kill -INT "$server"
	wait "$server" || true
}

# idle WHICH: one idle run; "idle which median p90 mean load" goes to
# $work/results.
idle() {
	local which=$1 data load
	data=$(mktemp -d "$work/data.XXXXXX")
	start "$which" "$data"
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "== $(date -u +%H:%M:%S) $which, idle, load average $load"
	nice -n "$NICE" "$(binary new)" loadtest --url "http://127.0.0.1:$PORT" --idle-tables "$TABLES" --idle-sockets "$SOCKETS" \
		--idle-cpu "$WINDOW" --server-pid "$server" >"$work/last" 2>&1 || true
	cat "$work/last"
	stop
	rm -rf "$data"
	awk -v w="$which" -v load="$load" '
		/^idle CPU over/ { for (i = 1; i <= NF; i++) {
			if ($i == "median") med = $(i + 1); if ($i == "p90") p90 = $(i + 1); if ($i == "mean") mean = $(i + 1) } }
		END { gsub(/[%,;]/, "", med); gsub(/[%,;]/, "", p90); gsub(/[%,;]/, "", mean)
			printf "idle %s %s %s %s %s\n", w, med, p90, mean, load }' "$work/last" >>"$work/results"
}

# rate WHICH RATE: one run at RATE moves/s; "rate which rate cpu
# toolcpu load" goes to $work/results.
rate() {
	local which=$1 r=$2 data load
	data=$(mktemp -d "$work/data.XXXXXX")
	if [ "$which" = reference ]; then
		load=$(cut -d' ' -f1 /proc/loadavg)
		echo "== $(date -u +%H:%M:%S) $which, $r/s, load average $load"
		nice -n "$NICE" "$(binary new)" loadtest --target reference --reference-data "$data" --tables "$TABLES" --conns "$TABLES" \
			--transport "$DOOR" --rate "$r" --duration "$DUR" >"$work/last" 2>&1 || true
	else
		start "$which" "$data"
		load=$(cut -d' ' -f1 /proc/loadavg)
		echo "== $(date -u +%H:%M:%S) $which, $r/s, load average $load"
		nice -n "$NICE" "$(binary new)" loadtest --url "http://127.0.0.1:$PORT" --tables "$TABLES" --conns "$TABLES" \
			--transport "$DOOR" --rate "$r" --duration "$DUR" --server-pid "$server" >"$work/last" 2>&1 || true
		stop
	fi
	cat "$work/last"
	note_steal "$which, $r/s" "$work/last"
	rm -rf "$data"
	awk -v w="$which" -v r="$r" -v load="$load" "$usec"'
		/CPU per accepted move/ { cpu = usec($0); tool = toolusec($0) }
		/durability: / { if ($0 !~ /all [0-9]+ acknowledged moves found/) bad = 1 }
		END { printf "rate %s %s %.0f %.0f %s%s\n", w, r, cpu, tool, load, (bad ? " NOT-DURABLE" : "") }' "$work/last" >>"$work/results"
}

reverse() { echo "$1" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }'; }
for i in $(seq "$RUNS"); do
	for part in $PARTS; do
		order=$bins
		if [ "$part" = rates ]; then order=$rbins; fi
		if [ $((i % 2)) -eq 0 ]; then order=$(reverse "$order"); fi
		for which in $order; do
			if [ "$part" = idle ]; then
				idle "$which"
			else
				if [ $((i % 2)) -eq 1 ]; then rate "$which" "$LOW"; rate "$which" "$HIGH"; else rate "$which" "$HIGH"; rate "$which" "$LOW"; fi
			fi
		done
	done
done

echo
echo "== $RUNS runs each; $TABLES tables, $SOCKETS sockets, $WINDOW idle; $LOW and $HIGH moves/s over $DOOR for $DUR${SFLAGS:+; parlour serve $SFLAGS}"
echo
if grep -q '^idle' "$work/results"; then
	echo "| server | idle CPU, median of the seconds (% of a processor), runs | p90, runs | mean, runs (mean) | load averages |"
	echo "|---|---|---|---|---|"
	for which in $bins; do
		awk -v w="$which" '
			$1 == "idle" && $2 == w { n++; s = (n > 1 ? ", " : "")
				med = med s $3; p90 = p90 s $4; mean = mean s $5; sum += $5; load = load s $6 }
			END { if (n) printf "| %s | %s | %s | %s (%.2f) | %s |\n", w, med, p90, mean, sum / n, load }' "$work/results"
	done
	echo
fi
if grep -q '^rate' "$work/results"; then
	echo "| server | µs a move at $LOW/s, runs (mean) | at $HIGH/s, runs (mean) | ratio | the load tool's µs a move, $LOW/s / $HIGH/s (ratio) | load averages, $LOW/s / $HIGH/s |"
	echo "|---|---|---|---|---|---|"
	for which in $rbins; do
		awk -v w="$which" -v lo="$LOW" -v hi="$HIGH" '
			$1 == "rate" && $2 == w { k = ($3 == lo ? "lo" : "hi"); n[k]++; s = (n[k] > 1 ? ", " : "")
				c[k] = c[k] s $4; sum[k] += $4; tool[k] += $5; l[k] = l[k] s $6; if ($7 != "") bad = 1 }
			END { if (n["lo"] && n["hi"]) { a = sum["lo"] / n["lo"]; b = sum["hi"] / n["hi"]; ta = tool["lo"] / n["lo"]; tb = tool["hi"] / n["hi"]
				printf "| %s | %s (%.0f) | %s (%.0f) | %.2fx | %.0f / %.0f (%.2fx) | %s / %s |%s\n", w, c["lo"], a, c["hi"], b, (b > 0 ? a / b : 0),
					ta, tb, (tb > 0 ? ta / tb : 0), l["lo"], l["hi"], (bad ? " NOT ALL DURABLE" : "") } }' "$work/results"
	done
fi
print_steal
