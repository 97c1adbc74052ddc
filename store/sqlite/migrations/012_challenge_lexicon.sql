-- The word list a challenge's table is to check words against ('': the
-- default), so that a challenge to a word game may name another list.
ALTER TABLE challenges ADD COLUMN lexicon TEXT NOT NULL DEFAULT '';
