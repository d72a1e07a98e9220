# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！（）) on purpose
"""What a start is for: the activity cut from a message around its duration (pure, no I/O).

Split from ``agents.reference.intents`` (decision 0068): the grammar finds the duration and the request;
this module cuts what is left into the label the person would want ("25 minutes of reading" -> reading,
"focus 45 min on the sales deck" -> sales deck, "专注 25 分钟写作业" -> 写作业), setting aside request
words, greetings, thanks, chat tails and the default app's own words. Patterns with ``@NAME@`` tokens
(``Template``) get the installed apps' words from the grammar (a ``Splicer``).
"""

from __future__ import annotations

import re
from typing import Protocol

from agents.reference import clauses
from agents.reference.durations import Span

__all__ = [
    "MARK",
    "MAX_ACTIVITY_LENGTH",
    "Splicer",
    "Template",
    "chinese_activity",
    "clean_english_activity",
    "clip",
    "english_activity",
    "english_bare",
]

MAX_ACTIVITY_LENGTH = 256  # the longest activity the Agent passes on


class Template:
    """A pattern whose ``@NAME@`` tokens are alternations of what the installed apps declare."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source, self.flags = source, flags


class Splicer(Protocol):
    """The grammar of the installed apps: a template with their words spliced in."""

    def __call__(self, template: Template) -> re.Pattern[str]: ...


def clip(activity: str | None) -> str | None:
    if not activity:
        return None
    return activity[:MAX_ACTIVITY_LENGTH].strip() or None


MARK = "\u00a7"  # stands in for the duration while looking for the activity
_EN_LEAD = re.compile(
    r"^(?:(?:(?:ok(?:ay)?|hey)\s+(?:google|siri|alexa)|ok(?:ay)?|hey(?:\s+(?:there|agent|bot|assistant|buddy))?|hi|hello|hiya|yo|sir|ma'?am|(?:good\s+)?morning|please|pls|now|so|well|actually|alright|yeah|right|ugh+"
    r"|quick(?:ly)?|how\s+about|what\s+about|time\s+to|ngl|tbh|lowkey|honestly|fr|frfr|bro|bruh|dude|um+|uh+|er+|eh|kindly)[,!.]?\s+"
    r"|i\s+think\s+(?:i\s+)?(?:need|want)\s+|(?:would|do)\s+you\s+mind\s+|(?:can|could)\s+help\s+me\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+)?(?:let\s+me\s+|help\s+me\s+)?"
    r"|i(?:\s+want|\s+need|\s+would\s+like|'d\s+like|\s+have|\s+got|\s+plan|\s+am\s+going|'m\s+going)\s+to\s+|i\s+wanna\s+|i'?m\s+gonna\s+"
    # a second language's "I would like start…": the request verb follows
    r"|i(?:\s+would|'d)\s+like(?:\s+(?:please|pls))?\s+(?=(?:start|begin|do|set|run|a|an|the|some)\b)|i\s+need\s+(?=(?:a|an|the|some)\b)"
    r"|(?:so\s+)?sorry[,!.]?\s+"
    r"|let'?s\s+|let\s+(?:me|us)\s+|lemme\s+|i'?ll\s+|i\s+will\s+|i\s+should\s+|gonna\s+|going\s+to\s+|help\s+me\s+"
    # a question that is a request ("could I read for…") and what the person says they are doing ("I'm painting")
    r"|(?:can|could|may|shall)\s+(?:i|we)\s+(?:(?:maybe|please|just)\s+)*|(?:can|could)\s+(?=(?:start|begin|set)\b)|please:\s*|(?:i'?m|i\s+am)\s+(?:(?:working|busy)\s+(?:on|with)\s+)?"
    r"|(?:start|begin)(?:\s+(?:a|an|the|my))?\s+(?=\w+ing\b)|time\s+me\s+|while\s+(?:i|we)(?:'m|\s+am|'re|\s+are)?\s+)+",
    re.IGNORECASE,
)
_EN_ACTIVITY_PATTERNS = [
    # "start a 10 minute timer for stretching", "a 25 minute <noun> for reading"
    Template(
        rf"{MARK}\s+(?:@EN_DEFAULT_NOUNS@|session|sprint|block|period|slot)\s+(?:on|for|of)\s+(?P<act>[^{MARK}]+?)\s*[.!?]*$",
        re.IGNORECASE,
    ),
    # "<noun> 90 seconds on homework", "<noun> on my essay for 25 minutes", "start it for 2 hours on writing"
    Template(rf"\b(?:on|doing|with)\s+(?P<act>[^{MARK}]+?)(?:\s+for)?\s*(?:{MARK}|[.!?]*$)", re.IGNORECASE),
    # "start a 25 minute reading <noun>", "a 3 second reading session"
    Template(
        rf"{MARK}\s*(?:long\s+)?(?P<act>[^{MARK}]+?)\s+(?:@EN_DEFAULT_NOUNS@|session|block|sprint|period|slot)\b",
        re.IGNORECASE,
    ),
    # "25 minutes of reading", "<noun> 25 minutes for my essay", "spend 30 minutes reading"
    Template(rf"{MARK}\s+(?:(?:of|for|on)\s+)?(?P<act>[^{MARK}]+?)\s*[.!?]*$", re.IGNORECASE),
    # "read for half an hour", "I want to study Spanish for 40 minutes", "meditate 10 minutes"
    Template(rf"^(?P<act>[^{MARK}]+?)\s+(?:for\s+)?(?:(?:about|around|like)\s+)?{MARK}", re.IGNORECASE),
]
_EN_ACTIVITY_EDGES = Template(
    r"^(?:(?:a|an|the|some|of|on|for|doing|about|around|like|to|me|us|another|more|just)\s+)+"
    r"|(?:\s+(?:please|pls|now|thanks|thank\s+you|ok|okay|then|today|tonight|straight|in\s+a\s+row|of|for|on|with"
    r"|fr|frfr|tbh|ngl|rn|lol|lmao|btw|asap|ty|tysm|thx|kthx|thanks\s+so\s+much|thank\s+you\s+so\s+much|so\s+much|sesh|thing|for\s+me|for\s+us|and"
    r"|thanks\s+a\s+lot|in|at\s+once|right\s+away|straight\s+away|immediately|right\s+now|long|for\s+(?:him|her|them)"
    r"|(?:til|till|until|'til)\s+then|real\s+quick|lasting|itself|like|about|around|roughly|approximately|go))+$"
    r"|\s+before\s+(?:the|my|a|an|class|work|school|bed|dinner|lunch|breakfast)\b.*$"
    r"|^(?:quiet|peace|silence|time)\s+(?:time\s+)?for\s+|^(?:straight|full)[,\s]+"
    r"|^(?:(?:one|a|an|new|another|quick|deep|solid|proper)\s+)*(?:@EN_DEFAULT_NOUNS@|session|sprint|block|period|slot|sesh|mode)(?:\s+(?:of|for|on))?(?:\s*[:,\u2013\u2014-]\s*|\s+|$)"
    r"|\s+(?:@EN_DEFAULT_NOUNS@|session|sprint|block|period|slot|sesh|mode|thing)$"
    r"|[,;]\s*go(?:\s+go)*$|[\s.,!?;:\"'()\[\]\u2013\u2014\u2192>-]+$|^[\s.,;:\"'()\[\]\u2013\u2014\u2192>=-]+",
    re.IGNORECASE,
)
# Words that are a request, not what it is for: never an activity on their own.
_EN_NOT_AN_ACTIVITY = Template(
    r"^(?:@EN_DEFAULT@|@EN_DEFAULT_HEADS@|a|an|the|me|it|this|that|now|please|session|round|start|begin|run|set|go|do|get|"
    r"spend|give|give\s+me|set\s+a|set\s+up|start\s+a|time|time\s+me|sprint|block|more|another|just|ok|okay|"
    r"fr|frfr|tbh|ngl|rn|lol|lmao|btw|asap|pls|plz|go|starting(?:\s+now)?|right\s+now|"
    # a placeholder, no activity said ("start something for 20 minutes")
    r"(?:something|anything|stuff|whatever|things|smth|sth)(?:\s+up)?|straight|full|real\s+quick|quickly|put\s+me|itself|only|"
    r"i\s+think\s+i\s+need|"
    # trying it out, no activity ("just testing", 试试)
    r"(?:just\s+)?(?:testing|trying)(?:\s+(?:this|it|things?))?(?:\s+(?:thing|out))?|nothing(?:\s+(?:specific|in\s+particular))?|(?:just\s+)?to\s+(?:test|try)(?:\s+(?:it|this))?(?:\s+out)?|(?:test|try)\s+(?:it|this)(?:\s+out)?|"
    # a greeting or a sound said before the request ("alright, 45 minutes, go")
    r"alright|all\s+right|hey|hi|hello|yo|sir|quick|sure|yes|yeah|cool|great|sesh|thing|ty|thx|and|in|up|long|him|her|them|at\s+once|away|right\s+away|immediately|soon|"
    r"of|for|on|with|to|one|mode|lasting|just\s+go|i\s+need|i\s+want|i\s+wanna|need|want)?$",
    re.IGNORECASE,
)
_EN_REQUEST_VERB = Template(
    r"^(?:(?:start|begin|run(?=\s+(?:a|an|the|my|it|this)\b)|set\s+up|set|kick\s+off|give\s+me|do|spend|go|get|block\s+out|put\s+me\s+on|put\s+me\s+down\s+for|put\s+me\s+in(?:to)?"
    r"|finish(?:ing)?|get\s+through|starting|commence|initiate|launch|have"
    r"|fire\s+up|spin\s+up|throw\s+on|put\s+on|queue\s+up|need|want)\s+(?:(?:a|an|the|my)\s+)?)+"
    r"(?:(?:@EN_DEFAULT_NOUNS@|session)\s+(?:on|for)\s+)?",
    re.IGNORECASE,
)


# Why, said after the request ("20 min focus NOW before i get distracted again"): no part of what it is for.
_EN_REASON = re.compile(r"(?:before|so\s+that|or\s+else|otherwise|because|cause|cuz|coz|since|then)\b", re.IGNORECASE)
_ZH_REASON = re.compile(r"不然|否则|要不然|因为|免得|省得")


def clean_english_activity(g: Splicer, raw: str) -> str | None:
    activity = clauses.label_value(raw.strip(), "en")
    while True:
        cleaned = g(_EN_ACTIVITY_EDGES).sub("", g(_EN_REQUEST_VERB).sub("", _EN_LEAD.sub("", activity))).strip()
        if cleaned == activity:
            break
        activity = cleaned
    if g(_EN_NOT_AN_ACTIVITY).fullmatch(activity) or MARK in activity or _EN_REASON.match(activity):
        return None
    return clip(activity)


def english_activity(g: Splicer, text: str, span: Span | None) -> str | None:
    if span is None:  # "<noun> on reading": the activity of a start without a duration
        match = re.search(r"\b(?:on|doing)\s+(?P<act>.+?)[.!?]*$", text, re.IGNORECASE)
        return clean_english_activity(g, match.group("act")) if match else None
    marked = f"{text[: span.start]} {MARK} {text[span.end :]}".strip()
    for pattern in _EN_ACTIVITY_PATTERNS:
        for match in g(pattern).finditer(marked):
            activity = clean_english_activity(g, match.group("act"))
            if activity:
                return activity
    return None


def english_bare(text: str, span: Span) -> bool:
    """Nothing but the duration and fillers: "25 minutes", "half an hour please", "ok, 25 min"."""
    rest = f"{text[: span.start]} {text[span.end :]}"
    return not re.sub(
        r"\b(?:ok(?:ay)?|please|pls|then|thanks|thank\s+you|just|maybe|about|around|let'?s\s+(?:do|say|go)|make\s+it|say|for|yes|yeah|sure|um+|uh+"
        r"|alright|all\s+right|go|do|start|begin|k"
        # a request that names no app ("set me up for an hour", "give me 30 minutes"): which app is asked
        r"|set\s+me\s+up|hook\s+me\s+up|give\s+me|put\s+me\s+down|can\s+i\s+(?:get|have)|(?:can|could|shall)\s+we\s+(?:do|go)(?:\s+for)?)\b|[\s,.!?~]+",
        "",
        rest,
        flags=re.IGNORECASE,
    )


_ZH_LEADING_FILLER = Template(
    r"^(?:请|帮我|帮忙|帮(?:他|她|孩子)|给(?:他|她|孩子)|给我|麻烦[你您]?|你|您|时长|时段|时间段|时间[是为]?|搞一?个|整一?个|弄一?个|来一发|一发|调到|调成|设成|我要|我想要|我想|我需要|需要|我准备|我打算|我来|我得|我先|让我|咱们|我们|打算|计划|现在|马上|开始|另外|再|又|快点?|"
    r"开(?=@ZH_DEFAULT_NOUNS@|@ZH_DEFAULT_WORDS@)|那(?=来|就|先)|"
    r"来一个|来个|来一轮|来|开一个|设一个|定一个|一个|一次|一轮|新的?(?=@ZH_DEFAULT_NOUNS@|@ZH_DEFAULT_WORDS@)|(?:@ZH_DEFAULT_NOUNS@|@ZH_DEFAULT_WORDS@)(?:模式|于)?|设个|设置|定个时|定个|定时|开个|"
    r"开启|启动|打开|计个时|我正在|我在|正在|可以|能不能|能|我(?=[练写做看读学背弹画跑回改])|"
    r"为期|为(?=[\u4e00-\u9fff]{2})|进入|烦请|走一个|来一个|一组|一套|我觉得|我感觉|讲真|说真的|其实|我(?=现在|今天|先)|(?:安静|认真|好好|专心|静静)地|→|->|-|(?i:yyds)|冲鸭|绝绝子|"
    r"就|那就|先|嗯|好|好的|行(?=[，,\s])|行吧|大概|差不多|要|想|的|地|用来|用于|去|在|一下|吧|，|,|、|。|！|!|：|:|\(|\)|\s)+"
)
_ZH_TRAILING_FILLER = Template(
    r"(?:@ZH_DEFAULT_NOUNS@|就行|就好|就可以|试试|试一下|吧|啊|呀|哦|哈|的|一下|了|吗|呢|好吗|可以吗|行吗|好不好|谢谢|谢谢啦|谢啦|谢了|多谢|感谢|拜托了?|麻烦了|时长|时段|时间段|走起|冲|开始吧|启动|开启|左右|上下|给我|帮我|(?<![申邀聘])请|麻烦你?|，|,|、|。|！|!|\?|？|…|~|～|\(|\)|\s)+$"
)
# A one-character verb before the duration and its object after it read as one activity:
# "做20分钟作业" -> "做作业", "看半小时书" -> "看书".
_ZH_SPLIT_VERB = re.compile(r"^[做写看读学练背听画弹跑拉唱]$")


def _strip_zh(g: Splicer, segment: str) -> str:
    previous = None
    while previous != segment:
        previous = segment
        segment = g(_ZH_TRAILING_FILLER).sub("", g(_ZH_LEADING_FILLER).sub("", segment))
    return segment


# English request words in a Chinese message ("<noun> 25 min on 数学", "start 25分钟 for 写作业").
_ZH_ENGLISH_FILLER = Template(
    r"^(?:(?:ok(?:ay)?|can|please|pls|start|begin|let'?s|a|an|the|@EN_DEFAULT_NOUNS@|session|round|on|for|of|doing|about|to|now)(?![A-Za-z])[\s,:]*)+",
    re.IGNORECASE,
)
_ZH_ENGLISH_TRAILING = Template(
    r"(?:[\s,:]*\b(?:please|pls|now|@EN_DEFAULT_NOUNS@|session|on|for|of|lah|leh|lor|hor|can))+\s*$", re.IGNORECASE
)


def _strip_mixed(g: Splicer, segment: str) -> str:
    previous = None
    while previous != segment:
        previous = segment
        segment = _strip_zh(g, segment)
        segment = g(_ZH_ENGLISH_TRAILING).sub("", g(_ZH_ENGLISH_FILLER).sub("", segment)).strip()
    return segment


def chinese_activity(g: Splicer, text: str, span: Span | None) -> str | None:
    # What is left around the duration once the request words are gone is the activity:
    # "<noun> 25 分钟写作业" -> "写作业", "写作业<noun>25分钟" -> "写作业", "<noun> 25 min on 数学" -> "数学".
    # After wins over before, except a verb split by the duration ("做20分钟作业").
    if span is None:
        return clip(_strip_mixed(g, text))
    after = _strip_mixed(g, clauses.label_value(_strip_mixed(g, text[span.end :]), "zh"))
    before = _strip_mixed(g, clauses.label_value(_strip_mixed(g, text[: span.start]), "zh"))
    if after and _ZH_SPLIT_VERB.match(before):
        return clip(before + after)
    if _ZH_REASON.match(after):
        after = ""  # "二十分钟专注 不然我又分心了": why, not what for
    parts = re.split(r"[，,。]", before)
    if len(parts) > 1 and clauses.opens_with_work(parts[-1]):
        before = parts[-1]  # "高考冲刺，刷数学卷子两个小时": the work, not why
    activity = after or before
    return None if _ZH_NOT_AN_ACTIVITY.fullmatch(activity) else clip(activity)


# A pronoun or a request verb alone ("我专注一小时", "开一个小时专注", "十分钟，测一下"): no activity said.
_ZH_NOT_AN_ACTIVITY = re.compile(
    r"我|你|您|他|她|我们|咱们|开|来|定|设|先|快|就|那|亲|个|测|考|练|做|学|试|计|整|搞|弄|干|要|给"
)
