package server_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"parlour/games"
	"parlour/server"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// A table publishes each setup's commitment when play starts and reveals
// the salt at the end; anyone can then check that the setup did not change.
func ExampleVerifyCommitment() {
	salt, _ := hex.DecodeString("00112233445566778899aabbccddeeff")
	setup := json.RawMessage(`{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`)
	published := table.Commitment(salt, setup)

	// At the end of the game, with the revealed salt and setup:
	fmt.Println(table.VerifyCommitment(published, "00112233445566778899aabbccddeeff", setup))
	// A different setup does not match the commitment.
	fmt.Println(table.VerifyCommitment(published, "00112233445566778899aabbccddeeff", json.RawMessage(`{"fleet": ["A1-A5"]}`)))
	// Output:
	// true
	// false
}

// Before its game begins a player may leave a table; when nobody else is
// seated, that closes it for good, and it answers 410 Gone from then on.
func ExampleService_Leave() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "parlour-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "parlour.db"), sqlite.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	s, err := server.New(ctx, server.Config{Store: db, Games: games.Registry()})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ann, err := s.Create(ctx, nil, table.CreateRequest{Game: "nymphabet", Seats: []string{"me", "open"}, Name: "Ann"})
	if err != nil {
		log.Fatal(err)
	}
	p, err := s.Auth().Authenticate(ctx, ann.Token)
	if err != nil {
		log.Fatal(err)
	}
	left, err := s.Leave(ctx, p, ann.Table)
	fmt.Println(left.Seat, left.Cancelled, err)
	_, err = s.View(ctx, nil, ann.Table)
	fmt.Println(refuse.Status(err))
	// Output:
	// 0 true <nil>
	// 410
}
