-- A database from before the runs were kept holds none, so the first run
-- would find no gap and the clocks of the games in play would run on
-- through the upgrade's downtime. The latest write of a table, a move or
-- a chat line stands for the end of the last run: the clocks stand still
-- from then, which gives back to a game at most the time its server was
-- up and idle, never charges it with time the server was down.
INSERT INTO runs (started, alive, ended)
SELECT last, last, 1 FROM (
	SELECT max(t) AS last FROM (
		SELECT max(updated) AS t FROM tables
		UNION ALL SELECT max(at) FROM moves
		UNION ALL SELECT max(at) FROM chat
	)
)
WHERE last IS NOT NULL AND NOT EXISTS (SELECT 1 FROM runs);
