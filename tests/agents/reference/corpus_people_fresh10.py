# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A tenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh10``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the rows of any corpus (the
tables in test_corpus.py, the rows of any corpus_people*.py) nor the git history — only the eighth fresh
set's module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``,
``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` regex in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24
hours, quiz up to 1 hour; Notes has no start). It did not search the repository for phrases, did not run
the parser nor the measure on its rows, and never saw a result. Each row was labelled with what a careful
human assistant would do with the two timed apps installed (a focus timer and an arithmetic quiz): an
unclear request is ``ask`` or ``help``, never a guess.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone, with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for
later or at a set time, things it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but
the four arithmetic kinds — scores reported, greetings and thanks). An activity is written as the person
would want the timer labelled, cut from the request in their words: the thing worked on after a generic
"focus on / work on / for", the verb kept when the verb is the activity ("practice piano", "写周报").
A named work with no length is ``ask``; a length with a named work and no app is a focus start.

Written as new voices — a flight attendant between legs, a PhD student, a bus driver on a break, a
grandparent helping with homework, a streamer, a pharmacist, a carpenter, a high-school teacher, someone
with ADHD typing fast and loose, a tourist with basic English or Chinese, a programmer writing terse
commands, someone writing long polite messages — on phones and laptops: typos (also pinyin-input typos
in Chinese), slang, numbers as words and digits, fractions (quarter hour, three quarters of an hour,
一刻钟, 三刻钟), emoji, mixed zh/en in both tables, some traditional characters, context first, two
sentences, a self-correction, durations before or after the verb. The mix, per language: about a third
focus starts (with and without activity), a fifth quizzes (kinds named and not, durations in various
forms, the 1-hour bound itself), stops (also with both running, stopping one and keeping the other),
status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH10_EN = """
Between flights with 40 minutes to kill. Start a 30 min focus for the cabin report please | start | 1800 | cabin report
focus 25m | start | 1500 | -
pomodoro 50 min, thesis lit review | start | 3000 | thesis lit review
Good evening, I hope you are well. Could you kindly start a focus session of forty-five minutes for marking essays? Many thanks in advance. | start | 2700 | marking essays
quarter hour focus on the inventory count | start | 900 | inventory count
three quarters of an hour on the dovetail joints, start the timer | start | 2700 | dovetail joints
ok ok ok 20 min focus NOW before i get distracted again lol | start | 1200 | -
focus for 1h30 on chapter 3 | start | 5400 | chapter 3
I am tourist. Please focus timer 30 minute for study English. | start | 1800 | study English
going live soon but first 15 min focus on the overlay fixes | start | 900 | overlay fixes
Please time me for one hour while I practice piano. | start | 3600 | practice piano
start a two hour focus block for the grant proposal | start | 7200 | grant proposal
focus: 10 minutes | start | 600 | -
start focus 24h | start | 86400 | -
35 mins of focus on pharmacology revision pls | start | 2100 | pharmacology revision
gimme a focus timer, twenty five mins | start | 1500 | -
Break's over in an hour, so give me 45 minutes of focus on the route log | start | 2700 | route log
focus session for my lab notebook, 1 hr | start | 3600 | lab notebook
half an hour focus, no label | start | 1800 | -
Let's focus for 90 minutes on the literature chapter. | start | 5400 | literature chapter
start a 5 minute focus | start | 300 | -
I need to write lesson plans. Start a focus for 40 minutes. | start | 2400 | write lesson plans
focus on refactoring the auth module for 55 minutes | start | 3300 | refactoring the auth module
timer for focus 1.5 hrs | start | 5400 | -
can u strat a focus for 12 min ty | start | 720 | -
focus mode an hour and a half, reading papers | start | 5400 | reading papers
20 minute focus on my grandson's spelling homework | start | 1200 | grandson's spelling homework
Start a focus of 3 hours for the quarterly taxes | start | 10800 | quarterly taxes
pls focus 8 min, tidy the workbench | start | 480 | tidy the workbench
hey agent — focus for a quarter of an hour, emails | start | 900 | emails
🍅 25 min focus, coding | start | 1500 | coding
focus for thirty minutes on my slides 🙏 | start | 1800 | slides
I'd like to focus for 2 and a half hours on the dissertation, start now please | start | 9000 | dissertation
start a 45-min focus session: medication reconciliation | start | 2700 | medication reconciliation
Could you start focus mode for ten minutes? Just need to answer messages. | start | 600 | answer messages
focus timer for fifty minutes please, sanding the cabinet doors | start | 3000 | sanding the cabinet doors
focus for one hour on the paper, um, i mean 45 min | start | 2700 | paper
I'm on a 30-minute break, start a 20 min focus on the schedule changes | start | 1200 | schedule changes
start a 25 min focus for 写作业 please | start | 1500 | 写作业
focus 40 minutes on the report, 谢谢 | start | 2400 | report
times tables quiz for 10 minutes please, for my granddaughter | quiz | 600 | multiplication
quiz 5m mult | quiz | 300 | multiplication
give me a quick addition quiz, three minutes | quiz | 180 | addition
subtration drill 15 min | quiz | 900 | subtraction
Could you start a mental maths quiz of twenty minutes? | quiz | 1200 | mixed
arithmetic quiz, half an hour | quiz | 1800 | mixed
quiz me on multiplication for a quarter of an hour | quiz | 900 | multiplication
1 hour math quiz | quiz | 3600 | mixed
let's do 90 seconds of addition questions | quiz | 90 | addition
My grandson needs practice with take-away sums. Can you give him a 10 minute quiz? | quiz | 600 | subtraction
quiz: minus, 7 min | quiz | 420 | subtraction
start a mixed arithmetic quiz for 12 minutes | quiz | 720 | mixed
I am tourist, I want math quiz 5 minute, multiply please | quiz | 300 | multiplication
2 min times table blitz for chat 😂 | quiz | 120 | multiplication
Good afternoon! If it's not too much trouble, I'd love a forty-minute quiz on addition to keep my brain sharp. Thank you kindly. | quiz | 2400 | addition
quick math quiz 10 min, any kind | quiz | 600 | mixed
mult quiz three quarters of an hour | quiz | 2700 | multiplication
start quiz 30s addition | quiz | 30 | addition
Can we do a multiplication quiz? Fifteen minutes. | quiz | 900 | multiplication
quiz me, 6 mins, subtracting | quiz | 360 | subtraction
a 20 minute quiz, mix of everything | quiz | 1200 | mixed
an hour of arithmetic quiz, go | quiz | 3600 | mixed
乘法 quiz 10 minutes pls | quiz | 600 | multiplication
stop | stop
end the focus, I'm done early | stop
cancel the quiz pls | stop
kill the timer | stop
stop the quiz but keep my focus timer running | stop
end the focus session, leave the quiz going | stop
Sorry, passengers boarding — please stop the timer. | stop
ok im done stop stop stop | stop
abort quiz | stop
That's enough for today, could you end the focus? | stop
i give up on this quiz, end it | stop
how long left? | status
is the timer stil going | status
what's running rn | status
how many minutes are left on the quiz? | status
time remaining on focus? | status
is my focus session still on or did it end | status
Excuse me, how much longer do I have in this focus session? | status
quiz still running? | status
status | status
how much time till the focus ends, roughly | status
is anything running at the moment? | status
how does the quiz app work? | help
I did a 50 minute focus this morning, felt great | help
don't start anything yet | help
if I set a 30 min focus, can I still get messages? | help
my colleague just started a 2 hour focus lol | help
tomorrow I'll do a 25 min focus before my shift | help
remind me to take my meds in 20 minutes | help
set an alarm for 6am | help
add "buy glue" to my notes | help
quiz me on capital cities for 10 minutes | help
division quiz 10 min | help
got 27 out of 30 on that quiz!! | help
hi there 👋 | help
thank you so much, that was great | help
what's a pomodoro? | help
tell me a joke about timers | help
no no I don't want a quiz | help
can you pause the timer for 5 min while I take a call? | help
start a 25 min focus at 3pm | help
what kinds of quizzes can you do? | help
my students had a 15 minute times tables quiz today | help
would a 90 min focus be too long for me? | help
I wasn't focusing at all during that last session haha | help
what's 7 times 8? | help
start a focus session | ask
let's do 30 minutes | ask
quiz me on times tables | ask
timer please | ask
15 min? | ask
I want to work on the cabinet, start the timer | ask
can we do a math quiz | ask
focus for 30 hours straight | range
2 hour multiplication quiz | range
start a 90 minute quiz | range
focus timer for 2 days | range
addition quiz for an hour and a quarter | range
"""

HELD_OUT_FRESH10_ZH = """
两段航班之间有四十分钟，帮我开个三十分钟的专注，写客舱报告 | start | 1800 | 写客舱报告
专注25分钟 | start | 1500 | -
番茄钟 50 分钟，看文献 | start | 3000 | 看文献
您好，打扰了，麻烦您帮我开一个四十五分钟的专注，我要批改作文，非常感谢！ | start | 2700 | 批改作文
一刻钟专注，盘点药品 | start | 900 | 盘点药品
三刻钟，打磨榫头，开始计时 | start | 2700 | 打磨榫头
快快快 二十分钟专注 不然我又分心了 | start | 1200 | -
专注一个半小时，写第三章 | start | 5400 | 写第三章
我 外国人，请 专注 三十 分钟，学习中文 | start | 1800 | 学习中文
开播前先来个十五分钟专注，做直播封面 | start | 900 | 做直播封面
帮我计时一小时，我练琴 | start | 3600 | 练琴
开一个两小时的专注，写基金申请书 | start | 7200 | 写基金申请书
专注：10分钟 | start | 600 | -
专注24小时 | start | 86400 | -
复习药理学，专注35分钟 | start | 2100 | 复习药理学
来个番茄钟，二十五分钟 | start | 1500 | -
休息还剩一个小时，先专注四十五分钟整理行车记录 | start | 2700 | 整理行车记录
实验记录本，专注1小时 | start | 3600 | 实验记录本
专注半小时就行，不用写内容 | start | 1800 | -
我们专注九十分钟写文献综述吧 | start | 5400 | 写文献综述
开个5分钟的专注 | start | 300 | -
我要备课，开个专注四十分钟 | start | 2400 | 备课
重构登录模块，专注55分钟 | start | 3300 | 重构登录模块
focus 1.5小时 | start | 5400 | -
帮我开个专注12分钟 谢啦 | start | 720 | -
專注兩個小時，讀論文 | start | 7200 | 讀論文
陪孙子写拼音作业，专注二十分钟 | start | 1200 | 陪孙子写拼音作业
报税，专注三个小时 | start | 10800 | 报税
专注8分钟，收拾工作台 | start | 480 | 收拾工作台
一刻鐘專注，回郵件 | start | 900 | 回郵件
🍅 25分钟 写代码 | start | 1500 | 写代码
专注三十分钟做PPT 🙏 | start | 1800 | 做PPT
论文两个半小时，现在开始专注 | start | 9000 | 论文
开一个45分钟的专注：核对处方 | start | 2700 | 核对处方
能不能开个十分钟的专注？回一下消息 | start | 600 | 回一下消息
打磨柜门，专注五十分钟 | start | 3000 | 打磨柜门
专注一小时，呃，还是四十五分钟吧，看论文 | start | 2700 | 看论文
我休息半小时，先专注二十分钟排班 | start | 1200 | 排班
背单词 25 min | start | 1500 | 背单词
開始專注四十分鐘 | start | 2400 | -
专住二十分钟，写周报 | start | 1200 | 写周报
给孙女出个乘法口算，十分钟 | quiz | 600 | multiplication
乘法侧验5分钟 | quiz | 300 | multiplication
来个三分钟的加法小测 | quiz | 180 | addition
减法练习 一刻钟 | quiz | 900 | subtraction
麻烦开一个二十分钟的口算测验 | quiz | 1200 | mixed
心算测验半小时 | quiz | 1800 | mixed
考考我乘法，一刻钟 | quiz | 900 | multiplication
数学小测一小时 | quiz | 3600 | mixed
来九十秒的加法题 | quiz | 90 | addition
我孙子减法老出错，给他出十分钟的减法题吧 | quiz | 600 | subtraction
quiz 减法 7分钟 | quiz | 420 | subtraction
做个混合运算测验，12分钟 | quiz | 720 | mixed
我要 数学 测验 五 分钟，乘法 | quiz | 300 | multiplication
给直播间来个两分钟九九乘法表挑战 😂 | quiz | 120 | multiplication
您好！如果不麻烦的话，想请您帮我开一个四十分钟的加法测验，活动活动脑子，谢谢您！ | quiz | 2400 | addition
随便来个十分钟的算术测验 | quiz | 600 | mixed
乘法测验三刻钟 | quiz | 2700 | multiplication
开始测验 30秒 加法 | quiz | 30 | addition
能做个乘法测验吗？十五分钟 | quiz | 900 | multiplication
考我减法 六分钟 | quiz | 360 | subtraction
口算一个小时 开始 | quiz | 3600 | mixed
來個乘法測驗，十分鐘 | quiz | 600 | multiplication
出 10 min 的 addition quiz | quiz | 600 | addition
停 | stop
结束专注，我提前搞定了 | stop
取消测验 | stop
把计时器关了 | stop
停掉测验，专注继续 | stop
结束专注，测验别停 | stop
不好意思要登机了，把计时停掉 | stop
好了好了不做了 停吧 | stop
终止测验 | stop
今天就到这儿吧，麻烦帮我结束专注 | stop
這題目太難了，測驗結束吧 | stop
还剩多久？ | status
计时器还在走吗 | status
现在在跑什么 | status
测验还有几分钟？ | status
专注还剩多少时间 | status
我的专注结束了没 | status
请问这次专注大概还要多长时间？ | status
测验还在进行吗 | status
状态 | status
還剩幾分鐘 | status
现在有东西在运行吗？ | status
测验是怎么玩的？ | help
我今天上午专注了五十分钟，感觉不错 | help
先别开始 | help
如果我开了三十分钟专注，还能收消息吗？ | help
我同事刚开了个两小时的专注哈哈 | help
明天上班前我打算专注二十五分钟 | help
二十分钟后提醒我吃药 | help
定个早上六点的闹钟 | help
把“买胶水”记到笔记里 | help
考考我十分钟的历史题 | help
除法测验十分钟 | help
刚才测验我答对了27道！ | help
你好呀 👋 | help
太感谢了，辛苦了 | help
番茄工作法是什么？ | help
讲个笑话吧 | help
不不不，我不要测验 | help
我接个电话，能把计时暂停五分钟吗？ | help
下午三点帮我开个二十五分钟的专注 | help
你能出哪些题？ | help
学生们今天做了十五分钟的乘法测验 | help
专注九十分钟会不会太长了？ | help
7乘8等于几？ | help
上一轮我完全没专心，哈哈 | help
开个专注 | ask
来十五分钟 | ask
考考我乘法 | ask
帮我计个时 | ask
二十分钟？ | ask
我要做木工活，开始计时 | ask
来个数学测验吧 | ask
专注三十个小时 | range
两个小时的乘法测验 | range
开一个九十分钟的测验 | range
专注两天 | range
加法测验一小时十五分钟 | range
"""
