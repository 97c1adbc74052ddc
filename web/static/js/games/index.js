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

// editors are the modules that draw a game's rule options better than
// as text in the forms that set them: each exports attach(fields), given
// the option controls' fields.
const editors = {
  wordfight: () => import("./wordfight-shape.js"),
};

// optionEditor returns the module that draws options of the game called
// name, or null when its options are all plain controls.
export function optionEditor(name) {
  const m = editors[name];
  return m ? m() : null;
}

// load returns the module of the game called name.
export function load(name) {
  const m = modules[name];
  if (!m) return Promise.reject(new Error(`this client cannot show ${name}`));
  return m();
}
