// when.js: where a tournament stands in time, in words, for its page,
// the list of events and the home screen's card.

import { plural } from "./dom.js";

// SOON is how near a start is shown as a countdown rather than a date.
const SOON = 60 * 60 * 1000;

// span writes a number of seconds as a countdown reads: "42 s", "4 min
// 05 s", "1 h 20 min", "2 days 3 h". Coarse, a countdown of a minute or
// more drops its seconds, rounding up ("5 min"): a list that holds many
// reads easier, and a line on a phone does not wrap as often.
export function span(s, coarse) {
  s = Math.max(0, Math.ceil(s));
  if (coarse && s >= 60) s = Math.ceil(s / 60) * 60;
  const d = Math.floor(s / 86400), hr = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
  if (d) return `${plural(d, "day")}${hr ? ` ${hr} h` : ""}`;
  if (hr) return `${hr} h${m ? ` ${m} min` : ""}`;
  if (m) return coarse ? `${m} min` : `${m} min ${String(sec).padStart(2, "0")} s`;
  return `${sec} s`;
}

// dateText writes a moment in the player's own time zone.
const dateText = iso => new Date(iso).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

// whenWords says where event e stands in time, as of now: "starts in 42
// s", "starts Tue 3 Dec, 18:00", "ends in 9 min 12 s", "round 2 of 5",
// "finished Tue 3 Dec, 18:30", "cancelled: it will not be played"; coarse, its countdowns in whole minutes
// (see span).
export function whenWords(e, now, coarse) {
  const starts = Date.parse(e.starts);
  switch (e.status) {
    case "created":
      if (starts - now <= 0) return "starting now";
      return starts - now <= SOON ? `starts in ${span((starts - now) / 1000, coarse)}` : `starts ${dateText(e.starts)}`;
    case "started":
      if (e.kind === "arena" && e.ends) {
        const left = Date.parse(e.ends) - now;
        return left > 0 ? `ends in ${span(left / 1000, coarse)}` : "ending: the last games are being played";
      }
      return e.round ? `round ${e.round} of ${e.rounds}` : "under way";
    case "cancelled":
      return "cancelled: it will not be played";
    default: {
      // A Swiss has no end time: its last game's end is the event's.
      const last = Math.max(...(e.games || []).filter(g => g.ended).map(g => Date.parse(g.ended)));
      const end = e.ends || (Number.isFinite(last) ? new Date(last).toISOString() : "");
      return end ? `finished ${dateText(end)}` : "finished";
    }
  }
}
