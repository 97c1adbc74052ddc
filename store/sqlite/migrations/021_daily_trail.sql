-- A daily attempt keeps the trail of its moves' outcomes, with no square
-- in it, for its share text; '' for every attempt finished before.
ALTER TABLE daily_attempts ADD COLUMN trail TEXT NOT NULL DEFAULT '';
