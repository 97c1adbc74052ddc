package tui

import "slices"

// The lists of a screen (the lobby's, the events', the players') share
// its lines and show the part of each around the chosen item.

// shareLines shares lines among lists that need needs[i] lines each:
// a list that needs less than an even share keeps the rest for the
// others, and the lists that need more share what is left evenly.
func shareLines(needs []int, lines int) []int {
	out := make([]int, len(needs))
	order := make([]int, len(needs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return needs[a] - needs[b] })
	left := max(0, lines)
	for k, i := range order {
		out[i] = min(needs[i], left/(len(order)-k))
		left -= out[i]
	}
	return out
}

// window is the part of a list of n items that room lines show: from
// the start, or, when the chosen item at (an index into the list, or
// outside it when another list's item is chosen) lies further down, the
// room items that end with it.
func window(n, room, at int) (from, to int) {
	if n <= room {
		return 0, n
	}
	if at >= room && at < n {
		from = at - room + 1
	}
	return from, from + room
}
