-- Raw SQL: SearchDoc is outside the schema's diff (scripts/lib/migrate.ts). Search ranks a bounded set of a user's
-- documents instead of every match (lib/db/search.ts, docs/decisions/017-search.md "Bounded ranking on PostgreSQL").

-- The `pool` best documents of user `uid` for a question: rows (id, held, score, and the document's message,
-- conversation and time), best first — held = how many of
-- `slots` (the question's terms, each a tsquery of its forms; `exact` the same without the prefix of a word still
-- being typed) the document matches, score = ts_rank_cd(terms, `query`, 1), then the newer document. Only a bounded
-- set of documents is read and ranked:
--   - the user's `win` newest documents (btree (userId, id)), each matched against every slot;
--   when the user holds more, from the GIN index (each probe intersected with `owner`, the user's lexeme, and cut at
--   `cap` matches in table order — all of them when there are fewer):
--   - each slot matching fewer than `dense` of the newest documents: its matches (a slot dense there is common, and
--     its newest matches stand for it);
--   - the documents holding all the slots found, and those holding all but one, where no slot of the combination
--     had all its matches read above (such documents are already in hand) and the combination is not dense among
--     the newest documents (it is common).
-- The planner settings make each part take the plan it is bounded by: the key index for the newest documents and
-- the ranked rows, the GIN bitmap for a probe. Left to itself it may walk the primary key backwards and read the
-- whole table for a term it misjudges (an absent lexeme is estimated at hundreds of rows). They hold only while the
-- function runs.
CREATE FUNCTION search_ranked_docs(
  slots tsquery[], exact tsquery[], query tsquery, owner tsquery, uid text,
  win integer, dense double precision, cap integer, pool integer
)
RETURNS TABLE (id integer, held integer, score real, "messageId" text, "sessionId" text, "createdAt" timestamp(3))
LANGUAGE plpgsql STABLE
ROWS 200
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_indexscan = on
AS $$
DECLARE
  n integer := coalesce(array_length(slots, 1), 0);
  seen integer := 0;
  counts integer[] := array_fill(0, ARRAY[greatest(n, 1)]);
  open_slots integer[] := '{}';
  complete integer := 0;
  m integer;
  o integer;
  masks integer[] := '{}';
  all_n integer;
  near_n integer;
  near_full boolean := false;
  near tsquery;
  found integer[] := '{}';
  more integer[];
  every tsquery;
  j bigint;
  r record;
BEGIN
  IF n = 0 THEN RETURN; END IF;
  FOR r IN
    WITH w AS MATERIALIZED (
      SELECT d."id", d."terms" FROM "SearchDoc" d WHERE d."userId" = uid ORDER BY d."id" DESC LIMIT win
    )
    SELECT w."id" AS doc, bit_or(1 << (s.i::integer - 1)) AS mask
    FROM w LEFT JOIN unnest(slots) WITH ORDINALITY AS s(q, i) ON w."terms" @@ s.q
    GROUP BY w."id"
  LOOP
    seen := seen + 1;
    IF r.mask IS NOT NULL THEN
      found := found || r.doc;
      masks := masks || r.mask;
      FOR i IN 1 .. n LOOP
        IF r.mask & (1 << (i - 1)) <> 0 THEN counts[i] := counts[i] + 1; END IF;
      END LOOP;
    END IF;
  END LOOP;

  IF seen >= win THEN
    PERFORM set_config('enable_bitmapscan', 'on', true);
    PERFORM set_config('enable_indexscan', 'off', true);
    FOR i IN 1 .. n LOOP
      IF counts[i] >= dense * seen THEN
        open_slots := open_slots || i;
      ELSE
        -- A word still being typed is read by its exact forms, and as a prefix only when nothing holds them: a
        -- prefix costs the GIN index the whole posting list of every word it starts.
        SELECT array_agg(g."id") INTO more FROM (
          SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ (exact[i] && owner) LIMIT cap
        ) g;
        IF more IS NULL AND exact[i]::text <> slots[i]::text THEN  -- (tsquery equality ignores prefixes)
          SELECT array_agg(g."id") INTO more FROM (
            SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ (slots[i] && owner) LIMIT cap
          ) g;
        END IF;
        IF cardinality(more) >= cap THEN open_slots := open_slots || i;
        ELSIF more IS NOT NULL THEN complete := complete + 1;
        END IF;
        IF more IS NOT NULL THEN found := found || more; END IF;
      END IF;
    END LOOP;

    -- A document holding all the slots found, or all but one, holds a slot whose matches are all in hand unless
    -- those slots are open (dense, or `cap` matches and more): only combinations of open slots are read, by their
    -- exact forms, and only when they are not dense among the newest documents.
    m := cardinality(open_slots);
    o := 0;
    FOREACH j IN ARRAY open_slots LOOP o := o | (1 << (j::integer - 1)); END LOOP;
    SELECT count(*) FILTER (WHERE x & o = o),
           count(*) FILTER (WHERE length(replace((x & o)::bit(32)::text, '0', '')) >= m - 1)
      INTO all_n, near_n FROM unnest(masks) AS x;
    IF complete = 0 AND m BETWEEN 3 AND 8 AND near_n < dense * seen THEN
      -- All but one, as one query: (b & c & …) | (a & c & …) | …; all of them as well only when that was cut.
      near := NULL;
      FOR i IN 1 .. m LOOP
        every := NULL;
        FOR k IN 1 .. m LOOP
          IF k <> i THEN
            every := CASE WHEN every IS NULL THEN exact[open_slots[k]] ELSE every && exact[open_slots[k]] END;
          END IF;
        END LOOP;
        near := CASE WHEN near IS NULL THEN every ELSE near || every END;
      END LOOP;
      SELECT array_agg(g."id") INTO more FROM (
        SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ (owner && near) LIMIT cap
      ) g;
      IF more IS NOT NULL THEN found := found || more; END IF;
      near_full := cardinality(more) >= cap;
    END IF;
    IF m >= 2 AND all_n < dense * seen
       AND (complete = 1 OR (complete = 0 AND (m = 2 OR m > 8 OR near_n >= dense * seen OR near_full))) THEN
      every := owner;
      FOREACH j IN ARRAY open_slots LOOP every := every && exact[j]; END LOOP;
      SELECT array_agg(g."id") INTO more FROM (
        SELECT d."id" FROM "SearchDoc" d WHERE d."terms" @@ every LIMIT cap
      ) g;
      IF more IS NOT NULL THEN found := found || more; END IF;
    END IF;
    PERFORM set_config('enable_bitmapscan', 'off', true);
    PERFORM set_config('enable_indexscan', 'on', true);
  END IF;

  -- One primary-key lookup per document (OFFSET 0 keeps the planner from reading the user's documents by the
  -- (userId, id) index and filtering them, which it did on a table whose statistics were stale).
  RETURN QUERY
    SELECT d."id",
      (SELECT count(*)::integer FROM unnest(slots) AS s(q) WHERE d."terms" @@ s.q) AS held,
      ts_rank_cd(d."terms", query, 1) AS score,
      d."messageId", d."sessionId", d."createdAt"
    FROM (SELECT DISTINCT unnest(found) AS doc) f
    CROSS JOIN LATERAL (
      SELECT x."id", x."terms", x."messageId", x."sessionId", x."createdAt" FROM "SearchDoc" x
      WHERE x."id" = f.doc AND x."userId" = uid OFFSET 0
    ) d
    ORDER BY 2 DESC, 3 DESC, d."id" DESC
    LIMIT pool;
END;
$$;
