-- A database from before the runs were kept holds none, so the first run
-- would find no gap and the clocks of the games in play would run on
-- through the upgrade's downtime. The latest write of a table, a move or
-- a chat line stands for the end of the last run: the clocks stand still
-- from then, which gives back to a game at most the time its servers were
-- up and idle, never charges it with time none was.
INSERT INTO runs (started, alive, ended)
SELECT last, last, true FROM (
	SELECT greatest((SELECT max(updated) FROM tables), (SELECT max(at) FROM moves), (SELECT max(at) FROM chat)) AS last
) latest
WHERE last IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs);
