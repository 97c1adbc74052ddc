-- A run says whether the server stopped (ended) or was last seen running
-- (a crash, or another node of a cluster between two notes).
ALTER TABLE runs ADD COLUMN ended boolean NOT NULL DEFAULT false;
