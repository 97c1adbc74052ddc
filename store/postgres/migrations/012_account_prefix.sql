-- The accounts' keys in byte order, for the players a name being typed
-- may mean (AccountsWithPrefix): the unique index on key follows the
-- database's collation, in which a range of a prefix is not the names
-- that begin with it.
CREATE INDEX accounts_key_bytes ON accounts (key COLLATE "C");
