package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
)

// TestKeys adds, lists, finds and deletes SSH keys: a fingerprint belongs
// to one account, another account cannot delete it, and a deleted
// account's keys go with it.
func TestKeys(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "k.db"))
	defer s.Close()
	for _, id := range []string{"ida", "idb"} {
		if err := s.CreateAccount(ctx, store.Account{Identity: id, Name: id, Key: id, Hash: "h", Created: time.Now()},
			store.Credential{Hash: []byte(id), Identity: id}, &store.Identity{ID: id, Name: id, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	k1 := store.SSHKey{Identity: "ida", Fingerprint: "SHA256:one", Key: "ssh-ed25519 AAAA1", Comment: "ann@laptop", Added: time.Now()}
	k2 := store.SSHKey{Identity: "ida", Fingerprint: "SHA256:two", Key: "ssh-ed25519 AAAA2", Added: time.Now().Add(time.Second)}
	for _, k := range []store.SSHKey{k1, k2} {
		if err := s.AddKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddKey(ctx, store.SSHKey{Identity: "idb", Fingerprint: "SHA256:one", Key: "x", Added: time.Now()}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a fingerprint stored twice: %v, want ErrConflict", err)
	}
	ks, err := s.KeysOf(ctx, "ida")
	if err != nil || len(ks) != 2 || ks[0].Fingerprint != "SHA256:one" || ks[0].Comment != "ann@laptop" || ks[1].Key != "ssh-ed25519 AAAA2" {
		t.Fatalf("KeysOf: %+v, %v", ks, err)
	}
	if k, err := s.KeyByFingerprint(ctx, "SHA256:two"); err != nil || k.Identity != "ida" {
		t.Fatalf("KeyByFingerprint: %+v, %v", k, err)
	}
	if _, err := s.KeyByFingerprint(ctx, "SHA256:none"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unknown fingerprint: %v", err)
	}
	if err := s.DeleteKey(ctx, "idb", "SHA256:one"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account deleting a key: %v", err)
	}
	if err := s.DeleteKey(ctx, "ida", "SHA256:one"); err != nil {
		t.Fatal(err)
	}
	if ks, _ := s.KeysOf(ctx, "ida"); len(ks) != 1 {
		t.Fatalf("after a delete: %+v", ks)
	}
	if _, err := s.DeleteAccount(ctx, "ida", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.KeyByFingerprint(ctx, "SHA256:two"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted account's key: %v", err)
	}
}
