"""What both built-in Agents share: ``client``, one token's connection to ``/ws/agent/`` (reconnects)."""
