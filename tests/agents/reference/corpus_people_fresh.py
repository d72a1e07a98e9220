# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper session
(branch ``i36-heldout``) that had not read the grammar (intents.py, durations.py, declared.py) nor the
rows of the other corpora — only their docstrings, the row format and five rows of one table.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Written as people type on phones and laptops, in a mix close to what the Agent is asked:
about 35 % starting a focus, 20 % a quiz, 15 % stop (also with two things running), 10 % status and
20 % what must not act (questions about the apps, jokes, negations, past tense, hypotheticals,
reminders it cannot set), plus a start without a duration (``ask``) and one out of range.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions, tests/agents/reference/test_corpus_people.py), not row by row. When they stop telling
anything new, write another fresh set rather than edit this one.
"""

from __future__ import annotations

HELD_OUT_FRESH_EN = """
25 min focus pls | start | 1500 | -
twenty five minutes of studying | start | 1500 | studying
start a 45m timer for coding | start | 2700 | coding
pomodoro 50 | start | 3000 | -
focus for an hour and a half | start | 5400 | -
can you start a focus session for 40 minutes please? | start | 2400 | -
1 hr of slide prep | start | 3600 | slide prep
set a pomodoro 25mins | start | 1500 | -
foucs 30 min | start | 1800 | -
start 20 minutes for journaling | start | 1200 | journaling
lets do a quarter of an hour of email | start | 900 | email
2 hrs for lab report writing | start | 7200 | lab report writing
90 seconds focus | start | 90 | -
Start a pomodoro for 25 minutes. | start | 1500 | -
pomodoro 25m reading | start | 1500 | reading
focus mode 35 minutes | start | 2100 | -
yo start a 25 min pomo | start | 1500 | -
could you please set up a thirty-five minute focus for me, thanks | start | 2100 | -
forty minutes of piano practice | start | 2400 | piano practice
i wanna focus 1 hour | start | 3600 | -
timer 3 hours for writing | start | 10800 | writing
start focusing for 12 min | start | 720 | -
pomodoro for spanish vocab, 30 minutes | start | 1800 | spanish vocab
start a focus of 1 h 15 min | start | 4500 | -
half hour focus on homework | start | 1800 | homework
one hour pomodoro | start | 3600 | -
focsu for 20 mins plz | start | 1200 | -
quiz me on addition for 3 minutes | quiz | 180 | addition
multiplication quiz 5 min | quiz | 300 | multiplication
10 minute subtraction quiz | quiz | 600 | subtraction
can you give me a mixed quiz for ten minutes | quiz | 600 | mixed
test me on my times tables for 4 minutes | quiz | 240 | multiplication
quiz: subtraction, 2 mins | quiz | 120 | subtraction
start a math quiz for 5 minutes | quiz | 300 | mixed
mental math practice 15 min | quiz | 900 | mixed
quiz me for twenty minutes on multiplication | quiz | 1200 | multiplication
practice quiz addition 8 minutes | quiz | 480 | addition
i want to practise multiplying for 6 min | quiz | 360 | multiplication
quick arithmetic quiz, 1 minute | quiz | 60 | mixed
qiuz me on subtraction 5 mins | quiz | 300 | subtraction
an hour of mixed quiz please | quiz | 3600 | mixed
quiz me on addition | ask
pls stop it now | stop
cancel my timer pls | stop
end my focus session pls | stop
can you stop the math quiz | stop
stop both | stop
kill the pomodoro | stop
i'm done, stop the timer | stop
stop the quiz but keep the focus going | stop
abort the focus | stop
stp the timer | stop
ok enough, end the quiz | stop
how long left? | status
how much time do i have left on the quiz | status
how much time remaining on it | status
how many mins r left | status
when does my focus end? | status
is the timer still running? | status
hw long left on pomodoro | status
don't start a timer yet | help
whats the pomodoro technique | help
how long is a pomodoro normally? | help
tell me a joke | help
i did a 25 minute focus yesterday | help
if i started a 2 hour focus would that be too long? | help
no don't stop my focus | help
i can't stop procrastinating lol | help
what's 7 times 8? | help
remind me to call mom at 5pm | help
start a focus session | ask
pomodoro 48 hours | range
thx so much | help
should i do 25 or 50 minutes? | help
i hate quizzes | help
hey there | help
"""

HELD_OUT_FRESH_ZH = """
帮我开个二十五分钟的番茄钟 | start | 1500 | -
我要专注半小时 | start | 1800 | -
番茄钟 45分钟 写论文 | start | 2700 | 写论文
我要专注一个小时学英语 | start | 3600 | 学英语
开始专注 40 分钟 | start | 2400 | -
25min 番茄 | start | 1500 | -
来一个一个半小时的专注 | start | 5400 | -
来一刻钟的番茄钟 | start | 900 | -
麻烦帮我计时三十分钟，谢谢 | start | 1800 | -
开个focus 20分钟 | start | 1200 | -
背单词 15分钟 | start | 900 | 背单词
专注两个小时写代码 | start | 7200 | 写代码
番茄钟走起，25分钟 | start | 1500 | -
开始一个五十分钟的番茄 | start | 3000 | -
专注1小时30分 | start | 5400 | -
计时90秒 | start | 90 | -
我想专注三刻钟看书 | start | 2700 | 看书
请开始专注，时间二十分钟 | start | 1200 | -
专住三十分钟 | start | 1800 | -
帮我定个10分钟的专注，练琴 | start | 600 | 练琴
开始番茄钟 25 分钟 做PPT | start | 1500 | 做PPT
专注 1h | start | 3600 | -
start 专注 30min | start | 1800 | -
来个番茄钟吧 半个小时 | start | 1800 | -
写作业专注四十五分钟 | start | 2700 | 写作业
三个小时专注复习 | start | 10800 | 复习
专注十二分钟 | start | 720 | -
考考我乘法，5分钟 | quiz | 300 | multiplication
来10分钟的加法练习 | quiz | 600 | addition
减法测验 三分钟 | quiz | 180 | subtraction
出几道口算题，五分钟 | quiz | 300 | mixed
做一个混合口算测验，15分钟 | quiz | 900 | mixed
乘法口诀测一下 两分钟 | quiz | 120 | multiplication
我想练练减法 10分钟 | quiz | 600 | subtraction
quiz一下乘法 5min | quiz | 300 | multiplication
心算练习二十分钟 | quiz | 1200 | mixed
开始加法测验，时间8分钟 | quiz | 480 | addition
给我来个一小时的口算测验 | quiz | 3600 | mixed
测验：乘法，4分钟 | quiz | 240 | multiplication
数学小测验 6 分钟 | quiz | 360 | mixed
口算练习 加法 1分钟 | quiz | 60 | addition
考我减法 | ask
停一下 | stop
不用再计时了 | stop
结束这次专注吧 | stop
把测验停了 | stop
两个都停掉 | stop
把番茄钟取消掉 | stop
不做了，停止测验 | stop
先停掉计时器，测验继续 | stop
先stop吧 | stop
关掉番茄钟吧 | stop
提前结束 | stop
还有多久结束 | status
还剩几分钟啊 | status
测验还剩多长时间？ | status
番茄钟还有多少时间 | status
剩余时间多少 | status
现在计时还在跑吗 | status
几点结束？ | status
番茄工作法是什么？ | help
讲个笑话 | help
先不要开始计时 | help
我昨天专注了两个小时 | help
如果专注三个小时会不会太累？ | help
今天天气怎么样 | help
别停！ | help
你都会些什么 | help
25分钟是不是太短了 | help
明天早上八点提醒我开会 | help
7乘8等于多少 | help
我想开始专注 | ask
番茄钟 48小时 | range
谢啦 | help
我不想做测验 | help
一个番茄钟一般多长时间？ | help
"""
