ALTER TABLE "nodes" ADD COLUMN "child_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Each node's children, counted once; from now on the statement triggers below keep the count, one update
-- per parent and statement (a set-based insert of 100,000 sources updates their folder once).
UPDATE "nodes" AS "parent" SET "child_count" = "counted"."n"
FROM (SELECT "parent_id", count(*)::int AS "n" FROM "nodes" WHERE "parent_id" IS NOT NULL GROUP BY "parent_id") AS "counted"
WHERE "parent"."id" = "counted"."parent_id";
--> statement-breakpoint
CREATE FUNCTION "nodes_child_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "nodes" AS "parent" SET "child_count" = "parent"."child_count" + "added"."n"
  FROM (SELECT "parent_id", count(*)::int AS "n" FROM "new_rows" WHERE "parent_id" IS NOT NULL GROUP BY "parent_id") AS "added"
  WHERE "parent"."id" = "added"."parent_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted subtree is deleted level by level through the parent_id cascade: each level's statement counts
-- its rows off their parents (the parents deleted too are simply not found).
CREATE FUNCTION "nodes_child_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "nodes" AS "parent" SET "child_count" = "parent"."child_count" - "removed"."n"
  FROM (SELECT "parent_id", count(*)::int AS "n" FROM "old_rows" WHERE "parent_id" IS NOT NULL GROUP BY "parent_id") AS "removed"
  WHERE "parent"."id" = "removed"."parent_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A move changes parent_id: one off the old parent, one onto the new. Any other update (this trigger's own
-- count updates among them) moves nothing and stops at the first check.
CREATE FUNCTION "nodes_child_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "old_rows" JOIN "new_rows" USING ("id")
    WHERE "old_rows"."parent_id" IS DISTINCT FROM "new_rows"."parent_id"
  ) THEN
    RETURN NULL;
  END IF;
  UPDATE "nodes" AS "parent" SET "child_count" = "parent"."child_count" + "moved"."n"
  FROM (
    SELECT "parent_id", sum("n")::int AS "n" FROM (
      SELECT "new_rows"."parent_id", 1 AS "n" FROM "old_rows" JOIN "new_rows" USING ("id")
      WHERE "old_rows"."parent_id" IS DISTINCT FROM "new_rows"."parent_id"
      UNION ALL
      SELECT "old_rows"."parent_id", -1 AS "n" FROM "old_rows" JOIN "new_rows" USING ("id")
      WHERE "old_rows"."parent_id" IS DISTINCT FROM "new_rows"."parent_id"
    ) AS "changes"
    WHERE "parent_id" IS NOT NULL
    GROUP BY "parent_id"
  ) AS "moved"
  WHERE "parent"."id" = "moved"."parent_id" AND "moved"."n" <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "nodes_child_count_inserted" AFTER INSERT ON "nodes" REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "nodes_child_count_inserted"();
--> statement-breakpoint
CREATE TRIGGER "nodes_child_count_deleted" AFTER DELETE ON "nodes" REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "nodes_child_count_deleted"();
--> statement-breakpoint
CREATE TRIGGER "nodes_child_count_moved" AFTER UPDATE ON "nodes" REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "nodes_child_count_moved"();
