package lexicon

// Run reports how many letters word deletes in Nymphabet: the length of the
// longest run of consecutive alphabet letters, starting at word's first
// letter, that word holds in order. With wrap, Z is followed by A. A word
// that does not start with a lower-case letter deletes 0.
func Run(word string, wrap bool) int { return run(word, wrap) }

func run[S string | []byte](word S, wrap bool) int {
	if len(word) == 0 || word[0] < 'a' || word[0] > 'z' {
		return 0
	}
	next, n := word[0], 0
	for i := 0; i < len(word) && n < 26; i++ {
		if word[i] == next {
			n++
			next++
			if next > 'z' {
				if !wrap {
					break
				}
				next = 'a'
			}
		}
	}
	return n
}

// Runs returns the words that start with letter (in either case) and delete
// exactly n letters in Nymphabet (see Run), shortest first, then
// alphabetically. It reads only the words starting with letter that have at
// least n letters, using each word's run as the lexicon stored it.
func (l *Lexicon) Runs(letter byte, n int, wrap bool) []string {
	letter = lower(letter)
	if letter < 'a' || letter > 'z' || n < 1 || n > 26 {
		return nil
	}
	c := int(letter - 'a')
	// First find the words, then make the result at its final size.
	var idx []int32
	var end [MaxWordLen + 1]int // idx[end[length-1]:end[length]] are of length letters
	for length := n; length <= MaxWordLen; length++ {
		g := &l.groups[length]
		lo, hi := g.letterRange(c)
		for i := lo; i < hi; i++ {
			if g.run(i, c, wrap) == n {
				idx = append(idx, int32(i))
			}
		}
		end[length] = len(idx)
	}
	if len(idx) == 0 {
		return nil
	}
	out := make([]string, 0, len(idx))
	for length := n; length <= MaxWordLen; length++ {
		out = l.groups[length].wordsAt(out, idx[end[length-1]:end[length]])
	}
	return out
}

// run returns Run of record i, which starts with letter c ('a' is 0).
func (g *group) run(i, c int, wrap bool) int {
	r := int(g.info[i] & runCap)
	if r == runCap || wrap && c+r == 26 {
		// The stored run was capped, or it reaches Z and may go on to A.
		var letters [MaxWordLen]byte
		return run(g.appendWord(letters[:0], i), wrap)
	}
	return r
}
