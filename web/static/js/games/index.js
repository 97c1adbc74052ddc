// games/index.js: each game's screens, loaded when a table of it opens.
// Every module exports play(ctx) (and setup(ctx) for games with a secret
// setup), and toMove, finished, winners, names, standings and moveList,
// which read the game's view for the screens all games share; endSummary
// (why the game ended) and scoresLabel (what the result's scores count,
// where it is not points) are optional. A replay's ctx has replay set:
// its boards are for reading, with no square to select, aim at or call.

const modules = {
  quizl: () => import("./quizl.js"),
  salvo: () => import("./salvo.js"),
  wordfight: () => import("./wordfight.js"),
  nymphabet: () => import("./nymphabet.js"),
};

// load returns the module of the game called name.
export function load(name) {
  const m = modules[name];
  if (!m) return Promise.reject(new Error(`this client cannot show ${name}`));
  return m();
}
