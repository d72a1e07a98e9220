# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""The reference Agent's corpus: how people ask, in English and Chinese, and what each one means.

Each row is ``text | intent | seconds | activity`` (``-``: no activity); ``intent`` is ``start``,
``quiz`` (a practice quiz: the last column is its kind), ``stop``, ``status``, ``help`` (anything answered with help, never an action), ``ask`` (a start
without a duration: the Agent asks "how long?") or ``range`` (a duration outside 1 s to 24 h).

``CORPUS_*`` is what the grammar was written against. ``HELD_OUT_*`` were written afterwards, from
the same families (other verbs, activities, numbers and politeness), and run once against the
grammar as it stood: where one failed, the family was generalised (a number word, a time word),
never the phrase added as a string. They stay here so that a change to the grammar keeps them.
"""

from __future__ import annotations

import pytest

from agents.reference import declared
from agents.reference.agent import _about_a_named_app, _names_another_app
from agents.reference.intents import DurationOutOfRange, Help, Intent, detect_language
from runtime.inventory import inventory_for_scope
from tests.agents.reference.bundled import FocusStatus, StartFocus, StartQuiz, StopFocus, parse_intent

pytestmark = pytest.mark.spec("R-2.1.1")

CORPUS_EN = """
quiz me on multiplication for 5 minutes | quiz | 300 | multiplication
stop the quiz | stop
a 10 minute arithmetic drill | quiz | 600 | mixed
give me a 3 minute addition quiz please | quiz | 180 | addition
mental math for 2 minutes | quiz | 120 | mixed
times tables for 5 min | quiz | 300 | multiplication
can you quiz me on subtraction for 90 seconds | quiz | 90 | subtraction
start a 25 minute reading focus | start | 1500 | reading
focus 90 seconds on homework | start | 90 | homework
read for half an hour | start | 1800 | read
meditate for 10 minutes | start | 600 | meditate
let's do 20 mins of homework | start | 1200 | homework
25 minutes of reading please | start | 1500 | reading
study for 40 minutes | start | 2400 | study
study Spanish for 40 minutes | start | 2400 | study Spanish
write for 45 minutes | start | 2700 | write
I want to read for 30 minutes | start | 1800 | read
I'd like to study for an hour | start | 3600 | study
I need to write my essay for 45 mins | start | 2700 | write my essay
can you time 25 minutes of reading? | start | 1500 | reading
could you start a 25 minute focus please | start | 1500 | -
would you set a timer for 15 minutes | start | 900 | -
please start a 50 minute deep work session | start | 3000 | deep work
start a timer for 1h30m | start | 5400 | -
focus for 1h30m on the report | start | 5400 | report
focus 1h on taxes | start | 3600 | taxes
focus 2h | start | 7200 | -
focus 45m | start | 2700 | -
20 mins of coding | start | 1200 | coding
30 mins reading | start | 1800 | reading
code for 25 mins | start | 1500 | code
practice piano for 20 minutes | start | 1200 | practice piano
let's meditate for five minutes | start | 300 | meditate
let's read for twenty minutes | start | 1200 | read
let's focus for half an hour | start | 1800 | -
let's do half an hour of math | ask
I'll study for an hour and a half | start | 5400 | study
I'm going to write for 90 minutes | start | 5400 | write
I'm gonna read for 15 minutes | start | 900 | read
gonna code for 2 hours | start | 7200 | code
time me for 20 minutes | start | 1200 | -
time me reading for 20 minutes | start | 1200 | reading
set a 25 min timer | start | 1500 | -
set a timer for 10 mins | start | 600 | -
start a 10 minute timer for stretching | start | 600 | stretching
give me 25 minutes of focus | start | 1500 | -
give me a 25 minute pomodoro | start | 1500 | -
spend 30 minutes reading | start | 1800 | reading
spend an hour on my thesis | start | 3600 | my thesis
do 20 minutes of push-ups | start | 1200 | push-ups
do 15 mins of vocab | start | 900 | vocab
how about 25 minutes of reading | start | 1500 | reading
how about a 25 minute focus | start | 1500 | -
what about half an hour of study | start | 1800 | study
start reading for 25 minutes | start | 1500 | reading
begin studying for 45 minutes | start | 2700 | studying
start focusing for 2 hours on writing | start | 7200 | writing
focus on my essay for 25 minutes | start | 1500 | my essay
focus for an hour and a half on Spanish | start | 5400 | Spanish
focus twenty-five minutes on code review | start | 1500 | code review
focus for a quarter of an hour | start | 900 | -
focus for a quarter hour on email | start | 900 | email
focus for one and a half hours | start | 5400 | -
focus for 1.5 hours | start | 5400 | -
run a 45 min pomodoro | start | 2700 | -
one pomodoro of 25 minutes please | start | 1500 | -
a 25 minute pomodoro for reading | start | 1500 | reading
25 min focus | start | 1500 | -
25-minute focus on algebra | start | 1500 | algebra
ok start a 5 minute focus | start | 300 | -
hey, focus 10 minutes on email | start | 600 | email
alright, let's study for 30 minutes | start | 1800 | study
focus 3 min 30 s | start | 210 | -
focus for 1 hour 15 minutes | start | 4500 | -
focus for 2 hours and 30 minutes on the thesis | start | 9000 | thesis
Focus 25 min on 数学 | start | 1500 | 数学
START A 25 MINUTE FOCUS | start | 1500 | -
Read for 30 Minutes | start | 1800 | Read
concentrate on chemistry for 40 minutes | start | 2400 | chemistry
work on the slides for 45 minutes | start | 2700 | slides
work for 25 minutes | start | 1500 | work
learn French for 20 minutes | start | 1200 | learn French
review my notes for 15 minutes | start | 900 | review my notes
revise for an hour | start | 3600 | revise
journal for 10 minutes | start | 600 | journal
draw for 30 min | start | 1800 | draw
a sprint of 25 minutes | start | 1500 | -
sprint 25 minutes on the bug | start | 1500 | bug
I want to focus for 25 minutes | start | 1500 | -
i wanna read for 20 min | start | 1200 | read
I need 45 minutes for the report | start | 2700 | report
start a focus of 25 minutes | start | 1500 | -
start a 25-minute focus on reading please | start | 1500 | reading
focus for 12 hours | start | 43200 | -
focus 5 hours on the exam | start | 18000 | exam
focus 600 minutes | start | 36000 | -
stop | stop
Stop. | stop
stop it | stop
stop the focus | stop
stop focusing | stop
stop the timer please | stop
please stop the timer now | stop
cancel | stop
cancel it | stop
cancel the 25 minute timer | stop
abort | stop
end the focus | stop
end it | stop
quit | stop
turn off the timer | stop
kill the timer | stop
never mind | stop
never mind, stop it | stop
nevermind | stop
forget it | stop
I'm done | stop
im done | stop
I am done | stop
I'm done, thanks | stop
I'm finished | stop
done | stop
enough | stop
that's enough | stop
enough for today | stop
no more | stop
I give up | stop
let's stop | stop
can you stop it? | stop
could you please stop the focus | stop
I want to stop | stop
i'd like to stop now | stop
ok stop | stop
okay, cancel the pomodoro | stop
actually, stop | stop
I don't want to continue | stop
i don't want to focus anymore | stop
that's it for today | stop
call it a day | stop
stop the 25 minute focus | stop
how long is left? | status
how much time is left | status
how much longer? | status
how many minutes left | status
time left? | status
remaining time | status
status | status
what's the status | status
what's running? | status
is the timer running? | status
is my focus still running | status
am I still focusing? | status
when does it end? | status
when will the focus end | status
how's my focus going | status
what am I focusing on | status
how long do I have left | status
hello | help
hi there | help
thanks | help
thanks! | help
thank you | help
thanks, that's all | help
help | help
what can you do? | help
what is a pomodoro? | help
how long is a 25 minute focus? | help
I focused for 2 hours yesterday | help
I studied for an hour | help
I was reading for 20 minutes | help
take a 10 minute nap | help
start a 5 minute break | help
rest for 10 minutes | help
remind me in 5 minutes | help
wait 5 minutes | help
start a focus in 10 minutes | help
don't start a 25 minute focus | help
don't stop | help
do not cancel | help
25 minutes | ask
half an hour | ask
zzzz | help
what time is it | help
start a focus | ask
focus on reading | ask
start a timer | ask
let's focus | ask
I want to focus | ask
begin a pomodoro | ask
focus for 0 minutes | range
focus for 25 hours | range
start a 0.2 second focus | range
read for 30 hours | range
"""

CORPUS_ZH = """
口算练习 5 分钟 | quiz | 300 | mixed
停止测验 | stop
考考我乘法十分钟 | quiz | 600 | multiplication
加法口算三分钟 | quiz | 180 | addition
帮我出题，减法口算两分钟 | quiz | 120 | subtraction
来个5分钟的口算测验 | quiz | 300 | mixed
乘法口诀练习 5 分钟吧 | quiz | 300 | multiplication
专注 25 分钟写作业 | start | 1500 | 写作业
开始专注25分钟 | start | 1500 | -
专注1小时阅读 | start | 3600 | 阅读
我要看书半小时 | start | 1800 | 看书
阅读25分钟 | start | 1500 | 阅读
学习 40 分钟 | start | 2400 | 学习
冥想十分钟 | start | 600 | 冥想
做20分钟作业 | start | 1200 | 做作业
写作业，45分钟 | start | 2700 | 写作业
看半小时书 | start | 1800 | 看书
读一个小时书 | start | 3600 | 读书
复习一个半小时 | start | 5400 | 复习
背单词二十分钟 | start | 1200 | 背单词
练琴四十五分钟 | start | 2700 | 练琴
我想学习半小时 | start | 1800 | 学习
我准备写论文两个小时 | start | 7200 | 写论文
我打算读书一小时 | start | 3600 | 读书
帮我计时25分钟 | start | 1500 | -
帮我计时二十五分钟，写作业 | start | 1500 | 写作业
请帮我开始专注30分钟 | start | 1800 | -
可以帮我专注25分钟吗？ | start | 1500 | -
能不能帮我计时十五分钟 | start | 900 | -
来一个25分钟的番茄钟 | start | 1500 | -
来个番茄钟，25分钟 | start | 1500 | -
开一个45分钟的专注 | start | 2700 | -
设个10分钟的计时 | start | 600 | -
专注二十五分钟 | start | 1500 | -
专注十五分钟 | start | 900 | -
专注十分钟 | start | 600 | -
专注一百二十秒 | start | 120 | -
专注半小时 | start | 1800 | -
专注半个小时 | start | 1800 | -
专注半个钟头 | start | 1800 | -
专注一个半小时 | start | 5400 | -
专注两个半小时 | start | 9000 | -
专注两个小时 | start | 7200 | -
专注俩小时 | start | 7200 | -
专注3个钟头 | start | 10800 | -
专注一刻钟 | start | 900 | -
专注三刻钟 | start | 2700 | -
专注三分半 | start | 210 | -
专注1小时30分钟 | start | 5400 | -
专注一小时零五分 | start | 3900 | -
专注１小时３０分钟 | start | 5400 | -
专注90秒 | start | 90 | -
专注90秒钟 | start | 90 | -
专注 2 秒 写作业 | start | 2 | 写作业
写作业专注25分钟 | start | 1500 | 写作业
帮我开始一个25分钟的阅读专注 | start | 1500 | 阅读
专注25分钟，用来写论文 | start | 1500 | 写论文
我要专注25分钟写作业吧 | start | 1500 | 写作业
我要学习一个小时 | start | 3600 | 学习
我想冥想五分钟 | start | 300 | 冥想
现在开始学习30分钟 | start | 1800 | 学习
开始阅读20分钟 | start | 1200 | 阅读
开始写代码一小时 | start | 3600 | 写代码
读书三十分钟 | start | 1800 | 读书
看书20分钟 | start | 1200 | 看书
写代码两小时 | start | 7200 | 写代码
画画40分钟 | start | 2400 | 画画
练习口语15分钟 | start | 900 | 练习口语
跑步半小时 | start | 1800 | 跑步
复习数学一个钟头 | start | 3600 | 复习数学
做数学题25分钟 | start | 1500 | 做数学题
写25分钟日记 | start | 1500 | 写日记
背15分钟单词 | start | 900 | 背单词
练30分钟琴 | start | 1800 | 练琴
学一个小时英语 | start | 3600 | 学英语
番茄钟25分钟 | start | 1500 | -
25分钟番茄钟 | start | 1500 | -
计时五分钟 | start | 300 | -
专注于写作业25分钟 | start | 1500 | 写作业
专注25分钟：整理房间 | start | 1500 | 整理房间
好的，专注25分钟 | start | 1500 | -
嗯，学习半小时吧 | start | 1800 | 学习
那就读书20分钟 | start | 1200 | 读书
我们来专注25分钟 | start | 1500 | -
咱们学习四十分钟 | start | 2400 | 学习
让我专注一个小时 | start | 3600 | -
阅读二十五分钟吧 | start | 1500 | 阅读
冥想10分钟好吗 | start | 600 | 冥想
学习 1 小时 | start | 3600 | 学习
专注 25 min | start | 1500 | -
Focus 25 min on 数学 | start | 1500 | 数学
focus 25 min 写作业 | start | 1500 | 写作业
start 25分钟 for 写作业 | start | 1500 | 写作业
专注5小时 | start | 18000 | -
学习六个小时 | start | 21600 | 学习
专注十二个小时 | start | 43200 | -
停止专注 | stop
停止 | stop
停 | stop
结束专注 | stop
结束 | stop
取消 | stop
请停止专注！ | stop
停下来吧 | stop
算了不做了 | stop
算了，不做了 | stop
不做了 | stop
别计时了 | stop
我不想继续了 | stop
不想继续了 | stop
算了 | stop
算了吧 | stop
不学了 | stop
不看了 | stop
不写了 | stop
不练了 | stop
别专注了 | stop
不专注了 | stop
不要专注了 | stop
停掉番茄钟 | stop
帮我停止计时 | stop
我要停止 | stop
先停一下 | stop
暂停 | help
够了 | stop
放弃 | stop
今天就到这吧 | stop
到此为止 | stop
结束吧 | stop
好吧，结束 | stop
那就算了 | stop
取消这个专注 | stop
关掉计时 | stop
不用了 | stop
别再计时了 | stop
我不想学了 | stop
停止，谢谢 | stop
还剩多久？ | status
还剩多久 | status
还有多久 | status
还有多少时间 | status
还剩几分钟 | status
剩多少时间了 | status
剩余时间 | status
还要多久才结束 | status
什么时候结束 | status
几点结束 | status
现在在专注什么 | status
在专注吗？ | status
专注还在吗 | status
当前状态 | status
现在的进度 | status
还在计时吗 | status
你好 | help
您好！ | help
谢谢 | help
谢谢！ | help
多谢 | help
帮助 | help
你能做什么 | help
番茄钟是什么？ | help
专注是什么意思 | help
专注多久比较好？ | help
我昨天专注了2小时 | help
刚才学习了半小时 | help
休息5分钟 | help
睡觉20分钟 | help
5分钟后提醒我 | help
十分钟后开始专注 | help
不要开始专注25分钟 | help
别开始 | help
不要停 | help
别停 | help
25分钟 | ask
半小时 | ask
哈哈哈 | help
今天天气不错 | help
开始专注 | ask
我要专注 | ask
帮我开始计时 | ask
来个番茄钟 | ask
专注0秒 | range
专注 25 个小时 | range
学习三十个小时 | range
"""

HELD_OUT_EN = """
please time 35 minutes of sketching | start | 2100 | sketching
let's write for an hour | start | 3600 | write
i'd like 40 minutes of reading | start | 2400 | reading
could you start a 15 min focus on emails | start | 900 | emails
jog for twenty minutes | start | 1200 | jog
translate for 50 mins | start | 3000 | translate
I want to practice guitar for 30 minutes | start | 1800 | practice guitar
start a 2h focus | start | 7200 | -
okay let's do 45 min of chemistry | start | 2700 | chemistry
focus on physics for three quarters of an hour | start | 2700 | physics
cancel the timer | stop
please stop, thanks | stop
ok I'm done now | stop
forget about it | stop
how much time do I have left? | status
is a focus running? | status
thx | help
good morning | help
I meditated for 10 minutes | help
set an alarm for 7 | help
let me read for 25 minutes | start | 1500 | read
can we do 30 minutes of yoga | start | 1800 | yoga
set a 45-minute timer for my lab report | start | 2700 | my lab report
I'll focus on invoices for an hour | start | 3600 | invoices
edit video for 1 hr | start | 3600 | edit video
kill it | stop
stop the clock please | stop
alright that's enough | stop
how long till it ends | status
what's left on the timer | status
ty | help
I had a 25 minute focus earlier | help
"""

HELD_OUT_ZH = """
我要写作业四十分钟 | start | 2400 | 写作业
帮我计时一个小时，看书 | start | 3600 | 看书
练字二十分钟 | start | 1200 | 练字
来一个一小时的专注 | start | 3600 | -
我想背半个小时单词 | start | 1800 | 背单词
听力练习25分钟 | start | 1500 | 听力练习
算了，不学了 | stop
我不想做了 | stop
停一下吧 | stop
还剩多少分钟 | status
专注结束了吗 | status
谢谢你 | help
前天学习了3小时 | help
一会儿再专注 | help
我要读20分钟英语 | start | 1200 | 读英语
帮忙计时四十五分钟 | start | 2700 | -
我来写半小时周报 | start | 1800 | 写周报
收拾房间十五分钟 | start | 900 | 收拾房间
不弄了 | stop
算了算了 | stop
还有几分钟结束 | status
专注多久了 | status
感谢 | help
下午再学习一个小时 | help
"""


def _rows(table: str) -> list[tuple[str, str, int | None, str | None]]:
    rows = []
    for line in table.strip().splitlines():
        text, intent, *rest = (part.strip() for part in line.split(" | "))
        seconds = int(rest[0]) if rest else None
        activity = None if len(rest) < 2 or rest[1] == "-" else rest[1]
        rows.append((text, intent, seconds, activity))
    return rows


def _kind(intent: Intent) -> str:
    if isinstance(intent, StartFocus):
        return "start"
    if isinstance(intent, StartQuiz):
        return "quiz"
    if isinstance(intent, StopFocus):
        return "stop"
    if isinstance(intent, FocusStatus):
        return "status"
    if isinstance(intent, DurationOutOfRange):
        return "range"
    assert isinstance(intent, Help)
    # a question back: "how long?" (no length said) or "which app?" (a length said with no app nor work)
    return "ask" if intent.missing_duration or intent.topic == "which_app" else "help"


def _check(text: str, expected: str, seconds: int | None, activity: str | None) -> None:
    intent = parse_intent(text)
    assert _kind(intent) == expected, (text, intent)
    if isinstance(intent, StartFocus):
        assert (intent.duration_seconds, intent.activity) == (seconds, activity), text
        assert intent.language == detect_language(text)
    if isinstance(intent, StartQuiz):
        assert (intent.duration_seconds, intent.choice) == (seconds, activity), text
        assert intent.language == detect_language(text)


def test_the_corpus_has_at_least_150_phrasings_per_language():
    """The corpus is broad: at least 150 phrasings in each language, none twice."""
    for table in (CORPUS_EN, CORPUS_ZH):
        texts = [row[0] for row in _rows(table)]
        assert len(texts) >= 150
        assert len(set(texts)) == len(texts)
    assert (
        {row[1] for row in _rows(CORPUS_EN)}
        == {row[1] for row in _rows(CORPUS_ZH)}
        == {
            "start",
            "quiz",
            "stop",
            "status",
            "help",
            "ask",
            "range",
        }
    )


@pytest.mark.parametrize(("text", "expected", "seconds", "activity"), _rows(CORPUS_EN))
def test_english_corpus(text, expected, seconds, activity):
    """Each English phrasing means its intent, with its duration and activity."""
    _check(text, expected, seconds, activity)


@pytest.mark.parametrize(("text", "expected", "seconds", "activity"), _rows(CORPUS_ZH))
def test_chinese_corpus(text, expected, seconds, activity):
    """Each Chinese phrasing means its intent, with its duration and activity."""
    _check(text, expected, seconds, activity)


@pytest.mark.parametrize(("text", "expected", "seconds", "activity"), _rows(HELD_OUT_EN) + _rows(HELD_OUT_ZH))
def test_held_out_phrasings(text, expected, seconds, activity):
    """Phrasings written after the grammar, from the same families, are understood too."""
    _check(text, expected, seconds, activity)


def test_the_installed_apps_declarations_take_no_corpus_phrasing():
    """With every installed app's declared phrasings known (the Inventory's apps, decision 0050), no corpus
    or held-out phrasing is taken by an app's declaration, turned into help because it names another app,
    or sent to another app's stop or status: the Agent understands each as its own grammar does."""
    apps = declared.apps_from_inventory(inventory_for_scope("personal").published())
    assert {app.app_id for app in apps} == {"notes", "pomodoro", "quiz"}
    taken = []
    for text, *_ in _rows(CORPUS_EN) + _rows(CORPUS_ZH) + _rows(HELD_OUT_EN) + _rows(HELD_OUT_ZH):
        intent = parse_intent(text)
        if (
            declared.match(apps, text, detect_language(text))
            or _names_another_app(intent, text, apps)
            or _about_a_named_app(intent, text, apps)
        ):
            taken.append(text)
    assert taken == []
