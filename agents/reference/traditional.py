"""Traditional Chinese read as Simplified (decision 0068): "專注25分鐘" is "专注25分钟".

The grammar and the apps' declarations are written in Simplified characters; people in Taiwan, Hong
Kong and elsewhere type Traditional ones. OpenCC (``opencc``, pinned in requirements.txt: the
reference converter, its phrase tables kept by its project) converts a message before it is read.
What the person named (an activity) is given back in their own characters where the conversion kept
the length, which it does for the characters people use here.
"""

from __future__ import annotations

import functools
import re

import opencc

__all__ = ["in_their_characters", "simplified"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@functools.cache
def _converter() -> opencc.OpenCC:
    return opencc.OpenCC("t2s.json")


def simplified(text: str) -> str:
    """``text`` with Traditional characters as Simplified ones (anything else as it is)."""
    return _converter().convert(text) if _CJK.search(text) else text


def in_their_characters(part: str | None, read: str, written: str) -> str | None:
    """``part`` of the converted message ``read`` as the person ``written`` it, when it can be found there."""
    if not part or read == written or len(read) != len(written):
        return part
    at = read.find(part)
    return written[at : at + len(part)] if at >= 0 else part
