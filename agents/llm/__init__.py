"""The LLM Agent: the built-in Agent backed by any OpenAI-compatible chat-completions server.

It is the reference Agent's protocol machinery (``agents.reference``: connection,
reconnects, resent calls, deduped and acked results, result reports) with the decisions made by a
model instead of ``intents``: ``config`` is where the model server is (the launcher fills it), ``tools`` turns the Inventory into
OpenAI ``tools`` and the model's arguments back into a call, ``history`` keeps each conversation's
bounded context, ``model`` is the one place that talks to the model server (the ``openai`` SDK),
and ``agent`` runs the turns. ``interact.builtin_agents.selection`` picks the LLM or the reference
Agent from the settings.
"""
