# measure-lib.sh: what the measuring scripts beside it share, sourced by
# them from the repository's root (not run on its own):
#
#   measure_setup NAME   a temporary folder $work, removed at exit with
#                        every server listed in $work/servers stopped;
#                        $BIN built from ./cmd/parlour unless given
#   await_server PORT LOG WHAT
#                        waits up to 10 s for /healthz on PORT, else
#                        prints LOG and exits
#   $usec                awk functions: usec(line), the server's CPU per
#                        accepted move, in µs, from a load test's "CPU
#                        per accepted move" line; toolusec(line), the
#                        load tool's from the same line
#   note_steal WHAT LOG  keeps the run LOG holds as WHAT when its
#                        "machine:" line says the host took more than
#                        a tenth of a processor (steal)
#   print_steal          prints the runs note_steal kept, if any

measure_setup() {
	work=$(mktemp -d -t "parlour-$1.XXXXXX")
	trap measure_cleanup EXIT
	if [ -z "${BIN:-}" ]; then
		BIN=$work/parlour
		go build -o "$BIN" ./cmd/parlour
	fi
}

measure_cleanup() {
	if [ -f "$work/servers" ]; then
		while read -r pid; do kill -INT "$pid" 2>/dev/null || true; done <"$work/servers"
	fi
	wait || true
	rm -rf "$work"
}

await_server() {
	local port=$1 log=$2 what=$3
	for _ in $(seq 100); do
		if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then return; fi
		sleep 0.1
	done
	echo "$what did not start:" >&2
	cat "$log" >&2
	exit 1
}

# shellcheck disable=SC2034 # used by the scripts that source this one
usec='function tous(v) { n = v + 0; if (v ~ /[0-9.]ms$/) n *= 1000; return n }
function usec(v) { sub(/.*server /, "", v); sub(/,.*/, "", v); return tous(v) }
function toolusec(v) { if (v !~ /load tool /) return 0; sub(/.*load tool /, "", v); return tous(v) }'

note_steal() {
	awk -v what="$1" "$usec"'
		/ machine: / { v = $0; sub(/ more taken by the host.*/, "", v); sub(/.*, /, "", v); steal = v + 0 }
		/CPU per accepted move/ { cpu = usec($0) }
		END { if (steal > 0.1) printf "  %s: %.0f µs a move, the host taking %.2f of a processor\n", what, cpu, steal }' "$2" >>"$work/steal"
}

print_steal() {
	if [ -s "$work/steal" ]; then
		echo
		echo "Runs the host took more than a tenth of a processor from (steal), to weigh with care:"
		cat "$work/steal"
	fi
}
