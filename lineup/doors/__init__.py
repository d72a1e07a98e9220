"""The doors' limits: what any client may cost the server before and after it is trusted.

``websocket`` bounds every WebSocket connection (first-frame rule, frame size, rate, queue, caps per
token and per user, queued frames dropped on disconnect, close codes with reasons); ``http`` refuses
request bodies over the limit from their ``Content-Length`` and cuts them off while streaming;
``lineup.internals.daphne`` applies the same body limit and the header and idle timeouts inside
Daphne itself, before a byte of an oversized body is buffered (hooks on Daphne's private classes,
kept with the other libraries' internals, decision 0052). The limits are settings (``limits``) and are published to
Agents in ``welcome.limits``. Why and how: docs/decisions/0024-bounded-doors.md.
"""
