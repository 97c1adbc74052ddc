-- The seeks waiting when the server stopped, each as the seek service
-- wrote it (JSON), for the next start to take back and delete: a player
-- waiting for a game through a restart keeps waiting.
CREATE TABLE held_seeks (
	id   text PRIMARY KEY,
	body text NOT NULL,
	held timestamptz NOT NULL
);
