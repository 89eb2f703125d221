-- Events fenced by the turn epoch, as journal rows already are: an event given an epoch in
-- p_fence_epochs (the epoch of the run appending it, with the journal row of its step) is written
-- only while that epoch is the session's. A run superseded by another (an eager first turn whose
-- turn an invocation on another worker took over, or an attempt Restate gave up on) then appends
-- nothing more, where before its events still reached the log beside the new run's.
-- Unfenced events (p_fence_epochs null) are written as before. The rest of the statement is the
-- function of migration append_events_function, unchanged.
DROP FUNCTION append_session_events(text[], text[], text[], text[], text[], text[], text, text[], text[], text[], text[], int[], int, boolean[], boolean[])
;
CREATE FUNCTION append_session_events(
  p_session_ids text[],
  p_types text[],
  p_turn_ids text[],
  p_data text[],
  p_keys text[],
  p_times text[],
  p_channel text,
  p_step_turn_ids text[],
  p_step_names text[],
  p_step_session_ids text[],
  p_step_results text[],
  p_step_epochs int[],
  p_max_notify_bytes int,
  p_ends_turn boolean[],
  p_step_ends_turn boolean[],
  p_fence_epochs int[]
)
RETURNS TABLE (session_id text, index int, type text, turn_id text, at timestamptz, data jsonb, ord bigint, recorded text[])
LANGUAGE sql
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
  WITH input AS (
    SELECT * FROM unnest(p_session_ids, p_types, p_turn_ids, p_data, p_keys, p_times, p_ends_turn, p_fence_epochs) WITH ORDINALITY AS t(session_id, type, turn_id, data, key, at, ends_turn, fence_epoch, ord)
  ), locked AS (
    SELECT s.id, s."nextIndex" AS base, s."turnEpoch" AS epoch, s.xmin AS version, s."runningTurnId" AS running_turn_id, s.mode
      FROM sessions s WHERE s.id IN (SELECT i.session_id FROM input i) ORDER BY s.id FOR NO KEY UPDATE
  ), existing AS (
    SELECT e."sessionId", e.index, e.type, e."turnId", e.at AT TIME ZONE 'UTC' AS at, e.data, i.ord, i.ends_turn
      FROM session_events e JOIN input i ON e."sessionId" = i.session_id AND e."idempotencyKey" = i.key
  ), ending AS (
    SELECT DISTINCT i.session_id, i.turn_id FROM input i WHERE i.ends_turn
  ), seen AS (
    -- The row as of the statement snapshot (locked has its latest version).
    SELECT s.id, s.xmin AS version FROM sessions s WHERE s.id IN (SELECT e.session_id FROM ending e)
  ), ended AS (
    SELECT l.id, e.turn_id FROM locked l JOIN ending e ON e.session_id = l.id JOIN seen v ON v.id = l.id
      WHERE l.version = v.version AND l.running_turn_id = e.turn_id AND l.mode = 'chat'
        AND NOT EXISTS (SELECT 1 FROM pending_deliveries d WHERE d."sessionId" = l.id)
        AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a."sessionId" = l.id AND a."turnId" = e.turn_id AND a.status = 'pending')
        AND NOT EXISTS (SELECT 1 FROM existing x WHERE x."sessionId" = l.id AND x.ends_turn)
        AND NOT EXISTS (
          SELECT 1 FROM unnest(p_step_session_ids, p_step_epochs, p_step_ends_turn) AS g(session_id, epoch, ends_turn)
          WHERE g.ends_turn AND g.session_id = l.id AND g.epoch <> l.epoch
        )
  ), fresh AS (
    SELECT i.*, row_number() OVER (PARTITION BY i.session_id ORDER BY i.ord) - 1 AS position FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM existing x WHERE x.ord = i.ord)
        AND (NOT i.ends_turn OR EXISTS (SELECT 1 FROM ended d WHERE d.id = i.session_id AND d.turn_id = i.turn_id))
        AND (i.fence_epoch IS NULL OR EXISTS (SELECT 1 FROM locked l WHERE l.id = i.session_id AND l.epoch = i.fence_epoch))
  ), inserted AS (
    INSERT INTO session_events ("sessionId", index, type, "turnId", at, data, "idempotencyKey")
      SELECT f.session_id, l.base + f.position, f.type, f.turn_id, f.at::timestamptz AT TIME ZONE 'UTC', f.data::jsonb, f.key
      FROM fresh f JOIN locked l ON l.id = f.session_id
      RETURNING "sessionId", session_events.index, session_events.type, "turnId", session_events.at AT TIME ZONE 'UTC' AS at, session_events.data,
        to_char(session_events.at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at_text
  ), counts AS (
    SELECT f.session_id, count(*) AS n FROM fresh f GROUP BY f.session_id
  ), bumped AS (
    UPDATE sessions s SET "nextIndex" = l.base + c.n, "updatedAt" = now() AT TIME ZONE 'UTC',
        status = CASE WHEN d.id IS NULL THEN s.status ELSE 'waiting' END,
        "runningTurnId" = CASE WHEN d.id IS NULL THEN s."runningTurnId" END,
        "runningInvocationId" = CASE WHEN d.id IS NULL THEN s."runningInvocationId" END
      FROM locked l JOIN counts c ON c.session_id = l.id LEFT JOIN ended d ON d.id = l.id WHERE s.id = l.id
      RETURNING s.id, s."nextIndex"
  ), notified AS (
    -- "S:N", then the new events themselves when they fit in a notification (notice.ts).
    SELECT pg_notify(p_channel, CASE WHEN octet_length(n.head) + octet_length(n.body) < p_max_notify_bytes THEN n.head || n.body ELSE n.head END)
      FROM (
        SELECT b.id || ':' || (b."nextIndex" - 1) AS head,
               string_agg(E'\n' || i.index || E'\t' || i.type || E'\t' || coalesce(i."turnId", '') || E'\t' || i.at_text || E'\t' || i.data::text, '' ORDER BY i.index) AS body
          FROM bumped b JOIN inserted i ON i."sessionId" = b.id GROUP BY b.id, b."nextIndex"
      ) n
  ), recorded AS (
    INSERT INTO turn_steps ("turnId", name, "sessionId", result, at)
      SELECT s.turn_id, s.name, s.session_id, s.result, now() AT TIME ZONE 'UTC'
      FROM unnest(p_step_turn_ids, p_step_names, p_step_session_ids, p_step_results, p_step_epochs, p_step_ends_turn) AS s(turn_id, name, session_id, result, epoch, ends_turn)
      JOIN locked l ON l.id = s.session_id AND l.epoch = s.epoch
      WHERE NOT s.ends_turn OR EXISTS (SELECT 1 FROM ended d WHERE d.id = s.session_id AND d.turn_id = s.turn_id)
      ON CONFLICT ("turnId", name) DO NOTHING
      RETURNING turn_steps."turnId" || E'\t' || turn_steps.name AS step
  ), recorded_steps AS (
    SELECT coalesce(array_agg(r.step), '{}') AS recorded FROM recorded r
  )
  SELECT ins."sessionId", ins.index, ins.type, ins."turnId", ins.at, ins.data, f.ord, r.recorded
    FROM inserted ins
    CROSS JOIN recorded_steps r
    JOIN fresh f ON f.session_id = ins."sessionId"
    JOIN locked l ON l.id = f.session_id AND ins.index = l.base + f.position
    CROSS JOIN (SELECT count(*) FROM notified) AS delivered
  UNION ALL
  SELECT x."sessionId", x.index, x.type, x."turnId", x.at, x.data, x.ord, r.recorded FROM existing x CROSS JOIN recorded_steps r WHERE NOT x.ends_turn
  ORDER BY ord
$$;
