"""The start of a deadline operation as one PostgreSQL function call: ``runtime_start_operation``.

It mirrors ``runtime.services.start_writes.start_with_orm`` (SQLite's path, and the specification)
statement for statement, so both write the same rows: lock the workspace (creating it with
Interact in front on the conversation's first decision, as ``lock_workspace`` does), read the
retry / the running exclusive operation / the app in front, and either answer from them or write
the instance, its sub-session, snapshot, tool call, operation and the one audit event. Python
chose the ids, checked the arguments and the manifest's policy, and shapes the answer.

Created by migration ``0024_running_state`` (decision 0040) as the successor of
``lineup_start_operation`` (0019, 0020) under a new name, so that the release before it kept its own
while both ran; 0027 dropped that one and narrowed this one's running set to RUNNING_STATES' one
word (decision 0053). A change here needs a new migration with a frozen copy of the new
``FUNCTION`` (runtime/sql/__init__.py).
"""

from __future__ import annotations

from runtime.transitions import RUNNING_STATES, OperationState

_RUNNING = ", ".join(f"'{state}'" for state in RUNNING_STATES)

FUNCTION = """
CREATE OR REPLACE FUNCTION runtime_start_operation(
    p_conversation_id uuid,
    p_source_tool_call_id text,
    p_app_id text,
    p_exclusive boolean,
    p_refuse boolean,            -- Python refuses to write (a bad initial_state): answer only a retry or busy
    p_now timestamptz,
    p_started_at timestamptz,    -- p_now in milliseconds
    p_ends_at timestamptz,
    p_operation_id uuid,
    p_instance_id uuid,
    p_session_id uuid,
    p_call_id uuid,
    p_interact_id uuid,          -- Interact's instance, if this is the conversation's first decision
    p_system_app_id text,
    p_tool text,
    p_arguments jsonb,
    p_caller text,
    p_agent_id uuid,
    p_channel text,
    p_details jsonb,
    p_snapshot_schema_version integer,  -- NULL: the app keeps no instance_state, so no snapshot row
    p_snapshot_state jsonb,
    p_snapshot_size_bytes integer,
    p_snapshot_revision integer,
    p_event_data jsonb           -- operation.started's data; "backgrounded" is filled in here
) RETURNS jsonb
LANGUAGE plpgsql
AS $$
DECLARE
    v_focus_seq bigint;
    v_created boolean := false;
    v_retry jsonb;
    v_busy uuid;
    v_front record;
    v_backgrounded jsonb;
BEGIN
    -- 1. The workspace row lock, first, as every decision takes it. Only the lock: the focus
    --    number is reserved (and updated_at moved) in step 3, when the start writes, so a retry,
    --    busy or refused answer leaves the row as it was (the call runs in autocommit: nothing
    --    would roll a bump back).
    PERFORM 1 FROM runtime_workspace WHERE conversation_id = p_conversation_id FOR UPDATE;
    IF NOT FOUND THEN
        -- No workspace: no call was ever stored here and nothing runs, so a refusal is answered
        -- with nothing created.
        IF p_refuse THEN
            RETURN jsonb_build_object('outcome', 'refused');
        END IF;
        -- The conversation's first decision: its workspace and Interact, in front (_create_workspace).
        -- A concurrent first decision may insert it first: then this one waits for it and skips.
        INSERT INTO runtime_workspace (conversation_id, focus_seq, updated_at)
            VALUES (p_conversation_id, 1, p_now) ON CONFLICT (conversation_id) DO NOTHING;
        IF FOUND THEN
            v_created := true;
            INSERT INTO runtime_appinstance
                (id, conversation_id, app_id, is_system, lifecycle_state, focus_seq, opened_at, close_reason)
                VALUES (p_interact_id, p_conversation_id, p_system_app_id, true, 'foreground', 1, p_now, '');
            INSERT INTO runtime_lifecycleevent
                (at, kind, conversation_id, instance_id, source_tool_call_id, data)
                VALUES
                (p_now, 'instance.opened', p_conversation_id, p_interact_id, '',
                    jsonb_build_object('app_id', p_system_app_id)),
                (p_now, 'instance.foreground', p_conversation_id, p_interact_id, '',
                    jsonb_build_object('app_id', p_system_app_id, 'previous', 'launching'));
        END IF;
        PERFORM 1 FROM runtime_workspace WHERE conversation_id = p_conversation_id FOR UPDATE;
    END IF;

    -- 2. Reads under the lock, each a statement of its own: a statement that started before the
    --    lock was granted would read with a snapshot missing what the previous holder committed.
    --    A retry of this call: answered from its stored rows (tool_calls.replay checks it in Python).
    SELECT jsonb_build_object(
            'id', c.id, 'tool', c.tool, 'arguments', c.arguments, 'caller', c.caller,
            'result', c.result, 'receipt', c.receipt,
            'operation_id', o.id, 'instance_id', o.instance_id, 'app_session_id', o.app_session_id)
        INTO v_retry
        FROM runtime_toolcall c LEFT JOIN runtime_operation o ON o.tool_call_id = c.id
        WHERE c.conversation_id = p_conversation_id AND c.source_tool_call_id = p_source_tool_call_id
        LIMIT 1;
    IF v_retry IS NOT NULL THEN
        RETURN jsonb_build_object('outcome', 'retry', 'call', v_retry);
    END IF;

    --    The app's running exclusive operation: a second exclusive start is busy (R-3.12).
    IF p_exclusive THEN
        SELECT id INTO v_busy FROM runtime_operation
            WHERE conversation_id = p_conversation_id AND app_id = p_app_id AND exclusive
              AND state IN (__RUNNING__)
            LIMIT 1;
        IF v_busy IS NOT NULL THEN
            RETURN jsonb_build_object('outcome', 'busy', 'operation_id', v_busy);
        END IF;
    END IF;
    IF p_refuse THEN
        RETURN jsonb_build_object('outcome', 'refused');
    END IF;

    --    The app in front (foreground, or suspended while the host was hidden): it goes to the
    --    background; both moves are in the transition table (runtime.transitions).
    SELECT id, app_id, lifecycle_state INTO v_front FROM runtime_appinstance
        WHERE conversation_id = p_conversation_id AND lifecycle_state IN ('foreground', 'suspended')
        ORDER BY focus_seq DESC LIMIT 1;
    IF FOUND THEN
        UPDATE runtime_appinstance SET lifecycle_state = 'background' WHERE id = v_front.id;
        v_backgrounded := jsonb_build_object(
            'instance_id', v_front.id, 'app_id', v_front.app_id, 'previous', v_front.lifecycle_state);
    END IF;

    -- 3. The writes: the focus number of the new instance (lock_workspace's reservation), the
    --    instance straight into the foreground, its sub-session, its snapshot, the start call,
    --    the operation and the one audit event.
    UPDATE runtime_workspace SET focus_seq = focus_seq + 1, updated_at = p_now
        WHERE conversation_id = p_conversation_id RETURNING focus_seq INTO v_focus_seq;
    INSERT INTO runtime_appinstance
        (id, conversation_id, app_id, is_system, lifecycle_state, focus_seq, opened_at, close_reason)
        VALUES (p_instance_id, p_conversation_id, p_app_id, false, 'foreground', v_focus_seq, p_started_at, '');
    INSERT INTO runtime_appsession (id, instance_id, conversation_id, state, opened_at)
        VALUES (p_session_id, p_instance_id, p_conversation_id, 'open', p_started_at);
    IF p_snapshot_schema_version IS NOT NULL THEN
        INSERT INTO runtime_instancesnapshot (instance_id, schema_version, revision, state, size_bytes, updated_at)
            VALUES (p_instance_id, p_snapshot_schema_version, p_snapshot_revision, p_snapshot_state,
                    p_snapshot_size_bytes, p_started_at);
    END IF;
    INSERT INTO runtime_toolcall
        (id, conversation_id, source_tool_call_id, tool, arguments, caller, agent_id, channel, status,
         instance_id, cancel_reason, created_at)
        VALUES (p_call_id, p_conversation_id, p_source_tool_call_id, p_tool, p_arguments, p_caller, p_agent_id,
                p_channel, 'accepted', p_instance_id, '', p_started_at);
    INSERT INTO runtime_operation
        (id, conversation_id, instance_id, app_session_id, tool_call_id, source_tool_call_id, app_id, exclusive,
         details, started_at, ends_at, state, settle_failures, last_settle_error)
        VALUES (p_operation_id, p_conversation_id, p_instance_id, p_session_id, p_call_id, p_source_tool_call_id,
                p_app_id, p_exclusive, p_details, p_started_at, p_ends_at, '__STARTED__', 0, '');
    INSERT INTO runtime_lifecycleevent
        (at, kind, conversation_id, instance_id, app_session_id, operation_id, source_tool_call_id, data)
        VALUES (p_now, 'operation.started', p_conversation_id, p_instance_id, p_session_id, p_operation_id,
                p_source_tool_call_id, p_event_data || jsonb_build_object('backgrounded', v_backgrounded));

    RETURN jsonb_build_object('outcome', 'started', 'created_workspace', v_created, 'backgrounded', v_backgrounded);
END
$$;
"""

FUNCTION = FUNCTION.replace("__RUNNING__", _RUNNING).replace("__STARTED__", OperationState.RUNNING.value)

DROP = "DROP FUNCTION IF EXISTS runtime_start_operation"

# One round trip: the whole decision. Parameters named as ``start_writes.start_in_sql`` passes them.
CALL = """
SELECT runtime_start_operation(
    %(conversation_id)s::uuid, %(source_tool_call_id)s, %(app_id)s, %(exclusive)s, %(refuse)s,
    %(now)s, %(started_at)s, %(ends_at)s,
    %(operation_id)s::uuid, %(instance_id)s::uuid, %(session_id)s::uuid, %(call_id)s::uuid, %(interact_id)s::uuid,
    %(system_app_id)s, %(tool)s, %(arguments)s::jsonb, %(caller)s, %(agent_id)s::uuid, %(channel)s,
    %(details)s::jsonb, %(snapshot_schema_version)s, %(snapshot_state)s::jsonb, %(snapshot_size_bytes)s,
    %(snapshot_revision)s, %(event_data)s::jsonb
)
"""
