-- The rating points given back to a player for a game lost to an account
-- a moderator closed for cheating (NULL when none were): a game's points
-- are given back once.
ALTER TABLE player_games ADD COLUMN refund REAL;
