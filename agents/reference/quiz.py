"""The practice questions the reference Agent sets for a quiz (pure, no I/O).

``questions(kind, seed)`` makes ``QUESTIONS`` mental-arithmetic questions of one kind (or mixed),
deterministic for a seed: the Agent seeds it with its call id, so a retry of the same call sends
the same arguments (the Runtime answers a retry from what is stored, and an idempotency key with
other arguments would be refused).
"""

from __future__ import annotations

import random

from agents.reference.intents import QuizKind

QUESTIONS = 20  # quiz.start's input_schema allows 1 to 30
TIMES = "\u00d7"
MINUS = "\u2212"


def _one(kind: QuizKind, rng: random.Random) -> dict[str, str]:
    if kind == "mixed":
        kind = rng.choice(["multiplication", "addition", "subtraction"])
    if kind == "multiplication":
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        return {"prompt": f"{a} {TIMES} {b} =", "answer": str(a * b)}
    if kind == "addition":
        a, b = rng.randint(11, 89), rng.randint(2, 9 if rng.random() < 0.5 else 89)
        return {"prompt": f"{a} + {b} =", "answer": str(a + b)}
    a, b = rng.randint(20, 99), rng.randint(2, 19)
    return {"prompt": f"{a} {MINUS} {b} =", "answer": str(a - b)}


def questions(kind: QuizKind, seed: str, count: int = QUESTIONS) -> list[dict[str, str]]:
    """``count`` questions of ``kind``, the same ones for the same ``seed``."""
    rng = random.Random(seed)
    return [_one(kind, rng) for _ in range(count)]
