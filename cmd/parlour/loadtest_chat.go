package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

// chatResult counts the chat lines a run posted beside its moves.
type chatResult struct {
	mu        sync.Mutex
	sent      int
	accepted  int
	refused   map[int]int // by status
	errors    int
	latencies []time.Duration
}

// chat posts lt.chatRate players' chat lines a second from start to end,
// each at the next table of tables by its seats in turn, over the tool's
// net/http client (not the connections the moves share), so that chat is
// load the server carries beside the moves rather than in their queue.
func (lt *loadtest) chat(ctx context.Context, tables []*ltTable, start, end time.Time, res *chatResult) {
	res.refused = map[int]int{}
	interval := time.Duration(float64(time.Second) / lt.chatRate)
	var wg sync.WaitGroup
	k := 0
	for due := start; due.Before(end); due = due.Add(interval) {
		if d := time.Until(due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				wg.Wait()
				return
			}
		}
		t := tables[k%len(tables)]
		seat := (k / len(tables)) % 2
		text := fmt.Sprintf("good luck, line %d", k)
		k++
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := time.Now()
			status, err := lt.postAt(ctx, t.node[seat], "/api/v1/tables/"+t.id+"/chat", t.seats[seat], map[string]any{"channel": "players", "text": text}, nil)
			lat := time.Since(at)
			res.mu.Lock()
			defer res.mu.Unlock()
			res.sent++
			switch {
			case err == nil:
				res.accepted++
				res.latencies = append(res.latencies, lat)
			case status >= 400:
				res.refused[status]++
			default:
				res.errors++
			}
		}()
	}
	wg.Wait()
}

func (r *chatResult) print(w io.Writer) {
	slices.Sort(r.latencies)
	q := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
	}
	fmt.Fprintf(w, "  chat: sent %d, accepted %d, refused %v, errors %d; answer p50 %v p99 %v\n",
		r.sent, r.accepted, r.refused, r.errors, q(0.5).Round(time.Microsecond), q(0.99).Round(time.Microsecond))
}

// printRatings says how many rated games the scripted accounts finished,
// from their profiles: the games whose ends updated two ratings in their
// commits while the moves went on.
func (lt *loadtest) printRatings(ctx context.Context, w io.Writer) error {
	games := 0
	for _, name := range lt.accounts {
		var p struct {
			Ratings map[string]struct {
				Games int `json:"games"`
			} `json:"ratings"`
		}
		if _, err := lt.get(ctx, "/api/v1/players/"+name, "", &p); err != nil {
			return fmt.Errorf("reading %s's profile: %w", name, err)
		}
		games += p.Ratings["quizl"].Games
	}
	// Each rated game counts for both its players.
	fmt.Fprintf(w, "ratings: %d rated games finished, across %d accounts\n", games/2, len(lt.accounts))
	return nil
}
