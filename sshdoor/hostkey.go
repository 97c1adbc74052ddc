package sshdoor

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// HostKeyFile is the name of the door's host key in the data directory.
const HostKeyFile = "ssh_host_ed25519_key"

// HostKey returns the PEM of the door's ed25519 host key kept in dir,
// making it (mode 0600) on the first start, so that players' clients
// recognise the server from one start to the next.
func HostKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, HostKeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		if _, err := gossh.ParsePrivateKey(b); err != nil {
			return nil, fmt.Errorf("the SSH host key %s is damaged (%v): move it away to make a new one, and tell the players its fingerprint changed", path, err)
		}
		return b, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading the SSH host key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("making an SSH host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "parlour ssh door")
	if err != nil {
		return nil, fmt.Errorf("making an SSH host key: %w", err)
	}
	b = pem.EncodeToMemory(block)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("making the data directory: %w", err)
	}
	// O_EXCL: two starts at once keep one key, the first one's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return HostKey(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the SSH host key: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("writing the SSH host key: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("writing the SSH host key: %w", err)
	}
	return b, nil
}
