# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A fifth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper session
(branch ``i36-fresh5``) writing blind: it did not open the grammar (agents/reference/*.py), the apps'
phrasing declarations (miniapps/*/phrasings.json) nor the rows of the other corpora — only this format
from the first fresh set's docstring (and, by the length of that read, its first four rows), the
measuring helpers (``_rows``, ``_kind``, ``_measure``) and the apps' tool bounds in their manifests.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app), ``range`` (a duration past
the app's bound) and ``help`` (anything that must not act). An activity is written as the person would
want it labelled, cut from the request (no "my", no filler). The measured parser has no Notes intent,
so Notes appears only in questions that must not act.

The mix is close to what the Agent is asked: about a third starting a focus, a fifth a quiz, stop (also
with two things running), status, and a fifth that must not act — questions about the apps, jokes,
negations, past tense, hypotheticals, someone else's doing, plans for later, reminders and alarms it
cannot set — plus a few asks and out-of-range requests. Typed the way people type on phones and
laptops: typos, slang, numbers as words, emoji, mixed zh/en, polite and terse, context first.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions, tests/agents/reference/test_corpus_people.py), not row by row. When they stop telling
anything new, write another fresh set rather than edit this one.
"""

from __future__ import annotations

HELD_OUT_FRESH5_EN = """
ok lets do this. 25 mins, no distractions | start | 1500 | -
focus 40 | start | 2400 | -
can u start a timer for half an hour, im reading | start | 1800 | reading
set me up for an hour of deep work | start | 3600 | deep work
need to grind chem for 45 | start | 2700 | chem
pls 15 min meditation 🧘 | start | 900 | meditation
Could you please start a 20-minute focus session? I'm working on my cover letter. | start | 1200 | cover letter
fokus 30 min | start | 1800 | -
start pomodor 25 mins | start | 1500 | -
timer: 1h30 for the report | start | 5400 | report
ten minute focus, tidying up | start | 600 | tidying up
start focus: guitar practice, 35 minutes | start | 2100 | guitar practice
90 minutes thesis writing go | start | 5400 | thesis writing
I want to focus for an hour and a half | start | 5400 | -
Start a 50 min block for spanish vocab | start | 3000 | spanish vocab
two hours, coding. start | start | 7200 | coding
25m pomodoro plz | start | 1500 | -
lock me in for 45 minutes lol | start | 2700 | -
start a 5 min focus for emails | start | 300 | emails
Start focusing now, 1 hour, piano | start | 3600 | piano
ok 20 more minutes of studying then | start | 1200 | studying
three quarters of an hour on the budget pls | start | 2700 | budget
can we do a 30min focus on laundry folding 😂 | start | 1800 | laundry folding
new focus - 12 minutes | start | 720 | -
Please begin a forty minute timer. | start | 2400 | -
start 1 hr focus reading ch 4 | start | 3600 | reading ch 4
exam prep, 55 min, start | start | 3300 | exam prep
25 minute focus on the slides pls | start | 1500 | slides
hey! could u time me, 18 minutes for push ups | start | 1080 | push ups
start timer 10 | start | 600 | -
Begin a pomodoro on homework. 25 min. | start | 1500 | homework
focus mode for an hour pls | start | 3600 | -
start a fifteen-min focus | start | 900 | -
45 mins of drawing, starting now | start | 2700 | drawing
start a focus session | ask
i wanna focus on my essay | ask
pomodoro pls | ask
start a timer for a bit | ask
start something for 20 minutes | ask
focus for 30 hours straight | range
quiz me for 2 hours on addition | range
quiz me on times tables for 5 minutes | quiz | 300 | multiplication
5 min multiplication quiz | quiz | 300 | multiplication
can I practice adding for ten minutes? | quiz | 600 | addition
subtraction drill 3 min | quiz | 180 | subtraction
give me a mixed math quiz, 8 minutes | quiz | 480 | mixed
math quiz 10 min | quiz | 600 | mixed
arithmetic practice for 15 minutes pls | quiz | 900 | mixed
test my mental math, two minutes | quiz | 120 | mixed
quizz me on minus for 4 mins | quiz | 240 | subtraction
my kid needs 10 min of multiplication practice, start it | quiz | 600 | multiplication
addition quiz, 7 min | quiz | 420 | addition
Start a quiz: multiplication, 12 minutes. | quiz | 720 | multiplication
timed quiz 1 min, multiply | quiz | 60 | multiplication
20 minutes of subtraction problems | quiz | 1200 | subtraction
quiz time! 3 mins ✖️ multiplication | quiz | 180 | multiplication
Practice multiplying for a quarter of an hour | quiz | 900 | multiplication
run the arithmetic quiz for half an hour | quiz | 1800 | mixed
mult quiz 5 min | quiz | 300 | multiplication
addition drills — 10 minutes please | quiz | 600 | addition
ok stop the timer | stop
I'm done, end it | stop
cancel the focus pls | stop
kill the pomodoro | stop
stop the quiz, i have to go | stop
end quiz | stop
stop both | stop
stop everything!! | stop
stop the timer but keep the quiz going | stop
enough for today, stop | stop
abort focus | stop
quit the math quiz | stop
can you stop it | stop
I give up on this quiz, stop it | stop
how long left? | status
how much time do i have left | status
time check | status
mins remaining? | status
is the timer still running? | status
when does my focus end | status
how long until the quiz ends | status
how far along am i | status
what's running right now? | status
whats left on the clock | status
how does the pomodoro thing work? | help
what kinds of quizzes are there | help
can the quiz do division? | help
I did a 25 minute focus yesterday and it was great | help
my brother started a 30 min timer lol | help
don't start a timer yet | help
if I started a 50 min focus would it lock my phone? | help
remind me at 5pm to call mom | help
remind me in 20 minutes to take the pasta out | help
why is it called pomodoro haha | help
tell me a joke about tomatoes | help
I stopped the timer already | help
should I do 25 or 50 minute sessions? | help
do notes save automatically? | help
no thanks, I don't want a quiz | help
what's 7 times 8 | help
lol that quiz was hard | help
how long is a pomodoro usually? | help
thanks!! | help
i'll study for 2 hours tonight, wish me luck | help
can you set an alarm for 7am | help
does stopping early count? | help
"""

HELD_OUT_FRESH5_ZH = """
帮我开个25分钟的专注 | start | 1500 | -
专注半小时，看书 | start | 1800 | 看书
我要写作业，给我计时四十分钟 | start | 2400 | 写作业
来个一小时的专注吧 | start | 3600 | -
番茄钟25分钟，背单词 | start | 1500 | 背单词
学习45分钟 | start | 2700 | 学习
开始专注 一个半小时 | start | 5400 | -
给我定个20分钟，我要冥想 | start | 1200 | 冥想
麻烦开启一个三十分钟的专注，谢谢！ | start | 1800 | -
focus 25分钟 | start | 1500 | -
开个pomodoro，50min | start | 3000 | -
专注15min 练琴 | start | 900 | 练琴
两小时 写论文 开始 | start | 7200 | 写论文
现在开始专注十分钟 | start | 600 | -
帮我计时一刻钟，做家务 | start | 900 | 做家务
我想专心读书四十五分钟 | start | 2700 | 读书
开始，25分钟，复习数学 | start | 1500 | 复习数学
定时 35 分钟 | start | 2100 | -
专注二十分中 | start | 1200 | -
开一个番茄 二十五分钟 | start | 1500 | -
我要专注一小时写代码 | start | 3600 | 写代码
给我来个专注，六十分钟 | start | 3600 | -
开始专注：整理房间，20分钟 | start | 1200 | 整理房间
半个小时 背课文 | start | 1800 | 背课文
专注模式 1小时 | start | 3600 | -
好的，那就专注40分钟吧 | start | 2400 | -
开始番茄钟 25min 做PPT | start | 1500 | 做PPT
三刻钟 专注 | start | 2700 | -
帮我start一个focus，30分钟 | start | 1800 | -
开始专注1个半小时，复习英语 | start | 5400 | 复习英语
专注5分钟回邮件 | start | 300 | 回邮件
嗯 开始吧 专注二十五分钟 🍅 | start | 1500 | -
开始番茄钟 | ask
我想专注一下 | ask
帮我开个专注，我要看书 | ask
来个计时 | ask
专注30个小时 | range
做两个小时的加法题 | range
给我出5分钟的乘法题 | quiz | 300 | multiplication
乘法口算 十分钟 | quiz | 600 | multiplication
来一组加法练习，3分钟 | quiz | 180 | addition
减法测验 5分钟 | quiz | 300 | subtraction
做10分钟口算题 | quiz | 600 | mixed
数学小测验，八分钟 | quiz | 480 | mixed
考考我乘法，两分钟 | quiz | 120 | multiplication
孩子要练减法，开个15分钟的测验 | quiz | 900 | subtraction
来个quiz，加法，5min | quiz | 300 | addition
混合运算练习 20分钟 | quiz | 1200 | mixed
九九乘法表测一下，5分钟 | quiz | 300 | multiplication
开始算术测验 半小时 | quiz | 1800 | mixed
出几道加法题，练一刻钟 | quiz | 900 | addition
口算练习一分钟 | quiz | 60 | mixed
减法quiz 4分钟 | quiz | 240 | subtraction
做乘法 7分钟 | quiz | 420 | multiplication
帮我开个数学测试，十二分钟 | quiz | 720 | mixed
停下计时 | stop
不专注了，结束吧 | stop
结束番茄钟 | stop
取消专注 | stop
别做题了，停掉 | stop
测验结束吧 | stop
两个都停了 | stop
全部停止 | stop
把计时器关掉 | stop
停一下专注，测验继续 | stop
不想做了 停 | stop
stop一下 | stop
结束quiz | stop
还剩多久？ | status
还有几分钟 | status
专注还剩多少时间 | status
计时器还在跑吗 | status
什么时候结束？ | status
测验还有多长时间 | status
现在在计时吗？ | status
剩余时间 | status
还要多久啊😩 | status
番茄钟是怎么用的？ | help
测验有哪些题型？ | help
能做除法吗 | help
昨天专注了两个小时，好累 | help
我同学在用番茄钟专注25分钟 | help
先别开始计时 | help
如果我专注一个小时，手机会锁屏吗？ | help
下午三点提醒我开会 | help
二十分钟后提醒我关火 | help
讲个笑话 | help
我已经停了 | help
25分钟和50分钟哪个好？ | help
笔记会自动保存吗？ | help
不要测验，谢谢 | help
7乘8等于几 | help
刚才的题好难哈哈 | help
谢谢！ | help
今晚我打算学习两个小时 | help
帮我定个明早7点的闹钟 | help
为什么叫番茄钟 | help
提前停下来会怎么样？ | help
"""
