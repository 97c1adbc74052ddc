package account_test

import (
	"fmt"

	"parlour/account"
)

func ExampleCheckName() {
	for _, name := range []string{"Albertine", "al", "Zoë", "Deleted_Player", "Medium"} {
		if err := account.CheckName(name); err != nil {
			fmt.Println(name+":", err)
			continue
		}
		fmt.Println(name+": fine, stored under", account.Key(name))
	}
	// Output:
	// Albertine: fine, stored under albertine
	// al: a name needs at least 3 characters
	// Zoë: a name may hold only letters a to z, digits, _ and -, not 'ë'
	// Deleted_Player: "Deleted_Player" is reserved: it is what deleted accounts are called; choose another name
	// Medium: "Medium" is reserved: it is a computer player's name; choose another name
}

func ExampleCheckPassword() {
	for _, pw := range []string{"hunter2", "Baseball", "albertine", "albertine1984", "the ward of the wolf"} {
		fmt.Println(account.CheckPassword("Albertine", pw))
	}
	// Output:
	// a password needs at least 8 characters
	// that password is one of the 10,000 commonest, the first any attacker tries: choose another
	// a password may not contain your name
	// a password may not contain your name
	// <nil>
}

// Signing up stores a hash; signing in verifies against it, and remakes it
// when the parameters have been raised since.
func ExampleVerify() {
	stored := account.Hash("the ward of the wolf")

	ok, err := account.Verify(stored, "the ward of the wolf")
	fmt.Println(ok, err)
	if ok && account.NeedsRehash(stored) {
		stored = account.Hash("the ward of the wolf")
	}

	ok, err = account.Verify(stored, "the word of the wolf")
	fmt.Println(ok, err)
	// Output:
	// true <nil>
	// false <nil>
}

// A sign-in that names no account still pays for a hash, so that its
// answer comes as slowly as a wrong password's.
func ExampleVerifyDummy() {
	signIn := func(stored map[string]string, name, password string) bool {
		hash, found := stored[account.Key(name)]
		if !found {
			account.VerifyDummy(password)
			return false
		}
		ok, err := account.Verify(hash, password)
		return ok && err == nil
	}
	stored := map[string]string{"albertine": account.Hash("the ward of the wolf")}
	fmt.Println(signIn(stored, "ALBERTINE", "the ward of the wolf"))
	fmt.Println(signIn(stored, "gilberte", "the ward of the wolf"))
	// Output:
	// true
	// false
}

func ExampleNewToken() {
	token, hash := account.NewToken()
	// Give token to the client; keep only hash.
	fmt.Println(len(token), account.ValidTokenShape(token), hash == account.HashToken(token))
	// Output: 43 true true
}
