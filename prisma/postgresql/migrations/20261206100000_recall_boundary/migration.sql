-- Raw SQL: SearchDoc is outside the schema's diff (scripts/lib/migrate.ts). Recall's slot lookups in a conversation
-- whose memory was cleared start at the first document after the boundary (`min_id`, 0: none) instead of reading
-- the documents before it, which recall may never return (lib/db/recall.ts, docs/decisions/026-recall.md
-- "2026-12-06: lookups start after the clear-memory boundary"). Otherwise as in 20261203100100_recall_project_scope.

DROP FUNCTION recall_slot_docs(tsquery[], boolean, text, tsquery, integer, double precision, integer);
DROP FUNCTION recall_window(boolean, text, integer, boolean);

-- A conversation's (by_session) or a user's `win` newest (or earliest) documents from `min_id` on, in key order.
CREATE FUNCTION recall_window(by_session boolean, key text, win integer, newest boolean, min_id integer)
RETURNS TABLE (id integer, terms tsvector)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
  IF by_session AND newest THEN
    RETURN QUERY SELECT d."id", d."terms" FROM "SearchDoc" d WHERE d."sessionId" = key AND d."id" >= min_id
      ORDER BY d."id" DESC LIMIT win;
  ELSIF by_session THEN
    RETURN QUERY SELECT d."id", d."terms" FROM "SearchDoc" d WHERE d."sessionId" = key AND d."id" >= min_id
      ORDER BY d."id" ASC LIMIT win;
  ELSIF newest THEN
    RETURN QUERY SELECT d."id", d."terms" FROM "SearchDoc" d WHERE d."userId" = key AND d."id" >= min_id
      ORDER BY d."id" DESC LIMIT win;
  ELSE
    RETURN QUERY SELECT d."id", d."terms" FROM "SearchDoc" d WHERE d."userId" = key AND d."id" >= min_id
      ORDER BY d."id" ASC LIMIT win;
  END IF;
END;
$$;

-- The documents of each slot of a recall question within one conversation (by_session) or one user's documents,
-- from document `min_id` on, read in bounded parts: rows (k, src, ids), k the slot's index from 0.
--   src 0: the slot's matches among the scope's `win` newest documents; k = -1 carries how many documents those were.
--   When the scope holds more than `win` documents:
--   src 1: a slot matching at least `dense` of the newest: its matches among the `win` earliest;
--   src 2: any other slot: at most `cap` of its matches intersected with `scope` (the scope's lexeme) on the GIN
--          index, in table order.
-- The planner settings make each part take the plan it is bounded by: the key index for the newest and earliest
-- documents, the GIN bitmap for a slot. Left to itself it may read the whole table for a slot it believes common,
-- or sort a small table's every row. They hold only while the function runs.
CREATE FUNCTION recall_slot_docs(
  slots tsquery[], by_session boolean, key text, scope tsquery, win integer, dense double precision, cap integer,
  min_id integer
)
RETURNS TABLE (k integer, src integer, ids integer[])
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_indexscan = on
AS $$
DECLARE
  n integer := coalesce(array_length(slots, 1), 0);
  seen integer;
  counts integer[] := array_fill(0, ARRAY[greatest(n, 1)]);
  picked tsquery[] := '{}';
  picked_k integer[] := '{}';
  r record;
BEGIN
  FOR r IN
    WITH w AS MATERIALIZED (SELECT * FROM recall_window(by_session, key, win, true, min_id))
    SELECT (s.i - 1)::integer AS k, array_agg(w."id") AS ids
    FROM w JOIN unnest(slots) WITH ORDINALITY AS s(q, i) ON w."terms" @@ (s.q && scope) GROUP BY s.i
    UNION ALL SELECT -1, ARRAY[count(*)::integer] FROM w
  LOOP
    IF r.k < 0 THEN seen := r.ids[1]; ELSE counts[r.k + 1] := cardinality(r.ids); END IF;
    k := r.k; src := 0; ids := r.ids;
    RETURN NEXT;
  END LOOP;
  IF seen < win THEN RETURN; END IF;

  FOR i IN 1 .. n LOOP
    IF counts[i] >= dense * seen THEN picked := picked || slots[i]; picked_k := picked_k || (i - 1); END IF;
  END LOOP;
  IF cardinality(picked) > 0 THEN
    RETURN QUERY
      WITH w AS MATERIALIZED (SELECT * FROM recall_window(by_session, key, win, false, min_id))
      SELECT picked_k[s.i], 1, array_agg(w."id")
      FROM w JOIN unnest(picked) WITH ORDINALITY AS s(q, i) ON w."terms" @@ (s.q && scope) GROUP BY s.i;
  END IF;

  PERFORM set_config('enable_bitmapscan', 'on', true);
  PERFORM set_config('enable_indexscan', 'off', true);
  FOR i IN 1 .. n LOOP
    IF counts[i] < dense * seen THEN
      RETURN QUERY
        SELECT i - 1, 2, array_agg(g."id") FROM (
          SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ (slots[i] && scope) AND d."id" >= min_id LIMIT cap
        ) g HAVING count(*) > 0;
    END IF;
  END LOOP;
END;
$$;
