// Package account holds the rules of Parlour's accounts, apart from where
// accounts are kept: which names a player may choose and how names compare,
// which passwords are refused, how a password is hashed for storage and
// checked at sign-in, and how session and bearer tokens are made and
// stored. It has no storage and no HTTP; the server and the store build
// accounts from it.
//
// Every error from [CheckName] and [CheckPassword] is meant for the player:
// it says, in plain words, which rule was broken, and never repeats the
// password.
package account
