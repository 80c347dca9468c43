-- The planner guesses how many nodes an infix LIKE on search_text matches from the column's sampled values:
-- with the default hundred, a number found in 300 of 1M nodes that happens to be among them is taken for one
-- in a hundred, and the search walks the account's time index to its end (0.5–0.9 s) instead of looking it
-- up in the trigram index (2 ms); 2–6 numbers in a hundred did. A thousand sampled values: one in two hundred,
-- a tenth of a millisecond more to plan. ANALYZE now, so a large tree does not wait for autovacuum's.
ALTER TABLE "nodes" ALTER COLUMN "search_text" SET STATISTICS 1000;
--> statement-breakpoint
ANALYZE "nodes";
