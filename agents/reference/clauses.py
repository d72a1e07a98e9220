# ruff: noqa: RUF001, RUF002, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""The request inside a message that says more around it (decision 0068; pure, no I/O).

People put a request among other clauses: a greeting or thanks ("hey there! start a timer for 20
minutes", "嗨，专注25分钟"), why ("i have a test tomorrow, pls start focus 30 min", "明天要交报告了啊啊啊
快开专注一小时"), what it is for in a clause of its own ("I'm drafting a grant proposal, start a 50 min
focus", "topic is Spanish verbs", "准备面试，专注一个小时", 内容是整理照片), or who it is for ("my daughter
is doing homework, start a 30 min focus timer", 爷爷想练太极，帮他开个半小时专注).

``reduce(text, language, work)`` finds the one clause that holds the duration and asks for a start (a
start verb, a polite frame or the default app's words), and returns it as ``Reduced.core`` with the
activity the other clauses name (``Reduced.activity``), when every other clause is only context. A
clause is no context (nothing is reduced, the whole message is read as before) when it names an app's
work (``work``: any installed app's words), a stop, a negation, a hypothetical, a reminder or a later
time, what is done already, someone's words, a question, another duration, or only a time ("tomorrow,
focus 1 hour" stays help). Someone else named in a context clause is the person the request is for
only when the request clause asks for it; a report alone stays someone else's doing.

Activities from a clause of their own, in the corpus' convention: a label's value ("topic is X",
"subject: X", 内容是X, 任务：X), what the person says they do ("I'm knitting", "I'm drafting a grant
proposal" -> "grant proposal": a work verb and an article are no part of a label, "my" is, as in "my
thesis"), what someone the request is for does ("is doing homework" -> "homework"; 想练太极 -> 练太极),
and in Chinese a verb and its object (准备面试, 写周报: the verb stays).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from agents.reference.durations import Span, chinese_durations, english_durations

__all__ = ["Reduced", "label_value", "reduce", "unlabel"]


@dataclass(frozen=True)
class Reduced:
    core: str  # the clause that asks, alone
    activity: str | None  # what the other clauses say it is for
    context: tuple[str, ...] = ()  # the other clauses that are neither a greeting nor a request frame


_EN_SPLIT = re.compile(
    r"\s*(?:(?:[,;!?\u2026]|\.(?!\d))+|\s-\s|[\u2013\u2014]|\n)\s*|(?<!i'm)(?<!\bam)(?<!\bis)(?<!are)(?<!was)(?<!not)(?<!it's)\s+(?:so|but|and\s+so)\s+(?!much\b|many\b)|\s+(?:a{3,}h*|omg+|ugh+|ahh+|lol)\s+",
    re.IGNORECASE,
)
# Chinese clauses: punctuation, or a space between two Chinese characters ("明天考试 开个一小时专注").
# Punctuation, or a joining word in a run-on message ("…累死了但是明天有考试所以帮我开…")
_ZH_PUNCTUATION = re.compile(
    r"\s*(?:[,，。!！?？;；~～…：\n]|\.(?!\d))+\s*|(?<=[\u4e00-\u9fff])(?:所以|但是|可是|不过)(?=[\u4e00-\u9fff])"
)
_ZH_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")

# A clause that asks for a start: a start verb, a polite frame, "go", the default app's words.
_EN_ASKS = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|then|quick(?:ly)?|just|pls|please|sir|ma'?am|yo|hey)\s+)*"
    r"(?:(?:can|could|would|will)\s+you|please|pls|start|begin|set|run|give\s+me|let'?s|do|i\s+need|i\s+want|i'?d\s+like)\b",
    re.IGNORECASE,
)
_EN_POLITE = re.compile(r"\b(?:please|pls|plz)\b", re.IGNORECASE)
_GO = re.compile(r"(?:go|start|let'?s\s+go|starting\s+now|开始吧?|走起|冲)[\s.!。！]*", re.IGNORECASE)
_ZH_ASKS = re.compile(r"帮|开|来|请|麻烦|给我|我要|我想|先|快|定")

# Context that must not be passed over: the message is read whole.
_EN_BLOCK = re.compile(
    r"\b(?:stop|cancel|quit|end|don'?t|do\s+not|not|never|no|can'?t|cannot|won'?t|if|whether|suppose|imagine|what\s+if"
    r"|would|remind|alarm|later|already|finished|completed|done|did|said|says|told|asked|wants?\s+me|pause|reset)\b"
    # "in 10 minutes, …" says when; "on air in 20", "the exam is in 3 weeks" say why
    r"|^in\s+(?:\d|an?\s|half)|[?\"“”]",
    re.IGNORECASE,
)
_ZH_BLOCK = re.compile(
    r"停|结束|取消|算了|(?<!来)不(?!及|错|少|过)|别|没|如果|假如|假设|要是|的话|提醒|闹钟|以后|之后|待会|等会|等下|一会|回头|晚点|稍后|下次"
    r"|已经|完了|做完|写完|看完|学完|完成|(?<!小)说|让我|叫我|吗|[?？“”\"]"
)
_EN_GET_DONE = re.compile(r"\bget\s+(?P<what>.+?)\s+done\b", re.IGNORECASE)
# A length said as the time there is, not as one asked for.
_EN_SPARE = re.compile(
    r"\b(?:to\s+kill|to\s+spare|spare|free|left|break|until|till|before|over\s+in|\w+\s+in(?=\s+(?:an?\b|\d|half))|have|got|with|between)\b",
    re.IGNORECASE,
)
_ZH_SPARE = re.compile(r"有|剩|休息|之间|之前|以前|还有|倒计时|(?<!以)后")
# Words of a time alone ("tomorrow", "at 3pm", 明天下午): a clause of only these says when, not why.
_EN_TIME_ONLY = re.compile(
    r"^(?:(?:tomorrow|tonight|today|later|this|next|on|at|in|the|morning|afternoon|evening|night|weekend|week"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?::\d{2})?\s*(?:am|pm)?|o'?clock|noon|midnight)\s*)+$",
    re.IGNORECASE,
)
_ZH_TIME_ONLY = re.compile(
    r"^(?:明天|后天|今天|今晚|明早|明晚|下午|上午|晚上|早上|中午|周[一二三四五六日天末]|星期[一二三四五六日天]|下周|\d{1,2}点|[一二三四五六七八九十]+点|半|的)+$"
)
# Someone else opening a clause: the person a request is for, when the request asks for it.
_EN_SOMEONE = re.compile(
    r"^(?:(?:my|our)\s+(?:\w+\s+)?(?:brother|sister|friends?|mom|mum|mother|dad|father|kids?|son|daughter|roommates?"
    r"|wife|husband|partner|baby|grandma|grandpa|grandmother|grandfather|child|children|boyfriend|girlfriend)|the\s+(?:baby|kids?)|he|she|they)\b",
    re.IGNORECASE,
)
_ZH_SOMEONE = re.compile(
    r"^(?:我的?|我们的?)?(?:弟弟|哥哥|姐姐|妹妹|妈妈|爸爸|孩子|儿子|女儿|宝宝|爷爷|奶奶|外公|外婆|老公|老婆|室友)"
)
# The request names who it is for ("帮他", "for her", "for me"): it is this person's request.
_EN_FOR_THEM = re.compile(r"\b(?:start|begin|set|run|can\s+you|could\s+you|please|pls)\b", re.IGNORECASE)
_ZH_FOR_THEM = re.compile(r"帮|给|开|请|麻烦")

# A clause that is only a greeting, thanks, politeness or a sound: no part of anything.
_EN_JUNK = re.compile(
    r"^(?:(?:hi|hello|hey|hiya|yo|sup|morning|good\s+(?:morning|afternoon|evening)|there|thanks|thank\s+you|thx|ty|tysm"
    r"|so\s+much|in\s+advance|please|pls|plz|sir|ma'?am|ok(?:ay)?|alright|lol|lmao|omg|ugh+|a+h*|a+r+g+h+|o+k+|cheers"
    r"|kthx|k|cool|great|nice|go|now|start|starting\s+now|right\s+now|let'?s\s+go|quick|quickly|asap|rn|help|sorry|so\s+sorry"
    r"|sorry\s+to\s+bother(?:\s+you)?|i\s+have\s+to\s+go|gotta\s+go|first\s+time(?:\s+using\s+(?:this|it))?)\s*)+$"
    # who is writing ("ok chef here", "coach here"): no part of what it is for
    r"|^(?:(?:ok(?:ay)?|so|hi|hey|hello)\s+)?(?:(?:a|the|your|ur)\s+)?\w+(?:\s+\w+)?\s+here$",
    re.IGNORECASE,
)
_ZH_JUNK = re.compile(
    r"^(?:你好|您好|嗨|哈喽|哈啰|早上好|早安|下午好|晚上好|早|亲|谢谢|谢啦|谢了|多谢|感谢|麻烦了|麻烦你了|拜托了?|辛苦了|救命|啊|呀|哈|嗯|好|好的|行|好吧|吧|了|呢|哦"
    r"|开始|开始吧|现在开始|计时|开始计时|帮我计时|走起|冲|加油|快|快点|(?i:hi|hello|hey|ok))+$"
)

# A label's value: "topic is X", "subject: X", "task = X", 内容是X, 任务：X.
_EN_LABEL = re.compile(
    r"^(?:(?:the|my|today'?s)\s+)?(?:(?:topic|subject|task|project|activity|goal|focus|working\s+on|label)\s*(?:is|=|:|-|\u2013|\u2014)|(?:label|call|name)\s+it)\s*[\"'\u201c]?(?P<act>.+?)[\"'\u201d]?$",
    re.IGNORECASE,
)
_ZH_LABEL = re.compile(
    r"^(?:今天的?)?(?:(?:内容|项目|主题|任务|科目|事情|事项|目标|标签)\s*(?:是|为|[:：=])|(?:主题|科目|内容)(?=[^是为:：=]{2}))\s*(?P<act>.+)$"
)
# What the person (or whom it is for) says they do: a work verb and an article are no part of a label.
_EN_DOING = re.compile(
    r"^(?:just\s+)?(?:(?P<being>(?:i'?m|i\s+am|i'?ll\s+be|i\s+(?:will|shall)\s+be|we'?re|(?:he|she)'?s|(?:he|she)\s+is|they'?re|(?:my|our|the)\s+\w+(?:\s+\w+)?\s+(?:is|are))"
    r"\s+(?:so\s+|really\s+|still\s+)?)"
    r"|(?:(?:i|we|(?:my|our)\s+\w+)\s+)?(?:(?:need|needs|have|has|want|wants|got|must|should)\s+to|gotta|gonna|must|should)\s+)"
    r"(?P<act>.+)$",
    re.IGNORECASE,
)
_EN_WORK_VERB = re.compile(
    r"^(?:(?:behind|working|busy|stuck)\s+(?:on|with)\s+|(?:do|doing|finish|finishing|draft|drafting|work\s+on)\s+"
    r"|(?:studying|study|prepping|prep|preparing|prepare|revising|revise|cramming|cram)\s+for\s+|get\s+(?=.+\s+done$))",
    re.IGNORECASE,
)
# How the person feels ("so tired lol"): why, never what for.
_EN_FEELING = re.compile(
    r"\b(?:so|too|very|really|super|kinda|pretty|lol|lmao|omg|tired|exhausted|sleepy|bored|stressed|hungry|sick|late|busy"
    r"|anxious|nervous|sad|happy|excited|ready|behind)\b",
    re.IGNORECASE,
)
_EN_TAIL = re.compile(
    r"(?:\s+(?:rn|fr|tbh|ngl|lol|now|today|please|pls|right\s+now|atm|done|session|block|sprint))+$", re.IGNORECASE
)
_EN_ARTICLE = re.compile(r"^(?:(?:the|a|an|some|just|for|on|about)\s+)+", re.IGNORECASE)
_EN_STATEMENT = re.compile(
    r"\b(?:i|we|you|he|she|they|it|is|are|was|were|am|have|has|had|got|been|my\s+\w+\s+is)\b"
    r"|\b\w+'s\s+(?:asleep|awake|napping|sleeping|out|home|gone|back|here|over|finally)\b",
    re.IGNORECASE,
)
_ZH_DOING = re.compile(
    r"^(?:我们?|咱们)?(?:今天|现在)?(?:正在|在|要|想|想要|得|需要|准备|打算|必须|还要|用来|用于|为了)(?P<act>.+?)(?:了|啦|呢)?$"
)


_ZH_DOING_AFTER = re.compile(
    r"(?<=[\u4e00-\u9fff])(?:要|得|需要|准备|打算|必须)(?P<act>(?:写|做|练|背|复习|准备|整理|改|补|赶|交|画|算|翻译|研究).{1,10})$"
)


def _durations(text: str, language: str) -> list[Span]:
    return (chinese_durations(text) or english_durations(text)) if language == "zh" else english_durations(text)


_EN_LABEL_FRAME = re.compile(
    r"(?:^|(?<=[,;.!?]\s)|(?<=[,;.!?]))\s*(?:(?:the|my|today'?s)\s+)?(?:topic|subject|task|project|activity|goal)\s*(?:is|=|:|\u2013|\u2014)\s*",
    re.IGNORECASE,
)
_ZH_LABEL_FRAME = re.compile(
    r"(?:^|(?<=[,，。!！;；\s]))(?:今天的?)?(?:内容|项目|主题|任务|科目|事项|标签)\s*(?:是|为|[:：=])\s*"
)


def unlabel(text: str, language: str) -> str:
    """A label said before what it is for, at the start of a clause ("topic is X", "subject: X", 内容是X):
    its value stands where it was."""
    return (_ZH_LABEL_FRAME if language == "zh" else _EN_LABEL_FRAME).sub(" " if language == "en" else "", text).strip()


def label_value(activity: str, language: str) -> str:
    """The value of a label an activity is said as ("topic: photosynthesis" -> "photosynthesis")."""
    match = (_ZH_LABEL if language == "zh" else _EN_LABEL).match(activity.strip())
    return match.group("act").strip() if match else activity


_EN_TIME_WORD = re.compile(
    r"\b(?:tomorrow|tonight|today|yesterday|later|deadline|due|weekend|morning|week)\b(?!'s)"
    r"|(?<!\bfor\s)\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b(?!'s)",
    re.IGNORECASE,
)
_ZH_TIME_WORD = re.compile(
    r"明天|后天|今晚|明早|明晚|下午|上午|晚上|早上|中午|周[一二三四五六日天末]|星期|下周|点|迟到|截止|时间到|到点"
)
# What someone the request is for does, said with a verb of work ("is doing homework", "is practicing piano");
# a state ("is asleep", "is cooking") names nothing to label.
_EN_WORK_DOING = re.compile(
    r"^(?:doing|working\s+on|practi[cs]ing|studying|learning|reading|writing|revising|drawing|painting|coding)\b",
    re.IGNORECASE,
)
# A Chinese verb that opens an activity said alone (准备面试, 练毛笔字, 写周报, 孩子写作业).
_ZH_WORK_DOING = re.compile(
    r"^(?:写|做|练|背|看|读|学|阅读|冥想|工作|复习|预习|准备|整理|改|画|弹|拉|弄|搞|听|记|收拾|打扫|刷|研究|背诵|抄|算|跑|打|修|剪|编|翻译|备|赶|补|回)"
)


def opens_with_work(clause: str) -> bool:
    """A Chinese clause that opens with a verb of work (刷数学卷子, 写周报)."""
    return bool(_ZH_WORK_DOING.match(clause))


# Why, in a clause of its own ("Reason: the ATPL exam", "because my head is all over the place", 因为…): not
# what the request is for.
_REASON = re.compile(r"^(?:reason\s*[:=\-]|because\b|cause\b|cuz\b|since\b|因为|由于|不然|否则)", re.IGNORECASE)


def _activity(clause: str, language: str, someone: bool) -> tuple[int, str] | None:
    """What a clause of its own says the request is for, with its rank (a label first, then what the
    person does, then what someone the request is for does, then a clause that is only an activity)."""
    if _REASON.match(clause):
        return None
    label = (_ZH_LABEL if language == "zh" else _EN_LABEL).match(clause)
    if label:
        value = label.group("act").strip(" .!。！")
        return (0, value) if value else None
    if language == "zh":
        return _zh_activity(clause, someone)
    if _EN_TIME_WORD.search(clause):
        return None
    doing = _EN_DOING.match(clause)
    if doing is not None:
        act = doing.group("act").strip()
        if someone and doing.group("being") and not _EN_WORK_DOING.match(act):
            return None  # "is asleep": a state; "needs to practice violin" is what they do
        if doing.group("being") and not (_EN_WORK_VERB.match(act) or re.match(r"\w+ing\b", act)):
            return None  # "I'm exhausted": a state, nothing to label
        act = _EN_TAIL.sub("", _EN_ARTICLE.sub("", _EN_WORK_VERB.sub("", act))).strip(" .!")
        return (2 if someone else 1, act) if act and not _EN_STATEMENT.search(act) else None
    if someone:
        return None
    # a bare clause ("folding laundry", "studying for the bar exam"): an activity when it states nothing
    if _EN_FEELING.search(clause):
        return None
    act = _EN_TAIL.sub("", _EN_ARTICLE.sub("", _EN_WORK_VERB.sub("", clause.strip("() ")))).strip(" .!()")
    # a longer clause names work when it opens with it or holds no verb ("inventory of the campground permits",
    # "practicing the skip in level 3"; not "grandpa wants to do his crossword")
    said = re.search(r"\b(?:wants?|needs?|likes?|has|had|does|did|do|will|would|can|could)\b", act, re.IGNORECASE)
    longest = 6 if re.match(r"\w+ing\b", act) or not said else 4
    return (3, act) if 1 <= len(act.split()) <= longest and not _EN_STATEMENT.search(act) else None


def _zh_activity(clause: str, someone: bool) -> tuple[int, str] | None:
    if _ZH_TIME_WORD.search(clause):
        return None
    body = _ZH_SOMEONE.sub("", clause) if someone else clause
    mine = re.match(r"我(?:先|要|得|想|正在|在)?", body)
    if mine and _ZH_WORK_DOING.match(body[mine.end() :]):
        body = body[mine.end() :]  # "我练琴", "我先改卷子": what the person does
    # "上夜班要补护理记录": what is to be done after why, when the clause opens with the why
    doing = None if _ZH_WORK_DOING.match(body) else (_ZH_DOING.match(body) or _ZH_DOING_AFTER.search(body))
    act = re.sub(r"(?:了|啦|呢|啊+|呀|吧)+$", "", doing.group("act") if doing else body)
    act = re.sub(r"^(?:正在|在|要|想|也)", "", act)
    work = _ZH_WORK_DOING.match(act) or re.search(r"(?:复习|练习|预习|准备|作业|报告|论文)$", act)  # 地面课复习
    if not (2 <= len(act) <= 12) or not (work or (doing and not someone)):
        return None
    return (2 if someone else 1 if doing else 3, act)


def _kind(clause: str, language: str, work: re.Pattern[str]) -> str:
    """ "junk" (greeting, thanks, a request frame), "block" (context that must not be passed over),
    "someone" (someone else's doing) or "context" (why, what for)."""
    zh = language == "zh"
    if (_ZH_JUNK if zh else _EN_JUNK).fullmatch(clause):
        return "junk"
    said = clause if zh else _EN_GET_DONE.sub(r"\g<what>", clause)  # "get my charting done": nothing done yet
    if work.search(clause) or (_ZH_BLOCK if zh else _EN_BLOCK).search(said):
        return "block"
    if (_ZH_TIME_ONLY if zh else _EN_TIME_ONLY).fullmatch(clause):
        return "block"
    if (_ZH_SOMEONE if zh else _EN_SOMEONE).match(clause):
        return "someone"
    return "context"


def _clauses(text: str, split: re.Pattern[str]) -> list[str]:
    return [c.strip() for c in split.split(text) if c and c.strip()]


def _zh_clauses(text: str, asking: Callable[[str], bool]) -> list[str]:
    """Chinese clauses; a request parted from its length by a space only ("快帮我开专注 一个小时") stays one."""
    clauses: list[str] = []
    for part in _clauses(text, _ZH_PUNCTUATION):
        for index, word in enumerate(_clauses(part, _ZH_SPACE)):
            previous = clauses[-1] if index else None
            if previous is not None and _durations(word, "zh") and not _durations(previous, "zh") and asking(previous):
                clauses[-1] = f"{previous} {word}"
            else:
                clauses.append(word)
    return clauses


def _lent_its_length(
    clauses: list[str], timed: list[str], language: str, asking: Callable[[str], bool]
) -> list[str] | None:
    """The time there is, said apart from a request with no length ("got 40 mins before my shift, focus on
    calc homework", 趁这四十分钟…): that time is the length asked for. The clauses with the length moved
    into the request (the request last), or None."""
    spare = [c for c in timed if (_ZH_SPARE if language == "zh" else _EN_SPARE).search(c)]
    untimed = [c for c in clauses if c not in timed and asking(c)]
    if len(timed) != 1 or len(spare) != 1 or len(untimed) != 1:
        return None
    span = _durations(spare[0], language)[0]
    length = spare[0][span.start : span.end]
    merged = f"{untimed[0]} {length}" if language == "zh" else f"{untimed[0]} for {length}"
    return [c for c in clauses if c not in (spare[0], untimed[0])] + [merged]


def reduce(
    text: str,
    language: str,
    work: re.Pattern[str],
    default_words: re.Pattern[str],
    seconds: Callable[[str], float | None],
) -> Reduced | None:
    """The clause that asks for a start, and what the other clauses say it is for; None when the message
    is one clause, or when another clause is more than context (see the module's docstring)."""
    zh = language == "zh"
    asks = _ZH_ASKS if zh else _EN_ASKS

    def asking_for_start(clause: str) -> bool:
        return bool(asks.search(clause) if zh else asks.match(clause) or _EN_POLITE.search(clause)) or bool(
            default_words.search(clause)
        )

    clauses = _zh_clauses(text, asking_for_start) if zh else _clauses(text, _EN_SPLIT)
    if len(clauses) < 2:
        return None
    timed = [c for c in clauses if _durations(c, language)]
    # a go said in a clause of its own ("25 minutes. reading. go.") asks for the timed clause
    go = any(_GO.fullmatch(c) for c in clauses)
    asking = [c for c in timed if go or asking_for_start(c)]
    if not asking:
        lent = _lent_its_length(
            clauses, timed, language, lambda c: bool(default_words.search(c)) and asking_for_start(c)
        )
        if lent is None:
            return None
        clauses, timed, asking = lent, [lent[-1]], [lent[-1]]
    # the clause with the default app's words asks, over one that only has a start word ("开会前…" is no 开)
    core = next((c for c in asking if default_words.search(c)), asking[0])
    wanted = seconds(core)
    spare = _ZH_SPARE if zh else _EN_SPARE
    # another length only as the time there is ("between flights with 40 minutes to kill", 休息还剩一个小时)
    if wanted is None or any(seconds(c) != wanted and (asking_for_start(c) or not spare.search(c)) for c in timed):
        return None
    found: list[tuple[int, int, str]] = []
    context: list[str] = []
    for position, clause in enumerate(clauses):
        if clause == core:
            continue
        kind = "context" if clause in timed else _kind(clause, language, work)
        if kind == "block":
            return None
        if kind == "someone" and not (
            (_ZH_FOR_THEM if zh else _EN_FOR_THEM).search(core) or default_words.search(core)
        ):
            return None
        if kind in ("context", "someone") and clause not in timed:
            context.append(clause)
            ranked = _activity(clause, language, kind == "someone")
            if ranked is not None:  # of two of one rank, the later (what is said last is what it is for)
                found.append((ranked[0], -position, ranked[1]))
    if go:  # the go said apart goes with the request ("25 minutes. reading. go." -> "25 minutes, go")
        core = f"{core}，开始" if zh else f"{core}, go"
    return Reduced(core=core, activity=min(found)[2] if found else None, context=tuple(context))
