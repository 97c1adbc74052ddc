package server_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"parlour/server"
)

// A table publishes each setup's commitment when play starts and reveals
// the salt at the end; anyone can then check that the setup did not change.
func ExampleVerifyCommitment() {
	salt, _ := hex.DecodeString("00112233445566778899aabbccddeeff")
	setup := json.RawMessage(`{"fleet": ["B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"]}`)
	published := server.Commitment(salt, setup)

	// At the end of the game, with the revealed salt and setup:
	fmt.Println(server.VerifyCommitment(published, "00112233445566778899aabbccddeeff", setup))
	// A different setup does not match the commitment.
	fmt.Println(server.VerifyCommitment(published, "00112233445566778899aabbccddeeff", json.RawMessage(`{"fleet": ["A1-A5"]}`)))
	// Output:
	// true
	// false
}
