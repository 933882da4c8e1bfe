-- Raw SQL (docs/decisions/037-project-files.md): recall with scope `all` inside a project matches only the
-- project's conversations. lib/db/recall.ts then passes the user's window (by_session false) with `scope` = the
-- project's conversation lexemes OR-ed, so the window parts now match a slot AND the scope, as the GIN part already
-- did. A conversation's or a user's own window holds its lexeme in every document: their results are unchanged.

-- The documents of each slot of a recall question within one conversation (by_session) or one user's documents,
-- read in bounded parts: rows (k, src, ids), k the slot's index from 0.
--   src 0: the slot's matches among the scope's `win` newest documents; k = -1 carries how many documents those were.
--   When the scope holds more than `win` documents:
--   src 1: a slot matching at least `dense` of the newest: its matches among the `win` earliest;
--   src 2: any other slot: at most `cap` of its matches intersected with `scope` (the scope's lexeme) on the GIN
--          index, in table order.
-- The planner settings make each part take the plan it is bounded by: the key index for the newest and earliest
-- documents, the GIN bitmap for a slot. Left to itself it may read the whole table for a slot it believes common,
-- or sort a small table's every row. They hold only while the function runs.
CREATE OR REPLACE FUNCTION recall_slot_docs(
  slots tsquery[], by_session boolean, key text, scope tsquery, win integer, dense double precision, cap integer
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
    WITH w AS MATERIALIZED (SELECT * FROM recall_window(by_session, key, win, true))
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
      WITH w AS MATERIALIZED (SELECT * FROM recall_window(by_session, key, win, false))
      SELECT picked_k[s.i], 1, array_agg(w."id")
      FROM w JOIN unnest(picked) WITH ORDINALITY AS s(q, i) ON w."terms" @@ (s.q && scope) GROUP BY s.i;
  END IF;

  PERFORM set_config('enable_bitmapscan', 'on', true);
  PERFORM set_config('enable_indexscan', 'off', true);
  FOR i IN 1 .. n LOOP
    IF counts[i] < dense * seen THEN
      RETURN QUERY
        SELECT i - 1, 2, array_agg(g."id") FROM (
          SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ (slots[i] && scope) LIMIT cap
        ) g HAVING count(*) > 0;
    END IF;
  END LOOP;
END;
$$;
