package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	return 0
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
