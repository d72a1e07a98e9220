"""``runtime_settle_batch``: the writes of a settlement as one PostgreSQL function call (decisions 0030, 0035, 0040).

**Called by nothing in this release** (decision 0056): a settlement writes through one path on both
engines (``runtime.services.settlements``). The two functions stay in the database, and their text
here, only because release v2026.12.3 calls them while this release's migrations apply and until
its processes are restarted (a rolling upgrade). The next release drops both in one migration (a
rolling contraction, docs/releases.md) and deletes this module; until then
tests/runtime/test_sql_migrations.py checks that the database holds exactly this text.

It mirrors ``settle_locked``'s Python path (``runtime.services.settlements``) and
``close_instances`` (``runtime.services.workspace``) row for row: Python still decides each
operation with ``runtime.transitions.decide_settlement`` and shapes and checks its result; this
function applies that decision to the batch set by set, under the locks the caller already holds
(the workspace rows first, then the operations).

Arguments: ``p_now``; ``p_trigger`` (``Trigger.value``); ``p_ids``, the operations, as one array;
``p_verdicts``, a JSON array in the same order, each ``{"state", "ended_at", "ended_at_text",
"interruption_reason", "result", "focus_seq"}`` (``ended_at_text``: as the audit row says it;
``focus_seq``: the number the workspace's lock reserved, or null when this decision used it;
``receipt``: an interrupt's receipt, ``{"source_tool_call_id", "tool", "status", "caller"}``, or null);
``p_next_foreground``, where the user chose to go (a lifecycle event) or null; ``p_events_before``
and ``p_events_after``, audit rows the decision recorded before and after the settlement, written
in this call in order around its own; ``p_call``, one tool call row to insert (an interrupt's
receipt) or null. It writes one audit row per settled operation, ``operation.<state>``, whose data
names the outbox entry, the instance closed, the sub-session ended, the calls cancelled, what came
to the front and the receipt (decision 0035). It returns the audit rows it wrote, in order, for
their log lines and projections (``focus_seq``: the number of the app that came to the front,
on a settlement's row).
"""

from __future__ import annotations

from runtime.transitions import RUNNING_STATES

# Migration 0024 created these two under new names, the successors of ``runtime_settle`` and
# ``runtime_settle_one`` (decision 0040), which migration 0027 dropped (decision 0053). The running
# set is RUNNING_STATES, written into the text (the frozen copy in the migration is the result).
_RUNNING = ", ".join(f"'{state}'" for state in RUNNING_STATES)

CREATE = r"""
CREATE OR REPLACE FUNCTION runtime_settle_batch(
    p_now timestamptz,
    p_trigger text,
    p_ids uuid[],
    p_verdicts jsonb,
    p_next_foreground uuid,
    p_events_before jsonb,
    p_events_after jsonb,
    p_call jsonb
) RETURNS TABLE (
    event_id bigint, kind text, conversation_id uuid, instance_id uuid, app_session_id uuid,
    operation_id uuid, source_tool_call_id text, data jsonb, focus_seq bigint
) LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    won integer;
BEGIN
    -- 1. The compare-and-set: each operation still running takes its terminal state. The caller
    --    holds their locks, so all of them must win; if one did not, nothing of this is kept.
    UPDATE runtime_operation o
       SET state = v.verdict->>'state',
           ended_at = (v.verdict->>'ended_at')::timestamptz,
           interruption_reason = v.verdict->>'interruption_reason',
           settled_at = p_now
      FROM unnest(p_ids) WITH ORDINALITY AS i(id, ord)
      JOIN jsonb_array_elements(p_verdicts) WITH ORDINALITY AS v(verdict, ord) USING (ord)
     WHERE o.id = i.id AND o.state IN (__RUNNING__);
    GET DIAGNOSTICS won = ROW_COUNT;
    IF won <> cardinality(p_ids) THEN
        RAISE EXCEPTION 'compare-and-set settled % of % locked running operations', won, cardinality(p_ids);
    END IF;

    -- 2. Everything else in one statement, reading the operations as step 1 left them.
    RETURN QUERY
    WITH settled AS (
        SELECT o.*, i.ord, v.verdict
          FROM unnest(p_ids) WITH ORDINALITY AS i(id, ord)
          JOIN jsonb_array_elements(p_verdicts) WITH ORDINALITY AS v(verdict, ord) USING (ord)
          JOIN runtime_operation o ON o.id = i.id
    ),
    -- The start call gets its one result; the start call's caller owns it, whatever settled it.
    calls AS (
        UPDATE runtime_toolcall t
           SET status = 'succeeded', result = s.verdict->'result', finished_at = p_now
          FROM settled s
         WHERE t.id = s.tool_call_id
        RETURNING t.id, t.tool, t.agent_id, t.channel
    ),
    -- The outbox row, in this transaction (R-4.2.4): the result labelled with the call it answers.
    outbox AS (
        INSERT INTO runtime_outboxentry
               (id, conversation_id, operation_id, tool_call_id, agent_id, channel, next_attempt_at,
                payload, created_at, attempts)
        SELECT gen_random_uuid(), s.conversation_id, s.id, s.tool_call_id, c.agent_id, c.channel, p_now,
               jsonb_build_object('source_tool_call_id', s.source_tool_call_id, 'tool', c.tool,
                                  'conversation_id', s.conversation_id::text, 'result', s.verdict->'result'),
               p_now, 0
          FROM settled s JOIN calls c ON c.id = s.tool_call_id
        RETURNING id, operation_id
    ),
    -- The instances close (those not closed already); ``before`` is the row as it was.
    closed AS (
        UPDATE runtime_appinstance a
           SET lifecycle_state = 'closed', closed_at = p_now,
               close_reason = coalesce(s.interruption_reason, 'completed')
          FROM settled s, runtime_appinstance before
         WHERE a.id = s.instance_id AND before.id = a.id AND before.lifecycle_state <> 'closed'
        RETURNING a.id, a.conversation_id, a.app_id, a.close_reason, before.lifecycle_state AS previous,
                  s.app_session_id, s.ord, s.verdict
    ),
    -- Their other non-final ordinary calls are cancelled(app_closed), never an operation's start.
    cancelled AS (
        UPDATE runtime_toolcall t
           SET status = 'cancelled', cancel_reason = 'app_closed',
               result = '{"status": "cancelled", "reason": "app_closed"}', finished_at = p_now
          FROM closed c
         WHERE t.instance_id = c.id AND t.status IN ('pending', 'accepted')
           AND NOT EXISTS (SELECT 1 FROM runtime_operation o WHERE o.tool_call_id = t.id)
        RETURNING t.id, t.source_tool_call_id, t.tool, c.ord
    ),
    -- An operation's sub-session is open while it runs; it ends with its instance.
    sessions AS (
        UPDATE runtime_appsession x SET state = 'ended', ended_at = p_now
          FROM closed c
         WHERE x.id = c.app_session_id AND x.state = 'open'
        RETURNING x.id
    ),
    -- What was in front closed: the user's choice, else the previous valid app (the open one
    -- focused last; Interact never closes), comes to the front (R-4.2.8).
    targets AS (
        SELECT c.ord, c.conversation_id, t.id, t.app_id, t.previous, (c.verdict->>'focus_seq')::bigint AS reserved
          FROM closed c
          CROSS JOIN LATERAL (
                (SELECT a.id, a.app_id, a.lifecycle_state AS previous
                   FROM runtime_appinstance a WHERE a.id = p_next_foreground)
                UNION ALL
                (SELECT a.id, a.app_id, a.lifecycle_state
                   FROM runtime_appinstance a
                  WHERE p_next_foreground IS NULL AND a.conversation_id = c.conversation_id
                    AND a.lifecycle_state <> 'closed' AND a.id <> c.id
                  ORDER BY a.focus_seq DESC LIMIT 1)
          ) t
         WHERE c.previous IN ('foreground', 'suspended')
    ),
    -- Its focus number: the one the workspace lock reserved, or the next one.
    bumped AS (
        UPDATE runtime_workspace w SET focus_seq = w.focus_seq + 1
          FROM targets t
         WHERE w.conversation_id = t.conversation_id AND t.reserved IS NULL
        RETURNING w.conversation_id, w.focus_seq
    ),
    restored AS (
        UPDATE runtime_appinstance a
           SET lifecycle_state = 'foreground', focus_seq = coalesce(t.reserved, b.focus_seq)
          FROM targets t LEFT JOIN bumped b ON b.conversation_id = t.conversation_id
         WHERE a.id = t.id
        RETURNING a.id, a.conversation_id, a.app_id, a.focus_seq, t.previous, t.ord
    ),
    receipt AS (
        INSERT INTO runtime_toolcall
               (id, conversation_id, source_tool_call_id, tool, arguments, caller, status, receipt, result,
                cancel_reason, created_at, finished_at, instance_id, agent_id, channel)
        SELECT (p_call->>'id')::uuid, (p_call->>'conversation_id')::uuid, p_call->>'source_tool_call_id',
               p_call->>'tool', p_call->'arguments', p_call->>'caller', p_call->>'status', p_call->'receipt',
               NULL, '', (p_call->>'created_at')::timestamptz, (p_call->>'finished_at')::timestamptz,
               (p_call->>'instance_id')::uuid, (p_call->>'agent_id')::uuid, p_call->>'channel'
         WHERE p_call IS NOT NULL
        RETURNING id
    ),
    -- The audit rows: the decision's earlier ones, then ONE per settled operation whose data says
    -- everything the settlement did (decision 0035), then the later ones; the Python path's order.
    facts (grp, ord, at, kind, conversation_id, instance_id, app_session_id, operation_id,
           source_tool_call_id, data) AS (
        SELECT 0, e.ord, (e.row->>'at')::timestamptz, e.row->>'kind', (e.row->>'conversation_id')::uuid,
               (e.row->>'instance_id')::uuid, (e.row->>'app_session_id')::uuid, (e.row->>'operation_id')::uuid,
               e.row->>'source_tool_call_id', e.row->'data'
          FROM jsonb_array_elements(p_events_before) WITH ORDINALITY AS e(row, ord)
        UNION ALL
        SELECT 1, s.ord, p_now, 'operation.' || s.state, s.conversation_id, s.instance_id, s.app_session_id,
               s.id, s.source_tool_call_id,
               jsonb_build_object(
                   'trigger', p_trigger, 'ended_at', s.verdict->'ended_at_text',
                   'interruption_reason', s.interruption_reason,
                   'lag_ms', CASE WHEN s.state = 'completed'
                                  THEN round(extract(epoch FROM p_now - s.ends_at) * 1000)::bigint END,
                   'outbox_id', x.id,
                   'closed', CASE WHEN c.id IS NOT NULL THEN jsonb_build_object(
                                  'app_id', c.app_id, 'previous', c.previous, 'reason', c.close_reason) END,
                   'app_session_ended', e.id,
                   'cancelled', coalesce(k.calls, '[]'::jsonb),
                   'foreground', CASE WHEN r.id IS NOT NULL THEN jsonb_build_object(
                                      'instance_id', r.id, 'app_id', r.app_id, 'previous', r.previous) END,
                   'receipt', s.verdict->'receipt')
          -- Joins, not a subquery per row: a batch is 500 operations.
          FROM settled s
          JOIN outbox x ON x.operation_id = s.id
          LEFT JOIN closed c ON c.ord = s.ord
          LEFT JOIN sessions e ON e.id = s.app_session_id
          LEFT JOIN restored r ON r.ord = s.ord
          LEFT JOIN (SELECT c.ord, jsonb_agg(jsonb_build_object('source_tool_call_id', c.source_tool_call_id,
                                                                'tool', c.tool)
                                             ORDER BY c.source_tool_call_id) AS calls
                       FROM cancelled c GROUP BY c.ord) k ON k.ord = s.ord
        UNION ALL
        SELECT 2, e.ord, (e.row->>'at')::timestamptz, e.row->>'kind', (e.row->>'conversation_id')::uuid,
               (e.row->>'instance_id')::uuid, (e.row->>'app_session_id')::uuid, (e.row->>'operation_id')::uuid,
               e.row->>'source_tool_call_id', e.row->'data'
          FROM jsonb_array_elements(p_events_after) WITH ORDINALITY AS e(row, ord)
    ),
    audit AS (
        INSERT INTO runtime_lifecycleevent
               (at, kind, conversation_id, instance_id, app_session_id, operation_id, source_tool_call_id, data)
        SELECT f.at, f.kind, f.conversation_id, f.instance_id, f.app_session_id, f.operation_id,
               coalesce(f.source_tool_call_id, ''), f.data
          FROM facts f
         ORDER BY f.grp, f.ord
        RETURNING *
    )
    SELECT a.id, a.kind::text, a.conversation_id, a.instance_id, a.app_session_id, a.operation_id,
           a.source_tool_call_id::text, a.data,
           r.focus_seq
      FROM audit a  -- (every data-modifying CTE above runs to completion, read or not)
      LEFT JOIN restored r
        ON a.kind IN ('operation.completed', 'operation.interrupted')
       AND r.id = (a.data->'foreground'->>'instance_id')::uuid
     ORDER BY a.id;
END;
$fn$;
"""

CREATE = CREATE.replace("__RUNNING__", _RUNNING)

DROP = """
DROP FUNCTION IF EXISTS runtime_settle_batch(timestamptz, text, uuid[], jsonb, uuid, jsonb, jsonb, jsonb);
"""

# ``runtime_settle_single``: the same writes and the same answer for a batch of ONE operation (an
# interrupt, an eta delivery, an operator's interrupt, a lifecycle close), statement by statement
# like ``lineup_start_operation`` (decision 0030, 27m). ``runtime_settle_batch``'s one statement is built
# for a sweep's 500 rows (unnest, jsonb_array_elements, hash joins over CTEs: ~60 plan nodes); for
# one row each step here is an index probe with a plan PL/pgSQL keeps for the connection.
# Arguments as ``runtime_settle_batch``'s, with ``p_id`` and ``p_verdict`` one operation's instead of
# arrays. Every read runs after the writes before it (``runtime_settle_batch``'s CTEs all read one
# snapshot); the differences that could make cannot occur under the workspace lock the caller
# holds: the instance that closes is read before it closes, the receipt call is written after the
# cancellations (so they never see it), and the app that comes to the front is never the one that
# closed (the previous valid app excludes it; the user's choice is another app).
CREATE_ONE = r"""
CREATE OR REPLACE FUNCTION runtime_settle_single(
    p_now timestamptz,
    p_trigger text,
    p_id uuid,
    p_verdict jsonb,
    p_next_foreground uuid,
    p_events_before jsonb,
    p_events_after jsonb,
    p_call jsonb
) RETURNS TABLE (
    event_id bigint, kind text, conversation_id uuid, instance_id uuid, app_session_id uuid,
    operation_id uuid, source_tool_call_id text, data jsonb, focus_seq bigint
) LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    o runtime_operation%ROWTYPE;
    v_call record;
    v_outbox uuid;
    v_inst record;
    v_closed jsonb;
    v_session uuid;
    v_cancelled jsonb := '[]'::jsonb;
    v_target record;
    v_reserved bigint := (p_verdict->>'focus_seq')::bigint;
    v_seq bigint;
    v_front jsonb;
    v_front_id uuid;
BEGIN
    -- 1. The compare-and-set: the operation, still running, takes its terminal state. The caller
    --    holds its lock, so it must win; if it did not, nothing of this is kept.
    UPDATE runtime_operation AS x
       SET state = p_verdict->>'state',
           ended_at = (p_verdict->>'ended_at')::timestamptz,
           interruption_reason = p_verdict->>'interruption_reason',
           settled_at = p_now
     WHERE x.id = p_id AND x.state IN (__RUNNING__)
    RETURNING x.* INTO o;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'compare-and-set settled 0 of 1 locked running operations';
    END IF;

    -- 2. The start call gets its one result; the start call's caller owns it, whatever settled it.
    UPDATE runtime_toolcall AS t
       SET status = 'succeeded', result = p_verdict->'result', finished_at = p_now
     WHERE t.id = o.tool_call_id
    RETURNING t.tool, t.agent_id, t.channel INTO v_call;

    -- 3. The outbox row, in this transaction (R-4.2.4): the result labelled with the call it answers.
    INSERT INTO runtime_outboxentry
           (id, conversation_id, operation_id, tool_call_id, agent_id, channel, next_attempt_at,
            payload, created_at, attempts)
    VALUES (gen_random_uuid(), o.conversation_id, o.id, o.tool_call_id, v_call.agent_id, v_call.channel, p_now,
            jsonb_build_object('source_tool_call_id', o.source_tool_call_id, 'tool', v_call.tool,
                               'conversation_id', o.conversation_id::text, 'result', p_verdict->'result'),
            p_now, 0)
    RETURNING id INTO v_outbox;

    -- 4. The instance closes, unless it is closed already; read first, as it was.
    SELECT a.conversation_id, a.app_id, a.lifecycle_state AS previous INTO v_inst
      FROM runtime_appinstance a WHERE a.id = o.instance_id;
    IF FOUND AND v_inst.previous <> 'closed' THEN
        UPDATE runtime_appinstance AS a
           SET lifecycle_state = 'closed', closed_at = p_now,
               close_reason = coalesce(o.interruption_reason, 'completed')
         WHERE a.id = o.instance_id;
        v_closed := jsonb_build_object('app_id', v_inst.app_id, 'previous', v_inst.previous,
                                       'reason', coalesce(o.interruption_reason, 'completed'));

        --    Its other non-final ordinary calls are cancelled(app_closed), never an operation's start.
        WITH cancelled AS (
            UPDATE runtime_toolcall AS t
               SET status = 'cancelled', cancel_reason = 'app_closed',
                   result = '{"status": "cancelled", "reason": "app_closed"}', finished_at = p_now
             WHERE t.instance_id = o.instance_id AND t.status IN ('pending', 'accepted')
               AND NOT EXISTS (SELECT 1 FROM runtime_operation y WHERE y.tool_call_id = t.id)
            RETURNING t.source_tool_call_id, t.tool
        )
        SELECT coalesce(jsonb_agg(jsonb_build_object('source_tool_call_id', c.source_tool_call_id, 'tool', c.tool)
                                  ORDER BY c.source_tool_call_id), '[]'::jsonb)
          INTO v_cancelled FROM cancelled c;

        --    Its sub-session, open while the operation ran, ends with it.
        UPDATE runtime_appsession AS s SET state = 'ended', ended_at = p_now
         WHERE s.id = o.app_session_id AND s.state = 'open'
        RETURNING s.id INTO v_session;

        -- 5. What was in front closed: the user's choice, else the previous valid app (the open
        --    one focused last; Interact never closes), comes to the front (R-4.2.8), with the
        --    focus number the workspace's lock reserved, or the next one.
        IF v_inst.previous IN ('foreground', 'suspended') THEN
            IF p_next_foreground IS NOT NULL THEN
                SELECT a.id, a.app_id, a.lifecycle_state AS previous INTO v_target
                  FROM runtime_appinstance a WHERE a.id = p_next_foreground;
            ELSE
                SELECT a.id, a.app_id, a.lifecycle_state AS previous INTO v_target
                  FROM runtime_appinstance a
                 WHERE a.conversation_id = v_inst.conversation_id
                   AND a.lifecycle_state <> 'closed' AND a.id <> o.instance_id
                 ORDER BY a.focus_seq DESC LIMIT 1;
            END IF;
            IF FOUND THEN
                v_seq := v_reserved;
                IF v_seq IS NULL THEN
                    UPDATE runtime_workspace AS w SET focus_seq = w.focus_seq + 1
                     WHERE w.conversation_id = v_inst.conversation_id
                    RETURNING w.focus_seq INTO v_seq;
                END IF;
                UPDATE runtime_appinstance AS a SET lifecycle_state = 'foreground', focus_seq = v_seq
                 WHERE a.id = v_target.id;
                v_front_id := v_target.id;
                v_front := jsonb_build_object('instance_id', v_target.id, 'app_id', v_target.app_id,
                                              'previous', v_target.previous);
            END IF;
        END IF;
    END IF;

    -- 6. The interrupt's receipt call, after the cancellations (it is never one of them).
    IF p_call IS NOT NULL THEN
        INSERT INTO runtime_toolcall
               (id, conversation_id, source_tool_call_id, tool, arguments, caller, status, receipt, result,
                cancel_reason, created_at, finished_at, instance_id, agent_id, channel)
        VALUES ((p_call->>'id')::uuid, (p_call->>'conversation_id')::uuid, p_call->>'source_tool_call_id',
                p_call->>'tool', p_call->'arguments', p_call->>'caller', p_call->>'status', p_call->'receipt',
                NULL, '', (p_call->>'created_at')::timestamptz, (p_call->>'finished_at')::timestamptz,
                (p_call->>'instance_id')::uuid, (p_call->>'agent_id')::uuid, p_call->>'channel');
    END IF;

    -- 7. The audit rows, in the Python path's order: the decision's earlier ones, then ONE for the
    --    settlement naming everything it did (decision 0035), then the decision's later ones.
    --    ``focus_seq``: the number of the app that came to the front, on a settlement's row (as
    --    ``runtime_settle_batch`` answers it, whichever row says so).
    IF jsonb_array_length(p_events_before) > 0 THEN
        RETURN QUERY
        WITH written AS (
            INSERT INTO runtime_lifecycleevent AS e
                   (at, kind, conversation_id, instance_id, app_session_id, operation_id, source_tool_call_id, data)
            SELECT (r.row->>'at')::timestamptz, r.row->>'kind', (r.row->>'conversation_id')::uuid,
                   (r.row->>'instance_id')::uuid, (r.row->>'app_session_id')::uuid, (r.row->>'operation_id')::uuid,
                   coalesce(r.row->>'source_tool_call_id', ''), r.row->'data'
              FROM jsonb_array_elements(p_events_before) WITH ORDINALITY AS r(row, ord)
             ORDER BY r.ord
            RETURNING e.*
        )
        SELECT w.id, w.kind::text, w.conversation_id, w.instance_id, w.app_session_id, w.operation_id,
               w.source_tool_call_id::text, w.data,
               CASE WHEN w.kind IN ('operation.completed', 'operation.interrupted')
                     AND (w.data->'foreground'->>'instance_id')::uuid = v_front_id THEN v_seq END
          FROM written w ORDER BY w.id;
    END IF;
    RETURN QUERY
    WITH written AS (
        INSERT INTO runtime_lifecycleevent AS e
               (at, kind, conversation_id, instance_id, app_session_id, operation_id, source_tool_call_id, data)
        VALUES (p_now, 'operation.' || o.state, o.conversation_id, o.instance_id, o.app_session_id, o.id,
                coalesce(o.source_tool_call_id, ''),
                jsonb_build_object(
                    'trigger', p_trigger, 'ended_at', p_verdict->'ended_at_text',
                    'interruption_reason', o.interruption_reason,
                    'lag_ms', CASE WHEN o.state = 'completed'
                                   THEN round(extract(epoch FROM p_now - o.ends_at) * 1000)::bigint END,
                    'outbox_id', v_outbox,
                    'closed', v_closed,
                    'app_session_ended', v_session,
                    'cancelled', v_cancelled,
                    'foreground', v_front,
                    'receipt', p_verdict->'receipt'))
        RETURNING e.*
    )
    SELECT w.id, w.kind::text, w.conversation_id, w.instance_id, w.app_session_id, w.operation_id,
           w.source_tool_call_id::text, w.data,
           CASE WHEN w.kind IN ('operation.completed', 'operation.interrupted') THEN v_seq END
      FROM written w;
    IF jsonb_array_length(p_events_after) > 0 THEN
        RETURN QUERY
        WITH written AS (
            INSERT INTO runtime_lifecycleevent AS e
                   (at, kind, conversation_id, instance_id, app_session_id, operation_id, source_tool_call_id, data)
            SELECT (r.row->>'at')::timestamptz, r.row->>'kind', (r.row->>'conversation_id')::uuid,
                   (r.row->>'instance_id')::uuid, (r.row->>'app_session_id')::uuid, (r.row->>'operation_id')::uuid,
                   coalesce(r.row->>'source_tool_call_id', ''), r.row->'data'
              FROM jsonb_array_elements(p_events_after) WITH ORDINALITY AS r(row, ord)
             ORDER BY r.ord
            RETURNING e.*
        )
        SELECT w.id, w.kind::text, w.conversation_id, w.instance_id, w.app_session_id, w.operation_id,
               w.source_tool_call_id::text, w.data,
               CASE WHEN w.kind IN ('operation.completed', 'operation.interrupted')
                     AND (w.data->'foreground'->>'instance_id')::uuid = v_front_id THEN v_seq END
          FROM written w ORDER BY w.id;
    END IF;
END;
$fn$;
"""

CREATE_ONE = CREATE_ONE.replace("__RUNNING__", _RUNNING)

DROP_ONE = """
DROP FUNCTION IF EXISTS runtime_settle_single(timestamptz, text, uuid, jsonb, uuid, jsonb, jsonb, jsonb);
"""
