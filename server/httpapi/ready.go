package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"parlour/store"
)

// readyWait is how long GET /readyz waits for the store and the bus to
// answer: a balancer checks every few seconds, and an answer slower than
// this is a node not to send players to.
const readyWait = 2 * time.Second

// readyz answers whether the node can take players now: 200 "ready"
// when its store answers (store.Pinger) and, on a node of a cluster, its
// bus does; else 503 saying which does not. Unlike /healthz, which says
// only that the process serves, it is what a load balancer should check.
// The answer names the part, not the error: the error, which may name
// hosts, goes to the log, once each time the node stops being ready.
func (h *Handler) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyWait)
	defer cancel()
	why, err := h.ready(ctx)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		if h.notReady.CompareAndSwap(false, true) {
			h.log.Warn("not ready: "+why, "err", err)
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "not ready: %s\n", why)
		return
	}
	if h.notReady.CompareAndSwap(true, false) {
		h.log.Info("ready again")
	}
	fmt.Fprintln(w, "ready")
}

// ready asks each part the node needs, and says why it is not ready when
// one does not answer by the time ctx ends.
func (h *Handler) ready(ctx context.Context) (why string, err error) {
	if err := h.closing.Err(); err != nil {
		return "the server is shutting down", err
	}
	if p, ok := h.st.(store.Pinger); ok {
		if err := p.Ping(ctx); err != nil {
			return "the store does not answer", err
		}
	}
	if h.ping != nil {
		if err := h.ping(ctx); err != nil {
			return "the bus between the nodes does not answer", err
		}
	}
	return "", nil
}
