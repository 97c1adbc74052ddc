// load.js: drives server.js as `parlour loadtest --transport ws` drives
// Parlour, on the same open-loop schedule: TABLES live tables of two
// seats, each seat on a socket of its own (Colyseus's client, one
// connection a seat), the tables' moves due in turn at RATE moves a
// second in all, each table's at a fixed interval; a move's latency
// counts from when it was due, until the mover's ack. Before the clock
// starts, each table plays a random part of a game, so that games end
// at a steady rate. It reports what the load tool does: moves sent and
// acknowledged, latency quantiles, the load average, and from
// /proc/PID/stat the server's CPU per acknowledged move (and the
// tool's own), and the server's resident set at the end. The tables and
// the rate are shared out over --workers processes (2 by default), so
// that the tool is not held to one core as Node's one thread would hold
// it: on this machine one process fell behind at 2,000 moves a second.
//
//   node load.js --server-pid PID [--url ws://127.0.0.1:2567] [--tables 1000] [--rate 2000] [--duration 10] [--workers 2]

const fs = require("fs");
const { execSync, fork } = require("child_process");
const { Client } = require("colyseus.js");

function flags() {
  const f = { url: "ws://127.0.0.1:2567", tables: 1000, rate: 2000, duration: 10, "server-pid": 0, stagger: 1, workers: 2, worker: 0 };
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) {
    const k = a[i].replace(/^--?/, "");
    if (!(k in f)) throw new Error(`unknown flag --${k} (there are ${Object.keys(f).map((x) => "--" + x).join(", ")})`);
    f[k] = k === "url" ? a[i + 1] : Number(a[i + 1]);
  }
  return f;
}

const ticks = Number(execSync("getconf CLK_TCK").toString().trim()) || 100;

// cpu returns the CPU seconds process pid has used.
function cpu(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / ticks;
}

function rss(pid) {
  const m = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) * 1024 : 0;
}

const loadavg = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

let pushes = 0;

// Table is one room of two scripted seats, who call the other's squares
// in order.
class Table {
  constructor(rooms) {
    this.rooms = rooms;
    this.turn = 0;
    this.calls = [0, 0];
    this.waiter = null;
    for (const r of rooms) {
      r.onMessage("view", () => { pushes++; });
      r.onMessage("ack", (m) => this.answer(null, m));
      r.onMessage("error", (m) => this.answer(m, null));
      r.send("view", {});
    }
  }

  answer(err, ack) {
    const w = this.waiter;
    this.waiter = null;
    if (w) w(err, ack);
  }

  // move makes the next move and resolves to true once it is acknowledged.
  move() {
    const seat = this.turn;
    const k = this.calls[seat];
    const mv = String.fromCharCode(48 + 5 + Math.floor(k / 5), 48 + (k % 5));
    return new Promise((resolve) => {
      this.waiter = (err, ack) => {
        if (err) {
          if (!firstRefusal) firstRefusal = JSON.stringify(err);
          return resolve(false);
        }
        this.calls[seat]++;
        if (ack.result.status === "finished") {
          this.calls = [0, 0];
          this.turn = 0; // the room starts the next game at once
        } else {
          this.turn = ack.result.to_move[0];
        }
        resolve(true);
      };
      this.rooms[seat].send("move", { move: mv });
    });
  }
}

let firstRefusal = "";

async function makeTables(client, n) {
  const tables = [];
  let next = 0;
  async function worker() {
    while (next < n) {
      next++;
      const a = await client.create("quizl");
      const b = await client.joinById(a.roomId);
      tables.push(new Table([a, b]));
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker));
  return tables;
}

function quantile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function fmt(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(0)}µs` : `${ms.toFixed(3)}ms`;
}

// play runs one share of the load in this process: its tables made and
// staggered, then, from the wall-clock time startAt, its moves on the
// schedule. ready is called between the two, and returns startAt.
async function play(f, ready) {
  const client = new Client(f.url.replace(/^http/, "ws"));
  const tables = await makeTables(client, f.tables);
  await sleep(200); // the first views
  if (f.stagger) {
    // Each table plays from none to 39 moves (of 50 a game), 64 at once.
    let next = 0;
    async function worker() {
      while (next < tables.length) {
        const t = tables[next++];
        const k = Math.floor(Math.random() * 40);
        for (let i = 0; i < k; i++) {
          if (!(await t.move())) throw new Error(`a move of the stagger was refused: ${firstRefusal}`);
        }
      }
    }
    await Promise.all(Array.from({ length: 64 }, worker));
  }
  const startAt = await ready();
  const tool0 = process.cpuUsage();
  const push0 = pushes;
  const n = tables.length;
  const interval = (n / f.rate) * 1000;
  const start = performance.now() + (startAt - Date.now());
  const end = start + f.duration * 1000;
  const r = { lat: [], sent: 0, accepted: 0, refused: 0, late: 0, firstRefusal: "" };
  await Promise.all(tables.map(async (t, i) => {
    for (let due = start + (i * interval) / n; due < end; due += interval) {
      const d = due - performance.now();
      if (d > 0) await sleep(d);
      else if (-d > 1) r.late++;
      r.sent++;
      const ok = await t.move();
      r.lat.push(performance.now() - due);
      if (ok) r.accepted++;
      else r.refused++;
    }
  }));
  r.end = Date.now();
  const tu = process.cpuUsage(tool0);
  r.tool = (tu.user + tu.system) / 1e6;
  r.pushes = pushes - push0;
  r.firstRefusal = firstRefusal;
  for (const t of tables) for (const room of t.rooms) room.leave();
  return r;
}

// worker is a share of the load in a child process: it plays when its
// parent says when to start, and sends back what it measured.
async function worker(f) {
  const r = await play(f, () => new Promise((resolve) => {
    process.once("message", (m) => resolve(m.startAt));
    process.send({ ready: true });
  }));
  process.send({ result: r }, () => process.exit(0));
}

async function main() {
  const f = flags();
  if (f.worker) return worker(f);
  if (!f["server-pid"]) throw new Error("--server-pid is needed, to count the server's CPU");
  const pid = f["server-pid"];
  const t0 = Date.now();
  // The tables and the rate are shared out over --workers processes, so
  // that the tool, like parlour loadtest, runs on more than one core.
  const kids = [];
  for (let w = 0; w < f.workers; w++) {
    const share = { ...f, tables: Math.floor(f.tables / f.workers) + (w < f.tables % f.workers ? 1 : 0) };
    share.rate = (f.rate * share.tables) / f.tables;
    const args = [];
    for (const [k, v] of Object.entries(share)) if (k !== "workers" && k !== "worker") args.push(`--${k}`, String(v));
    kids.push(fork(__filename, [...args, "--worker", "1"]));
  }
  const ready = kids.map((k) => new Promise((resolve, reject) => {
    k.once("message", resolve);
    k.once("exit", (code) => reject(new Error(`a worker ended (${code}) before the run`)));
  }));
  await Promise.all(ready);
  console.log(`prepared ${f.tables} tables over ${f.workers} processes in ${Date.now() - t0}ms`);
  const load0 = loadavg();
  const srv0 = cpu(pid);
  const startAt = Date.now() + 200;
  const results = kids.map((k) => new Promise((resolve) => k.on("message", (m) => m.result && resolve(m.result))));
  for (const k of kids) k.send({ startAt });
  const rs = await Promise.all(results);
  const srv = cpu(pid) - srv0;
  const took = (Math.max(...rs.map((r) => r.end)) - startAt) / 1000;
  const sum = (k) => rs.reduce((a, r) => a + r[k], 0);
  const accepted = sum("accepted");
  const refused = sum("refused");
  const lat = rs.flatMap((r) => r.lat).sort((a, b) => a - b);
  const first = rs.map((r) => r.firstRefusal).find((x) => x);
  console.log(`rate ${f.rate}/s for ${f.duration}s: sent ${sum("sent")}, accepted ${accepted} (${(accepted / took).toFixed(0)}/s over the ${took.toFixed(1)}s they took), refused ${refused}`);
  console.log(`  ack latency from schedule: p50 ${fmt(quantile(lat, 0.5))}  p90 ${fmt(quantile(lat, 0.9))}  p99 ${fmt(quantile(lat, 0.99))}  max ${fmt(lat[lat.length - 1] || 0)}`);
  console.log(`  moves the tool itself sent more than 1ms after they were due: ${sum("late")}`);
  console.log(`  load average before ${load0}, after ${loadavg()}`);
  console.log(`  updates pushed to the seats' sockets: ${sum("pushes")} (${(sum("pushes") / Math.max(1, accepted)).toFixed(2)} a move)`);
  console.log(`  CPU per accepted move: server ${((srv / Math.max(1, accepted)) * 1e6).toFixed(0)}µs, load tool ${((sum("tool") / Math.max(1, accepted)) * 1e6).toFixed(0)}µs`);
  console.log(`  server resident set: ${(rss(pid) / 1048576).toFixed(1)} MB`);
  if (first) console.log(`  first refusal: ${first}`);
  process.exit(refused ? 1 : 0);
}

main().catch((e) => {
  console.error(`load.js: ${e.stack || e}`);
  process.exit(2);
});
