package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"parlour/store/postgres"
)

// lockStore keeps a second parlour serve off the SQLite database at db:
// two servers on one database would each restore its live tables and run
// their referees, clocks and computer seats, and each would refuse the
// moves the other stored ("nothing changed, try again" for ever). It
// takes an exclusive lock on db+".lock", which the operating system
// releases when the process ends however it ends, and writes the
// process id into it for the message the next one prints. parlour admin
// takes no lock: it may run beside the server.
func lockStore(db string) (*storeLock, error) {
	path := db + ".lock"
	made := true
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		made = false
		f, err = os.OpenFile(path, os.O_RDWR, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("locking the database: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		if made {
			os.Remove(path)
		}
		return nil, fmt.Errorf("locking the database with %s: %w", path, err)
	}
	if !held {
		b, _ := os.ReadFile(path)
		f.Close()
		who := "another parlour serve"
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			who += fmt.Sprintf(" (process %d)", pid)
		}
		return nil, fmt.Errorf("%s is already serving %s: stop it before starting another on the same database (two would run the same tables and refuse each other's moves)", who, db)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &storeLock{f: f, made: made}, nil
}

// storeLock is the lock lockStore took.
type storeLock struct {
	f    *os.File
	made bool // the lock file did not exist before
}

// Release lets the lock go. The file stays: it is the lock the next
// server takes, and removing it could let two servers hold locks on two
// files of one name.
func (l *storeLock) Release() { l.f.Close() }

// Drop lets the lock go after a start that failed before the database
// opened, removing the lock file if this start made it: a --store
// naming a file that is no database would otherwise leave FILE.lock
// beside it.
func (l *storeLock) Drop() {
	if l.made {
		os.Remove(l.f.Name())
	}
	l.f.Close()
}

// servedPostgres says why serve was refused a PostgreSQL database
// another server holds (err is postgres.ErrServed, from the lock
// postgres.Open takes before it migrates: postgres.Options.Serve): a
// server alone there beside another, or beside the nodes of a cluster
// (node says serve runs as one), for the same reason as lockStore's. The
// nodes of one cluster share the lock: their leases share the tables
// out. Any other err is returned as it is.
func servedPostgres(err error, node bool) error {
	switch {
	case errors.Is(err, postgres.ErrServed) && node:
		return errors.New("a parlour serve without --nats is already serving this database: stop it before starting a node of a cluster on it (the two would run the same tables and refuse each other's moves)")
	case errors.Is(err, postgres.ErrServed):
		return errors.New("another parlour serve is already serving this database: stop it, or run every server on it as a node of one cluster with --nats (two alone would run the same tables and refuse each other's moves)")
	}
	return err
}
