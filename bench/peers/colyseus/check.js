// check.js: checks that server.js's room refuses what it must and
// sends each seat its own view: a move out of turn, a square that is
// none, a square called before, and a move by someone without a seat
// are answered by errors and change nothing; a good move by an ack and
// a view for each seat, with only its own grid whole.
//
//   node server.js 2597 & node check.js ws://127.0.0.1:2597

const assert = require("assert");
const { Client } = require("colyseus.js");

function next(room, types) {
  return new Promise((resolve) => {
    for (const t of types) room.onMessage(t, (m) => resolve({ type: t, m }));
  });
}

async function main() {
  const client = new Client(process.argv[2] || "ws://127.0.0.1:2567");
  const a = await client.create("quizl");
  let r = next(a, ["error"]);
  a.send("move", { move: "50", id: "early" });
  assert.deepStrictEqual((await r).m.status, 409, "a move before the second seat joins");
  const b = await client.joinById(a.roomId);
  const refusals = [
    [b, { move: "50" }, 409, "out of turn"],
    [a, { move: "00" }, 422, "not a square"],
    [a, { move: 50 }, 422, "not a string"],
  ];
  for (const [room, msg, status, what] of refusals) {
    r = next(room, ["error", "ack"]);
    room.send("move", msg);
    const got = await r;
    assert.strictEqual(got.type, "error", what);
    assert.strictEqual(got.m.status, status, what);
  }
  const views = [next(a, ["view"]), next(b, ["view"])];
  r = next(a, ["ack", "error"]);
  a.send("move", { move: "72", id: "m1" });
  const ack = await r;
  assert.strictEqual(ack.type, "ack");
  assert.deepStrictEqual(ack.m.result.to_move, [1]);
  const [va, vb] = (await Promise.all(views)).map((x) => x.m);
  assert.strictEqual(va.seat, 0);
  assert.strictEqual(vb.seat, 1);
  assert.strictEqual(va.target.replace(/\./g, "").length, 1, "seat 0 sees one letter of seat 1's grid");
  assert.strictEqual(va.target[12], vb.grid[12], "the letter called is seat 1's");
  assert.notStrictEqual(va.grid, vb.grid);
  r = next(b, ["ack", "error"]);
  b.send("move", { move: "72" });
  assert.strictEqual((await r).type, "ack");
  r = next(a, ["ack", "error"]);
  a.send("move", { move: "72" });
  const again = await r;
  assert.strictEqual(again.type, "error", "a square called before");
  assert.strictEqual(again.m.status, 422);
  a.leave();
  b.leave();
  console.log("ok");
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
