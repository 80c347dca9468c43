-- A thumbnail is served only to those who see a node that shows it (issue 30): each request finds the nodes
-- of its thumbnail, through this index rather than the whole account.
CREATE INDEX "nodes_thumb_idx" ON "nodes" USING btree ("thumb_id");
