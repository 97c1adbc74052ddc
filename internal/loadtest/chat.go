package loadtest

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// ChatReport counts the chat lines a run posted beside its moves.
type ChatReport struct {
	mu       sync.Mutex
	Sent     int
	Accepted int
	Refused  map[int]int // by status
	Errors   int
	// Latencies are the accepted lines' answers' latencies, in
	// increasing order once the run is over.
	Latencies []time.Duration
}

// chat posts the configured players' chat lines a second from start to end,
// each at the next table of tables by its seats in turn, over the tool's
// net/http client (not the connections the moves share), so that chat is
// load the server carries beside the moves rather than in their queue.
func (t *tester) chat(ctx context.Context, tables []*table, start, end time.Time, res *ChatReport) {
	res.Refused = map[int]int{}
	interval := time.Duration(float64(time.Second) / t.cfg.Chat)
	var wg sync.WaitGroup
	k := 0
	for due := start; due.Before(end); due = due.Add(interval) {
		if d := time.Until(due); d > 0 {
			if sleep(ctx, d) != nil {
				break
			}
		}
		tb := tables[k%len(tables)]
		seat := (k / len(tables)) % 2
		text := fmt.Sprintf("good luck, line %d", k)
		k++
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := time.Now()
			status, err := t.postAt(ctx, tb.node[seat], "/api/v1/tables/"+tb.id+"/chat", tb.seats[seat], map[string]any{"channel": "players", "text": text}, nil)
			lat := time.Since(at)
			res.mu.Lock()
			defer res.mu.Unlock()
			res.Sent++
			switch {
			case err == nil:
				res.Accepted++
				res.Latencies = append(res.Latencies, lat)
			case status >= 400:
				res.Refused[status]++
			default:
				res.Errors++
			}
		}()
	}
	wg.Wait()
	slices.Sort(res.Latencies)
}

func (r *ChatReport) print(w io.Writer) {
	// The chat's quantiles have always been taken a rank higher than the
	// moves': kept, for figures comparable with earlier runs.
	q := func(p float64) time.Duration {
		if len(r.Latencies) == 0 {
			return 0
		}
		return r.Latencies[min(len(r.Latencies)-1, int(p*float64(len(r.Latencies))))]
	}
	fmt.Fprintf(w, "  chat: sent %d, accepted %d, refused %v, errors %d; answer p50 %v p99 %v\n",
		r.Sent, r.Accepted, r.Refused, r.Errors, q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond))
}

// ratings says how many rated games the scripted accounts finished, from
// their profiles: the games whose ends updated two ratings in their
// commits while the moves went on.
func (t *tester) ratings(ctx context.Context) (*Ratings, error) {
	games := 0
	for _, name := range t.accounts {
		var p struct {
			Ratings map[string]struct {
				Games int `json:"games"`
			} `json:"ratings"`
		}
		if _, err := t.get(ctx, "/api/v1/players/"+name, "", &p); err != nil {
			return nil, fmt.Errorf("reading %s's profile: %w", name, err)
		}
		games += p.Ratings["quizl"].Games
	}
	// Each rated game counts for both its players.
	return &Ratings{Games: games / 2, Accounts: len(t.accounts)}, nil
}
