#!/usr/bin/env bash
# cluster-measure.sh: the figures of docs/performance.md, section
# "Cluster": a three-node cluster on this machine (one PostgreSQL, one
# nats-server, three parlour serve) against one parlour serve on SQLite,
# driven by parlour loadtest from the same machine.
#
#   bash docs/cluster-measure.sh            # from the repository's root
#   RATES=500,1000 DUR=10s bash docs/cluster-measure.sh
#   ROUTES=table bash docs/cluster-measure.sh  # only as behind a balancer hashing the table's path
#
# Needs PostgreSQL (Debian: apt-get install postgresql; only its programs
# are used, not its service) and nats-server (apt-get install nats-server;
# only for this measurement: the tests run NATS in-process). Everything
# runs on loopback from a temporary folder, removed at the end. PostgreSQL
# keeps fsync on, as deployed; SQLite keeps its default --sync FULL.
#
# It prints, for each store: each rate's loadtest report (accepted moves,
# p99, the load average before and after, the servers' CPU per accepted
# move, in all and per node), PostgreSQL's and nats-server's CPU over the
# whole run, the NATS messages a move over HTTP and over WebSockets (from
# nats-server's /varz), then the heap and goroutines per idle table
# (servers started afresh with --gogc 10, so that their heap is mostly
# live).
set -euo pipefail
cd "$(dirname "$0")/.."

RATES=${RATES:-100,250,500,1000,1500,2000,3000}
# SRATES: the single server's rates (default RATES). To set a node beside
# one server at the same moves a second per process, give it the
# cluster's rates divided by three (the loadtest prints each node's CPU
# per move it accepted).
SRATES=${SRATES:-$RATES}
DUR=${DUR:-20s}
TABLES=${TABLES:-300}
CONNS=${CONNS:-60}
IDLE=${IDLE:-2000}
NATSRATE=${NATSRATE:-200} # the rate of the runs that count NATS messages
# ROUTES: how the load tool spreads a table's requests over the nodes:
# "seats" as a balancer spreading clients would, "table" as one hashing
# the table's path (see docs/deploy.md).
ROUTES=${ROUTES:-seats table}
PORT=${PORT:-18080} # the single server; the nodes take the next three, NATS the fourth

PGBIN=${PGBIN:-$(dirname "$(readlink -f "$(command -v initdb 2>/dev/null || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")")}
if [ ! -x "$PGBIN/postgres" ]; then
	echo "PostgreSQL is not installed (apt-get install postgresql), or set PGBIN" >&2
	exit 1
fi
if ! command -v nats-server >/dev/null; then
	echo "nats-server is not installed (apt-get install nats-server)" >&2
	exit 1
fi

work=$(mktemp -d -t parlour-cluster.XXXXXX)
chmod 755 "$work"
procs=()
cleanup() {
	for p in "${procs[@]}"; do kill -INT "$p" 2>/dev/null || true; done # PostgreSQL: a fast shutdown
	sleep 3
	for p in "${procs[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

echo "== building parlour"
go build -o "$work/parlour" ./cmd/parlour
P=$work/parlour

# PostgreSQL refuses to run as root: run it as the user postgres then.
as_pg=()
if [ "$(id -u)" = 0 ]; then as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi
mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres: "$work/pg"
"${as_pg[@]}" "$PGBIN/initdb" -D "$work/pg/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
"${as_pg[@]}" "$PGBIN/postgres" -D "$work/pg/data" -k "$work/pg" -p 5432 -c listen_addresses= \
	-c max_connections=200 -c shared_buffers=128MB >"$work/pg/log" 2>&1 &
pgpid=$!
procs+=("$pgpid")
until "$PGBIN/pg_isready" -q -h "$work/pg" -p 5432; do
	kill -0 "$pgpid" 2>/dev/null || { cat "$work/pg/log" >&2; exit 1; }
	sleep 0.2
done
pgurl() { echo "postgres://postgres@/$1?host=$work/pg&port=5432&sslmode=disable"; }

natsport=$((PORT + 4))
natsmon=$((PORT + 5))
nats-server -a 127.0.0.1 -p "$natsport" -m "$natsmon" >"$work/nats.log" 2>&1 &
natspid=$!
procs+=("$natspid")
NATS=nats://127.0.0.1:$natsport

# up PORT: wait until the server at PORT answers.
up() { until curl -sf "http://127.0.0.1:$1/healthz" >/dev/null; do sleep 0.1; done; }

# cpu PID...: the CPU seconds the processes and their reaped children used.
cpu() {
	local sum=0 p f
	for p in "$@"; do
		f=($(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null)) || continue
		[ "${#f[@]}" -gt 14 ] || continue # gone meanwhile
		sum=$((sum + f[11] + f[12] + f[13] + f[14]))
	done
	echo "$sum $(getconf CLK_TCK)" | awk '{printf "%.2f", $1 / $2}'
}
minus() { echo "$1 $2" | awk '{printf "%.2f", $1 - $2}'; }
# pgprocs: the postmaster and its children.
pgprocs() { echo "$pgpid" $(pgrep -P "$pgpid"); }

# single DB GOGC: start one server on SQLite; sets single.
single() {
	"$P" serve --addr "127.0.0.1:$PORT" --data "$work/$1" --gogc "$2" --conns-per-addr 4000 --log-level warn >"$work/$1.log" 2>&1 &
	single=$!
	procs+=("$single")
	up "$PORT"
}
# cluster DB GOGC: create database DB and start three nodes on it; sets nodes, urls.
cluster() {
	"$PGBIN/createdb" -h "$work/pg" -p 5432 -U postgres "$1"
	nodes=() urls=()
	for i in 1 2 3; do
		"$P" serve --addr "127.0.0.1:$((PORT + i))" --data "$work/$1-n$i" --store "$(pgurl "$1")" --nats "$NATS" \
			--node "n$i" --gogc "$2" --conns-per-addr 4000 --log-level warn >"$work/$1-n$i.log" 2>&1 &
		nodes+=($!)
		procs+=($!)
		urls+=("http://127.0.0.1:$((PORT + i))")
	done
	for i in 1 2 3; do up $((PORT + i)); done
}
stop() { kill "$@"; wait "$@" 2>/dev/null || true; }
# natsmsgs: the messages nats-server has taken in and sent out.
natsmsgs() { curl -s "http://127.0.0.1:$natsmon/varz" | awk -F'[:,]' '/"in_msgs"|"out_msgs"/ { n += $2 } END { print n }'; }
LT=(--tables "$TABLES" --conns "$CONNS" --rate "$RATES" --duration "$DUR")
SLT=(--tables "$TABLES" --conns "$CONNS" --rate "$SRATES" --duration "$DUR")

echo "== $(date -u +%FT%TZ), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== single node, SQLite (--sync FULL)"
single sqlite 400
"$P" loadtest --url "http://127.0.0.1:$PORT" --server-pid "$single" "${SLT[@]}" || true
stop "$single"

for route in $ROUTES; do
	echo "== three nodes, PostgreSQL (fsync on) and nats-server; loadtest --route $route"
	cluster "moves_$route" 400
	pg0=$(cpu $(pgprocs)) nats0=$(cpu "$natspid")
	"$P" loadtest --url "$(IFS=,; echo "${urls[*]}")" --route "$route" --server-pid "$(IFS=,; echo "${nodes[*]}")" "${LT[@]}" || true
	echo "  over the whole loadtest (its preparation included): PostgreSQL $(minus "$(cpu $(pgprocs))" "$pg0") CPU s, nats-server $(minus "$(cpu "$natspid")" "$nats0") CPU s"
	stop "${nodes[@]}"
done

echo "== NATS messages a move ($NATSRATE moves/s for 30 s over 100 tables, in and out of nats-server)"
cluster nats 400
for transport in http ws; do
	m0=$(natsmsgs)
	out=$("$P" loadtest --url "$(IFS=,; echo "${urls[*]}")" --transport "$transport" --tables 100 --rate "$NATSRATE" --duration 30s --stagger=false --verify=false) || true
	m1=$(natsmsgs)
	moves=$(echo "$out" | sed -n 's/.*accepted \([0-9]*\) .*/\1/p' | head -1)
	echo "$out" | grep -E 'accepted|p99|forwarded|pushed'
	echo "  $transport: $((m1 - m0)) NATS messages for $moves moves (the making of the tables included: 150 at the start, and one for each game that ended): $(echo "$((m1 - m0)) $moves" | awk '{printf "%.1f", $1 / $2}') a move"
done
stop "${nodes[@]}"

echo "== heap per idle table ($IDLE tables, ten moves in; servers at --gogc 10)"
single sqlite-idle 10
"$P" loadtest --url "http://127.0.0.1:$PORT" --tables 1 --identities 50 --idle-tables "$IDLE"
stop "$single"
cluster idle 10
"$P" loadtest --url "$(IFS=,; echo "${urls[*]}")" --tables 1 --identities 50 --idle-tables "$IDLE"
stop "${nodes[@]}"
echo "== done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
