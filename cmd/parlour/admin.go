package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"parlour/server/moderation"
	"parlour/sshdoor"
	"parlour/store"
	"parlour/store/sqlite"
)

// runAdmin is parlour admin: what only the operator does, on the
// server's machine, straight in the data folder or the database: give
// and take back the moderator role (no page or request of the API can),
// reopen an account, give one a new password, and read the moderation
// queue.
func runAdmin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", defaultDataDir(), "the server's data directory (its parlour.db), as given to parlour serve")
	storeAt := fs.String("store", "", "the server's store, as given to parlour serve: a postgres:// URL, or the path of an SQLite database file; empty: parlour.db in --data")
	reason := fs.String("reason", "", "why, for the moderators' log (grant, revoke, reopen and password)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: parlour admin [--data DIR | --store URL] grant NAME | revoke NAME | reopen NAME | password NAME | reports | backup DIR | restore DIR | to-postgres URL")
		fmt.Fprintln(stderr, "\nRun on the server's machine, against its data:")
		fmt.Fprintln(stderr, "  grant NAME    make the account NAME a moderator")
		fmt.Fprintln(stderr, "  revoke NAME   take the moderator role back from NAME")
		fmt.Fprintln(stderr, "  reopen NAME   reopen the account NAME, which a moderator closed")
		fmt.Fprintln(stderr, "  password NAME give the account NAME a new random password, printed once, and sign it out")
		fmt.Fprintln(stderr, "                everywhere: for a player who forgot theirs where no reset link can be mailed")
		fmt.Fprintln(stderr, "  reports       print the moderation queue, open reports first")
		fmt.Fprintln(stderr, "  backup DIR    copy the SQLite database, while the server runs, and the SSH door's files")
		fmt.Fprintln(stderr, "                into DIR, new or empty: a data directory parlour serve --data DIR serves")
		fmt.Fprintln(stderr, "  restore DIR   put the backup in DIR in place of the server's database and SSH files,")
		fmt.Fprintln(stderr, "                the server stopped; what it replaces is moved aside, not deleted")
		fmt.Fprintln(stderr, "  to-postgres URL  copy the SQLite database, the server stopped, into the new, empty")
		fmt.Fprintln(stderr, "                PostgreSQL database at URL, which parlour serve --store URL then serves")
		fs.PrintDefaults()
	}
	// The flags may come before the action, after it, or after its name.
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	var verb string
	var rest []string
	if len(pos) > 0 {
		verb, rest = pos[0], pos[1:]
	}
	want := map[string]int{"grant": 1, "revoke": 1, "reopen": 1, "password": 1, "reports": 0, "backup": 1, "restore": 1, "to-postgres": 1}
	n, ok := want[verb]
	switch {
	case verb == "":
		fs.Usage()
		return 2
	case !ok:
		fmt.Fprintf(stderr, "parlour admin: unknown action %q: grant NAME, revoke NAME, reopen NAME, password NAME, reports, backup DIR, restore DIR or to-postgres URL\n", verb)
		return 2
	case len(rest) != n && verb == "backup":
		fmt.Fprintf(stderr, "parlour admin backup: name one directory to back up into\n")
		return 2
	case len(rest) != n && verb == "to-postgres":
		fmt.Fprintf(stderr, "parlour admin to-postgres: name one PostgreSQL database to copy into, as postgres://USER@HOST/DB\n")
		return 2
	case len(rest) != n && verb == "restore":
		fmt.Fprintf(stderr, "parlour admin restore: name one directory, made by parlour admin backup, to restore from\n")
		return 2
	case len(rest) != n && n == 1:
		fmt.Fprintf(stderr, "parlour admin %s: name one account\n", verb)
		return 2
	case len(rest) != n:
		fmt.Fprintf(stderr, "parlour admin %s takes no arguments, not %q\n", verb, strings.Join(rest, " "))
		return 2
	}
	if *data == "" {
		fmt.Fprintln(stderr, "parlour admin: --data is empty: give the server's data directory, as given to parlour serve")
		return 2
	}
	where, err := parseStore(*storeAt, *data)
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin: --store: %v\n", err)
		return 2
	}
	if verb == "restore" {
		return adminRestore(ctx, where, *data, rest[0], stdout, stderr)
	}
	if verb == "to-postgres" {
		if _, err := toPostgresTarget(where, rest[0]); err != nil {
			fmt.Fprintf(stderr, "parlour admin to-postgres: %v\n", err)
			return 2
		}
	}
	if where.postgres == "" {
		// The server made its database: one missing means --data or
		// --store points elsewhere, and a new empty one would hide it.
		// Any other failure (a data directory admin may not read, a
		// file where the directory should be) is said as it is: "no
		// database" would send the operator after the wrong path.
		_, err := os.Stat(where.path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "parlour admin: no database at %s: give the server's --data or --store\n", where.path)
			return 1
		case errors.Is(err, os.ErrPermission):
			fmt.Fprintf(stderr, "parlour admin: cannot read the database at %s: %v: run parlour admin as the user parlour serve runs as\n", where.path, errors.Unwrap(err))
			return 1
		case err != nil:
			fmt.Fprintf(stderr, "parlour admin: cannot read the database at %s: %v\n", where.path, errors.Unwrap(err))
			return 1
		}
	}
	if verb == "backup" {
		return adminBackup(ctx, where, *data, rest[0], stdout, stderr)
	}
	if verb == "to-postgres" {
		return adminToPostgres(ctx, where, rest[0], stdout, stderr)
	}
	where.sqlite = sqlite.Options{Synchronous: "FULL"}
	where.noMigrate = true
	db, closeDB, err := openStore(ctx, where, nil)
	if errors.Is(err, store.ErrUnmigrated) {
		// The server, running or not, is of an older build: migrating
		// its database beneath it could break it, and its own admin
		// reads the schema it knows.
		fmt.Fprintf(stderr, "parlour admin: %v\nThis parlour is newer than the one that serves this database, and leaves its schema to parlour serve: run the parlour admin of the server's own version, or start this version's parlour serve first (it migrates the database).\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "parlour admin: %v\n", err)
		return 1
	}
	defer closeDB()
	switch verb {
	case "grant", "revoke":
		name, err := moderation.Grant(ctx, db, rest[0], verb == "grant", *reason, time.Now())
		switch {
		case errors.Is(err, moderation.ErrUnchanged) && verb == "grant":
			fmt.Fprintf(stdout, "%s is a moderator already; nothing changed.\n", name)
			return 0
		case errors.Is(err, moderation.ErrUnchanged):
			fmt.Fprintf(stdout, "%s is not a moderator; nothing changed.\n", name)
			return 0
		case err != nil:
			fmt.Fprintf(stderr, "parlour admin %s: %v\n", verb, err)
			return 1
		}
		if verb == "grant" {
			fmt.Fprintf(stdout, "%s is a moderator.\n", name)
		} else {
			fmt.Fprintf(stdout, "%s is no longer a moderator.\n", name)
		}
	case "reopen":
		r, err := moderation.Reopen(ctx, db, rest[0], *reason, time.Now())
		if err != nil {
			fmt.Fprintf(stderr, "parlour admin reopen: %v\n", err)
			return 1
		}
		if r.Password {
			fmt.Fprintf(stdout, "%s's account is open again: it signs in with its password.\n", r.Name)
		} else {
			fmt.Fprintf(stdout, "%s's account is open again, without a password (it was closed before closings kept one): its player sets one with a reset link to the account's e-mail address, or you set one with parlour admin password.\n", r.Name)
		}
	case "password":
		name, password, err := moderation.NewPassword(ctx, db, rest[0], *reason, time.Now())
		if password != "" {
			fmt.Fprintf(stdout, "%s's password is now:\n\n    %s\n\nGive it to %s by a way you trust: they sign in with it, and choose their own on their account page. Every session of the account is signed out (a server running now refuses them within a minute).\n", name, password, name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "parlour admin password: %v\n", err)
			return 1
		}
	case "reports":
		rs, err := moderation.Queue(ctx, db, 1000)
		if err != nil {
			fmt.Fprintf(stderr, "parlour admin reports: %v\n", err)
			return 1
		}
		printReports(stdout, rs)
	}
	return 0
}

// adminBackup copies the SQLite database at where, and the SSH door's host
// key and guests from the data directory data, into dir, which it makes (or which
// must be empty): dir is then a data directory of its own, which serve
// --data serves as the server was when the copy began. PostgreSQL has
// its own tools for this.
func adminBackup(ctx context.Context, where storeAt, data, dir string, stdout, stderr io.Writer) int {
	if where.postgres != "" {
		fmt.Fprintln(stderr, "parlour admin backup: the store is PostgreSQL: back it up with pg_dump (see docs/deploy.md)")
		return 2
	}
	_, statErr := os.Stat(dir)
	made := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(stderr, "parlour admin backup: %v\n", err)
		return 1
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) > 0 {
		if err == nil {
			err = fmt.Errorf("%s is not empty: back up into a new directory", dir)
		}
		fmt.Fprintf(stderr, "parlour admin backup: %v\n", err)
		return 1
	}
	dest := filepath.Join(dir, "parlour.db")
	// Beside the database, the SSH door's files: its host key (without
	// it players' ssh would refuse the restored server as an impostor)
	// and, in a data directory an older server left and none has served
	// since, the guests it knew by their keys, which the next start
	// hands to the database (without them every SSH guest would come
	// back a new one, cut off from their games). Both hold secrets. The
	// key is written once, at the first start, and the guests' file was
	// written whole (a new file renamed into place), so a copy is never
	// half a file.
	side := []struct{ file, what string }{
		{sshdoor.HostKeyFile, "the SSH host key"},
		{sshdoor.GuestsFile, "the SSH door's guests"},
	}
	// A backup that fails leaves nothing behind that could pass for one.
	fail := func(what string, err error) int {
		for _, f := range side {
			os.Remove(filepath.Join(dir, f.file))
		}
		os.Remove(dest)
		if made {
			os.Remove(dir)
		}
		fmt.Fprintf(stderr, "parlour admin backup: %s%v\n", what, err)
		return 1
	}
	// The SSH files first: the database's copy then syncs the
	// directory, their entries in it included.
	var copied []string
	for _, f := range side {
		b, err := os.ReadFile(filepath.Join(data, f.file))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = writeSynced(filepath.Join(dir, f.file), b)
		}
		if err != nil {
			return fail(f.what+": ", err)
		}
		copied = append(copied, fmt.Sprintf("Copied %s, %s.", f.what, f.file))
	}
	if err := sqlite.Backup(ctx, where.path, dest); err != nil {
		return fail("", err)
	}
	fi, err := os.Stat(dest)
	if err != nil {
		return fail("", err)
	}
	fmt.Fprintf(stdout, "Copied %s to %s (%d KB).\n", where.path, dest, (fi.Size()+1023)/1024)
	for _, c := range copied {
		fmt.Fprintln(stdout, c)
	}
	fmt.Fprintf(stdout, "To serve it: parlour serve --data %s\n", dir)
	return 0
}

// writeSynced writes b to a new file at path, readable by its owner
// alone, and syncs it: a backup is on the disk when it is said done.
func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// printReports prints the queue as a table, open reports first.
func printReports(w io.Writer, rs []moderation.Report) {
	open := 0
	for _, r := range rs {
		if r.Status == "open" {
			open++
		}
	}
	fmt.Fprintf(w, "%d open, %d closed.\n", open, len(rs)-open)
	if len(rs) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nID\tSTATUS\tMADE (UTC)\tPLAYER\tREASON\tBY\tTABLE\tTEXT")
	for _, r := range rs {
		status := r.Status
		if r.ClosedBy != "" {
			status += " by " + r.ClosedBy
		}
		tbl, text := r.Table, r.Text
		switch {
		case tbl == "" && r.Tournament != "":
			tbl = "event " + r.Tournament // its chat's line, below
		case tbl == "":
			tbl = "-"
		}
		// A report of a chat line says which, and what it said.
		if r.Seq > 0 {
			tbl += fmt.Sprintf(" line %d", r.Seq)
		}
		if r.Line != nil {
			text = strings.TrimSpace(fmt.Sprintf("the line: %q %s", r.Line.Text, text))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, status, r.Created.UTC().Format("2006-01-02 15:04"), r.Name, r.Reason, r.Reporter, tbl, text)
	}
	tw.Flush()
}
