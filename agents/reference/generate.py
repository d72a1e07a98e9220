"""Arguments the reference Agent makes for an app that declares them (pure, no I/O; decision 0057).

An app's ``grammar.generate`` names the start argument, a generator and how many items; the only
generator is ``arithmetic``: ``{prompt, answer}`` mental-arithmetic items of the operations its choice
value names (``multiply``, ``add``, ``subtract``; one picked per item when several). Deterministic
for a seed: the Agent seeds it with its call id, so a retry of the same call sends the same arguments
(the Runtime answers a retry from what is stored, and an idempotency key with other arguments would be
refused).
"""

from __future__ import annotations

import random
from typing import Any

TIMES = "\u00d7"
MINUS = "\u2212"


def _one(operations: list[str], rng: random.Random) -> dict[str, str]:
    operation = operations[0] if len(operations) == 1 else rng.choice(operations)
    if operation == "multiply":
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        return {"prompt": f"{a} {TIMES} {b} =", "answer": str(a * b)}
    if operation == "add":
        a, b = rng.randint(11, 89), rng.randint(2, 9 if rng.random() < 0.5 else 89)
        return {"prompt": f"{a} + {b} =", "answer": str(a + b)}
    a, b = rng.randint(20, 99), rng.randint(2, 19)
    return {"prompt": f"{a} {MINUS} {b} =", "answer": str(a - b)}


def items(spec: dict[str, Any], choice: str | None, seed: str) -> list[dict[str, str]]:
    """The items ``spec`` (an app's ``grammar.generate``) asks for, for ``choice``, the same for ``seed``."""
    all_operations = sorted({op for ops in spec["operations"].values() for op in ops})
    operations = list(spec["operations"].get(choice or "", [])) or all_operations
    rng = random.Random(seed)
    return [_one(operations, rng) for _ in range(int(spec["count"]))]
