// Package pgtest starts a throwaway PostgreSQL server for tests, as
// net/http/httptest starts a web server: initdb into a temporary folder,
// postgres listening only on a unix socket inside it, everything removed
// by Close. Each test then gets a database of its own from NewDatabase.
//
// PostgreSQL refuses to run as root, so when the tests run as root the
// server runs as the unprivileged user "postgres" (Debian's package makes
// it), and the temporary folder is given to that user.
//
// Tests that need the server skip when PostgreSQL is not installed, unless
// the CI environment variable is set: then they fail, so that a CI machine
// without PostgreSQL cannot pass by testing nothing.
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// User is the unprivileged user the server runs as when the tests run as
// root.
const User = "postgres"

// port only names the socket file (.s.PGSQL.<port>) in the server's own
// folder: the server listens on no TCP port, so servers of tests running
// at once never collide.
const port = 5432

// Server is a running throwaway PostgreSQL server.
type Server struct {
	dir  string        // the temporary folder: data/, the socket, the log
	bin  string        // the postgres program
	args []string      // its arguments
	cred *runAs        // whom the server runs as; nil: the current user
	cmd  *exec.Cmd     // the running (or last) server process
	done chan struct{} // closed when cmd has exited
	next atomic.Int64  // numbers the databases NewDatabase makes
}

// Bin returns the folder holding initdb and postgres: the one on PATH, or
// else the newest of Debian's /usr/lib/postgresql/*/bin.
func Bin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "postgres")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql/*/bin; on Debian: apt-get install postgresql)")
}

// version returns the major version in a path like
// /usr/lib/postgresql/15/bin.
func version(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

// Options tune a Server. The zero value is the quick default.
type Options struct {
	// Durable keeps fsync on, as a deployment has it, for measurements
	// of commit times; by default the server does not sync (the tests
	// check what the store does, not the disk).
	Durable bool
}

// Start initialises a new cluster in a temporary folder and starts a server
// on it. The caller must Close it.
func Start(ctx context.Context, opt Options) (*Server, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	cred, err := credential()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if cred != nil {
		if err := chown(dir, cred); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pgtest: giving %s to %s: %w", dir, User, err)
		}
	}
	s := &Server{dir: dir}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
	initdb.Dir = dir
	initdb.SysProcAttr = procAttr(cred)
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	s.bin = filepath.Join(bin, "postgres")
	s.cred = cred
	s.args = []string{"-D", data, "-k", dir, "-p", strconv.Itoa(port), "-c", "listen_addresses=",
		"-c", "max_connections=200", "-c", "shared_buffers=32MB"}
	if !opt.Durable {
		// fsync off: a crash of the test machine loses nothing anyone
		// needs.
		s.args = append(s.args, "-c", "fsync=off", "-c", "full_page_writes=off")
	}
	if err := s.Restart(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Restart starts the server again after Stop or Crash, on the same data,
// and waits until it accepts connections.
func (s *Server) Restart(ctx context.Context) error {
	if s.cmd != nil {
		select {
		case <-s.done:
		default:
			return errors.New("pgtest: the server is running")
		}
	}
	logf, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(s.bin, s.args...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr(s.cred)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	s.cmd, s.done = cmd, done
	if err := s.wait(ctx); err != nil {
		return fmt.Errorf("pgtest: postgres did not start: %w\n%s", err, s.logTail())
	}
	return nil
}

// Stop shuts the server down (PostgreSQL's fast shutdown: sessions are
// ended, everything committed is kept), leaving its data for Restart.
func (s *Server) Stop() { s.stop(os.Interrupt) }

// Crash stops the server as a crash would (PostgreSQL's immediate
// shutdown: no checkpoint; Restart recovers from the log).
func (s *Server) Crash() { s.stop(syscall.SIGQUIT) }

func (s *Server) stop(sig os.Signal) {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(sig)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// wait waits until the server accepts connections.
func (s *Server) wait(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for {
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			return c.Close(ctx)
		}
		select {
		case <-s.done:
			return errors.New("the server exited")
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// URL returns the connection string of database db of the server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@/%s?host=%s&port=%d&sslmode=disable", db, s.dir, port)
}

// Dir returns the server's temporary folder (its log is postgres.log).
func (s *Server) Dir() string { return s.dir }

// CreateDatabase creates a new, empty database and returns its URL.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test%d", s.next.Add(1))
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer c.Close(ctx)
	// FILE_COPY copies the template's files rather than logging every
	// page (PostgreSQL 15's default): about twice as fast here, with
	// fsync off. Servers before 15 know no strategy.
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name+" STRATEGY FILE_COPY"); err != nil {
		if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
			return "", fmt.Errorf("pgtest: creating database %s: %w", name, err)
		}
	}
	return s.URL(name), nil
}

// DropDatabase drops the database of url, closing its connections.
func (s *Server) DropDatabase(ctx context.Context, url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{cfg.Database}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("pgtest: dropping database %s: %w", cfg.Database, err)
	}
	return nil
}

// NewDatabase returns the URL of a new, empty database that is dropped
// when t ends. On a nil Server (PostgreSQL is missing) it skips t, or
// fails it when the CI environment variable is set.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	if s == nil {
		Missing(t)
	}
	url, err := s.CreateDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.DropDatabase(context.Background(), url); err != nil {
			t.Error(err)
		}
	})
	return url
}

// Missing skips t for want of PostgreSQL, or fails it when the CI
// environment variable is set.
func Missing(t testing.TB) {
	t.Helper()
	_, err := Bin()
	if err == nil {
		err = errors.New("the test server did not start")
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI is set and PostgreSQL is needed: %v", err)
	}
	t.Skipf("skipped: %v", err)
}

// Close stops the server and removes its folder.
func (s *Server) Close() error {
	s.Stop()
	return os.RemoveAll(s.dir)
}

// Main starts a server, runs m's tests, stops the server and returns the
// exit code, for TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m, &server)) }
//
// When PostgreSQL is missing, *srv stays nil and the tests run (those that
// call NewDatabase skip), except under CI, when Main fails at once.
func Main(m *testing.M, srv **Server) int {
	s, err := Start(context.Background(), Options{})
	if err != nil {
		if os.Getenv("CI") != "" {
			fmt.Fprintf(os.Stderr, "CI is set and PostgreSQL is needed: %v\n", err)
			return 1
		}
		if _, missing := Bin(); missing == nil {
			// Installed but broken: say so rather than skip quietly.
			fmt.Fprintln(os.Stderr, strings.TrimSpace(err.Error()))
			return 1
		}
	}
	*srv = s
	code := m.Run()
	if s != nil {
		if err := s.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		}
	}
	return code
}

// logTail is the end of the server's log, for a failure message.
func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
	if i := len(b) - 2000; i > 0 {
		b = b[i:]
	}
	return string(bytes.TrimSpace(b))
}
