package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"

	"parlour/account"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/store/sqlite"
	"parlour/tui"
	"parlour/tui/client"
)

func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	srv := fs.String("server", "", "the Parlour server to play at (default: start one here, on a free loopback port)")
	name := fs.String("name", "", "your name at the tables (default: your login name)")
	data := fs.String("data", defaultDataDir(), "directory of recent games, saved records and the embedded server's database")
	join := fs.String("join", "", "show this table (an invite code, an invite link or a table id) at start, to sit down at with enter")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour play [--server URL] [--name NAME] [--data DIR] [--join LINK] [GAME]")
		fmt.Fprintln(stderr, "\nPlays Parlour's games in the terminal (see docs/terminal.md).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	if !isTerminal(stdin) || !isTerminal(stdout) {
		// Without one the program cannot read keys (a pipe that has
		// ended reads as nothing, for good) nor draw: say so before
		// starting a server.
		fmt.Fprintln(stderr, "parlour play: it is a full-screen game and needs a terminal, but its input or output is a pipe or a file; run it in a terminal (or play over SSH or in the browser)")
		return 2
	}
	if *name == "" {
		*name = os.Getenv("USER")
		// A login the server keeps from guests (root, admin, ...) would
		// be refused at the first table: the server names the guest then.
		if account.Reserved(*name) != "" {
			*name = ""
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	base := *srv
	served := make(chan error, 1)
	if base == "" {
		var err error
		base, err = startEmbedded(ctx, *data, served)
		if err != nil {
			fmt.Fprintf(stderr, "parlour play: %v\n", err)
			return 1
		}
	}
	c, err := client.New(base, *name)
	if err != nil {
		fmt.Fprintf(stderr, "parlour play: %v\n", err)
		return 2
	}
	cfg := tui.Config{Client: c, DataDir: *data, Game: fs.Arg(0), Table: *join, Guide: true}
	if *srv == "" {
		cfg.Server, cfg.Offline = "embedded:"+*data, true
	}
	key := cfg.Server
	if key == "" {
		key = c.Base()
	}
	if s, ok := loadSession(*data, key, c.Base()); ok {
		cfg.Session, cfg.Account, c.Name = s.Token, s.Name, s.Name
	}
	cfg.OnSession = func(token, name string) error { return saveSession(*data, key, token, name) }
	if home, err := os.UserHomeDir(); err == nil {
		cfg.SSHKey = filepath.Join(home, ".ssh", "id_ed25519.pub")
	}
	m := tui.New(cfg)
	defer m.Close()
	p := tui.NewProgram(m, stdin, stdout, nil, 0, 0)
	go func() {
		select {
		case <-ctx.Done():
			p.Quit()
		case err := <-served:
			p.Quit()
			served <- err
		}
	}()
	_, err = p.Run()
	m.Close()
	cancel()
	if *srv == "" {
		// Let the embedded server finish its writes and close the store.
		select {
		case serr := <-served:
			if serr != nil && err == nil {
				err = fmt.Errorf("the embedded server stopped: %w", serr)
			}
		case <-time.After(15 * time.Second):
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "parlour play: %v\n", err)
		return 1
	}
	return 0
}

// startEmbedded runs the same server as parlour serve on a free loopback
// port, logging to a file in the data directory (the terminal is the
// game's), and answers its address once it listens.
func startEmbedded(ctx context.Context, data string, served chan<- error) (string, error) {
	if err := os.MkdirAll(data, 0o700); err != nil {
		return "", fmt.Errorf("making the data directory: %w", err)
	}
	logf, err := os.OpenFile(filepath.Join(data, "play-server.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("opening the server's log: %w", err)
	}
	log := slog.New(slog.NewTextHandler(logf, nil))
	// serve prints the address it listens on: read it from there.
	pr, pw := io.Pipe()
	go func() {
		err := serve(ctx, log, pw, "127.0.0.1:0", "", data, storeAt{path: filepath.Join(data, "parlour.db"), sqlite: sqlite.Options{Synchronous: "FULL", CommitInterval: sqlite.DefaultCommitInterval}}, limit.Defaults(), tableOptions{openExpiry: table.DefaultOpenExpiry, parkAfter: table.DefaultParkAfter}, sshOptions{}, clusterOptions{}, nil, nil, mailOptions{}, nil)
		if err != nil {
			// serve logs what happens while it serves, not why it
			// stopped: parlour serve's caller does that.
			log.Error("the server stopped", "err", err)
		}
		pw.CloseWithError(fmt.Errorf("the server stopped: %w", err))
		logf.Close()
		served <- err
	}()
	found := make(chan string, 1)
	var stopped error // why the server stopped, once found is closed
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "serving at "); ok {
				url, _, _ := strings.Cut(rest, " ")
				found <- strings.TrimSuffix(url, "/")
			}
		}
		stopped = sc.Err()
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			why := "it stopped"
			if err := errors.Unwrap(stopped); err != nil {
				why = err.Error()
			}
			return "", fmt.Errorf("the embedded server did not start: %s (its log: %s)", why, filepath.Join(data, "play-server.log"))
		}
		return url, nil
	case <-time.After(30 * time.Second):
		return "", errors.New("the embedded server took more than 30 s to start")
	}
}

// isTerminal says whether f, the command's input or output, is a
// terminal.
func isTerminal(f any) bool {
	fd, ok := f.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(fd.Fd())
}
