package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"parlour/store/transfer"
)

// adminToPostgres copies the SQLite database at where into the empty
// PostgreSQL database at target: the way a site on one server moves to a
// cluster. The server must be stopped: the copy takes its lock for the
// while, so that nothing is written to the database after the rows it
// read.
func adminToPostgres(ctx context.Context, where storeAt, target string, stdout, stderr io.Writer) int {
	to, err := toPostgresTarget(where, target)
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin to-postgres: %v\n", err)
		return 2
	}
	lock, err := lockStore(where.path)
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin to-postgres: %v\n", err)
		return 1
	}
	defer lock.Release()
	start := time.Now()
	copied, err := transfer.ToPostgres(ctx, where.path, to, func(table string, rows int64) {
		if rows > 0 {
			fmt.Fprintf(stdout, "  %-22s %9d rows  (%s)\n", table, rows, time.Since(start).Round(time.Millisecond))
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin to-postgres: %v\nNothing was copied: the PostgreSQL database holds what it held before.\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Copied %s into %s: %d rows, among them %d accounts, %d tables and %d moves.\n",
		where.path, redacted(to), copied.Rows(), copied["accounts"], copied["tables"], copied["moves"])
	fmt.Fprintf(stdout, "Serve it with parlour serve --store URL (and --data for the SSH door's files); %s stays as it was.\n", where.path)
	note := fmt.Sprintf("%s was copied into %s at %s by parlour admin to-postgres.\n", filepath.Base(where.path), redacted(to), time.Now().UTC().Format(time.RFC3339))
	if err := os.WriteFile(where.path+movedSuffix, []byte(note), 0o600); err != nil {
		// The copy stands; a server on PostgreSQL only warns that the
		// SQLite database may hold what PostgreSQL does not.
		fmt.Fprintf(stderr, "parlour admin to-postgres: noting the copy beside the database: %v\n", err)
	}
	return 0
}

// movedSuffix names the file to-postgres leaves beside an SQLite database
// it copied: a server on PostgreSQL over the same data directory knows
// from it that the database's players are in PostgreSQL (moved).
const movedSuffix = ".moved"

// moved reports whether to-postgres copied the SQLite database at path
// into PostgreSQL and nothing has written to it since: its note is no
// older than the database and its log.
func moved(path string) bool {
	note, err := os.Stat(path + movedSuffix)
	if err != nil {
		return false
	}
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(note.ModTime()) {
			return false
		}
	}
	return true
}

// toPostgresTarget returns the PostgreSQL URL that target names, as
// to-postgres copies into it from the SQLite database where: an error, in
// the operator's words, when where is PostgreSQL already or target is not
// a PostgreSQL URL. It is checked before the source is looked for, so
// that a mistyped command is told as one wherever it runs.
func toPostgresTarget(where storeAt, target string) (string, error) {
	if where.postgres != "" {
		return "", errors.New("the store is PostgreSQL already: give the SQLite database's --data or --store")
	}
	to, err := parseStore(target, "")
	if err != nil {
		return "", err
	}
	if to.postgres == "" {
		return "", fmt.Errorf("%q is not a PostgreSQL database: give a postgres:// URL", target)
	}
	return to.postgres, nil
}
