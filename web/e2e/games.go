package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"parlour/games/salvo"
)

// SalvoView fetches p's view of the Salvo table it is at, through the API
// with the seat's own token, as the page itself does.
func (p *Player) SalvoView() salvo.View {
	p.t.Helper()
	raw := Eval[string](p, `(async () => {
		const id = location.pathname.split("/").pop();
		const seat = JSON.parse(localStorage.getItem("parlour.seats"))[id];
		const r = await fetch("/api/v1/tables/" + id, { headers: { Authorization: "Bearer " + seat.token } });
		return JSON.stringify((await r.json()).view);
	})()`)
	var v salvo.View
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		p.fail("reading the view %s: %v", Clip(raw), err)
	}
	return v
}

// Aimed lists the squares marked as aimed on p's tracking ocean of seat t.
func (p *Player) Aimed(t int) string {
	return Eval[string](p, fmt.Sprintf(`[...document.querySelectorAll('[data-board="%d"] .cell.aim')].map(e => e.dataset.sq).join(" ")`, t))
}

// QuizlGrid reads the seat's own grid from its screen: 25 letters by
// square name, and the password.
func (p *Player) QuizlGrid() (map[string]string, string) {
	p.t.Helper()
	p.Wait("my grid", `document.querySelectorAll('[data-board="own"] [data-sq]').length === 25`)
	m := Eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll('[data-board="own"] [data-sq]')].map(e => [e.dataset.sq, e.dataset.letter]))`)
	pw := Eval[string](p, `document.querySelector('[data-board="own"] strong').textContent`)
	if len(m) != 25 || len(pw) != 5 {
		p.fail("my grid reads %v, password %q", m, pw)
	}
	return m, pw
}

// HandWrittenGrid writes a password into a row with the editor, lets it
// fill the rest, and submits, trying again when the referee finds a
// second word in the filled grid.
func (p *Player) HandWrittenGrid(pw string, line int) {
	p.t.Helper()
	p.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	for try := 0; ; try++ {
		p.ClickText("#main button", "Clear")
		p.TypeIn("#q-password", pw)
		Eval[bool](p, fmt.Sprintf(`(document.querySelector("#q-line").value = "%d", true)`, line))
		p.ClickText("#main button", "Write it in")
		if got := Eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#main input.cell")].slice(%d, %d).map(e => e.value).join("")`, line*5, line*5+5)); got != pw {
			p.fail("row %d of the editor reads %q after writing %s in", line+5, got, pw)
		}
		p.ClickText("#main button", "Fill the rest for me")
		p.Wait("the referee's word on the grid", `document.querySelector("#q-note").textContent.startsWith("The referee accepts this grid")`)
		p.Shot("quizl-setup")
		p.Labelled("the grid editor")
		p.Click("#q-submit")
		p.Wait("the referee's answer", `!document.querySelector("#q-submit") || document.querySelector("#main .error[role=alert]").textContent !== ""`)
		if Eval[bool](p, `!document.querySelector("#q-submit")`) {
			return
		}
		msg := p.Text("#main .error[role=alert]")
		if !strings.Contains(msg, "a word") || try > 8 {
			p.fail("the referee refused the grid: %s", msg)
		}
		p.t.Logf("%s: the referee refused a filled grid (%s); filling again", p.Name, msg)
	}
}

// EditorRow reads row r (5-9) of the Quizl grid editor.
func (p *Player) EditorRow(r int) string {
	p.t.Helper()
	return Eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#main input.cell")].slice(%d, %d).map(e => e.value).join("")`, (r-5)*5, (r-5)*5+5))
}

// SalvoFleet reads the seat's own fleet from its screen, in fleet order,
// as "B2-B6" strings.
func (p *Player) SalvoFleet() []string {
	p.t.Helper()
	p.Wait("my fleet", `document.querySelectorAll('[data-board="own"] ul li').length === 5`)
	lines := Eval[[]string](p, `[...document.querySelectorAll('[data-board="own"] ul li')].map(e => e.textContent)`)
	re := regexp.MustCompile(`^(battleship|cruiser|destroyer|submarine) ([A-J]\d+-[A-J]\d+):`)
	var out []string
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			p.fail("cannot read my ship from %q", l)
		}
		out = append(out, m[2])
	}
	return out
}

// SeatToken reads the token of p's seat at the table it is at, as the
// page keeps it.
func (p *Player) SeatToken() string {
	p.t.Helper()
	return Eval[string](p, `JSON.parse(localStorage.getItem("parlour.seats"))[location.pathname.split("/").pop()].token`)
}

// PhonePlay checks p's Word Fight page on a phone: the page needs no
// sideways scrolling, and the player's board, wider than the screen,
// scrolls inside its own frame.
func (p *Player) PhonePlay(where string) {
	p.t.Helper()
	p.FitsWidth(where)
	if !Eval[bool](p, `(f => !!f && f.scrollWidth > f.clientWidth && getComputedStyle(f).overflowX === "auto")(document.querySelector("#w-grid-h ~ div .board-frame"))`) {
		p.t.Errorf("%s: on a phone, %s's board does not scroll inside its frame", where, p.Name)
	}
}

// ShipSquares lists the squares of a Salvo ship written "B2-B6", from
// its first square to its last.
func ShipSquares(ship string) []string {
	a, b, _ := strings.Cut(ship, "-")
	c0, r0 := int(a[0]-'A'), atoi(a[1:])
	c1, r1 := int(b[0]-'A'), atoi(b[1:])
	dc, dr := sign(c1-c0), sign(r1-r0)
	n := max(abs(c1-c0), abs(r1-r0)) + 1
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%c%d", 'A'+c0+dc*i, r0+dr*i))
	}
	return out
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int { return max(x, -x) }
